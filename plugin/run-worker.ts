// Process edge, the worker side: one CLI run in the worker thread main.ts starts (#21). Standard input,
// standard output and standard error are main.ts's, reached by messages; so are the renderers' process
// groups, which main.ts kills on SIGTERM. Errors become one line here, as they always have.
import { parentPort, type TransferListItem, workerData } from 'node:worker_threads';
import { runCli } from './cli/run-cli.ts';
import { collectGarbage } from './process/collect-garbage.ts';
import { onChild } from './process/exec.ts';
import { handInParts } from './process/output-parts.ts';
import type { Io } from './process/io.ts';
import { reportError } from './process/report-error.ts';

/** What main.ts hands the worker. */
export interface WorkerStart {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdinIsTTY: boolean;
}

/** Worker → main.ts. */
export type ToMain =
  /** Part of the output; `more`: further parts follow, and the output is not written until the last one is. */
  | { kind: 'stdout'; bytes: Uint8Array; more?: boolean }
  | { kind: 'stderr'; text: string }
  /** Standard input is wanted, no further than `most` bytes (what is left of the input limit). */
  | { kind: 'stdin'; most: number }
  | { kind: 'child'; pid: number; running: boolean }
  | { kind: 'done'; exitCode: number };

/**
 * main.ts → worker: the answer to `stdout` (written: a part with more to come gives its buffer back) and to `stdin` (all
 * of it, or no bytes when it held more than `most`); `stop` asks a long-running command to end.
 */
export type ToWorker = { kind: 'written'; bytes?: Uint8Array } | { kind: 'stdin'; bytes?: Uint8Array } | { kind: 'stop' };

/**
 * Runs the CLI with `workerData` (a WorkerStart) and posts `done` with the exit status.
 * - An error ends the run as report-error.ts says: one line and its exit code.
 */
export async function runWorker(): Promise<void> {
  const port = parentPort!;
  const start = workerData as WorkerStart;
  const post = (m: ToMain, transfer: TransferListItem[] = []): void => port.postMessage(m, transfer);
  const answer = <K extends ToWorker['kind']>(kind: K): Promise<Extract<ToWorker, { kind: K }>> =>
    new Promise((resolve) => {
      const on = (m: ToWorker): void => {
        if (m.kind !== kind) return;
        port.off('message', on);
        resolve(m as Extract<ToWorker, { kind: K }>);
      };
      port.on('message', on);
    });
  onChild((pid, running) => post({ kind: 'child', pid, running }));
  const stop = new AbortController();
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'stop') stop.abort();
  });
  const io: Io = {
    async readStdin(most) {
      const reply = answer('stdin');
      post({ kind: 'stdin', most });
      const { bytes } = await reply;
      // Resolved inside the port's message callback, whose native handle scope holds the message until the
      // callback returns: a run that went on from here would keep the raw input alive beside its text to the
      // end (24 MB at 50k objects, #37). Going on from the next turn lets the bytes go once decoded.
      await new Promise((resolve) => setImmediate(resolve));
      return bytes;
    },
    async writeStdout(text) {
      // Each part moves to main.ts to be written and its buffer comes back with `written` (process/output-parts.ts).
      await handInParts(text, async (bytes, buffer, more) => {
        const reply = answer('written');
        post({ kind: 'stdout', bytes, ...(more ? { more: true } : {}) }, [buffer]);
        const back = (await reply).bytes?.buffer;
        return back instanceof ArrayBuffer ? back : undefined;
      });
    },
    writeStderr: (text) => post({ kind: 'stderr', text }),
    ...(start.argv.includes('--debug') ? { trace: (phase: string) => post({ kind: 'stderr', text: `rollstamp: debug: ${phase}\n` }) } : {}),
    stdinIsTTY: start.stdinIsTTY,
    env: start.env,
    cwd: start.cwd,
    signal: stop.signal,
    // The worker runs the inputs too large for the process's own thread: where a run lets go of its plan, the
    // collection keeps the heap from growing on over it (#37).
    collectGarbage,
  };
  let exitCode: number;
  try {
    exitCode = await runCli(start.argv, io);
  } catch (err) {
    exitCode = await reportError(err, start.argv.includes('--debug'), io);
  }
  post({ kind: 'done', exitCode });
}
