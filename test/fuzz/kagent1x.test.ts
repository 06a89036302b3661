// Issues #20 and #35, kagent 1.x under fuzz (cases in test/support/fuzz-kagent1x-cases.ts; seed, count and replay in test/support/fuzz.ts).
import { test } from 'uvu';
import { runFuzz } from '../support/fuzz.ts';

const CASES = new URL('../support/fuzz-kagent1x-cases.ts', import.meta.url);

test('fuzz: kagent 1.x passes through; diff applies live exactly for the agents explain says consume a rotated key (#35)', async () => {
  await runFuzz(CASES, ['kagent1x']);
});

test.run();
