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
 */
export function collectGarbage(): void {
  collect ??= exposedGc();
  collect();
}

function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    // A context made before (node's own, under `node --expose-gc`) keeps what it was given.
    setFlagsFromString('--no-expose-gc');
  }
}
