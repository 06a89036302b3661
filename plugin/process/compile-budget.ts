// Process edge: how much V8's optimizing compiler may inline into one function, set before a run's worker starts
// (#37). A render is a short program over a large input: a 10k-object `stamp -` spent about two fifths of its
// instructions in V8's optimizing compiler, much of it on inlined callees, and most optimized code runs a few
// seconds at most before the process ends. main.ts sets these; they are here, apart, so a test reads them
// without starting the CLI.

/**
 * V8 flags set (v8.setFlagsFromString) before the worker of a run starts. The inlining budget is read by each
 * optimizing compile, so it applies to every compile after it: the worker's, and this thread's few later ones.
 * - `--max-inlined-bytecode-size-cumulative=230`: a quarter of V8's default (920), small callees still inlined.
 *   Measured on the bench's 10k stream (`stamp -`, callgrind, `node --single-threaded`, whole process): 8,749 ->
 *   7,116 M instructions (no inlining at all: 7,124 M; half the default: 7,680 M). docs/performance.md, "A render's
 *   compile budget", has the times.
 * Not for `refresh`, a controller that runs for days, whose code is compiled once and runs long.
 * An operator's own inlining flags on node's command line win: none is set then (workerCompileFlags).
 */
export const WORKER_COMPILE_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=230'];

/**
 * The flags to set before a worker starts: WORKER_COMPILE_FLAGS, or none for a long-running command (`refresh`)
 * or when node's own flags (NODE_OPTIONS, then the command line) already say something about inlining.
 */
export function workerCompileFlags(longRunning: boolean, nodeFlags: readonly string[]): readonly string[] {
  return longRunning || nodeFlags.some((arg) => INLINING_FLAG.test(arg)) ? [] : WORKER_COMPILE_FLAGS;
}

const INLINING_FLAG = /^--(no[-_])?(turbo[-_]inlining|max[-_]inlined[-_])/;
