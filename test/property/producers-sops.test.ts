// Property 8, a SOPS-encrypted Secret: a change of what determines the value changes the stamped
// hash of the Deployment that uses what it makes; refresh settings, labels, key order, formatting and comments
// do not. The model and the properties every producer shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, COMMON_NEUTRAL, freshKey, KEYS, metadata, type Obj, prod, render, sample, type Scenario, secretRefs, sopsEnc, type State, usedKeys, wholeUse } from '../support/producer-model.ts';
import { explainCodes, producerProperties, SEED } from '../support/producer-properties.ts';
import { forAll } from '../support/property-harness.ts';

// ---------------------------------------------------------------------------------------------------------
// SOPS-encrypted Secret

const sopsKeys = (s: State): Array<['data' | 'stringData', string]> =>
  (['data', 'stringData'] as const).flatMap((f) => Object.keys(prod(s)[f] ?? {}).map((k) => [f, k] as ['data' | 'stringData', string]));

const SOPS: Scenario = {
  index: 6,
  producer: 'SOPS-encrypted Secret',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const name = rng.pick(['db', 'app-env']);
    const keys = sample(rng, KEYS, rng.range(2, 4));
    const s: State = { ns, refs: secretRefs(rng, name, keys), docs: [] };
    const doc: Obj = { apiVersion: 'v1', kind: 'Secret', metadata: metadata(s, name, rng), type: 'Opaque', data: {} };
    keys.forEach((k, i) => {
      if (i > 0 && rng.bool(0.3)) (doc.stringData ??= {})[k] = sopsEnc(rng);
      else doc.data[k] = sopsEnc(rng);
    });
    doc.sops = {
      kms: [],
      age: [{ recipient: 'age1examplerecipient0000000000000000000000000000000000000000', enc: `-----BEGIN AGE ENCRYPTED FILE-----\n${b64(rng, 30)}\n-----END AGE ENCRYPTED FILE-----\n` }],
      lastmodified: `2026-0${rng.range(1, 9)}-1${rng.range(0, 9)}T10:00:00Z`,
      mac: sopsEnc(rng),
      encrypted_regex: '^(data|stringData)$',
      version: '3.9.1',
    };
    s.docs.push(doc);
    return s;
  },
  outputs: (s) => [prod(s).metadata.name],
  value: [
    {
      name: 'ciphertext of a used key',
      apply(s, rng) {
        const all = sopsKeys(s);
        const used = usedKeys(
          s,
          all.map(([, k]) => k),
        );
        const [field, k] = rng.pick(all.filter(([, key]) => used.includes(key)));
        prod(s)[field][k] = sopsEnc(rng);
        // Re-encrypting with sops also rewrites the MAC; the ciphertext alone must already change the hash.
        if (rng.bool()) prod(s).sops.mac = sopsEnc(rng);
        return `${field}.${k}`;
      },
    },
    { name: 'sops.mac', apply: (s, rng) => void (prod(s).sops.mac = sopsEnc(rng)) },
    {
      name: 'a key added (envFrom reads every key)',
      when: wholeUse,
      apply(s, rng) {
        const k = freshKey(sopsKeys(s).map(([, key]) => key));
        prod(s).data[k] = sopsEnc(rng);
        prod(s).sops.mac = sopsEnc(rng);
        return k;
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    { name: 'sops.lastmodified', apply: (s) => void (prod(s).sops.lastmodified = '2027-01-01T00:00:00Z') },
  ],
};

producerProperties(SOPS);

test('P8 SOPS Secret and a plain Secret of the same name: DUPLICATE_SOURCE (exit 1)', async () => {
  await forAll('P8-sops-duplicate', SEED + 0x300, async (c) => {
    const s = SOPS.base(c.rng);
    s.docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: prod(s).metadata.name, ...(s.ns ? { namespace: s.ns } : {}) }, data: { password: 'cGFzcw==' } });
    const text = render(s, c.rng);
    c.keep('input.yaml', text);
    const ex = await explainCodes(text);
    assert.is(ex.code, 1, `SOPS + plain Secret, ${c.label}: exit 1`);
    assert.ok(ex.codes.includes('error:DUPLICATE_SOURCE'), `SOPS + plain Secret, ${c.label}: DUPLICATE_SOURCE (got ${ex.codes.join(', ')})`);
  }, 4);
});

test.run();
