// The tests' own layout (#36): a tier folder holds tests only, and what tests share lives in test/support/, so a
// helper has one home and a runner, a temp dir or a builder is written once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const TEST = fileURLToPath(new URL('..', import.meta.url));
const TIERS = ['e2e', 'fuzz', 'golden', 'hostile', 'live', 'property', 'unit'];

/** Every file below `dir`, relative to test/. */
function filesIn(dir: string): string[] {
  return readdirSync(join(TEST, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(join(TEST, f)).isFile());
}

/** test/unit/test-runner.test.ts's scratch tier while it runs: hidden, so no real run picks it up, and gone after. */
const RUNNER_CHECK = /^\.runner-check-\d+$/;

test('test/ holds the tiers, test/support/ and the runner, nothing else', () => {
  const entries = readdirSync(TEST).filter((name) => !RUNNER_CHECK.test(name));
  assert.equal(entries.sort(), [...TIERS, 'run.mjs', 'support'].sort());
});

test('a tier folder holds test files only', () => {
  const others = TIERS.flatMap(filesIn).filter((f) => !f.endsWith('.test.ts'));
  assert.equal(others, []);
});

test('test/support/ holds no test file (a helper is never run as a shard)', () => {
  assert.equal(filesIn('support').filter((f) => f.endsWith('.test.ts')), []);
});

test('one temp-dir helper: no other support file makes its own temp directories', () => {
  const makers = filesIn('support').filter((f) => f !== join('support', 'temp-dirs.ts') && /export function tempDir\b[^]*?mkdtempSync/.test(readFileSync(join(TEST, f), 'utf8')));
  assert.equal(makers, []);
});

test.run();
