// The process edge: with run-in-process.ts, the only file that touches `process`. A run whose input passes the
// size gate (run-gate.ts) happens on this thread (#37: no second Node for an ordinary render); `refresh`, larger
// inputs and a render by kustomize or helm run in a worker thread (run-worker.ts), and this thread only owns the
// process (#21):
// - Out of heap: V8 aborts a process whose main thread reaches the heap limit, printing a native stack trace,
//   and no JavaScript runs first. A worker that reaches its limit is stopped by Node instead
//   (ERR_WORKER_OUT_OF_MEMORY), so here that is one line and exit 1, in every phase.
// - SIGTERM: this thread is idle while the worker reads, plans, hashes and writes (synchronous work a handler
//   in the same thread would wait for), so its handler runs at once in every phase: it kills the renderers'
//   process groups and exits 143 (Argo CD's cmp-server SIGTERMs at its deadline). A long-running command
//   (`refresh`) is asked to stop instead (SIGTERM or SIGINT): it releases what it holds and ends with its own
//   status, 0; if it has not ended within STOP_BUDGET_MS this thread ends the process with 0 itself (#34: a
//   Deployment's pod must stop within its grace period, and nothing it writes is left half done).
// Output is written here once, after the run succeeded, and flushed before exit (process.exit would cut a
// pipe); a SIGTERM while it is written waits for it (#12).
import { createRequire } from 'node:module';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import type { TransferListItem } from 'node:worker_threads';
import type { ToMain, ToWorker, WorkerStart } from './run-worker.ts';
import { runCompileFlags } from './process/compile-budget.ts';
import { snapshotCli } from './snapshot-cli.ts';
import { errorLine, outOfMemoryLine } from './process/errors.ts';
import { isStdinTerminal, readStdin } from './process/read-stdin.ts';

/**
 * The reader of stdout went away (`rollstamp stamp big.yaml | head -1`): nothing more can be written, and
 * this is no error of ours to report. End at once with the status a process killed by SIGPIPE has (128+13),
 * as `yes | head` does, so a shell with pipefail still sees the output was cut.
 */
const SIGPIPE_STATUS = 141;
const MIB = 1024 * 1024;
/** How long a long-running command may take to stop after SIGTERM (the promise is 5 s). */
const STOP_BUDGET_MS = 4000;
/**
 * The worker's young generation (V8's semi-spaces and new large objects), in MiB. V8's default for this heap was
 * 48 (two 16 MiB semi-spaces, both committed at the peak); a run keeps nearly all it reads until it writes,
 * so a bigger nursery only copies the same objects more times before they are promoted. Measured (#37,
 * /usr/bin/time, three interleaved runs, 2 shared cores): `stamp -` at 50k objects peak RSS 289-290 -> 267-268
 * MiB, `fn` 402-406 -> 387-388 MiB, at 10k 146 -> 123-124 and 163-165 -> 142-144 MiB, CPU within noise.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * Appended to the worker's process.argv (Worker's `argv`), so a thread can tell it may be the run's worker without
 * loading node:worker_threads, which a run on the main thread does not need (#37: about 9 M instructions).
 */
const WORKER_MARK = '--rollstamp-run-worker';

const isEpipe = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';

// No top-level await: the image's startup snapshot (snapshot-entry.ts) bundles this module as CommonJS (#37).
if (isRunWorker()) void import('./run-worker.ts').then((w) => w.runWorker());
else void runMainThread();

/** The main thread's run: `argv` here behind the size gate, or in a worker. */
async function runMainThread(): Promise<void> {
  process.stdout.on('error', (err) => {
    if (isEpipe(err)) process.exit(SIGPIPE_STATUS);
    throw err;
  });
  const argv = process.argv.slice(2);
  // `rollstamp --version` alone is answered before this module loads (launch.ts, the bundle's entry).
  const cli = await import('./cli/run-cli.ts');
  if (cli.runsInWorker(argv)) await supervise(cli.isLongRunning(argv));
  else await runHereOrInWorker(argv, cli.isLongRunning(argv));
}

/** Whether this is the run's worker thread: the mark in argv, which a user could type too, and then node's word. */
function isRunWorker(): boolean {
  return process.argv.includes(WORKER_MARK) && !workerThreads().isMainThread;
}

