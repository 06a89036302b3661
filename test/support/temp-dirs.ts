// The one temp-dir helper every tier uses: fresh directories under the OS temp dir, removed by
// `removeTempDirs` (a suite's `after` hook) or, whatever is left, when the test process exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
let removeAtExit = false;

/** A fresh directory `rollstamp-<prefix>-XXXXXX` under the OS temp dir. */
export function tempDir(prefix: string): string {
  if (!removeAtExit) {
    process.once('exit', removeTempDirs);
    removeAtExit = true;
  }
  const dir = mkdtempSync(join(tmpdir(), `rollstamp-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
