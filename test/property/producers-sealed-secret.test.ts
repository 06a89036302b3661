// Property 8, SealedSecret (bitnami.com/v1alpha1): a change of what determines the value changes the stamped
// hash of the Deployment that uses what it makes; refresh settings, labels, key order, formatting and comments
// do not. The model and the properties every producer shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import { ANNOTATION_KEYS, COMMON_NEUTRAL, freshKey, hasScope, keyOnly, KEYS, LABEL_KEYS, metadata, type Obj, other, prod, renameSecretRefs, sample, type Scenario, SCOPE, sealed, SECRET_TYPES, secretRefs, spec, type State, unusedKeys, usedKeys, wholeUse, word } from '../support/producer-model.ts';
import { producerProperties, type Regression, regressionProperty } from '../support/producer-properties.ts';

// ---------------------------------------------------------------------------------------------------------
// SealedSecret

const ssKeys = (s: State): string[] => Object.keys(spec(s).encryptedData);

const SEALED_SECRET: Scenario = {
  index: 0,
  producer: 'SealedSecret bitnami.com/v1alpha1',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const name = rng.pick(['db', 'db-creds', 'api-token']);
    const keys = sample(rng, KEYS, rng.range(2, 4));
    const s: State = { ns, refs: secretRefs(rng, name, keys), docs: [] };
    const doc: Obj = { apiVersion: 'bitnami.com/v1alpha1', kind: 'SealedSecret', metadata: metadata(s, name, rng), spec: { encryptedData: {} } };
    for (const k of keys) doc.spec.encryptedData[k] = sealed(rng);
    if (rng.bool(0.2)) doc.metadata.annotations = { ...(doc.metadata.annotations ?? {}), [rng.pick(SCOPE)]: 'true' };
    // kubeseal always writes a template with the metadata; hand-written SealedSecrets may have none.
    if (rng.bool(0.85)) {
      const t: Obj = { metadata: { name, ...(ns ? { namespace: ns } : {}) } };
      if (rng.bool(0.4)) t.metadata.labels = { app: 'web' };
      if (rng.bool(0.5)) t.type = rng.pick(SECRET_TYPES);
      if (rng.bool(0.2)) t.data = { [freshKey(keys)]: `{{ index . "${keys[0]}" }}` };
      doc.spec.template = t;
    }
    s.docs.push(doc);
    return s;
  },
  outputs: (s) => [prod(s).metadata.name],
  value: [
    {
      name: 'encryptedData of a used key',
      apply(s, rng) {
        const k = rng.pick(usedKeys(s, ssKeys(s)));
        spec(s).encryptedData[k] = sealed(rng);
        return k;
      },
    },
    {
      name: 'encryptedData: key added (envFrom reads every key)',
      when: wholeUse,
      apply(s, rng) {
        const k = freshKey([...ssKeys(s), ...Object.keys(spec(s).template?.data ?? {})]);
        spec(s).encryptedData[k] = sealed(rng);
        return k;
      },
    },
    {
      name: 'template.type',
      apply(s, rng) {
        const t = (spec(s).template ??= {});
        t.type = other(rng, SECRET_TYPES, t.type);
        return t.type;
      },
    },
    {
      name: 'template.data (an entry for a used key)',
      apply(s, rng) {
        const t = (spec(s).template ??= {});
        const k = rng.pick(usedKeys(s, ssKeys(s)));
        t.data = { ...(t.data ?? {}), [k]: `{{ index . "${k}" }}-${word(rng)}` };
        return k;
      },
    },
    {
      // The base's template.data entry is a key of its own: only a Deployment reading every key reads it.
      name: 'template.data (an existing entry changed, envFrom reads it)',
      when: (s) => spec(s).template?.data !== undefined && wholeUse(s),
      apply(s, rng) {
        const k = Object.keys(spec(s).template.data)[0]!;
        spec(s).template.data[k] = `${spec(s).template.data[k]}-${word(rng)}`;
        return k;
      },
    },
    {
      name: 'scope annotation sealedsecrets.bitnami.com/cluster-wide added/removed',
      apply(s) {
        const m = prod(s).metadata;
        const k = SCOPE[0]!;
        if (m.annotations?.[k] !== undefined) delete m.annotations[k];
        else m.annotations = { ...(m.annotations ?? {}), [k]: 'true' };
      },
    },
    {
      // cluster-wide: "true" wins over namespace-wide, so namespace-wide decides only without it.
      name: 'scope annotation sealedsecrets.bitnami.com/namespace-wide added/removed',
      when: (s) => prod(s).metadata.annotations?.[SCOPE[0]!] !== 'true',
      apply(s) {
        const m = prod(s).metadata;
        const k = SCOPE[1]!;
        if (m.annotations?.[k] !== undefined) delete m.annotations[k];
        else m.annotations = { ...(m.annotations ?? {}), [k]: 'true' };
      },
    },
    {
      name: 'SealedSecret renamed (the references follow)',
      apply(s) {
        const from = prod(s).metadata.name;
        prod(s).metadata.name = `${from}-v2`;
        renameSecretRefs(s, from, `${from}-v2`);
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    {
      name: 'template.metadata labels/annotations changed',
      when: (s) => spec(s).template !== undefined,
      apply(s, rng) {
        const t = spec(s).template;
        t.metadata ??= {};
        if (rng.bool()) t.metadata.labels = { ...(t.metadata.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
        else t.metadata.annotations = { ...(t.metadata.annotations ?? {}), [rng.pick(ANNOTATION_KEYS)]: word(rng) };
      },
    },
    {
      name: 'encryptedData of a key the Deployment does not use',
      when: (s) => keyOnly(s) && spec(s).template?.data === undefined && unusedKeys(s, ssKeys(s)).length > 0,
      apply(s, rng) {
        const k = rng.pick(unusedKeys(s, ssKeys(s)));
        spec(s).encryptedData[k] = sealed(rng);
        return k;
      },
    },
    {
      name: 'encryptedData: a key the Deployment does not use added/removed',
      when: (s) => keyOnly(s) && spec(s).template?.data === undefined,
      apply(s, rng) {
        const unused = unusedKeys(s, ssKeys(s));
        if (unused.length > 0 && rng.bool()) {
          delete spec(s).encryptedData[unused[0]!];
          return `removed ${unused[0]}`;
        }
        const k = freshKey(ssKeys(s));
        spec(s).encryptedData[k] = sealed(rng);
        return `added ${k}`;
      },
    },
  ],
};

producerProperties(SEALED_SECRET);

const REGRESSIONS: Regression[] = [
  {
    scenario: SEALED_SECRET,
    name: 'template with only metadata added to a SealedSecret without a template (what kubeseal writes)',
    why: 'producers.ts SEALED_SECRET.read: canonicalJson(template, omit metadata) is "{}" for a metadata-only template, not "null", so it enters the digest',
    when: (s) => spec(s).template === undefined,
    apply: (s) => void (spec(s).template = { metadata: { name: prod(s).metadata.name, ...(s.ns ? { namespace: s.ns } : {}) } }),
  },
  {
    scenario: SEALED_SECRET,
    name: 'scope annotation set to "false" (the controller reads only "true")',
    why: 'producers.ts scopeAnnotation hashes any value; sealed-secrets treats every value but "true" as absent (over-sensitive: an extra roll, never a missed one)',
    when: (s) => !hasScope(s),
    apply: (s, rng) => void (prod(s).metadata.annotations = { ...(prod(s).metadata.annotations ?? {}), [rng.pick(SCOPE)]: 'false' }),
  },
];

REGRESSIONS.forEach((bug, i) => regressionProperty(bug, 2 + i));

test.run();
