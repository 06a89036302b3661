// Property 8, SecretProviderClass (secrets-store.csi.x-k8s.io/v1; a csi volume, and secretObjects): a change of
// what determines the value changes the stamped hash of the Deployment that uses what it makes; refresh
// settings, labels, key order, formatting and comments do not. The model and the properties every producer
// shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import { ANNOTATION_KEYS, COMMON_NEUTRAL, hex, KEYS, type KvObject, LABEL_KEYS, metadata, type Mutation, type Obj, objectsParam, other, parseObjects, prod, type Ref, renameSecretRefs, type Rng, sample, type Scenario, SECRET_TYPES, secretRefs, spec, type State, word } from '../support/producer-model.ts';
import { producerProperties } from '../support/producer-properties.ts';

// ---------------------------------------------------------------------------------------------------------
// SecretProviderClass

function spcBase(rng: Rng, synced: boolean): State {
  const ns = rng.pick([undefined, 'app', 'team-a']);
  const name = rng.pick(['azure-kv', 'app-secrets']);
  const objs: KvObject[] = sample(rng, ['db-password', 'api-key', 'tls-cert'], rng.range(1, 3)).map((n) => ({
    objectName: n,
    objectType: 'secret',
    ...(rng.bool(0.7) ? { objectVersion: hex(rng, 4) } : {}),
  }));
  const sp: Obj = {
    provider: rng.pick(['azure', 'vault', 'aws']),
    parameters: { keyvaultName: rng.pick(['prod-kv', 'shared-kv']), tenantId: '00000000-0000-0000-0000-000000000000', usePodIdentity: 'false', objects: objectsParam(objs) },
  };
  const syncedName = 'kv-synced';
  if (synced || rng.bool(0.4)) {
    sp.secretObjects = [
      {
        secretName: syncedName,
        type: 'Opaque',
        ...(rng.bool(0.5) ? { labels: { app: 'web' } } : {}),
        data: objs.map((o, i) => ({ objectName: o.objectName, key: KEYS[i]! })),
      },
    ];
    if (rng.bool(0.3)) sp.secretObjects.push({ secretName: 'other-synced', type: 'Opaque', data: [{ objectName: objs[0]!.objectName, key: 'value' }] });
  }
  const refs: Ref[] = synced ? secretRefs(rng, syncedName, objs.map((_, i) => KEYS[i]!)) : [];
  // The synced Secret exists only while a pod mounts the volume; the Deployment usually mounts it too.
  if (!synced || rng.bool(0.6)) refs.push({ via: 'csi', spc: name });
  const s: State = { ns, refs, docs: [] };
  s.docs.push({ apiVersion: 'secrets-store.csi.x-k8s.io/v1', kind: 'SecretProviderClass', metadata: metadata(s, name, rng), spec: sp });
  return s;
}

const spcSynced = (s: State): Obj => spec(s).secretObjects.find((so: Obj) => so.secretName === 'kv-synced' || so.secretName === 'kv-synced-v2');
const csiMounted = (s: State): boolean => s.refs.some((r) => r.via === 'csi');

const spcValue: Mutation[] = [
  {
    name: 'parameters.objects: objectVersion inside the YAML string (pinned or changed)',
    apply(s, rng) {
      const objs = parseObjects(spec(s).parameters.objects);
      const o = rng.pick(objs);
      o.objectVersion = o.objectVersion === undefined ? hex(rng, 4) : `${o.objectVersion}0`;
      spec(s).parameters.objects = objectsParam(objs);
      return `${o.objectName}@${o.objectVersion}`;
    },
  },
  {
    name: 'parameters.objects: an object added',
    apply(s, rng) {
      const objs = parseObjects(spec(s).parameters.objects);
      objs.push({ objectName: `extra-${word(rng)}`, objectType: rng.pick(['secret', 'key', 'cert']) });
      spec(s).parameters.objects = objectsParam(objs);
    },
  },
  { name: 'parameters.keyvaultName', apply: (s, rng) => void (spec(s).parameters.keyvaultName = other(rng, ['prod-kv', 'shared-kv', 'dr-kv'], spec(s).parameters.keyvaultName)) },
  { name: 'provider', apply: (s, rng) => void (spec(s).provider = other(rng, ['azure', 'vault', 'aws', 'gcp'], spec(s).provider)) },
];

