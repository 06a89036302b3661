// Shared digests kept per source (#37): a source's selections are one list, and past a few of them a map. Either
// way a selection asked again is the digest made the first time, and only a further selection of a view spends
// the key budget, as when each view kept its own maps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeHasher, sourceDigest } from '../../function/hash/scheme.ts';
import { KeyBudgetSpent, SharedDigests } from '../../function/hash/shared-digests.ts';
import type { KeyUse, Resolution, SourceUse } from '../../function/model/dependencies.ts';
import { newSlot } from '../../function/resolve/index.ts';

const hasher = makeHasher();
const entries = new Map(Array.from({ length: 20 }, (_, i) => [`k${i}`, new TextEncoder().encode(`v${i}`)]));
const resolution: Resolution = { from: 'bundle', entries };

function use(keys: string[], options: { whole?: boolean; dataOnly?: boolean } = {}): SourceUse {
  const named = new Map<string, KeyUse>(keys.map((k) => [k, { optional: false, field: 'f' }]));
  return { id: 'ConfigMap/ns/big', cls: 'ConfigMap', namespace: 'ns', name: 'big', whole: options.whole ?? false, keys: named, optional: false, fields: ['f'], ...(options.dataOnly ? { dataOnly: true } : {}) };
}

/** One apply's digests of the one source: its selections are kept on the slot resolving gives every use of it. */
function digestsOf(budget: number): (u: SourceUse) => Buffer {
  const shared = new SharedDigests(hasher, budget, false, false);
  const slot = newSlot('ConfigMap/ns/big');
  return (u) => shared.digestOnly(u, resolution, slot);
}

const expected = (keys: string[]): Buffer => sourceDigest(hasher, { cls: 'ConfigMap', namespace: 'ns', name: 'big', entries, keys });

test('twenty one-key selections of one source, then each again: the same digests, and only the first is free', () => {
  // 19 further one-key selections cost a key each; the 20 repeats cost nothing.
  const shared = digestsOf(19);
  const first = Array.from({ length: 20 }, (_, i) => shared(use([`k${i}`])));
  first.forEach((d, i) => assert.ok(d.equals(expected([`k${i}`])), `k${i}`));
  Array.from({ length: 20 }, (_, i) => assert.is(shared(use([`k${i}`])), first[i], `k${i} again`));
  // One more selection of the same view is over the budget.
  assert.throws(() => shared(use(['k0', 'k1'])), (e: unknown) => e instanceof KeyBudgetSpent);
});

test('a data-only view has its own free first selection; whole and two-key reads are kept apart from one-key reads', () => {
  const views = digestsOf(0);
  const one = views(use(['k1']));
  assert.ok(one.equals(expected(['k1'])));
  // Another key than the other view's first: free all the same, and found again as itself.
  const data = views(use(['k2'], { dataOnly: true }));
  assert.ok(data.equals(expected(['k2'])), 'the first data-only selection is free');
  assert.is(views(use(['k2'], { dataOnly: true })), data);
  assert.throws(() => views(use(['k3'], { dataOnly: true })), (e: unknown) => e instanceof KeyBudgetSpent);
  assert.throws(() => views(use(['k1', 'k2'])), (e: unknown) => e instanceof KeyBudgetSpent);
  const wide = digestsOf(1000);
  const keyed = Array.from({ length: 10 }, (_, i) => wide(use([`k${i}`])));
  const whole = wide(use([], { whole: true }));
  const pair = wide(use(['k1', 'k2']));
  assert.ok(whole.equals(expected([...entries.keys()])));
  assert.ok(pair.equals(expected(['k1', 'k2'])));
  assert.is(wide(use([], { whole: true })), whole);
  assert.is(wide(use(['k2', 'k1'])), pair);
  keyed.forEach((d, i) => assert.is(wide(use([`k${i}`])), d));
});

test.run();
