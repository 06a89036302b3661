// Property 8: producers. A Secret (or CSI mount) made by a SealedSecret, ExternalSecret, VaultStaticSecret,
// SecretProviderClass or cert-manager Certificate, or a SOPS-encrypted Secret, is hashed from the producer's
// value-determining fields only: a change there changes the stamped hash of the Deployment that uses it;
// refresh settings, labels, key order, formatting, comments (and, for keyed producers, keys the Deployment
// does not read) do not. Also: two objects making one Secret are an error (AMBIGUOUS_SOURCE),
// rollstamp.dev/ignore on a producer drops the source, and external-secrets.io/v1beta1 hashes like v1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { effectiveNs, type Rng } from './support/generate.ts';
import { cli, forAll, stamp } from './support/harness.ts';
import { randomStyle, renderStream, YMap, type YNode } from './support/render.ts';

// ---------------------------------------------------------------------------------------------------------
// Model: plain data for the Deployment's references and the producer documents.

// Test data is edited freely by the mutations below; `any` keeps those edits short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Obj = Record<string, Any>;

type Ref = { via: 'envFrom'; name: string } | { via: 'keyRef'; name: string; key: string } | { via: 'csi'; spc: string };

interface State {
  /** Namespace of every object (undefined: written without one). */
  ns: string | undefined;
  /** The Deployment's references to what the producer makes (a ConfigMap is always referenced too). */
  refs: Ref[];
  /** docs[0] is the producer (or the SOPS Secret); more documents may follow. */
  docs: Obj[];
}

interface Mutation {
  name: string;
  /** Whether the mutation applies to this base. */
  when?: (s: State) => boolean;
  /** Edits a copy of the base; returns a detail for messages. */
  apply: (s: State, rng: Rng) => string | void;
}

interface Scenario {
  producer: string;
  base: (rng: Rng) => State;
  /** Mutations that change what the Deployment reads: the hash must change. */
  value: Mutation[];
  /** Mutations that do not: the hash must stay. */
  neutral: Mutation[];
  /** The names of the Secrets (or SecretProviderClass, for CSI) the producer makes and the Deployment uses. */
  outputs: (s: State) => string[];
}

const clone = <T>(x: T): T => structuredClone(x);
const prod = (s: State): Obj => s.docs[0]!;
const spec = (s: State): Obj => prod(s).spec;

const KEYS = ['password', 'username', 'token', 'api-key', 'tls.key', 'DB_HOST', 'config.json', 'ca.crt'];
const LABEL_KEYS = ['team', 'app.kubernetes.io/part-of', 'tier', 'example.com/owner'];
const ANNOTATION_KEYS = ['argocd.argoproj.io/sync-wave', 'example.com/note', 'kubectl.kubernetes.io/description', 'owner'];

