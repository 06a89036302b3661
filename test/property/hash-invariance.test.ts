// Property 2: the hash does NOT change for edits that do not change a consumed byte — document order, key
// order, formatting (flow/block, quoting, comments, indentation, literal blocks, wrapped base64, JSON documents,
// CRLF, BOM), a Secret value moving between `data` (base64) and `stringData`, a key of a shared source the
// target does not use, labels and annotations of a source, a `data` value that `stringData` overrides, and a
// stamp already in the input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { asText, clone, dependsOn, genBundle, isTarget, usesOf, workloadId, type Bundle, type Rng } from '../support/property-generate.ts';
import { type Case, diffStamps, forAll, perCases, render, stamp } from '../support/property-harness.ts';
import { allMutations, targetIndices, unusedKeyMutations } from '../support/property-mutate.ts';
import { PLAIN_STYLE, randomFormat, type Style } from '../support/property-render.ts';

/** Renders two bundles (or one bundle two ways) and asserts every workload keeps its stamp. */
async function sameStamps(c: Case, what: string, a: string, b: string, only?: (id: string) => boolean): Promise<void> {
  c.keep('a.yaml', a);
  c.keep('b.yaml', b);
  const s1 = (await stamp(a, 'a')).stamps;
  const s2 = (await stamp(b, 'b')).stamps;
  const diff = diffStamps(s1, s2, only);
  assert.equal(diff, [], `${what} changed a hash (${c.label}):\n${diff.join('\n')}`);
}

/** The same bundle in two styles. */
async function restyled(c: Case, what: string, bundle: Bundle, a: Style, b: Style, wrapA = 0, wrapB = 0): Promise<void> {
  await sameStamps(c, what, render(bundle, a, c.rng, wrapA), render(bundle, b, c.rng, wrapB));
}

test('P2a: shuffling document order does not change any hash', async () => {
  await forAll('P2a', 0x9e2a0001, async (c) => {
    const { bundle } = genBundle(c.rng);
    await restyled(c, 'shuffling documents', bundle, PLAIN_STYLE, { ...PLAIN_STYLE, shuffleDocs: true });
  });
});

test('P2b: shuffling keys within maps does not change any hash', async () => {
  await forAll('P2b', 0x9e2a0002, async (c) => {
    const { bundle } = genBundle(c.rng);
    await restyled(c, 'shuffling keys', bundle, PLAIN_STYLE, { ...PLAIN_STYLE, shuffleKeys: true });
  });
});

test('P2c: reformatting (flow/block, quoting, comments, indentation, literals, JSON, CRLF, BOM, wrapped base64) does not change any hash', async () => {
  await forAll('P2c', 0x9e2a0003, async (c) => {
    const { bundle } = genBundle(c.rng);
    await restyled(c, 'reformatting', bundle, PLAIN_STYLE, randomFormat(c.rng), 0, 0.5);
  });
});

/** Moves every movable Secret value between data (base64) and stringData (text). */
function moveSecretValues(b: Bundle, rng: Rng): { bundle: Bundle; moved: number } {
  const out = clone(b);
  let moved = 0;
  for (const s of out.sources) {
    if (s.cls !== 'Secret') continue;
    for (const e of s.entries) {
      if (e.shadow || !rng.bool(0.7)) continue;
      if (e.field === 'stringData') e.field = 'data';
      else if (asText(e.bytes) !== undefined) e.field = 'stringData';
      else continue;
      moved++;
    }
  }
  return { bundle: out, moved };
}

test('P2d: moving a Secret value between data (base64) and stringData does not change any hash', async () => {
  let moved = 0;
  await forAll('P2d', 0x9e2a0004, async (c) => {
    const { bundle } = genBundle(c.rng);
    const m = moveSecretValues(bundle, c.rng);
    if (m.moved === 0) return;
    moved++;
    const style = c.rng.bool() ? PLAIN_STYLE : randomFormat(c.rng);
    await sameStamps(c, 'moving values between data and stringData', render(bundle, style, c.rng), render(m.bundle, style, c.rng));
  });
  assert.ok(moved >= perCases(50), `only ${moved} cases moved a value`);
});

test('P2e: adding, changing or removing a key of a shared source that the target does not use leaves its hash', async () => {
  let ran = 0;
  await forAll('P2e', 0x9e2a0005, async (c) => {
    const { bundle } = genBundle(c.rng);
    const candidates = targetIndices(bundle).flatMap((wi) => unusedKeyMutations(bundle, wi, c.rng).map((m) => ({ wi, m })));
    if (candidates.length === 0) return;
    ran++;
    const { wi, m } = c.rng.pick(candidates);
    const style = randomFormat(c.rng);
    const w = bundle.workloads[wi]!;
    assert.ok(!dependsOn(w, m.id, m.key) && usesOf(w).has(m.id), 'generator: target uses the source, not the key');
    // The picked target, and every other target that does not use the key, keep their hash.
    const keeps = new Set(bundle.workloads.filter((x) => isTarget(x) && !dependsOn(x, m.id, m.key)).map(workloadId));
    await sameStamps(c, m.desc, render(bundle, style, c.rng), render(m.apply(c.rng), style, c.rng), (id) => keeps.has(id));
  });
  assert.ok(ran >= perCases(50), `only ${ran} cases had a shared source used by specific keys`);
});

test('P2f: changing labels or annotations of a Secret or ConfigMap does not change any hash', async () => {
  await forAll('P2f', 0x9e2a0006, async (c) => {
    const { bundle } = genBundle(c.rng);
    const relabels = allMutations(bundle, c.rng).filter((m) => m.kind === 'relabel');
    if (relabels.length === 0) return;
    const m = c.rng.pick(relabels);
    await sameStamps(c, m.desc, render(bundle, PLAIN_STYLE, c.rng), render(m.apply(c.rng), PLAIN_STYLE, c.rng));
  });
});

test('P2g: changing a Secret data value that stringData overrides does not change any hash', async () => {
  let ran = 0;
  await forAll('P2g', 0x9e2a0007, async (c) => {
    const { bundle } = genBundle(c.rng);
    const shadows = allMutations(bundle, c.rng).filter((m) => m.kind === 'shadow');
    if (shadows.length === 0) return;
    ran++;
    const m = c.rng.pick(shadows);
    await sameStamps(c, m.desc, render(bundle, PLAIN_STYLE, c.rng), render(m.apply(c.rng), PLAIN_STYLE, c.rng));
  });
  assert.ok(ran >= perCases(20), `only ${ran} cases had a shadowed data value`);
});

test('P2h: a stamp already in the input (stale, random, empty, null or absent) does not change the computed hash', async () => {
  await forAll('P2h', 0x9e2a0008, async (c) => {
    const { bundle } = genBundle(c.rng);
    const other = clone(bundle);
    for (const w of other.workloads) {
      const r = c.rng.int(3);
      if (r === 0) delete w.stamp;
      else w.stamp = r === 1 ? `sha256:${c.rng.hex(64)}` : c.rng.pick(['', 'stale', 'sha256:', 'hmac-sha256:00', null]);
    }
    const targets = new Set(bundle.workloads.filter(isTarget).map(workloadId));
    await sameStamps(c, 'a different existing stamp', render(bundle, PLAIN_STYLE, c.rng), render(other, PLAIN_STYLE, c.rng), (id) => targets.has(id));
  });
});

test.run();
