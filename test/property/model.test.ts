// Extra property: every target's hash equals scheme v1 computed from the generator's model — an independent
// statement of what a target uses (keyRef keys, items, whole objects plus named keys, annotation sources across
// namespaces; imagePullSecrets never) and of the bytes (base64 decoded, stringData over data, binaryData).
// Non-targets (opted out, not opted in) keep whatever stamp they had.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { genBundle, isTarget, modelHash, ROW_SHAPES, workloadId } from '../support/property-generate.ts';
import { cli, forAll, render, stamp, stampsOfStream } from '../support/property-harness.ts';
import { randomStyle } from '../support/property-render.ts';

test('model: each target gets the scheme v1 hash of exactly the bytes the model says it uses', async () => {
  await forAll('model', 0x9e7a0001, async (c) => {
    const { bundle } = genBundle(c.rng);
    const input = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const stamps = (await stamp(input, 'stamp')).stamps;
    for (const w of bundle.workloads) {
      const id = workloadId(w);
      const want = isTarget(w) ? modelHash(bundle, w) : (w.stamp ?? undefined);
      assert.is(stamps.get(id), want, `${id}: ${isTarget(w) ? 'hash differs from the model' : 'a non-target was stamped'} (${c.label})`);
    }
  });
});

test('model: the generator writes workloads of every operator row of the kind table, and the model holds for them (#24)', async () => {
  const seen = new Set<string>();
  await forAll('model-rows', 0x9e7a0003, async (c) => {
    const { bundle } = genBundle(c.rng);
    const input = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const rows = bundle.workloads.filter((w) => w.row !== undefined && isTarget(w));
    if (rows.length === 0) return;
    const stamps = (await stamp(input, 'stamp')).stamps;
    for (const w of rows) {
      seen.add(`${w.row!.group}/${w.row!.kind}${w.row!.component ? `#${w.row!.component}` : ''}`);
      assert.is(stamps.get(workloadId(w)), modelHash(bundle, w), `${workloadId(w)}: hash differs from the model (${c.label})`);
    }
  }, 200); // enough cases for every row to come up, whatever PROPERTY_CASES says
  assert.equal([...seen].sort(), ROW_SHAPES.map((r) => `${r.group}/${r.kind}${r.component ? `#${r.component}` : ''}`).sort(), 'rows the generator never wrote');
});

test('model: with ROLLSTAMP_HASH_KEY every digest is HMAC-SHA256 under that key (stamp and fn alike)', async () => {
  await forAll('model-hmac', 0x9e7a0002, async (c) => {
    const { bundle } = genBundle(c.rng);
    const key = c.rng.pick(['k', 'hunter2', 'ключ-🔑', c.rng.hex(64)]);
    const input = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const run = await cli(['stamp', '-'], input, { ROLLSTAMP_HASH_KEY: key });
    assert.is(run.code, 0, `stamp exited ${run.code}: ${run.stderr} (${c.label})`);
    const stamps = stampsOfStream(run.stdout);
    for (const w of bundle.workloads.filter(isTarget)) {
      assert.is(stamps.get(workloadId(w)), modelHash(bundle, w, key), `${workloadId(w)}: HMAC hash differs from the model (${c.label})`);
    }
  }, 100);
});

test.run();
