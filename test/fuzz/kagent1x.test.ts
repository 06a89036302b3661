// Issues #20 and #35, kagent 1.x under fuzz (cases in kagent1x-cases.ts; seed, count and replay in support.ts).
import { test } from 'uvu';
import { runFuzz } from './support.ts';

const CASES = new URL('./kagent1x-cases.ts', import.meta.url);

test('fuzz: kagent 1.x passes through; diff applies live exactly for the agents explain says consume a rotated key (#35)', async () => {
  await runFuzz(CASES, ['kagent1x']);
});

test.run();
