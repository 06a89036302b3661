// Producer kinds registry: objects in the bundle that produce a Secret (or a mounted volume) at runtime —
// SealedSecret, ExternalSecret, VaultStaticSecret, SecretProviderClass, cert-manager Certificate — one row
// each: its group/kind, the Secret (or ConfigMap, CSI mount) it makes by name, and the spec fields that
// determine the value. The value is not in Git, so the digest covers exactly those fields: a change there (a
// new ciphertext, a pinned version, a new store path) rolls the workload; refresh intervals, labels and other
// fields that do not change the value do not. A new producer is a row in PRODUCERS; resolve/producers.ts
// reads a row's inputs into a Produced (results included).
import { canonicalJson, canonicalObject } from '../model/canonical.ts';
import { child, childIn, isMapNode, type MapNode, stringValue } from '../model/nodes.ts';
import type { KObject, Produced, ProducerOutput } from '../model/object.ts';

/** One producer kind: which object, what it makes, and which of its fields determine each made value. */
export interface ProducerKind {
  group: string;
  kind: string;
  /** apiVersions read with a deprecation warning. */
  deprecated?: Readonly<Record<string, string>>;
  outputs(spec: MapNode | undefined, obj: KObject): ProducerOutput[];
  read(spec: MapNode | undefined, obj: KObject, output: ProducerOutput): Omit<Produced, 'kind' | 'producer'>;
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const omit = (...keys: string[]): ReadonlySet<string> => new Set(keys);
const str = (node: unknown): string | undefined => {
  const s = stringValue(node);
  return s === undefined || s === '' ? undefined : s;
};
const mapItems = (node: unknown): Array<[string, unknown]> =>
  (node as MapNode | undefined)?.items?.flatMap((p) => {
    const k = stringValue(p.key);
    return k === undefined ? [] : [[k, p.value] as [string, unknown]];
  }) ?? [];
const seqItems = (node: unknown): unknown[] => ((node as { items?: unknown[] } | undefined)?.items ?? []);
const isEmpty = (node: unknown): boolean => node === undefined || node === null || seqItems(node).length === 0;

/** Template and metadata fields that shape the produced Secret's labels and annotations, never its values. */
const TEMPLATE_METADATA = omit('metadata');

const SEALED_SECRET: ProducerKind = {
  group: 'bitnami.com',
  kind: 'SealedSecret',
  // The controller always names the Secret after the SealedSecret (template.metadata.name is overridden).
  outputs: (_spec, obj) => [{ cls: 'Secret', name: obj.name }],
  read(spec, obj) {
    const template = childIn(spec, ['template']);
    const templateData = childIn(template, ['data']);
    const common: Record<string, string | undefined> = {
      scope: sealingScope(obj),
      template: templateValues(template),
      data: canonicalJson(childIn(spec, ['data'])), // deprecated whole-Secret ciphertext
    };
    const encrypted = childIn(spec, ['encryptedData']);
    // template.data may combine any decrypted values: then every ciphertext decides every key.
    if (mapItems(templateData).length > 0 || common.data !== 'null') {
      return { common: canonicalObject({ ...common, encryptedData: canonicalJson(encrypted) }) };
    }
    const keyed = new Map(mapItems(encrypted).map(([k, v]) => [k, utf8(canonicalJson(v))]));
    return { common: canonicalObject(common), keyed };
  },
};

/**
 * The sealing scope changes the encryption label, so it decides whether decryption succeeds. The controller
 * acts only on "true", and cluster-wide wins over namespace-wide.
 */
function sealingScope(obj: KObject): string | undefined {
  if (obj.annotations.get('sealedsecrets.bitnami.com/cluster-wide') === 'true') return '"cluster-wide"';
  if (obj.annotations.get('sealedsecrets.bitnami.com/namespace-wide') === 'true') return '"namespace-wide"';
  return undefined;
}

/** A template's value-shaping part; undefined when it holds nothing but metadata (then values pass unchanged). */
function templateValues(template: unknown): string | undefined {
  const json = canonicalJson(template, TEMPLATE_METADATA);
  return json === '{}' || json === 'null' ? undefined : json;
}

const EXTERNAL_SECRET: ProducerKind = {
  group: 'external-secrets.io',
  kind: 'ExternalSecret',
  deprecated: { 'external-secrets.io/v1beta1': 'external-secrets.io/v1beta1 is deprecated and no longer served by External Secrets Operator; use external-secrets.io/v1' },
  outputs(spec, obj) {
    const target = childIn(spec, ['target']);
    const name = str(childIn(target, ['name'])) ?? obj.name;
    // target.manifest makes ESO write another kind; only a ConfigMap is something rollstamp hashes.
    const manifest = childIn(target, ['manifest']);
    if (manifest !== undefined && manifest !== null) {
      const kind = stringValue(childIn(manifest, ['kind']));
      const apiVersion = stringValue(childIn(manifest, ['apiVersion']));
      return kind === 'ConfigMap' && apiVersion === 'v1' ? [{ cls: 'ConfigMap', name }] : kind === 'Secret' && apiVersion === 'v1' ? [{ cls: 'Secret', name }] : [];
    }
    return [{ cls: 'Secret', name }];
  },
  read(spec) {
    const template = childIn(spec, ['target', 'template']);
    const common: Record<string, string | undefined> = {
      secretStoreRef: canonicalJson(childIn(spec, ['secretStoreRef'])),
      template: templateValues(template),
      dataFrom: isEmpty(childIn(spec, ['dataFrom'])) ? undefined : canonicalJson(childIn(spec, ['dataFrom'])),
      manifest: canonicalJson(childIn(spec, ['target', 'manifest'])),
    };
    const data = childIn(spec, ['data']);
    // dataFrom brings keys not named in Git, and a template may combine any of them: then no key stands alone.
    if (common.dataFrom !== undefined || common.template !== undefined) {
      return { common: canonicalObject({ ...common, data: canonicalJson(data) }) };
    }
    const perKey = new Map<string, string[]>();
    for (const item of seqItems(data)) {
      const key = stringValue(childIn(item, ['secretKey']));
      if (key === undefined) continue;
      const list = perKey.get(key) ?? [];
      list.push(canonicalJson(item, omit('secretKey')));
      perKey.set(key, list);
    }
    const keyed = new Map([...perKey].map(([k, items]) => [k, utf8(`[${items.join(',')}]`)]));
    return { common: canonicalObject(common), keyed };
  },
};

const VAULT_STATIC_SECRET: ProducerKind = {
  group: 'secrets.hashicorp.com',
  kind: 'VaultStaticSecret',
  outputs(spec) {
    const name = str(childIn(spec, ['destination', 'name']));
    return name === undefined ? [] : [{ cls: 'Secret', name }];
  },
  read(spec) {
    const destination = childIn(spec, ['destination']);
    return {
      common: canonicalObject({
        mount: canonicalJson(childIn(spec, ['mount'])),
        path: canonicalJson(childIn(spec, ['path'])),
        type: canonicalJson(childIn(spec, ['type'])),
        version: canonicalJson(childIn(spec, ['version'])),
        namespace: canonicalJson(childIn(spec, ['namespace'])),
        vaultAuthRef: canonicalJson(childIn(spec, ['vaultAuthRef'])),
        // The destination's type and transformation templates shape the values; its labels do not.
        destinationType: canonicalJson(childIn(destination, ['type'])),
        transformation: canonicalJson(childIn(destination, ['transformation'])),
      }),
    };
  },
};

const SECRET_PROVIDER_CLASS: ProducerKind = {
  group: 'secrets-store.csi.x-k8s.io',
  kind: 'SecretProviderClass',
  outputs(spec, obj) {
    const out: ProducerOutput[] = [{ cls: 'SecretProviderClass', name: obj.name }];
    for (const so of seqItems(childIn(spec, ['secretObjects']))) {
      const name = str(childIn(so, ['secretName']));
      if (name !== undefined) out.push({ cls: 'Secret', name });
    }
    return out;
  },
  read(spec, _obj, output) {
    // The provider's parameters (objectVersion included, inside the YAML string Azure and AWS use) decide
    // every mounted file; they are hashed as written.
    const base = { provider: canonicalJson(childIn(spec, ['provider'])), parameters: canonicalJson(childIn(spec, ['parameters'])) };
    if (output.cls === 'SecretProviderClass') return { common: canonicalObject(base) };
    const secretObjects = seqItems(childIn(spec, ['secretObjects'])).filter((so) => str(childIn(so, ['secretName'])) === output.name);
    const mapping = `[${secretObjects.map((so) => canonicalJson(so, omit('labels', 'annotations'))).join(',')}]`;
    return { common: canonicalObject({ ...base, secretObjects: mapping }) };
  },
};

const CERTIFICATE: ProducerKind = {
  group: 'cert-manager.io',
  kind: 'Certificate',
  outputs(spec) {
    const name = str(childIn(spec, ['secretName']));
    return name === undefined ? [] : [{ cls: 'Secret', name }];
  },
  // Every spec field shapes the issued certificate or key, except where it is stored and when it is renewed.
  read: (spec) => ({ common: utf8(canonicalJson(spec, omit('secretName', 'secretTemplate', 'renewBefore', 'renewBeforePercentage', 'revisionHistoryLimit'))) }),
};

export const PRODUCERS: readonly ProducerKind[] = [SEALED_SECRET, EXTERNAL_SECRET, VAULT_STATIC_SECRET, SECRET_PROVIDER_CLASS, CERTIFICATE];
const BY_GROUP_KIND = new Map(PRODUCERS.map((p) => [`${p.group}/${p.kind}`, p]));

/** The producer row of an object, if it is one. */
export function producerKindOf(obj: KObject): ProducerKind | undefined {
  return producerKind(obj.group, obj.kind);
}

/** The producer row of a group and kind (any version), if there is one. */
export function producerKind(group: string, kind: string): ProducerKind | undefined {
  return BY_GROUP_KIND.get(`${group}/${kind}`);
}

/**
 * What a producer makes, by name; a non-map spec makes nothing (reported when something references it).
 * A SecretProviderClass also "makes" its own CSI mount, which pod volumes reference by the class's name.
 */
export function producerOutputs(obj: KObject): ProducerOutput[] {
  const kind = producerKindOf(obj);
  if (!kind) return [];
  const spec = child(obj.item.node, 'spec');
  return kind.outputs(isMapNode(spec) ? spec : undefined, obj);
}