/**
 * node:worker_threads, loaded when first asked for, and by require: the image's startup snapshot runs this module
 * as CommonJS, where a dynamic import has no loader to call (#37).
 */
function workerThreads(): typeof import('node:worker_threads') {
  return createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
}

/**
 * #37: runs `argv` on this thread when its input passes the size gate (run-gate.ts); otherwise the run starts
 * again in its worker, with the standard input already read.
 */
async function runHereOrInWorker(argv: readonly string[], longRunning: boolean): Promise<void> {
  const { runInProcess } = await import('./run-in-process.ts');
  // Before the run's first optimizing compile (compile-budget.ts); a worker keeps it only for an input read and
  // found large, below. Not for this thread in a process started from the image's startup snapshot, whose code was
  // compiled when the blob was made: a flag set there cost its renders more than it saved (measured).
  const budget = runCompileFlags(longRunning, nodeFlags());
  const here = snapshotCli() === undefined;
  if (here) setCompileFlags(budget.set, argv);
  const handover = await runInProcess(argv, { killGroups, readStdin, isEpipe, sigpipeStatus: SIGPIPE_STATUS });
  if (handover.large && !here) setCompileFlags(budget.set, argv);
  if (!handover.large && here) setCompileFlags(budget.unset, argv);
  if (argv.includes('--debug')) process.stderr.write(`rollstamp: debug: run in a worker thread (${handover.inputBytes} bytes of input: over what the main thread takes)\n`);
  await supervise(longRunning, handover.stdin);
}

/**
 * Runs the CLI in a worker thread. `longRunning`: the command runs until stopped (refresh; cli.ts's
 * isLongRunning); `stdin`: standard input already read by a run on this thread.
 */
async function supervise(longRunning: boolean, stdin?: Uint8Array): Promise<void> {
  const heapMb = oldSpaceMb();
  const start: WorkerStart = { argv: process.argv.slice(2), env: { ...process.env }, cwd: process.cwd(), stdinIsTTY: isStdinTerminal() };
  const { Worker } = workerThreads();
  const young = youngGenerationMb();
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, ...(young !== undefined ? { maxYoungGenerationSizeMb: young } : {}) };
  const worker = new Worker(new URL(import.meta.url), { workerData: start, argv: [WORKER_MARK], resourceLimits, stdin: false });
  const groups = new Set<number>();
  let writing = false;
  let termPending = false;
  let finished = false;
  /**
   * A part of the output came to be written: running out of heap after it leaves stdout cut short. Node delivers a
   * dying worker's queued messages before its 'error' (lib/internal/worker.js, `[kOnExit]` drains both ports first),
   * so a part the worker handed on is seen here before the out-of-memory error is.
   */
  let partWritten = false;

  let terminating = false;
  const terminate = async (when: string): Promise<void> => {
    if (terminating) return; // a second SIGTERM while the groups are being killed
    terminating = true;
    await killGroups(groups);
    process.stderr.write(`rollstamp: terminated (SIGTERM)${when}\n`);
    process.exit(143);
  };
  const send = (m: ToWorker, transfer: TransferListItem[] = []): void => worker.postMessage(m, transfer);
  if (longRunning) {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      send({ kind: 'stop' });
      const late = setTimeout(() => {
        process.stderr.write(`rollstamp: stopped (${signal}) before the command finished stopping by itself\n`);
        process.exit(0);
      }, STOP_BUDGET_MS);
      late.unref();
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  } else {
    process.on('SIGTERM', () => {
      if (writing) termPending = true; // the output must not be cut short: end once it is written
      else void terminate('');
    });
  }

  worker.on('message', (m: ToMain) => {
    switch (m.kind) {
      case 'stderr':
        process.stderr.write(m.text);
        break;
      case 'child':
        if (m.running) groups.add(m.pid);
        else groups.delete(m.pid);
        break;
      case 'stdin':
        // Moved, not copied: at 50k objects a copy of the input is 23 MiB more at the peak.
        void (stdin ? Promise.resolve(stdin) : readStdin(m.most)).then(async (bytes) => {
          send({ kind: 'stdin', ...(bytes ? { bytes } : {}) }, bytes && ownsBuffer(bytes) ? [bytes.buffer as ArrayBuffer] : []);
          // This thread is idle from here on, so nothing else would collect the chunks standard input came in.
          (await import('./process/collect-garbage.ts')).collectGarbage();
        });
        break;
      case 'stdout':
        writing = true;
        partWritten = true;
        process.stdout.write(m.bytes, (err) => {
          if (err && isEpipe(err)) process.exit(SIGPIPE_STATUS);
          // A part with more to come: still writing, so a SIGTERM now waits for the last part too.
          if (m.more && !err) return send({ kind: 'written', bytes: m.bytes }, [m.bytes.buffer as ArrayBuffer]);
          writing = false;
          if (termPending) void terminate(' after the output was written');
          else if (err) {
            process.stderr.write(errorLine(`cannot write the output (${(err as NodeJS.ErrnoException).code ?? err.name})`));
            process.exit(1);
          } else send({ kind: 'written' });
        });
        break;
      case 'done':
        // Every write was answered before `done`: nothing is left for the worker (a keep-alive socket of a
        // live read must not hold the process open).
        finished = true;
        process.exitCode = m.exitCode;
        void worker.terminate();
        break;
    }
  });
  worker.on('error', (err: NodeJS.ErrnoException) => {
    finished = true;
    void killGroups(groups).then(() => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        process.stderr.write(outOfMemoryLine(heapMb, partWritten));
      } else {
        process.stderr.write(errorLine(`internal error (${err.name ?? 'unknown'}); rerun with --debug for details`));
        if (process.argv.includes('--debug')) process.stderr.write(`${err.stack ?? String(err)}\n`);
      }
      process.exit(1);
    });
  });
  worker.on('exit', () => {
    if (!finished) {
      process.stderr.write(errorLine('internal error (the run ended without a result)'));
      process.exitCode = 1;
    }
  });
}

