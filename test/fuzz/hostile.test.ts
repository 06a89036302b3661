// Issue #7 item 10, hostile inputs: fail closed or pass idempotently under fuzz (cases in test/support/fuzz-hostile-cases.ts;
// seed, count, threads and replay in support.ts). Prints one summary line at the end: cases, runs, exit codes,
// known bugs tolerated, wall time of all fuzz tests. Run alone: node --import tsx node_modules/uvu/bin.js test/fuzz '\.test\.ts$'
import { test } from 'uvu';
import { runFuzz, summary } from '../support/fuzz.ts';

const CASES = new URL('../support/fuzz-hostile-cases.ts', import.meta.url);

test('fuzz: hostile streams through stamp and explain --json fail closed, or pass and stay idempotent', async () => {
  await runFuzz(CASES, ['hostile-stream']);
});

test('fuzz: hostile ResourceLists through fn fail closed, or pass and stay idempotent', async () => {
  await runFuzz(CASES, ['hostile-resource-list']);
});

test.after(() => {
  process.stdout.write(`\n${summary()}\n`);
});

test.run();
