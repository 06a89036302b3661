// Issue #7 item 10, valid inputs: determinism under fuzz (cases in test/support/fuzz-valid-cases.ts; seed, count, threads and
// replay in support.ts). Prints one summary line at the end, as hostile.test.ts does. Run alone: node --import tsx node_modules/uvu/bin.js test/fuzz '\.test\.ts$'
import { test } from 'uvu';
import { runFuzz, summary } from '../support/fuzz.ts';

const CASES = new URL('../support/fuzz-valid-cases.ts', import.meta.url);

test('fuzz: stamp of a valid stream is independent of document, key and item order, and idempotent', async () => {
  await runFuzz(CASES, ['stream']);
});

test('fuzz: stamp of files is independent of file order (and reads a directory the same way), and idempotent', async () => {
  await runFuzz(CASES, ['files']);
});

test('fuzz: fn is independent of item, key and list order, and idempotent', async () => {
  await runFuzz(CASES, ['resource-list']);
});

test.after(() => {
  process.stdout.write(`\n${summary()}\n`);
});

test.run();