/**
 * The worker's young generation: WORKER_YOUNG_GENERATION_MB, unless the operator sized it (`--max-semi-space-size`
 * in node's flags or NODE_OPTIONS), which then applies as node reads it.
 */
function youngGenerationMb(): number | undefined {
  const given = nodeFlags().some((arg) => /^--max[-_]semi[-_]space[-_]size=/.test(arg));
  return given ? undefined : WORKER_YOUNG_GENERATION_MB;
}

/**
 * The worker's old-generation limit: the operator's `--max-old-space-size` (node's flags or NODE_OPTIONS,
 * the last one winning, as node reads them), else this process's whole heap limit (V8's default for the
 * machine). The worker gets what the process was given, not that on top of it.
 */
function oldSpaceMb(): number {
  let mb: number | undefined;
  for (const arg of nodeFlags()) {
    const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(arg);
    if (m) mb = Number(m[1]);
  }
  return mb !== undefined && mb > 0 ? mb : Math.floor(getHeapStatistics().heap_size_limit / MIB);
}

/** Sets V8 flags (compile-budget.ts), saying so under --debug. */
function setCompileFlags(flags: readonly string[], argv: readonly string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
  if (flags.length > 0 && argv.includes('--debug')) process.stderr.write(`rollstamp: debug: V8 compiles with ${flags.join(' ')} from here on\n`);
}

/** node's flags as node reads them: NODE_OPTIONS first, then the command line's (a later one wins). */
function nodeFlags(): string[] {
  return [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv];
}

/** Whether `bytes` is the whole of its ArrayBuffer, so the buffer can be moved to the other thread. */
function ownsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
}

/**
 * Ends every renderer's process group: SIGTERM, then SIGKILL for a group still there after 500 ms. A
 * renderer runs in its own group (exec.ts), so the cmp-server's kill of our group would not reach it.
 */
async function killGroups(groups: ReadonlySet<number>): Promise<void> {
  const signal = (pid: number, sig: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false; // gone
    }
  };
  const live = [...groups].filter((pid) => signal(pid, 'SIGTERM'));
  for (let waited = 0; waited < 500 && live.some((pid) => signal(pid, 0)); waited += 25) await new Promise((r) => setTimeout(r, 25));
  for (const pid of live) signal(pid, 'SIGKILL');
}
