// Property 1: a target's hash changes whenever a byte it consumes changes — the value of a key it uses (env
// keyRef key, volume item key, any key of an envFrom / whole-volume / annotation source), a used key appearing
// or disappearing, a missing source appearing (or a present one disappearing). Every target that uses the
// changed byte must change, not only the one the mutation was picked for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dependsOn, genBundle, isTarget, usesOf, workloadId } from '../support/property-generate.ts';
import { forAll, perCases, render, stamp } from '../support/property-harness.ts';
import { sensitiveMutations, targetIndices, type MutationKind } from '../support/property-mutate.ts';
import { randomFormat } from '../support/property-render.ts';

async function changesProperty(name: string, seed: number, kinds: readonly MutationKind[]): Promise<void> {
  let ran = 0;
  const seen = new Set<MutationKind>();
  await forAll(name, seed, async (c) => {
    const { bundle } = genBundle(c.rng);
    const candidates = targetIndices(bundle).flatMap((wi) =>
      sensitiveMutations(bundle, wi, c.rng)
        .filter((m) => kinds.includes(m.kind))
        .map((m) => ({ wi, m })),
    );
    if (candidates.length === 0) return;
    const { wi, m } = c.rng.pick(candidates);
    const after = m.apply(c.rng);
    const style = randomFormat(c.rng);
    const before = render(bundle, style, c.rng, 0.3);
    const changed = render(after, style, c.rng, 0.3);
    c.keep('before.yaml', before);
    c.keep('after.yaml', changed);
    const s1 = (await stamp(before, 'before')).stamps;
    const s2 = (await stamp(changed, 'after')).stamps;
    const picked = bundle.workloads[wi]!;
    assert.ok(dependsOn(picked, m.id, m.key), 'generator: the picked target depends on the mutation');
    for (const w of after.workloads) {
      if (!isTarget(w) || !dependsOn(w, m.id, m.key)) continue;
      const id = workloadId(w);
      assert.ok(s1.get(id) !== undefined && s2.get(id) !== undefined, `${id} is stamped (${c.label})`);
      assert.is.not(s2.get(id), s1.get(id), `${m.desc} must change the hash of ${id}, which uses it (${c.label})`);
    }
    ran++;
    seen.add(m.kind);
  });
  assert.ok(ran >= perCases(100), `only ${ran} cases had a mutation to try`);
  for (const k of kinds) assert.ok(seen.has(k), `no case tried a "${k}" mutation`);
}

test('P1a: changing the value of a used key changes the hash', async () => {
  await changesProperty('P1a', 0x9e1a0001, ['value']);
});

test('P1b: a used key appearing or disappearing changes the hash (keyRefs, items, whole sources)', async () => {
  await changesProperty('P1b', 0x9e1a0002, ['add-key', 'remove-key']);
});

test('P1c: a missing source appearing (or a used source disappearing) changes the hash', async () => {
  await changesProperty('P1c', 0x9e1a0003, ['add-source', 'remove-source']);
});

test('P1d: every reference kind is exercised (env, envFrom, volume, items, projected, annotation)', async () => {
  // A sanity check of the generator, so the properties above are not vacuous for some reference kind.
  const seen = new Set<string>();
  await forAll('P1d', 0x9e1a0004, async (c) => {
    const { bundle } = genBundle(c.rng);
    for (const w of bundle.workloads) {
      if (usesOf(w).size === 0) continue;
      for (const r of w.refs) {
        seen.add(r.via);
        if ((r.via === 'volume' && r.items?.length) || (r.via === 'projected' && r.sources.some((s) => s.items?.length))) seen.add(`${r.via}+items`);
        if (r.via === 'volume' && r.items?.length === 0) seen.add('volume+empty-items');
      }
    }
  });
  for (const k of ['env', 'envFrom', 'volume', 'volume+items', 'volume+empty-items', 'projected', 'projected+items', 'annotation']) {
    assert.ok(seen.has(k), `generator never produced ${k}`);
  }
});

test.run();
