// Shared digests kept per source (#37): a source's selections are one list, and past a few of them a map. Either
// way a selection asked again is the digest made the first time, and only a further selection of a view spends
// the key budget, as when each view kept its own maps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeHasher, sourceDigest } from '../../function/hash/scheme.ts';
import { KeyBudgetSpent, SharedDigests } from '../../function/hash/shared-digests.ts';
import type { KeyUse, Resolution, SourceUse } from '../../function/model/dependencies.ts';

const hasher = makeHasher();
const entries = new Map(Array.from({ length: 20 }, (_, i) => [`k${i}`, new TextEncoder().encode(`v${i}`)]));
const resolution: Resolution = { from: 'bundle', entries };

function use(keys: string[], options: { whole?: boolean; dataOnly?: boolean } = {}): SourceUse {
  const named = new Map<string, KeyUse>(keys.map((k) => [k, { optional: false, field: 'f' }]));
  return { id: 'ConfigMap/ns/big', cls: 'ConfigMap', namespace: 'ns', name: 'big', whole: options.whole ?? false, keys: named, optional: false, fields: ['f'], ...(options.dataOnly ? { dataOnly: true } : {}) };
}

const expected = (keys: string[]): Buffer => sourceDigest(hasher, { cls: 'ConfigMap', namespace: 'ns', name: 'big', entries, keys });

test('twenty one-key selections of one source, then each again: the same digests, and only the first is free', () => {
  // 19 further one-key selections cost a key each; the 20 repeats cost nothing.
  const shared = new SharedDigests(hasher, 19, false, false);
  const first = Array.from({ length: 20 }, (_, i) => shared.digestOnly(use([`k${i}`]), resolution));
  first.forEach((d, i) => assert.ok(d.equals(expected([`k${i}`])), `k${i}`));
  Array.from({ length: 20 }, (_, i) => assert.is(shared.digestOnly(use([`k${i}`]), resolution), first[i], `k${i} again`));
  // One more selection of the same view is over the budget.
  assert.throws(() => shared.digestOnly(use(['k0', 'k1']), resolution), (e: unknown) => e instanceof KeyBudgetSpent);
});

test('a data-only view has its own free first selection; whole and two-key reads are kept apart from one-key reads', () => {
  const views = new SharedDigests(hasher, 0, false, false);
  const one = views.digestOnly(use(['k1']), resolution);
  assert.ok(one.equals(expected(['k1'])));
  // Another key than the other view's first: free all the same, and found again as itself.
  const data = views.digestOnly(use(['k2'], { dataOnly: true }), resolution);
  assert.ok(data.equals(expected(['k2'])), 'the first data-only selection is free');
  assert.is(views.digestOnly(use(['k2'], { dataOnly: true }), resolution), data);
  assert.throws(() => views.digestOnly(use(['k3'], { dataOnly: true }), resolution), (e: unknown) => e instanceof KeyBudgetSpent);
  assert.throws(() => views.digestOnly(use(['k1', 'k2']), resolution), (e: unknown) => e instanceof KeyBudgetSpent);
  const wide = new SharedDigests(hasher, 1000, false, false);
  const keyed = Array.from({ length: 10 }, (_, i) => wide.digestOnly(use([`k${i}`]), resolution));
  const whole = wide.digestOnly(use([], { whole: true }), resolution);
  const pair = wide.digestOnly(use(['k1', 'k2']), resolution);
  assert.ok(whole.equals(expected([...entries.keys()])));
  assert.ok(pair.equals(expected(['k1', 'k2'])));
  assert.is(wide.digestOnly(use([], { whole: true }), resolution), whole);
  assert.is(wide.digestOnly(use(['k2', 'k1']), resolution), pair);
  keyed.forEach((d, i) => assert.is(wide.digestOnly(use([`k${i}`]), resolution), d));
});

test.run();
