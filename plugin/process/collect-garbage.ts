// Process edge: a full garbage collection when a worker's run asks for one (Io.collectGarbage, #37), where it has
// just let go of most of its heap. V8 collects the old generation only once it reaches a limit set at the last
// collection, a multiple of what was alive then; a run keeps nearly all it reads until it applies its plan, so
// that limit was set while the plan was alive, and what the run let go of afterwards stayed in the heap, and in
// the process's peak RSS, while the output was made and written.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Collects the garbage of this thread's heap, at once (tens of milliseconds for a heap of 50,000 objects' run).
 * - V8 gives its `gc` function to a context made while `--expose-gc` is set: one context is made for it, and the
 *   flag is set back, so no other context (and no user code) sees a `gc`. Node documents setting V8's flags at
 *   run time as unsupported in general; this one only decides what a new context is given.
 * - Called where a run lets go of most of its heap, on the run's worker thread only (a run on the process's own
 *   thread is small, run-gate.ts, and a collection there would cost more than it frees), and once by the main
 *   thread when it has moved a large input to the worker and has nothing left to do that would collect the chunks
 *   standard input came in (main.ts).
 * - The flag is the process's, and both threads set it and set it back: when the other thread has set it back
 *   before this one's context is made, the context has no `gc` and this collection is skipped (it frees memory
 *   only; the output does not depend on it), to be tried again on the next call.
 */
export function collectGarbage(): void {
  collect ??= exposedGc();
  collect?.();
}

/**
 * V8's `gc`, from a context made while `--expose-gc` is set, or undefined when the flag was off again by the time
 * the context was made (another thread set it back). `setFlags`: V8's flag setter (a test stands in for the
 * other thread with its own).
 */
export function exposedGc(setFlags: (flags: string) => void = setFlagsFromString): (() => void) | undefined {
  setFlags('--expose-gc');
  try {
    return runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
  } finally {
    // A context made before (node's own, under `node --expose-gc`) keeps what it was given.
    setFlags('--no-expose-gc');
  }
}
