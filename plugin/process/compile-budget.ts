// Process edge: how much V8's optimizing compiler may inline into one function during a run (#37). A render is a
// short program over its input: a 10k-object `stamp -` spent about two fifths of its instructions in V8's
// optimizing compiler, much of it on inlined callees, and its optimized code runs a few seconds at most before
// the process ends. main.ts sets these; they are here, apart, so a test reads them without starting the CLI.

/**
 * V8 flags main.ts sets (v8.setFlagsFromString) before a run's first optimizing compile, and the same flags at
 * V8's defaults, which it sets back before a worker starts for a run that is not large. V8's flags are the
 * process's, each optimizing compile reads the inlining budget, and a worker started while a flag differs from
 * its default costs about 30–50 M instructions more to start, measured on node 20 and 24 (likely node's built-in
 * snapshot for it, checked against V8's flags): against a large run's gain, nothing; against a small kustomize or
 * helm render, which moves to the worker before its size is known, 6 %.
 * - `--max-inlined-bytecode-size-cumulative=230`: a quarter of V8's default (920, node 20 to 24), small callees
 *   still inlined. Measured (callgrind, `node --single-threaded`, whole process, M instructions): the bench's 10k
 *   stream (`stamp -`, in the worker) 8,749 -> 7,116; its 300-object stream (on the main thread) 1,389 -> 1,311;
 *   three objects the same; on Node 24 no gain (Maglev), and from the image's startup snapshot a loss on the main
 *   thread, where main.ts leaves it unset. docs/performance.md, "A render's compile budget", has the times.
 */
export const RUN_COMPILE_FLAGS = { set: ['--max-inlined-bytecode-size-cumulative=230'], unset: ['--max-inlined-bytecode-size-cumulative=920'] } as const;

/**
 * The flags for a run: RUN_COMPILE_FLAGS, or none for a long-running command (`refresh`, a controller whose code
 * runs for days) or when node's own flags (NODE_OPTIONS, then the command line) already say something about
 * inlining: the operator's flags win.
 */
export function runCompileFlags(longRunning: boolean, nodeFlags: readonly string[]): { set: readonly string[]; unset: readonly string[] } {
  return longRunning || nodeFlags.some((arg) => INLINING_FLAG.test(arg)) ? NONE : RUN_COMPILE_FLAGS;
}

const NONE = { set: [], unset: [] } as const;
const INLINING_FLAG = /^--(no[-_])?(turbo[-_]inlining|max[-_]inlined[-_])/;
