// Property 8, ExternalSecret (external-secrets.io/v1, and v1beta1): a change of what determines the value changes the stamped
// hash of the Deployment that uses what it makes; refresh settings, labels, key order, formatting and comments
// do not. The model and the properties every producer shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ANNOTATION_KEYS, clone, COMMON_NEUTRAL, freshKey, hashOf, keyOnly, KEYS, LABEL_KEYS, metadata, type Obj, other, prod, renameSecretRefs, render, type Rng, sample, type Scenario, SECRET_TYPES, secretRefs, spec, type State, unusedKeys, usedKeys, word } from '../support/producer-model.ts';
import { explainCodes, producerProperties, type Regression, regressionProperty, SEED } from '../support/producer-properties.ts';
import { forAll } from '../support/property-harness.ts';

// ---------------------------------------------------------------------------------------------------------
// ExternalSecret

const esDataKeys = (s: State): string[] => (spec(s).data ?? []).map((d: Obj) => d.secretKey);
const esKeyed = (s: State): boolean => spec(s).target?.template === undefined && spec(s).dataFrom === undefined;
const esSecretName = (s: State): string => spec(s).target?.name ?? prod(s).metadata.name;
function esItem(s: State, key: string): Obj {
  return spec(s).data.find((d: Obj) => d.secretKey === key);
}

function externalSecretBase(rng: Rng, apiVersion: string): State {
  const ns = rng.pick([undefined, 'app', 'team-a']);
  const esName = rng.pick(['db', 'db-es', 'api']);
  const target = rng.bool(0.6) ? rng.pick(['db-credentials', 'api-secret']) : undefined;
  const keys = sample(rng, KEYS, rng.range(2, 4));
  const s: State = { ns, refs: secretRefs(rng, target ?? esName, keys), docs: [] };
  const path = rng.pick(['prod/db', 'secret/data/app', 'arn:aws:secretsmanager:eu-west-1:1:secret:app']);
  const sp: Obj = {
    refreshInterval: rng.pick(['1h', '15m', '0']),
    secretStoreRef: { name: rng.pick(['vault', 'aws-sm']), kind: rng.pick(['SecretStore', 'ClusterSecretStore']) },
    target: { ...(target ? { name: target } : {}), creationPolicy: 'Owner' },
    data: keys.map((k) => ({ secretKey: k, remoteRef: { key: path, property: k, ...(rng.bool(0.3) ? { version: String(rng.range(1, 9)) } : {}) } })),
  };
  if (rng.bool(0.3)) sp.refreshPolicy = rng.pick(['Periodic', 'OnChange', 'CreatedOnce']);
  if (rng.bool(0.2)) sp.dataFrom = [{ extract: { key: `${path}-shared` } }];
  if (rng.bool(0.25)) {
    sp.target.template = { engineVersion: 'v2', data: { dsn: `postgres://{{ .${keys[0]} }}@db` } };
    if (rng.bool(0.5)) sp.target.template.type = rng.pick(SECRET_TYPES);
    if (rng.bool(0.5)) sp.target.template.metadata = { labels: { app: 'web' } };
  }
  s.docs.push({ apiVersion, kind: 'ExternalSecret', metadata: metadata(s, esName, rng), spec: sp });
  return s;
}

/** A used key that comes from `data` (any, when the whole Secret is read or the template combines keys). */
const esUsedDataKey = (s: State, rng: Rng): string => {
  const used = usedKeys(s, esDataKeys(s));
  return rng.pick(used.length > 0 ? used : esDataKeys(s));
};

