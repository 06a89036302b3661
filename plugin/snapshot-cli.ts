// The way in to a V8 startup snapshot of the CLI (#37): snapshot-entry.ts leaves a SnapshotCli on globalThis under
// SNAPSHOT_KEY when the blob is made; launch.ts, run by a process started from that blob, finds it there.

/** What the blob leaves for launch.ts. */
export interface SnapshotCli {
  /**
   * Runs the CLI as main.ts does (process.argv, stdin, stdout, exit status), from the blob's heap.
   * - `dir`: the install the blob was made in (dist/, the image's /app): its main.mjs is the worker thread's file.
   */
  start(dir: string): void;
}

/** Where on globalThis the blob keeps its SnapshotCli. */
export const SNAPSHOT_KEY: unique symbol = Symbol.for('rollstamp.snapshot');

/** The CLI the blob left, when this process was started from one; undefined otherwise (every other run). */
export function snapshotCli(): SnapshotCli | undefined {
  return (globalThis as Record<symbol, SnapshotCli | undefined>)[SNAPSHOT_KEY];
}