const spcNeutral: Mutation[] = [
  ...COMMON_NEUTRAL,
  {
    name: 'secretObjects[].labels/annotations',
    when: (s) => spec(s).secretObjects !== undefined,
    apply(s, rng) {
      const so = rng.pick(spec(s).secretObjects as Obj[]);
      if (rng.bool()) so.labels = { ...(so.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
      else so.annotations = { ...(so.annotations ?? {}), [rng.pick(ANNOTATION_KEYS)]: word(rng) };
    },
  },
];

const SPC_CSI: Scenario = {
  index: 3,
  csiMount: true,
  producer: 'SecretProviderClass secrets-store.csi.x-k8s.io/v1 (csi volume)',
  base: (rng) => spcBase(rng, false),
  outputs: (s) => [prod(s).metadata.name],
  value: [
    ...spcValue,
    {
      name: 'SecretProviderClass renamed (the csi volume follows)',
      apply(s) {
        prod(s).metadata.name += '-v2';
        for (const r of s.refs) if (r.via === 'csi') r.spc = prod(s).metadata.name;
      },
    },
  ],
  neutral: [
    ...spcNeutral,
    {
      name: 'secretObjects added/changed (the mounted files do not depend on them)',
      apply(s, rng) {
        const list = (spec(s).secretObjects ??= []);
        list.push({ secretName: `sync-${word(rng)}`, type: 'Opaque', data: [{ objectName: 'db-password', key: 'password' }] });
      },
    },
  ],
};

const SPC_SYNCED: Scenario = {
  index: 4,
  producer: 'SecretProviderClass secrets-store.csi.x-k8s.io/v1 (secretObjects[].secretName)',
  base: (rng) => spcBase(rng, true),
  outputs: (s) => [spcSynced(s).secretName, ...(csiMounted(s) ? [prod(s).metadata.name] : [])],
  value: [
    ...spcValue,
    {
      name: 'secretObjects[].data mapping: objectName or key changed',
      apply(s, rng) {
        const d = rng.pick(spcSynced(s).data as Obj[]);
        if (rng.bool()) d.objectName = `${d.objectName}-${word(rng)}`;
        else d.key = `${d.key}-${word(rng)}`;
      },
    },
    {
      name: 'secretObjects[].data mapping: entry added',
      apply(s, rng) {
        spcSynced(s).data.push({ objectName: `extra-${word(rng)}`, key: `k-${word(rng)}` });
      },
    },
    { name: 'secretObjects[].type', apply: (s, rng) => void (spcSynced(s).type = other(rng, SECRET_TYPES, spcSynced(s).type)) },
    {
      name: 'secretObjects[].secretName changed (the references follow)',
      apply(s) {
        const so = spcSynced(s);
        renameSecretRefs(s, so.secretName, `${so.secretName}-v2`);
        so.secretName += '-v2';
      },
    },
  ],
  neutral: [
    ...spcNeutral,
    {
      name: 'another secretObjects entry (a Secret the Deployment does not use) added/changed',
      apply(s, rng) {
        const list: Obj[] = spec(s).secretObjects;
        const o = list.find((so) => so.secretName === 'other-synced');
        if (o) o.data.push({ objectName: `x-${word(rng)}`, key: `k-${word(rng)}` });
        else list.push({ secretName: 'other-synced', type: 'Opaque', data: [{ objectName: 'db-password', key: word(rng) }] });
      },
    },
    {
      name: 'SecretProviderClass renamed (nothing mounts it by name)',
      when: (s) => !csiMounted(s),
      apply: (s) => void (prod(s).metadata.name += '-v2'),
    },
  ],
};

producerProperties(SPC_CSI);
producerProperties(SPC_SYNCED);

test.run();
