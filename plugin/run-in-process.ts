// Process edge: one CLI run on the process's own thread (#37), for inputs the size gate (run-gate.ts) admits.
// It keeps the worker's promises (#21) within the gate's bounds: SIGTERM kills the children's groups and exits 143
// (at once while the run waits; within the gate's time bound while it computes), a SIGTERM during the write of
// the output lets it finish, and nothing reaches stdout before the run succeeded. An input over the gate gives
// the run up before it is parsed; main.ts then starts it again in a worker, with the standard input already read.
import { getHeapStatistics } from 'node:v8';
import { runCli } from './cli/run-cli.ts';
import { errorLine } from './process/errors.ts';
import { onChild } from './process/exec.ts';
import type { Io } from './process/io.ts';
import { isStdinTerminal } from './process/read-stdin.ts';
import { reportError } from './process/report-error.ts';
import { heapHeadroom, inProcessLimit, RunsInWorker } from './run-gate.ts';

/** How a run on this thread ended: it exits the process itself, or hands over to a worker. */
export interface Handover {
  /** Standard input as read so far (read once: the worker gets these bytes). */
  stdin?: Uint8Array;
  inputBytes: number;
  /** The input was read and is over the gate (not a renderer admitted for the most it may print): a large run. */
  large: boolean;
}

/** What main.ts lends the run: how the process ends on SIGTERM and after a cut pipe. */
export interface ProcessEnds {
  /** Kills the renderers' process groups (main.ts's killGroups). */
  killGroups(groups: ReadonlySet<number>): Promise<void>;
  readStdin(most: number): Promise<Uint8Array | undefined>;
  isEpipe(err: unknown): boolean;
  sigpipeStatus: number;
}

/**
 * Runs `argv` here and ends the process with its exit status, or returns a Handover when the input is over the
 * gate (nothing was written to stdout then, and stderr lines said before the input was read are held back, so
 * the worker's run says them once).
 */
export async function runInProcess(argv: readonly string[], ends: ProcessEnds): Promise<Handover> {
  const debug = argv.includes('--debug');
  const limit = inProcessLimit(getHeapStatistics().heap_size_limit, heapHeadroom(argv));
  const groups = new Set<number>();
  onChild((pid, running) => (running ? groups.add(pid) : groups.delete(pid)));
  let admitted = 0;
  let held: string[] | undefined = [];
  let stdin: Uint8Array | undefined;
  let writing = false;
  let termPending = false;
  let terminating = false;
  const say = (text: string): void => {
    if (held) held.push(text);
    else process.stderr.write(text);
  };
  const terminate = async (when: string): Promise<void> => {
    if (terminating) return;
    terminating = true;
    await ends.killGroups(groups);
    process.stderr.write(`${held?.join('') ?? ''}rollstamp: terminated (SIGTERM)${when}\n`);
    process.exit(143);
  };
  const onTerm = (): void => {
    if (writing) termPending = true; // the output must not be cut short: end once it is written
    else void terminate('');
  };
  process.on('SIGTERM', onTerm);
  // An error thrown outside the run's promises (a socket's) is a bug, said in one line as the worker's is.
  const onUncaught = (err: Error): void => {
    void ends.killGroups(groups).then(() => {
      process.stderr.write(`${held?.join('') ?? ''}${errorLine(`internal error (${err.name ?? 'unknown'}); rerun with --debug for details`)}`);
      if (debug) process.stderr.write(`${err.stack ?? String(err)}\n`);
      process.exit(1);
    });
  };
  process.on('uncaughtException', onUncaught);
  const io: Io = {
    async readStdin(most) {
      stdin = await ends.readStdin(most);
      return stdin;
    },
    async writeStdout(text) {
      // A SIGTERM that came while the run computed is answered here, before a byte is written.
      await passPoll();
      if (terminating) return new Promise<void>(() => {});
      writing = true;
      return new Promise<void>((resolve) => {
        // Joined here: this thread's input is small (run-gate.ts), and one write is one system call to a pipe.
        process.stdout.write(typeof text === 'string' ? text : Array.from(text).join(''), (err) => {
          writing = false;
          if (err && ends.isEpipe(err)) process.exit(ends.sigpipeStatus);
          if (termPending) void terminate(' after the output was written');
          else if (err) {
            process.stderr.write(errorLine(`cannot write the output (${(err as NodeJS.ErrnoException).code ?? err.name})`));
            process.exit(1);
          } else resolve();
        });
      });
    },
    writeStderr: say,
    ...(debug ? { trace: (phase: string) => say(`rollstamp: debug: ${phase}\n`) } : {}),
    stdinIsTTY: isStdinTerminal(),
    env: process.env,
    cwd: process.cwd(),
    admit(bytes, bound) {
      admitted += bytes;
      if (admitted > limit) throw new RunsInWorker(admitted, bound === undefined);
      if (!held) return;
      const lines = held;
      held = undefined;
      if (debug) lines.push(`rollstamp: debug: run on the main thread (${admitted} bytes of input; up to ${limit} here)\n`);
      process.stderr.write(lines.join(''));
    },
  };
  let exitCode: number;
  try {
    exitCode = await runCli(argv, io);
  } catch (err) {
    if (err instanceof RunsInWorker) {
      process.off('SIGTERM', onTerm);
      process.off('uncaughtException', onUncaught);
      onChild(() => {});
      return { ...(stdin ? { stdin } : {}), inputBytes: err.inputBytes, large: err.read };
    }
    exitCode = await reportError(err, debug, io);
  }
  if (held) process.stderr.write(held.join(''));
  // Every write was answered: nothing is left to wait for (a keep-alive socket of a live read must not hold the
  // process open), and stdout and stderr to a pipe or file are written synchronously.
  process.exit(exitCode);
}

/**
 * Resolves after the event loop has polled once, which is when a signal that arrived meanwhile is emitted: the
 * first immediate may run in the same turn as the callback that queued it (the poll phase comes before the
 * immediates), the second runs only after the next poll.
 */
async function passPoll(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
