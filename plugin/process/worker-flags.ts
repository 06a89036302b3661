// Process edge: what V8 is told before the worker of a large run starts (#37). main.ts sets these; they are here,
// apart, so a test can read them without starting the CLI.

/**
 * V8 flags set before the worker of a large run starts (an input read and found over the size gate), for the
 * worker's isolate: V8 reads them as an isolate is set up, so this thread's isolate keeps its own (#37).
 * - `--no-concurrent-recompilation`: the worker compiles its optimized code itself instead of handing it to a
 *   helper thread while it runs on unoptimized code. Measured on the 10k stream (`stamp -`, callgrind, whole
 *   process) 9,476 -> 8,606 M instructions; the 50k `stamp -` with it about 10 % less CPU, wall time within
 *   the noise, about a fifth fewer context switches (docs/performance.md, "The process around a large run").
 * Not for `refresh`, nor a kustomize or helm render (admitted before its size is known), nor small runs, which
 * are not measured with it.
 */
export const LARGE_RUN_V8_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];