const EXTERNAL_SECRET: Scenario = {
  index: 1,
  producer: 'ExternalSecret external-secrets.io/v1|v1beta1',
  base: (rng) => externalSecretBase(rng, rng.bool(0.7) ? 'external-secrets.io/v1' : 'external-secrets.io/v1beta1'),
  outputs: (s) => [esSecretName(s)],
  value: [
    {
      name: 'data[].remoteRef.key of a used key',
      apply(s, rng) {
        const k = esUsedDataKey(s, rng);
        esItem(s, k).remoteRef.key += `-${word(rng)}`;
        return k;
      },
    },
    {
      name: 'data[].remoteRef.property of a used key',
      apply(s, rng) {
        const k = esUsedDataKey(s, rng);
        esItem(s, k).remoteRef.property = `${k}-${word(rng)}`;
        return k;
      },
    },
    {
      name: 'data[].remoteRef.version of a used key (pinned or changed)',
      apply(s, rng) {
        const k = esUsedDataKey(s, rng);
        const ref = esItem(s, k).remoteRef;
        ref.version = String(Number(ref.version ?? 0) + rng.range(1, 5));
        return `${k}: ${ref.version}`;
      },
    },
    {
      name: 'secretStoreRef.name',
      apply(s, rng) {
        spec(s).secretStoreRef.name = other(rng, ['vault', 'aws-sm', 'gcp-sm', 'azure-kv'], spec(s).secretStoreRef.name);
      },
    },
    {
      name: 'secretStoreRef.kind',
      apply(s) {
        const r = spec(s).secretStoreRef;
        r.kind = r.kind === 'SecretStore' ? 'ClusterSecretStore' : 'SecretStore';
      },
    },
    {
      name: 'dataFrom added',
      when: (s) => spec(s).dataFrom === undefined,
      apply(s, rng) {
        spec(s).dataFrom = [rng.bool() ? { extract: { key: `shared/${word(rng)}` } } : { find: { name: { regexp: `^${word(rng)}` } } }];
      },
    },
    {
      name: 'dataFrom changed',
      when: (s) => spec(s).dataFrom !== undefined,
      apply(s, rng) {
        if (rng.bool()) spec(s).dataFrom[0].extract.key += `-${word(rng)}`;
        else spec(s).dataFrom.push({ extract: { key: `more/${word(rng)}` } });
      },
    },
    {
      name: 'target.template.data (an entry for a used key)',
      apply(s, rng) {
        const t = (spec(s).target.template ??= {});
        const k = esUsedDataKey(s, rng);
        t.data = { ...(t.data ?? {}), [k]: `{{ .${k} | upper }}-${word(rng)}` };
        return k;
      },
    },
    {
      name: 'target.template.type',
      apply(s, rng) {
        const t = (spec(s).target.template ??= {});
        t.type = other(rng, SECRET_TYPES, t.type);
        return t.type;
      },
    },
    {
      name: 'target.name changed (the references follow)',
      apply(s, rng) {
        const from = esSecretName(s);
        const to = other(rng, ['db-credentials', 'api-secret', 'app-env', 'renamed'], from);
        spec(s).target.name = to;
        renameSecretRefs(s, from, to);
        return `${from} → ${to}`;
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    {
      name: 'refreshInterval',
      apply(s, rng) {
        spec(s).refreshInterval = other(rng, ['1h', '15m', '0', '24h', '30s'], spec(s).refreshInterval);
      },
    },
    {
      name: 'refreshPolicy added/changed',
      apply(s, rng) {
        spec(s).refreshPolicy = other(rng, ['Periodic', 'OnChange', 'CreatedOnce'], spec(s).refreshPolicy);
      },
    },
    {
      name: 'target.template.metadata labels/annotations',
      when: (s) => spec(s).target.template !== undefined,
      apply(s, rng) {
        const t = spec(s).target.template;
        t.metadata ??= {};
        if (rng.bool()) t.metadata.labels = { ...(t.metadata.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
        else t.metadata.annotations = { ...(t.metadata.annotations ?? {}), [rng.pick(ANNOTATION_KEYS)]: word(rng) };
      },
    },
    {
      name: 'ExternalSecret renamed while target.name stays',
      when: (s) => spec(s).target.name !== undefined,
      apply(s) {
        prod(s).metadata.name += '-v2';
      },
    },
    {
      name: 'data[].remoteRef of a key the Deployment does not use',
      when: (s) => esKeyed(s) && keyOnly(s) && unusedKeys(s, esDataKeys(s)).length > 0,
      apply(s, rng) {
        const k = rng.pick(unusedKeys(s, esDataKeys(s)));
        const ref = esItem(s, k).remoteRef;
        if (rng.bool()) ref.key += `-${word(rng)}`;
        else ref.version = String(Number(ref.version ?? 0) + 1);
        return k;
      },
    },
    {
      name: 'data: an entry for a key the Deployment does not use added/removed',
      when: (s) => esKeyed(s) && keyOnly(s),
      apply(s, rng) {
        const unused = unusedKeys(s, esDataKeys(s));
        if (unused.length > 0 && rng.bool()) {
          spec(s).data = spec(s).data.filter((d: Obj) => d.secretKey !== unused[0]);
          return `removed ${unused[0]}`;
        }
        const k = freshKey(esDataKeys(s));
        spec(s).data.push({ secretKey: k, remoteRef: { key: `other/${word(rng)}`, property: k } });
        return `added ${k}`;
      },
    },
  ],
};

producerProperties(EXTERNAL_SECRET);

test('P8 ExternalSecret: external-secrets.io/v1beta1 hashes like v1 (group/Kind, not apiVersion), with a DEPRECATED_API warning', async () => {
  await forAll('P8-v1beta1', SEED + 0x400, async (c) => {
    const v1 = externalSecretBase(c.rng, 'external-secrets.io/v1');
    const beta = clone(v1);
    prod(beta).apiVersion = 'external-secrets.io/v1beta1';
    const what = `ExternalSecret, apiVersion v1 → v1beta1, ${c.label}`;
    const a = await hashOf(v1, c.rng, 'v1', c.keep);
    const b = await hashOf(beta, c.rng, 'v1beta1', c.keep);
    assert.is(b.hash, a.hash, `${what}: same hash`);
    assert.not.match(a.stderr, /deprecated/, `${what}: no warning for v1`);
    assert.match(b.stderr, /^rollstamp: warning: .*apiVersion: external-secrets\.io\/v1beta1 is deprecated/m, `${what}: a deprecation warning on stderr`);
    const text = render(beta, c.rng);
    c.keep('v1beta1-explain.yaml', text);
    const ex = await explainCodes(text);
    assert.is(ex.code, 0, `${what}: explain exits 0`);
    assert.ok(ex.codes.includes('warning:DEPRECATED_API'), `${what}: explain --json reports DEPRECATED_API (got ${ex.codes.join(', ')})`);
    assert.not.ok((await explainCodes(render(v1, c.rng))).codes.includes('warning:DEPRECATED_API'), `${what}: no DEPRECATED_API for v1`);
  }, 30);
});

const REGRESSIONS: Regression[] = [
  {
    scenario: EXTERNAL_SECRET,
    name: 'target.template with only metadata (labels) added to an ExternalSecret without a template',
    why: 'producers.ts EXTERNAL_SECRET.read: a template with only metadata hashes as template "{}" (not absent) and turns the producer unkeyed; ESO uses the provider data unchanged when the template has no data/templateFrom',
    when: (s) => spec(s).target.template === undefined,
    apply: (s, rng) => void (spec(s).target.template = { metadata: { labels: { [rng.pick(LABEL_KEYS)]: word(rng) } } }),
  },
  {
    scenario: EXTERNAL_SECRET,
    name: 'data[].remoteRef of a key the Deployment does not use, with a metadata-only target.template',
    why: 'producers.ts EXTERNAL_SECRET.read: any non-null target.template (even metadata only) makes every key depend on every data entry',
    when: (s) => spec(s).target.template === undefined && spec(s).dataFrom === undefined && keyOnly(s) && unusedKeys(s, esDataKeys(s)).length > 0,
    prepare: (s) => void (spec(s).target.template = { metadata: { labels: { app: 'web' } } }),
    apply: (s, rng) => void (esItem(s, rng.pick(unusedKeys(s, esDataKeys(s)))).remoteRef.key += `-${word(rng)}`),
  },
];

REGRESSIONS.forEach((bug, i) => regressionProperty(bug, 0 + i));

test.run();
