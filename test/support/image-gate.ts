// Whether image.test.ts builds the image (minutes of CPU and GBs of layer copies): always when CI is set, where
// a missing tool fails it; on request (ROLLSTAMP_IMAGE_TESTS=1); or when the image's own inputs changed.
// Otherwise it skips with the reason, as a missing tool does outside CI. Not a test file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './run-cli.ts';

/**
 * What the image is made of beyond the sources every other test runs: the Dockerfile, what it copies in to
 * install and build, and the test that builds it. A change to function/ or plugin/ reaches the image through
 * the same build.mjs the other tests' bundle comes from, so it does not rebuild the image by itself.
 */
export const IMAGE_INPUTS = ['Dockerfile', '.dockerignore', '.npmrc', 'package.json', 'package-lock.json', 'build.mjs', 'build-snapshot.mjs', 'image/rollstamp.sh', 'test/e2e/image.test.ts', 'test/support/image-build.ts', 'test/support/image-gate.ts'];

/** The digest of the inputs when the image test last passed on this machine. */
const RECORD = join(ROOT, 'node_modules', '.cache', 'rollstamp', 'image-inputs.sha256');

/** sha256 over each input's name and bytes (a missing file counts as missing). */
export function inputsDigest(): string {
  const h = createHash('sha256');
  for (const f of IMAGE_INPUTS) {
    const path = join(ROOT, f);
    h.update(`${f}\0`);
    h.update(existsSync(path) ? readFileSync(path) : '\0missing');
    h.update('\0');
  }
  return h.digest('hex');
}

/** Inputs with changes git has not committed (none when this is not a git checkout). */
function uncommitted(): string[] {
  const r = spawnSync('git', ['status', '--porcelain', '--', ...IMAGE_INPUTS], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => l.slice(3)) : [];
}

/** Why the image test should not build the image in this run, or undefined when it should. */
export function whyNotBuild(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if ((env.CI ?? '') !== '' || env.ROLLSTAMP_IMAGE_TESTS === '1') return undefined;
  const ask = 'ROLLSTAMP_IMAGE_TESTS=1 runs it (CI always does)';
  if (env.ROLLSTAMP_IMAGE_TESTS === '0') return `ROLLSTAMP_IMAGE_TESTS=0; ${ask}`;
  if (uncommitted().length > 0) return undefined;
  const recorded = existsSync(RECORD) ? readFileSync(RECORD, 'utf8').trim() : undefined;
  if (recorded !== undefined && recorded !== inputsDigest()) return undefined;
  const since = recorded !== undefined ? 'since it last passed here' : 'in the working tree';
  return `its inputs (${IMAGE_INPUTS.join(', ')}) have not changed ${since}; ${ask}`;
}

/** Notes that the image test passed with the inputs as they are now. */
export function recordPassed(): void {
  mkdirSync(dirname(RECORD), { recursive: true });
  writeFileSync(RECORD, `${inputsDigest()}\n`);
}
