// Process edge: what V8 is told before the worker of a large run starts (#37). main.ts sets these; they are here,
// apart, so a test can read them without starting the CLI.

/**
 * V8 flags set before the worker of a large run starts (an input read and found over the size gate), for the
 * worker's isolate: V8 reads them as an isolate is set up, so this thread's isolate keeps its own (#37).
 * - `--no-concurrent-recompilation`: the worker compiles its optimized code itself instead of handing it to a
 *   helper thread while it runs on unoptimized code, and optimizes less often again (50k objects: 311 -> 267
 *   optimizing compiles, 75 -> 66 deopts). `stamp -` of 10k objects 9,476-9,640 -> 8,562 M instructions
 *   (callgrind, whole process), CPU 1.97 -> 1.81 s; wall time within the noise (docs/performance.md, "The process
 *   around a large run").
 * Not for `refresh`, nor a kustomize or helm render (admitted before its size is known), nor small runs, which
 * are not measured with it.
 */
export const LARGE_RUN_V8_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];
