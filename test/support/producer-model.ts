// Shared by the producer property tests (test/property/producers-*.test.ts, property 8): the model of a Deployment
// and the producer that makes what it reads, the mutations every producer shares, and rendering and stamping it.
import * as assert from 'uvu/assert';
import { effectiveNs, type Rng } from './property-generate.ts';
import { stamp } from './property-harness.ts';
import { randomStyle, renderStream, YMap, type YNode } from './property-render.ts';

export type { Rng };
// ---------------------------------------------------------------------------------------------------------
// Model: plain data for the Deployment's references and the producer documents.

// Test data is edited freely by the mutations below; `any` keeps those edits short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;
export type Obj = Record<string, Any>;

export type Ref = { via: 'envFrom'; name: string } | { via: 'keyRef'; name: string; key: string } | { via: 'csi'; spc: string };

export interface State {
  /** Namespace of every object (undefined: written without one). */
  ns: string | undefined;
  /** The Deployment's references to what the producer makes (a ConfigMap is always referenced too). */
  refs: Ref[];
  /** docs[0] is the producer (or the SOPS Secret); more documents may follow. */
  docs: Obj[];
}

export interface Mutation {
  name: string;
  /** Whether the mutation applies to this base. */
  when?: (s: State) => boolean;
  /** Edits a copy of the base; returns a detail for messages. */
  apply: (s: State, rng: Rng) => string | void;
}

export interface Scenario {
  producer: string;
  /** Its place in the list of producers: the seeds of its properties derive from it. */
  index: number;
  /** What it makes is a csi volume's mount, not a Secret. Default: false. */
  csiMount?: true;
  base: (rng: Rng) => State;
  /** Mutations that change what the Deployment reads: the hash must change. */
  value: Mutation[];
  /** Mutations that do not: the hash must stay. */
  neutral: Mutation[];
  /** The names of the Secrets (or SecretProviderClass, for CSI) the producer makes and the Deployment uses. */
  outputs: (s: State) => string[];
}

export const clone = <T>(x: T): T => structuredClone(x);
export const prod = (s: State): Obj => s.docs[0]!;
export const spec = (s: State): Obj => prod(s).spec;

export const KEYS = ['password', 'username', 'token', 'api-key', 'tls.key', 'DB_HOST', 'config.json', 'ca.crt'];
export const LABEL_KEYS = ['team', 'app.kubernetes.io/part-of', 'tier', 'example.com/owner'];
export const ANNOTATION_KEYS = ['argocd.argoproj.io/sync-wave', 'example.com/note', 'kubectl.kubernetes.io/description', 'owner'];

