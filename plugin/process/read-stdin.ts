// Process edge: standard input read whole, no further than the input limit, and whether it is a terminal, for
// main.ts and run-in-process.ts. Read through node's stream by its 'data' and 'end' events (#37), and
// process.stdin made only where a run reads it.
import { fstatSync } from 'node:fs';

/**
 * All of standard input, or `undefined` once it has given more than `most` bytes: reading stops there (a pipe,
 * a FIFO or a file far over the input limit is not read to its end, #37), and no more than `most` bytes and the
 * chunk that passed them are ever held. Empty when it is a terminal (refuseTerminalStdin has said so before a
 * run gets here).
 * - Through process.stdin, whose reads wait on the event loop, so a SIGTERM is answered while the input has not
 *   ended (a read of fd 0 with fs.readSync blocks the thread, and one with fs.read holds a thread of libuv's pool
 *   that process.exit waits for: until the writer closes the pipe).
 * - By its events, not `for await`: the stream's async iterator costs about 7 M instructions of a 3-object render
 *   (#37). An error of the stream rejects, as the iterator did.
 * - Over `most`, the stream is destroyed: a paused pipe would keep the event loop, and the process, alive.
 * - The bytes are a Uint8Array of their own (not a view of node's shared pool), so they can move to the worker.
 */
export function readStdin(most: number): Promise<Uint8Array | undefined> {
  if (isStdinTerminal()) return Promise.resolve(new Uint8Array());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= most) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      process.stdin.off('data', take).off('end', end).destroy();
      resolve(undefined);
    };
    const end = (): void => {
      // The listener stays on process.stdin, which lives as long as the process: without it the chunks, a second
      // copy of the input, can go at the next collection (#37).
      process.stdin.off('data', take);
      resolve(joined(chunks, size));
      chunks.length = 0;
    };
    process.stdin.on('data', take).once('end', end).once('error', reject);
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
