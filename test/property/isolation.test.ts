// Property 3: targets that do not depend on a changed source keep their hash — whatever happens to a Secret
// or ConfigMap they do not reference (values, keys, the object appearing or disappearing, its labels), including
// same-named sources in other namespaces, sources used only as imagePullSecrets, and edits of other workloads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clone, dependsOn, genBundle, genWorkload, isTarget, workloadId } from '../support/property-generate.ts';
import { diffStamps, forAll, perCases, render, stamp } from '../support/property-harness.ts';
import { allMutations } from '../support/property-mutate.ts';
import { randomFormat } from '../support/property-render.ts';

test('P3a: a change to a source leaves the hash of every target that does not use the changed byte', async () => {
  let ran = 0;
  let bystanders = 0;
  await forAll('P3a', 0x9e3a0001, async (c) => {
    const { bundle } = genBundle(c.rng, { minTargets: 2 });
    const mutations = allMutations(bundle, c.rng);
    if (mutations.length === 0) return;
    const m = c.rng.pick(mutations);
    const style = randomFormat(c.rng);
    const before = render(bundle, style, c.rng);
    const after = render(m.apply(c.rng), style, c.rng);
    c.keep('before.yaml', before);
    c.keep('after.yaml', after);
    const keeps = new Set(bundle.workloads.filter((w) => isTarget(w) && (m.inert || !dependsOn(w, m.id, m.key))).map(workloadId));
    const s1 = (await stamp(before, 'before')).stamps;
    const s2 = (await stamp(after, 'after')).stamps;
    const diff = diffStamps(s1, s2, (id) => keeps.has(id));
    assert.equal(diff, [], `${m.desc} changed the hash of targets that do not use it (${c.label}):\n${diff.join('\n')}`);
    ran++;
    bystanders += keeps.size;
  });
  assert.ok(ran >= perCases(150) && bystanders >= perCases(150), `too few cases: ${ran} mutations, ${bystanders} bystander targets`);
});

test("P3b: changing one workload's references leaves every other target's hash", async () => {
  await forAll('P3b', 0x9e3a0002, async (c) => {
    const { bundle } = genBundle(c.rng, { minTargets: 2 });
    const after = clone(bundle);
    const wi = c.rng.int(after.workloads.length);
    const old = after.workloads[wi]!;
    // Same identity, new references (and possibly a different opt-in).
    const fresh = genWorkload(c.rng, old.kind, old.name, old.namespace, c.rng.bool(0.8) ? old.optIn : 'none', after.sources);
    // The same identity: written as the same kind (an operator row's, #24) as before.
    if (old.row) fresh.row = old.row;
    else delete fresh.row;
    after.workloads[wi] = fresh;
    const style = randomFormat(c.rng);
    const before = render(bundle, style, c.rng);
    const changed = render(after, style, c.rng);
    c.keep('before.yaml', before);
    c.keep('after.yaml', changed);
    const edited = workloadId(old);
    const s1 = (await stamp(before, 'before')).stamps;
    const s2 = (await stamp(changed, 'after')).stamps;
    const diff = diffStamps(s1, s2, (id) => id !== edited);
    assert.equal(diff, [], `editing ${edited} changed other hashes (${c.label}):\n${diff.join('\n')}`);
  });
});

test('P3c: a source used only as an imagePullSecret, or by a non-target, never counts', async () => {
  let ran = 0;
  await forAll('P3c', 0x9e3a0003, async (c) => {
    const { bundle } = genBundle(c.rng);
    // Mutations of sources no target references at all (imagePullSecrets, non-targets, Jobs, Pods, nobody).
    const unreferenced = allMutations(bundle, c.rng).filter((m) => !bundle.workloads.some((w) => isTarget(w) && dependsOn(w, m.id)));
    if (unreferenced.length === 0) return;
    ran++;
    const m = c.rng.pick(unreferenced);
    const style = randomFormat(c.rng);
    const before = render(bundle, style, c.rng);
    const after = render(m.apply(c.rng), style, c.rng);
    c.keep('before.yaml', before);
    c.keep('after.yaml', after);
    const s1 = (await stamp(before, 'before')).stamps;
    const s2 = (await stamp(after, 'after')).stamps;
    const diff = diffStamps(s1, s2);
    assert.equal(diff, [], `${m.desc} (used by no target) changed a hash (${c.label}):\n${diff.join('\n')}`);
  });
  assert.ok(ran >= perCases(50), `only ${ran} cases had an unreferenced source`);
});

test.run();
