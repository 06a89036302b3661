// Process edge: the size gate that decides where a run happens (#37). Small inputs run on the process's own
// thread, which saves booting a second Node for the run's worker; large ones keep the worker (#21), whose out of
// heap is one line and whose SIGTERM is answered at once. Pure: the caller gives the sizes.
import { findCommand } from './commands/index.ts';

const MIB = 1024 * 1024;

/**
 * The most input a run takes on the process's own thread: 256 KiB.
 * - SIGTERM: on the process's thread the handler runs only between synchronous steps, and parsing, planning,
 *   hashing and writing an input are one step each. At this size the slowest input known (one ConfigMap of keys
 *   behind an anchor, read by the yaml library) takes about half a second of CPU time in all, well inside the
 *   promise of 2 s (SECURITY.md "It stops when told"); rendered manifests of this size take a tenth of that.
 * - A render of 300 objects is 140 to 150 KB (the bench's synthetic and real-shape streams); a kagent install
 *   rendered by its Helm chart 145 KB.
 */
export const IN_PROCESS_MAX_BYTES = 256 * 1024;

/**
 * Heap a run may need per input byte, and on top of any input: out of heap on the process's own thread is V8's
 * abort with a native stack, not one line, so the gate leaves room for the worst input known rather than the
 * usual one. The yaml library reading keys behind an anchor holds about 100 bytes of heap per input byte (the
 * subset reader about 8).
 */
export const HEAP_PER_INPUT_BYTE = 128;
/** What any run needs besides its input: 64 MiB. */
export const HEAP_HEADROOM_BYTES = 64 * MIB;
/**
 * What `explain` and `diff` need besides their input: 256 MiB. Their per-target key rows grow up to
 * ROLLSTAMP_MAX_KEY_WORK (500,000 by default) from an input of 100 KB, and diff has two renders: at that budget
 * diff needs between 96 and 128 MiB of old space, explain between 64 and 80.
 */
export const REPORT_HEAP_HEADROOM_BYTES = 256 * MIB;

/** The headroom of the command `argv` runs (its first argument, --debug aside): more for a record with `keyRows`. */
export function heapHeadroom(argv: readonly string[]): number {
  const first = argv.find((a) => a !== '--debug');
  return first !== undefined && findCommand(first)?.keyRows === true ? REPORT_HEAP_HEADROOM_BYTES : HEAP_HEADROOM_BYTES;
}

/**
 * The most input (bytes, all inputs together) a run takes on the process's own thread under a heap of
 * `heapLimitBytes` (V8's `heap_size_limit`, which `--max-old-space-size` sets): IN_PROCESS_MAX_BYTES, or less
 * so that `bytes × HEAP_PER_INPUT_BYTE + headroomBytes` stays under the heap limit; negative when no input
 * fits (`--max-old-space-size=16`: every run then has its worker).
 */
export function inProcessLimit(heapLimitBytes: number, headroomBytes: number): number {
  return Math.min(IN_PROCESS_MAX_BYTES, Math.ceil((heapLimitBytes - headroomBytes) / HEAP_PER_INPUT_BYTE) - 1);
}

/** Thrown from Io.admit when the input outgrows the gate: the run is given up and started again in a worker. */
export class RunsInWorker extends Error {
  /** `read`: the input was read and is that large (not a renderer's bound admitted before it ran). */
  constructor(
    readonly inputBytes: number,
    readonly read = true,
  ) {
    super(`${inputBytes} bytes of input: run in a worker`);
    this.name = 'RunsInWorker';
  }
}
