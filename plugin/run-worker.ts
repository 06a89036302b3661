// Process edge, the worker side: one CLI run in the worker thread main.ts starts (#21). Standard input,
// standard output and standard error are main.ts's, reached by messages; so are the renderers' process
// groups, which main.ts kills on SIGTERM. Errors become one line here, as they always have.
import { parentPort, type TransferListItem, workerData } from 'node:worker_threads';
import { runCli } from './cli/run-cli.ts';
import { onChild } from './process/exec.ts';
import type { Io } from './process/io.ts';
import { reportError } from './process/report-error.ts';

const utf8 = new TextEncoder();

/** What main.ts hands the worker. */
export interface WorkerStart {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdinIsTTY: boolean;
}

/** Worker → main.ts. */
export type ToMain =
  | { kind: 'stdout'; bytes: Uint8Array }
  | { kind: 'stderr'; text: string }
  | { kind: 'stdin' }
  | { kind: 'child'; pid: number; running: boolean }
  | { kind: 'done'; exitCode: number };

/** main.ts → worker: the answer to `stdout` (written) and to `stdin` (all of it); `stop` asks a long-running command to end. */
export type ToWorker = { kind: 'written' } | { kind: 'stdin'; bytes: Uint8Array } | { kind: 'stop' };

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
    async readStdin() {
      const reply = answer('stdin');
      post({ kind: 'stdin' });
      return (await reply).bytes;
    },
    async writeStdout(text) {
      const reply = answer('written');
      // Encoded here and moved, not copied: main.ts writes the bytes as they are.
      const bytes = utf8.encode(text);
      post({ kind: 'stdout', bytes }, [bytes.buffer]);
      await reply;
    },
    writeStderr: (text) => post({ kind: 'stderr', text }),
    ...(start.argv.includes('--debug') ? { trace: (phase: string) => post({ kind: 'stderr', text: `rollstamp: debug: ${phase}\n` }) } : {}),
    stdinIsTTY: start.stdinIsTTY,
    env: start.env,
    cwd: start.cwd,
    signal: stop.signal,
  };
  let exitCode: number;
  try {
    exitCode = await runCli(start.argv, io);
  } catch (err) {
    exitCode = await reportError(err, start.argv.includes('--debug'), io);
  }
  post({ kind: 'done', exitCode });
}
