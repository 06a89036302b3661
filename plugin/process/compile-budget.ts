// Process edge: how much V8's optimizing compiler may inline into one function during a run (#37). A render is a
// short program over its input: a 10k-object `stamp -` spent about two fifths of its instructions in V8's
// optimizing compiler, much of it on inlined callees, and its optimized code runs a few seconds at most before
// the process ends. main.ts sets these; they are here, apart, so a test reads them without starting the CLI.

/**
 * V8 flags main.ts sets (v8.setFlagsFromString) once it knows the command, before the run's first optimizing
 * compile. V8's flags are the process's, and each optimizing compile reads the inlining budget, so they apply to
 * the run on the main thread and to its worker alike.
 * - `--max-inlined-bytecode-size-cumulative=230`: a quarter of V8's default (920), small callees still inlined.
 *   Measured (callgrind, `node --single-threaded`, whole process, M instructions): the bench's 10k stream
 *   (`stamp -`, in the worker) 8,749 -> 7,116; its 300-object stream (on the main thread) 1,389 -> 1,311; three
 *   objects the same. docs/performance.md, "A render's compile budget", has the times.
 * Not for `refresh`, a controller that runs for days, whose code is compiled once and runs long.
 * An operator's own inlining flags on node's command line win: none is set then (runCompileFlags).
 */
export const RUN_COMPILE_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=230'];

/**
 * The flags to set for a run: RUN_COMPILE_FLAGS, or none for a long-running command (`refresh`) or when node's
 * own flags (NODE_OPTIONS, then the command line) already say something about inlining.
 */
export function runCompileFlags(longRunning: boolean, nodeFlags: readonly string[]): readonly string[] {
  return longRunning || nodeFlags.some((arg) => INLINING_FLAG.test(arg)) ? [] : RUN_COMPILE_FLAGS;
}

const INLINING_FLAG = /^--(no[-_])?(turbo[-_]inlining|max[-_]inlined[-_])/;