export function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  return rng.shuffle(items).slice(0, n);
}
/** A value from `items` other than `current`. */
export function other<T>(rng: Rng, items: readonly T[], current: T): T {
  const rest = items.filter((x) => x !== current);
  return rng.pick(rest);
}
export function b64(rng: Rng, n: number): string {
  return Buffer.from(rng.bytes(n)).toString('base64');
}
export const sealed = (rng: Rng): string => `Ag${b64(rng, rng.range(24, 60))}`;
export const sopsEnc = (rng: Rng): string => `ENC[AES256_GCM,data:${b64(rng, rng.range(4, 24))},iv:${b64(rng, 12)},tag:${b64(rng, 16)},type:str]`;
export const hex = (rng: Rng, n: number): string => Buffer.from(rng.bytes(n)).toString('hex');
export const word = (rng: Rng): string => rng.pick(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']) + '-' + rng.int(1000);

export function metadata(s: { ns: string | undefined }, name: string, rng: Rng): Obj {
  const m: Obj = { name };
  if (s.ns !== undefined) m.namespace = s.ns;
  if (rng.bool(0.4)) m.labels = { [rng.pick(LABEL_KEYS)]: word(rng) };
  if (rng.bool(0.3)) m.annotations = { [rng.pick(ANNOTATION_KEYS)]: word(rng) };
  return m;
}

/** References to a keyed Secret: envFrom (every key), one secretKeyRef, or both. */
export function secretRefs(rng: Rng, name: string, keys: readonly string[]): Ref[] {
  switch (rng.pick(['envFrom', 'keyRef', 'keyRef', 'both'] as const)) {
    case 'envFrom':
      return [{ via: 'envFrom', name }];
    case 'keyRef':
      return [{ via: 'keyRef', name, key: rng.pick(keys) }];
    default:
      return [{ via: 'keyRef', name, key: rng.pick(keys) }, { via: 'envFrom', name }];
  }
}

export const wholeUse = (s: State): boolean => s.refs.some((r) => r.via === 'envFrom');
/** Keys the Deployment reads among `keys`. */
export const usedKeys = (s: State, keys: readonly string[]): string[] =>
  wholeUse(s) ? [...keys] : keys.filter((k) => s.refs.some((r) => r.via === 'keyRef' && r.key === k));
/** Keys the Deployment does not read (only when it reads single keys). */
export const unusedKeys = (s: State, keys: readonly string[]): string[] => (wholeUse(s) ? [] : keys.filter((k) => !usedKeys(s, keys).includes(k)));
export const keyOnly = (s: State): boolean => !wholeUse(s) && s.refs.some((r) => r.via === 'keyRef');
export const freshKey = (keys: readonly string[]): string => KEYS.find((k) => !keys.includes(k)) ?? `extra-${keys.length}`;

export function renameSecretRefs(s: State, from: string, to: string): void {
  for (const r of s.refs) if (r.via !== 'csi' && r.name === from) r.name = to;
}

// Mutations every producer shares.
export const producerLabel: Mutation = {
  name: 'producer label added/changed',
  apply(s, rng) {
    const m = prod(s).metadata;
    const k = rng.pick(LABEL_KEYS);
    m.labels = { ...(m.labels ?? {}), [k]: `${m.labels?.[k] ?? ''}x${word(rng)}` };
    return k;
  },
};
export const producerAnnotation: Mutation = {
  name: 'producer annotation added/changed',
  apply(s, rng) {
    const m = prod(s).metadata;
    const k = rng.pick(ANNOTATION_KEYS);
    m.annotations = { ...(m.annotations ?? {}), [k]: `${m.annotations?.[k] ?? ''}x${word(rng)}` };
    return k;
  },
};
export const producerMetadataDropped: Mutation = {
  name: 'producer labels and annotations removed',
  when: (s) => prod(s).metadata.labels !== undefined || (prod(s).metadata.annotations !== undefined && !hasScope(s)),
  apply(s) {
    delete prod(s).metadata.labels;
    if (!hasScope(s)) delete prod(s).metadata.annotations;
  },
};
/** Nothing but the formatting (every render picks its own key order, flow/block, quoting, comments). */
export const reformat: Mutation = { name: 'reformat only (key order, flow/block, quoting, comments)', apply: () => undefined };
export const COMMON_NEUTRAL = [producerLabel, producerAnnotation, producerMetadataDropped, reformat];

export const SCOPE = ['sealedsecrets.bitnami.com/cluster-wide', 'sealedsecrets.bitnami.com/namespace-wide'];
export const hasScope = (s: State): boolean => SCOPE.some((k) => prod(s).metadata.annotations?.[k] !== undefined);

export const SECRET_TYPES = ['Opaque', 'kubernetes.io/basic-auth', 'kubernetes.io/tls', 'example.com/custom'];

export interface KvObject {
  objectName: string;
  objectType: string;
  objectVersion?: string;
}
/** The `objects` parameter as Azure writes it: a YAML string holding a list of YAML strings. */
export function objectsParam(objs: readonly KvObject[]): string {
  const lines = ['array:'];
  for (const o of objs) {
    lines.push('  - |', `    objectName: ${o.objectName}`, `    objectType: ${o.objectType}`);
    if (o.objectVersion !== undefined) lines.push(`    objectVersion: "${o.objectVersion}"`);
  }
  return `${lines.join('\n')}\n`;
}
/** Reads back what objectsParam wrote (only that shape). */
export function parseObjects(text: string): KvObject[] {
  const out: KvObject[] = [];
  for (const line of text.split('\n')) {
    const m = /^ {4}(\w+): "?([^"]*)"?$/.exec(line);
    if (line.startsWith('  - |')) out.push({ objectName: '', objectType: '' });
    else if (m) (out[out.length - 1] as unknown as Record<string, string>)[m[1]!] = m[2]!;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Rendering and stamping

export function toY(v: Any): YNode {
  if (Array.isArray(v)) return v.map(toY);
  if (v !== null && typeof v === 'object') return new YMap(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, toY(x)]));
  return v as YNode;
}

export function deployment(s: State): Obj {
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

export function render(s: State, rng: Rng): string {
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', ...(s.ns ? { namespace: s.ns } : {}) }, data: { LOG_LEVEL: 'info' } };
  return renderStream([deployment(s), configMap, ...s.docs].map(toY), randomStyle(rng), rng.fork());
}

export const deploymentId = (s: State): string => `Deployment/${effectiveNs(s.ns)}/web`;

export async function hashOf(s: State, rng: Rng, what: string, keep: (k: string, t: string) => void): Promise<{ hash: string; stderr: string }> {
  const text = render(s, rng);
  keep(`${what.replace(/[^A-Za-z0-9]+/g, '-')}.yaml`, text);
  const { run, stamps } = await stamp(text, what);
  const hash = stamps.get(deploymentId(s));
  assert.ok(hash !== undefined && /^sha256:[0-9a-f]{64}$/.test(hash), `${what}: the Deployment is stamped (got ${hash})`);
  return { hash: hash!, stderr: run.stderr };
}

/** The applicable mutation tried least so far (so every one is exercised), ties broken by the generator. */
export function pickMutation(list: readonly Mutation[], s: State, seen: Map<string, number>, rng: Rng): Mutation | undefined {
  const ok = list.filter((m) => !m.when || m.when(s));
  if (ok.length === 0) return undefined;
  const least = Math.min(...ok.map((m) => seen.get(m.name) ?? 0));
  return rng.pick(ok.filter((m) => (seen.get(m.name) ?? 0) === least));
}
