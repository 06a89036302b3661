// Process edge: standard input read whole, and whether it is a terminal, for main.ts and run-in-process.ts. Read
// through node's stream by its 'data' and 'end' events (#37), and process.stdin made only where a run reads it.
import { fstatSync, read } from 'node:fs';

/**
 * All of standard input; empty when it is a terminal (refuseTerminalStdin has said so before a run gets here).
 * - Through process.stdin, whose reads wait on the event loop, so a SIGTERM is answered while the input has not
 *   ended (a read of fd 0 with fs.readSync blocks the thread, and one with fs.read holds a thread of libuv's pool
 *   that process.exit waits for: until the writer closes the pipe).
 * - By its events, not `for await`: the stream's async iterator costs about 7 M instructions of a 3-object render
 *   (#37). An error of the stream rejects, as the iterator did.
 * - A regular file (`rollstamp stamp - < render.yaml`) is read straight into one buffer of its size (#37): through
 *   the stream it came in 64 KiB chunks, each a fresh allocation, then joined into a second copy; at 50,000
 *   objects (24 MB) that was about 12,000 of the run's 65,000 minor page faults and 48 MB of this thread's peak.
 *   A read of a regular file does not wait on a writer, so SIGTERM is still answered.
 * - The bytes are a Uint8Array of their own (not a view of node's shared pool), so they can move to the worker.
 */
export function readStdin(): Promise<Uint8Array> {
  if (isStdinTerminal()) return Promise.resolve(new Uint8Array());
  const size = regularFileSize();
  return size === undefined ? readStream() : readFile(size);
}

/** The size of standard input when it is a regular file, else undefined. */
function regularFileSize(): number | undefined {
  try {
    const info = fstatSync(0);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads fd 0, a regular file of `size` bytes, from where it stands to its end. It is read where it stands, as a
 * stream would (a shell may have read part of it already), and to its end even if it grew since fstat.
 */
function readFile(size: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let all = new Uint8Array(size);
    let filled = 0;
    // Into the buffer while it has room; once it is full, into a small one that says whether the file goes on.
    const next = (): void => {
      const full = filled === all.length;
      const into = full ? new Uint8Array(64 * 1024) : all;
      read(0, into, full ? 0 : filled, full ? into.length : all.length - filled, null, (err, n) => {
        if (err) return reject(err);
        if (n === 0) return resolve(filled === all.length ? all : all.slice(0, filled));
        if (full) {
          const grown = new Uint8Array(all.length * 2 + n);
          grown.set(all);
          grown.set(into.subarray(0, n), filled);
          all = grown;
        }
        filled += n;
        next();
      });
    };
    next();
  });
}

/** Reads standard input through node's stream (a pipe, a socket, a character device). */
function readStream(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
    };
    process.stdin
      .on('data', take)
      .once('end', () => {
        // The listener stays on process.stdin, which lives as long as the process: without it the chunks, a second
        // copy of the input, can go at the next collection (#37).
        process.stdin.off('data', take);
        resolve(joined(chunks, size));
        chunks.length = 0;
      })
      .once('error', reject);
  });
}

/**
 * Whether standard input is a terminal. Only a character device can be one: a pipe, a socket or a file is known
 * from fstat alone, without process.stdin, which makes a stream (and loads node:net for a pipe) when first read.
 */
export function isStdinTerminal(): boolean {
  let device: boolean;
  try {
    device = fstatSync(0).isCharacterDevice();
  } catch {
    return false; // no fd 0 to ask about: node reopens a closed one as /dev/null at start-up, so not a terminal
  }
  return device && process.stdin.isTTY === true;
}

function joined(chunks: readonly Buffer[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