function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  return rng.shuffle(items).slice(0, n);
}
/** A value from `items` other than `current`. */
function other<T>(rng: Rng, items: readonly T[], current: T): T {
  const rest = items.filter((x) => x !== current);
  return rng.pick(rest);
}
function b64(rng: Rng, n: number): string {
  return Buffer.from(rng.bytes(n)).toString('base64');
}
const sealed = (rng: Rng): string => `Ag${b64(rng, rng.range(24, 60))}`;
const sopsEnc = (rng: Rng): string => `ENC[AES256_GCM,data:${b64(rng, rng.range(4, 24))},iv:${b64(rng, 12)},tag:${b64(rng, 16)},type:str]`;
const hex = (rng: Rng, n: number): string => Buffer.from(rng.bytes(n)).toString('hex');
const word = (rng: Rng): string => rng.pick(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']) + '-' + rng.int(1000);

function metadata(s: { ns: string | undefined }, name: string, rng: Rng): Obj {
  const m: Obj = { name };
  if (s.ns !== undefined) m.namespace = s.ns;
  if (rng.bool(0.4)) m.labels = { [rng.pick(LABEL_KEYS)]: word(rng) };
  if (rng.bool(0.3)) m.annotations = { [rng.pick(ANNOTATION_KEYS)]: word(rng) };
  return m;
}

/** References to a keyed Secret: envFrom (every key), one secretKeyRef, or both. */
function secretRefs(rng: Rng, name: string, keys: readonly string[]): Ref[] {
  switch (rng.pick(['envFrom', 'keyRef', 'keyRef', 'both'] as const)) {
    case 'envFrom':
      return [{ via: 'envFrom', name }];
    case 'keyRef':
      return [{ via: 'keyRef', name, key: rng.pick(keys) }];
    default:
      return [{ via: 'keyRef', name, key: rng.pick(keys) }, { via: 'envFrom', name }];
  }
}

const wholeUse = (s: State): boolean => s.refs.some((r) => r.via === 'envFrom');
/** Keys the Deployment reads among `keys`. */
const usedKeys = (s: State, keys: readonly string[]): string[] =>
  wholeUse(s) ? [...keys] : keys.filter((k) => s.refs.some((r) => r.via === 'keyRef' && r.key === k));
/** Keys the Deployment does not read (only when it reads single keys). */
const unusedKeys = (s: State, keys: readonly string[]): string[] => (wholeUse(s) ? [] : keys.filter((k) => !usedKeys(s, keys).includes(k)));
const keyOnly = (s: State): boolean => !wholeUse(s) && s.refs.some((r) => r.via === 'keyRef');
const freshKey = (keys: readonly string[]): string => KEYS.find((k) => !keys.includes(k)) ?? `extra-${keys.length}`;

function renameSecretRefs(s: State, from: string, to: string): void {
  for (const r of s.refs) if (r.via !== 'csi' && r.name === from) r.name = to;
}

// Mutations every producer shares.
const producerLabel: Mutation = {
  name: 'producer label added/changed',
  apply(s, rng) {
    const m = prod(s).metadata;
    const k = rng.pick(LABEL_KEYS);
    m.labels = { ...(m.labels ?? {}), [k]: `${m.labels?.[k] ?? ''}x${word(rng)}` };
    return k;
  },
};
const producerAnnotation: Mutation = {
  name: 'producer annotation added/changed',
  apply(s, rng) {
    const m = prod(s).metadata;
    const k = rng.pick(ANNOTATION_KEYS);
    m.annotations = { ...(m.annotations ?? {}), [k]: `${m.annotations?.[k] ?? ''}x${word(rng)}` };
    return k;
  },
};
const producerMetadataDropped: Mutation = {
  name: 'producer labels and annotations removed',
  when: (s) => prod(s).metadata.labels !== undefined || (prod(s).metadata.annotations !== undefined && !hasScope(s)),
  apply(s) {
    delete prod(s).metadata.labels;
    if (!hasScope(s)) delete prod(s).metadata.annotations;
  },
};
/** Nothing but the formatting (every render picks its own key order, flow/block, quoting, comments). */
const reformat: Mutation = { name: 'reformat only (key order, flow/block, quoting, comments)', apply: () => undefined };
const COMMON_NEUTRAL = [producerLabel, producerAnnotation, producerMetadataDropped, reformat];

const SCOPE = ['sealedsecrets.bitnami.com/cluster-wide', 'sealedsecrets.bitnami.com/namespace-wide'];
const hasScope = (s: State): boolean => SCOPE.some((k) => prod(s).metadata.annotations?.[k] !== undefined);

// ---------------------------------------------------------------------------------------------------------
// SealedSecret

const SECRET_TYPES = ['Opaque', 'kubernetes.io/basic-auth', 'kubernetes.io/tls', 'example.com/custom'];
const ssKeys = (s: State): string[] => Object.keys(spec(s).encryptedData);

const SEALED_SECRET: Scenario = {
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

// ---------------------------------------------------------------------------------------------------------
// VaultStaticSecret

const vssName = (s: State): string => spec(s).destination.name;

const VAULT_STATIC_SECRET: Scenario = {
  producer: 'VaultStaticSecret secrets.hashicorp.com/v1beta1',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const dest = rng.pick(['webapp-secret', 'vault-creds']);
    const s: State = { ns, refs: secretRefs(rng, dest, sample(rng, KEYS, 3)), docs: [] };
    const type = rng.pick(['kv-v1', 'kv-v2']);
    const sp: Obj = {
      vaultAuthRef: rng.pick(['static-auth', 'default']),
      mount: rng.pick(['kvv2', 'secret']),
      type,
      path: rng.pick(['webapp/config', 'team/db']),
      refreshAfter: rng.pick(['30s', '1h']),
      destination: { name: dest, create: rng.bool(0.8) },
    };
    if (type === 'kv-v2' && rng.bool(0.4)) sp.version = rng.range(1, 9);
    if (rng.bool(0.3)) sp.namespace = rng.pick(['team-a', 'admin/team-b']);
    if (rng.bool(0.3)) sp.hmacSecretData = true;
    if (rng.bool(0.4)) sp.destination.labels = { app: 'web' };
    if (rng.bool(0.3)) sp.destination.type = 'Opaque';
    if (rng.bool(0.3)) sp.destination.transformation = { excludeRaw: true, templates: { url: { text: '{{ get .Secrets "host" }}' } } };
    s.docs.push({ apiVersion: 'secrets.hashicorp.com/v1beta1', kind: 'VaultStaticSecret', metadata: metadata(s, 'webapp', rng), spec: sp });
    return s;
  },
  outputs: (s) => [vssName(s)],
  value: [
    { name: 'mount', apply: (s, rng) => void (spec(s).mount = other(rng, ['kvv2', 'secret', 'kv', 'apps'], spec(s).mount)) },
    { name: 'path', apply: (s, rng) => void (spec(s).path += `/${word(rng)}`) },
    {
      name: 'type (kv-v1 ↔ kv-v2)',
      apply(s) {
        spec(s).type = spec(s).type === 'kv-v1' ? 'kv-v2' : 'kv-v1';
      },
    },
    { name: 'version (pinned or changed)', apply: (s, rng) => void (spec(s).version = (spec(s).version ?? 0) + rng.range(1, 4)) },
    { name: 'namespace (Vault namespace) set or changed', apply: (s, rng) => void (spec(s).namespace = other(rng, ['team-a', 'admin/team-b', 'ops'], spec(s).namespace)) },
    { name: 'vaultAuthRef', apply: (s, rng) => void (spec(s).vaultAuthRef = other(rng, ['static-auth', 'default', 'other-auth'], spec(s).vaultAuthRef)) },
    {
      name: 'destination.transformation added/changed',
      apply(s, rng) {
        const d = spec(s).destination;
        if (d.transformation === undefined) d.transformation = { templates: { dsn: { text: `{{ get .Secrets "${word(rng)}" }}` } } };
        else if (rng.bool()) d.transformation.excludeRaw = !d.transformation.excludeRaw;
        else d.transformation.templates.url.text += '-x';
      },
    },
    {
      name: 'destination.name changed (the references follow)',
      apply(s) {
        const from = vssName(s);
        spec(s).destination.name = `${from}-v2`;
        renameSecretRefs(s, from, `${from}-v2`);
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    { name: 'refreshAfter', apply: (s, rng) => void (spec(s).refreshAfter = other(rng, ['30s', '1h', '5m', '10s'], spec(s).refreshAfter)) },
    {
      name: 'destination.labels added/changed/removed',
      apply(s, rng) {
        const d = spec(s).destination;
        if (d.labels !== undefined && rng.bool(0.3)) delete d.labels;
        else d.labels = { ...(d.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
      },
    },
    { name: 'destination.create', apply: (s) => void (spec(s).destination.create = !spec(s).destination.create) },
    { name: 'VaultStaticSecret renamed', apply: (s) => void (prod(s).metadata.name += '-v2') },
  ],
};

// ---------------------------------------------------------------------------------------------------------
// SecretProviderClass

interface KvObject {
  objectName: string;
  objectType: string;
  objectVersion?: string;
}
/** The `objects` parameter as Azure writes it: a YAML string holding a list of YAML strings. */
function objectsParam(objs: readonly KvObject[]): string {
  const lines = ['array:'];
  for (const o of objs) {
    lines.push('  - |', `    objectName: ${o.objectName}`, `    objectType: ${o.objectType}`);
    if (o.objectVersion !== undefined) lines.push(`    objectVersion: "${o.objectVersion}"`);
  }
  return `${lines.join('\n')}\n`;
}
/** Reads back what objectsParam wrote (only that shape). */
function parseObjects(text: string): KvObject[] {
  const out: KvObject[] = [];
  for (const line of text.split('\n')) {
    const m = /^ {4}(\w+): "?([^"]*)"?$/.exec(line);
    if (line.startsWith('  - |')) out.push({ objectName: '', objectType: '' });
    else if (m) (out[out.length - 1] as unknown as Record<string, string>)[m[1]!] = m[2]!;
  }
  return out;
}

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

// ---------------------------------------------------------------------------------------------------------
// cert-manager Certificate

const USAGES = ['server auth', 'client auth', 'digital signature', 'key encipherment'];

const CERTIFICATE: Scenario = {
  producer: 'Certificate cert-manager.io/v1',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const secretName = rng.pick(['web-tls', 'api-tls-secret']);
    const s: State = { ns, refs: secretRefs(rng, secretName, ['tls.crt', 'tls.key', 'ca.crt']), docs: [] };
    const hosts = sample(rng, ['web.example.com', 'api.example.com', 'www.example.org', 'admin.example.net'], rng.range(1, 3));
    const sp: Obj = {
      secretName,
      dnsNames: hosts,
      issuerRef: { name: rng.pick(['letsencrypt-prod', 'internal-ca']), kind: rng.pick(['ClusterIssuer', 'Issuer']), group: 'cert-manager.io' },
    };
    if (rng.bool(0.5)) sp.commonName = hosts[0];
    if (rng.bool(0.6)) sp.duration = rng.pick(['2160h', '720h']);
    if (rng.bool(0.6)) sp.renewBefore = rng.pick(['360h', '48h']);
    if (rng.bool(0.6)) sp.privateKey = { algorithm: rng.pick(['RSA', 'ECDSA']), ...(rng.bool() ? { rotationPolicy: 'Always' } : {}) };
    if (rng.bool(0.5)) sp.usages = sample(rng, USAGES, 2);
    if (rng.bool(0.3)) sp.secretTemplate = { labels: { app: 'web' } };
    if (rng.bool(0.3)) sp.revisionHistoryLimit = rng.range(1, 5);
    s.docs.push({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: metadata(s, 'web-cert', rng), spec: sp });
    return s;
  },
  outputs: (s) => [spec(s).secretName],
  value: [
    {
      name: 'dnsNames: a name added or changed',
      apply(s, rng) {
        const names: string[] = spec(s).dnsNames;
        if (rng.bool()) names.push(`${word(rng)}.example.com`);
        else names[0] = `${word(rng)}.example.com`;
      },
    },
    { name: 'commonName set or changed', apply: (s, rng) => void (spec(s).commonName = `${word(rng)}.example.com`) },
    { name: 'issuerRef.name', apply: (s, rng) => void (spec(s).issuerRef.name = other(rng, ['letsencrypt-prod', 'internal-ca', 'letsencrypt-staging'], spec(s).issuerRef.name)) },
    { name: 'issuerRef.kind', apply: (s) => void (spec(s).issuerRef.kind = spec(s).issuerRef.kind === 'Issuer' ? 'ClusterIssuer' : 'Issuer') },
    { name: 'duration set or changed', apply: (s, rng) => void (spec(s).duration = other(rng, ['2160h', '720h', '8760h'], spec(s).duration)) },
    {
      name: 'privateKey.algorithm',
      apply(s, rng) {
        const pk = (spec(s).privateKey ??= {});
        pk.algorithm = other(rng, ['RSA', 'ECDSA', 'Ed25519'], pk.algorithm ?? 'RSA');
      },
    },
    {
      name: 'usages added or changed',
      apply(s, rng) {
        const u: string[] = spec(s).usages ?? [];
        spec(s).usages = [...u, other(rng, USAGES, u[0])].filter((x, i, a) => a.indexOf(x) === i);
        if (spec(s).usages.length === u.length) spec(s).usages = [...u, 'code signing'];
      },
    },
    {
      name: 'secretName changed (the references follow)',
      apply(s) {
        const from = spec(s).secretName;
        spec(s).secretName = `${from}-v2`;
        renameSecretRefs(s, from, `${from}-v2`);
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    { name: 'renewBefore set or changed', apply: (s, rng) => void (spec(s).renewBefore = other(rng, ['360h', '48h', '720h'], spec(s).renewBefore)) },
    {
      name: 'secretTemplate added/changed',
      apply(s, rng) {
        const t = (spec(s).secretTemplate ??= {});
        if (rng.bool()) t.labels = { ...(t.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
        else t.annotations = { ...(t.annotations ?? {}), [rng.pick(ANNOTATION_KEYS)]: word(rng) };
      },
    },
    { name: 'revisionHistoryLimit set or changed', apply: (s) => void (spec(s).revisionHistoryLimit = (spec(s).revisionHistoryLimit ?? 1) + 1) },
    { name: 'Certificate renamed', apply: (s) => void (prod(s).metadata.name += '-v2') },
  ],
};

// ---------------------------------------------------------------------------------------------------------
// SOPS-encrypted Secret

const sopsKeys = (s: State): Array<['data' | 'stringData', string]> =>
  (['data', 'stringData'] as const).flatMap((f) => Object.keys(prod(s)[f] ?? {}).map((k) => [f, k] as ['data' | 'stringData', string]));

const SOPS: Scenario = {
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

const SCENARIOS: readonly Scenario[] = [SEALED_SECRET, EXTERNAL_SECRET, VAULT_STATIC_SECRET, SPC_CSI, SPC_SYNCED, CERTIFICATE, SOPS];

// ---------------------------------------------------------------------------------------------------------
// Rendering and stamping

function toY(v: Any): YNode {
  if (Array.isArray(v)) return v.map(toY);
  if (v !== null && typeof v === 'object') return new YMap(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, toY(x)]));
  return v as YNode;
}

function deployment(s: State): Obj {
  const env: Obj[] = [];
  const envFrom: Obj[] = [{ configMapRef: { name: 'app-config' } }];
  const volumes: Obj[] = [];
  const mounts: Obj[] = [];
  s.refs.forEach((r, i) => {
    if (r.via === 'envFrom') envFrom.push({ secretRef: { name: r.name } });
    else if (r.via === 'keyRef') env.push({ name: `VAR_${i}`, valueFrom: { secretKeyRef: { name: r.name, key: r.key } } });
    else {
      volumes.push({ name: `secrets-${i}`, csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, volumeAttributes: { secretProviderClass: r.spc } } });
      mounts.push({ name: `secrets-${i}`, mountPath: `/mnt/secrets-${i}`, readOnly: true });
    }
  });
  const container: Obj = { name: 'web', image: 'registry.example/web:1.0', envFrom };
  if (env.length) container.env = env;
  if (mounts.length) container.volumeMounts = mounts;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', ...(s.ns ? { namespace: s.ns } : {}), annotations: { 'rollstamp.dev/enabled': 'true' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container], ...(volumes.length ? { volumes } : {}) } },
    },
  };
}

function render(s: State, rng: Rng): string {
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', ...(s.ns ? { namespace: s.ns } : {}) }, data: { LOG_LEVEL: 'info' } };
  return renderStream([deployment(s), configMap, ...s.docs].map(toY), randomStyle(rng), rng.fork());
}

const deploymentId = (s: State): string => `Deployment/${effectiveNs(s.ns)}/web`;

async function hashOf(s: State, rng: Rng, what: string, keep: (k: string, t: string) => void): Promise<{ hash: string; stderr: string }> {
  const text = render(s, rng);
  keep(`${what.replace(/[^A-Za-z0-9]+/g, '-')}.yaml`, text);
  const { run, stamps } = await stamp(text, what);
  const hash = stamps.get(deploymentId(s));
  assert.ok(hash !== undefined && /^sha256:[0-9a-f]{64}$/.test(hash), `${what}: the Deployment is stamped (got ${hash})`);
  return { hash: hash!, stderr: run.stderr };
}

/** The applicable mutation tried least so far (so every one is exercised), ties broken by the generator. */
function pickMutation(list: readonly Mutation[], s: State, seen: Map<string, number>, rng: Rng): Mutation | undefined {
  const ok = list.filter((m) => !m.when || m.when(s));
  if (ok.length === 0) return undefined;
  const least = Math.min(...ok.map((m) => seen.get(m.name) ?? 0));
  return rng.pick(ok.filter((m) => (seen.get(m.name) ?? 0) === least));
}

const CASES_PER_PRODUCER = 50;
const SEED = 0x9e8a0001;

SCENARIOS.forEach((sc, i) => {
  test(`P8 ${sc.producer}: value-determining mutations change the hash, the others do not`, async () => {
    const seenValue = new Map<string, number>();
    const seenNeutral = new Map<string, number>();
    await forAll(`P8-${sc.producer}`, SEED + i, async (c) => {
      const base = sc.base(c.rng);
      const where = (kind: string, m: Mutation, detail: string | void): string =>
        `${sc.producer}, ${kind} mutation "${m.name}"${detail ? ` (${detail})` : ''}, ${c.label}`;
      const before = await hashOf(base, c.rng, 'base', c.keep);

      const vm = pickMutation(sc.value, base, seenValue, c.rng)!;
      const changed = clone(base);
      const vd = vm.apply(changed, c.rng);
      seenValue.set(vm.name, (seenValue.get(vm.name) ?? 0) + 1);
      const after = await hashOf(changed, c.rng, 'value-mutated', c.keep);
      assert.is.not(after.hash, before.hash, `${where('value', vm, vd)}: must change the Deployment's hash`);

      // One to three non-value mutations at once, each a different one.
      const neutral = clone(base);
      const applied: string[] = [];
      const n = c.rng.range(1, 3);
      for (let k = 0; k < n; k++) {
        const nm = pickMutation(
          sc.neutral.filter((m) => !applied.some((a) => a.startsWith(`"${m.name}"`))),
          neutral,
          seenNeutral,
          c.rng,
        );
        if (!nm) break;
        const nd = nm.apply(neutral, c.rng);
        seenNeutral.set(nm.name, (seenNeutral.get(nm.name) ?? 0) + 1);
        applied.push(`"${nm.name}"${nd ? ` (${nd})` : ''}`);
      }
      const same = await hashOf(neutral, c.rng, 'neutral-mutated', c.keep);
      assert.is(same.hash, before.hash, `${sc.producer}, non-value mutation(s) ${applied.join(' + ')}, ${c.label}: must not change the Deployment's hash`);
    }, CASES_PER_PRODUCER);
    for (const m of sc.value) assert.ok(seenValue.has(m.name), `${sc.producer}: no case tried the value mutation "${m.name}" (seed 0x${(SEED + i).toString(16)})`);
    for (const m of sc.neutral) assert.ok(seenNeutral.has(m.name), `${sc.producer}: no case tried the non-value mutation "${m.name}" (seed 0x${(SEED + i).toString(16)})`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Two objects making one Secret; rollstamp.dev/ignore; external-secrets.io/v1beta1

interface Explanation {
  results: Array<{ severity: string; message: string; tags: { code: string } }>;
}

async function explainCodes(text: string): Promise<{ code: number; codes: string[] }> {
  const run = await cli(['explain', '--json', '-'], text);
  const doc = JSON.parse(run.stdout) as Explanation;
  return { code: run.code, codes: doc.results.map((r) => `${r.severity}:${r.tags.code}`) };
}

/** A second producer (of another kind, or the same) that makes the Secret `name`. */
function otherProducer(rng: Rng, s: State, name: string, exclude: string): Obj {
  const meta = { name: `${name}-other`, ...(s.ns ? { namespace: s.ns } : {}) };
  const makers: Array<[string, () => Obj]> = [
    ['SealedSecret', () => ({ apiVersion: 'bitnami.com/v1alpha1', kind: 'SealedSecret', metadata: { ...meta, name }, spec: { encryptedData: { password: sealed(rng) } } })],
    ['ExternalSecret', () => ({ apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', metadata: meta, spec: { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' }, target: { name }, data: [{ secretKey: 'password', remoteRef: { key: 'x' } }] } })],
    ['VaultStaticSecret', () => ({ apiVersion: 'secrets.hashicorp.com/v1beta1', kind: 'VaultStaticSecret', metadata: meta, spec: { mount: 'kv', type: 'kv-v2', path: 'x', destination: { name, create: true } } })],
    ['Certificate', () => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: meta, spec: { secretName: name, dnsNames: ['x.example.com'], issuerRef: { name: 'ca', kind: 'Issuer' } } })],
    ['SecretProviderClass', () => ({ apiVersion: 'secrets-store.csi.x-k8s.io/v1', kind: 'SecretProviderClass', metadata: meta, spec: { provider: 'vault', parameters: { roleName: 'r' }, secretObjects: [{ secretName: name, type: 'Opaque', data: [{ objectName: 'o', key: 'k' }] }] } })],
  ];
  const [, make] = rng.pick(makers.filter(([k]) => k !== exclude));
  return make();
}

const kindOf = (s: State): string => (prod(s).kind === 'Secret' ? 'sops' : prod(s).kind);

SCENARIOS.forEach((sc, i) => {
  test(`P8 ${sc.producer}: another object making the same output is AMBIGUOUS_SOURCE (exit 1)`, async () => {
    await forAll(`P8-ambiguous-${sc.producer}`, SEED + 0x100 + i, async (c) => {
      const s = sc.base(c.rng);
      const out = sc.outputs(s)[0]!;
      const isSpcMount = sc === SPC_CSI;
      // A plain Secret next to a producer (a plain Secret next to a SOPS Secret is two plain Secrets:
      // DUPLICATE_SOURCE, checked below), or a second producer.
      const plain = !isSpcMount && kindOf(s) !== 'sops' && c.rng.bool();
      let extra: Obj;
      if (plain) extra = { apiVersion: 'v1', kind: 'Secret', metadata: { name: out, ...(s.ns ? { namespace: s.ns } : {}) }, data: { password: 'cGFzcw==' } };
      else if (isSpcMount) extra = { ...clone(prod(s)), spec: { provider: 'azure', parameters: { objects: objectsParam([{ objectName: 'x', objectType: 'secret' }]) } } };
      else extra = otherProducer(c.rng, s, out, kindOf(s));
      s.docs.splice(c.rng.int(s.docs.length + 1), 0, extra);
      const text = render(s, c.rng);
      c.keep('input.yaml', text);
      const what = `${sc.producer}, ${plain ? 'a plain Secret' : `a second producer (${extra.kind})`} making ${out}, ${c.label}`;
      const run = await cli(['stamp', '-'], text);
      assert.is(run.code, 1, `${what}: stamp must exit 1 (stderr: ${run.stderr.trim()})`);
      assert.is(run.stdout, '', `${what}: nothing on stdout`);
      assert.match(run.stderr, /^rollstamp: error: .* is defined by more than one object: /, `${what}: stderr says why (got ${JSON.stringify(run.stderr)})`);
      const ex = await explainCodes(text);
      assert.is(ex.code, 1, `${what}: explain must exit 1`);
      assert.ok(ex.codes.includes('error:AMBIGUOUS_SOURCE'), `${what}: explain --json reports AMBIGUOUS_SOURCE (got ${ex.codes.join(', ')})`);
    }, 8);
  });

  test(`P8 ${sc.producer}: rollstamp.dev/ignore: "true" on the producer drops the source`, async () => {
    await forAll(`P8-ignore-${sc.producer}`, SEED + 0x200 + i, async (c) => {
      const s = sc.base(c.rng);
      const ignored = clone(s);
      prod(ignored).metadata.annotations = { ...(prod(ignored).metadata.annotations ?? {}), 'rollstamp.dev/ignore': 'true' };
      const unreferenced = clone(s);
      unreferenced.refs = [];
      const what = `${sc.producer}, rollstamp.dev/ignore: "true", ${c.label}`;
      const h0 = (await hashOf(s, c.rng, 'base', c.keep)).hash;
      const h1 = await hashOf(ignored, c.rng, 'ignored', c.keep);
      const h2 = (await hashOf(unreferenced, c.rng, 'unreferenced', c.keep)).hash;
      assert.is(h1.hash, h2, `${what}: the hash must equal the hash of the Deployment without the reference`);
      assert.is.not(h0, h2, `${what}: (generator) the producer contributes when not ignored`);
      // ignore is also a non-value switch for everything else: a value mutation of an ignored producer is moot.
      const moved = clone(ignored);
      pickMutation(sc.value.filter((m) => !/renamed|changed \(the|follow/.test(m.name)), moved, new Map(), c.rng)?.apply(moved, c.rng);
      assert.is((await hashOf(moved, c.rng, 'ignored-mutated', c.keep)).hash, h2, `${what}: a value change of an ignored producer changes nothing`);
    }, 6);
  });
});

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

// ---------------------------------------------------------------------------------------------------------
// Regressions: metadata-only templates and sealing-scope values that once changed the hash and must not.

interface Regression {
  scenario: Scenario;
  name: string;
  /** Where the product goes wrong. */
  why: string;
  when: (s: State) => boolean;
  /** Applied to the base too (so the base has the shape the bug needs). */
  prepare?: (s: State, rng: Rng) => void;
  apply: (s: State, rng: Rng) => void;
}

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

REGRESSIONS.forEach((bug, i) => {
  test(`P8 ${bug.scenario.producer}: "${bug.name}" must not change the hash`, async () => {
    let ran = 0;
    await forAll(`P8-regression-${i}`, SEED + 0x500 + i, async (c) => {
      const base = bug.scenario.base(c.rng);
      if (!bug.when(base)) return;
      bug.prepare?.(base, c.rng);
      const after = clone(base);
      bug.apply(after, c.rng);
      const h0 = (await hashOf(base, c.rng, 'base', c.keep)).hash;
      const h1 = (await hashOf(after, c.rng, 'mutated', c.keep)).hash;
      assert.is(h1, h0, `${bug.scenario.producer}, non-value mutation "${bug.name}", ${c.label}: must not change the Deployment's hash [${bug.why}]`);
      ran++;
    }, 40);
    assert.ok(ran > 0, `${bug.name}: no case applied`);
  });
});

test.run();
