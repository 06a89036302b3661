// Seeded random bundles for property tests: a model of workloads, the Secrets and ConfigMaps they reference
// and unrelated objects; what each target uses (from the model, not from rollstamp); mutations of the model;
// and the model rendered as Kubernetes objects (see render.ts for the text).
import { createHash, createHmac } from 'node:crypto';
import { YMap, ymap, type YNode } from './property-render.ts';
import { WORKLOAD_ROWS } from '../../function/kinds/workload-rows.ts';
import type { WorkloadRow } from '../../function/model/workload-row.ts';

// ---------------------------------------------------------------------------------------------------------
// PRNG

/** mulberry32: small, fast, good enough to drive generators; the same seed gives the same sequence. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** 0 ≤ n < max. */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** lo ≤ n ≤ hi. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  hex(chars: number): string {
    let s = '';
    while (s.length < chars) s += this.int(16).toString(16);
    return s;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  /** An independent generator (its seed drawn from this one). */
  fork(): Rng {
    return new Rng(this.int(2 ** 32));
  }
}

/** The seed of case `i` of a run seeded with `seed`. */
export function caseSeed(seed: number, i: number): number {
  let h = (seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// ---------------------------------------------------------------------------------------------------------
// Values

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The string whose UTF-8 encoding is `bytes`, or undefined when they are not valid UTF-8. */
export function asText(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const WORDS = [
  'alpha', 'hunter2', 's3cr3t', 'localhost:5432', 'postgres://u:p@db:5432/app?sslmode=require', '{"a": 1}', '- item',
  'key: value', '# not a comment', 'true', 'false', 'null', '~', 'yes', 'no', 'on', '0x1F', '1e3', '.inf', '-', '---',
  '...', '0755', '@at', '`tick`', '*star', '&anchor', '!tag', '%pct', '|pipe', '>fold', '[x]', '{y}', 'a, b', "it's",
  'say "hi"', 'back\\slash', '<<', '=', '?', 'a: b: c', 'sha256:abc', 'info', 'DEBUG', '0o17', '0o755',
];
const UNICODE = ['é', 'e\u0301', 'ß', '日本語', '😀', '🔑', '\u200b', '\u00a0', 'Ω', 'ñ', 'שלום', '\ufffd', 'İ', '𝒳', '\u00ad'];
const CONTROL = ['\n', '\n', '\t', '\r', '\r\n', '\0', '\x1b', '\x7f', '\u0085', '\u2028', '\ufeff', '\x01', '\u009f'];

/** A random string (any Unicode scalar values, no lone surrogates). */
export function genText(rng: Rng): string {
  if (rng.bool(0.08)) return '';
  let s = '';
  const pieces = rng.range(1, 6);
  for (let i = 0; i < pieces; i++) {
    const r = rng.next();
    if (r < 0.35) s += rng.pick(WORDS);
    else if (r < 0.55) s += rng.pick(UNICODE);
    else if (r < 0.65) s += rng.pick([' ', '  ', ' ']);
    else if (r < 0.75) s += rng.pick(CONTROL);
    else {
      const n = rng.range(1, 10);
      for (let j = 0; j < n; j++) s += String.fromCharCode(rng.range(0x20, 0x7e));
    }
  }
  if (rng.bool(0.1)) s = ` ${s}`;
  if (rng.bool(0.1)) s += rng.pick([' ', '\n', '\n\n']);
  return s;
}

/** Random bytes: binary (often invalid UTF-8), or text. */
export function genBytes(rng: Rng): Uint8Array {
  const r = rng.next();
  if (r < 0.1) return new Uint8Array();
  if (r < 0.6) return rng.bytes(rng.range(1, 24));
  return utf8.encode(genText(rng));
}

/** Bytes different from `old`. */
export function differentBytes(rng: Rng, old: Uint8Array, text: boolean): Uint8Array {
  for (;;) {
    const b = text ? utf8.encode(genText(rng)) : genBytes(rng);
    if (!Buffer.from(b).equals(Buffer.from(old))) return b;
  }
}

const COMMON_KEYS = [
  'password', 'username', 'token', 'api-key', 'API_KEY', 'config.json', 'tls.crt', 'tls.key', 'ca.crt', '.env',
  'a', 'b', 'c_1', 'LOG_LEVEL', 'DB-HOST', 'x.y.z', 'settings.yaml',
];
const ODD_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '123', '0', 'true', 'null', '1e3', '-', '..', '日本', 'é', 'e\u0301', 'a b', 'ключ', '😀', 'ｚ', '\ue000', 'Z', 'z'];
const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._';

/** A data key: mostly valid Kubernetes keys, some odd ones (rollstamp does not validate keys). */
export function genKey(rng: Rng): string {
  const r = rng.next();
  if (r < 0.5) return rng.pick(COMMON_KEYS);
  if (r < 0.62) return rng.pick(ODD_KEYS);
  let s = '';
  const n = rng.range(1, 12);
  for (let i = 0; i < n; i++) s += KEY_CHARS[rng.int(KEY_CHARS.length)];
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// Model

export type SourceClass = 'Secret' | 'ConfigMap';
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'CronJob';

/**
 * Operator rows of the kind table the generator also writes (#24): a generated pod spec wrapped in the row's
 * shape — at its first pod spec path, its template annotations at its stamp site. The row is chosen from the
 * workload's filler seed, so the generator's random stream (and every seeded case) is what it was.
 */
// Rows of a kind with components (a VMCluster's vmselect …) are one target per component an object has: the
// unit suites (workload-rows, operator-docs) cover them; a generated workload here is one object, one stamp.
export const ROW_SHAPES: readonly WorkloadRow[] = WORKLOAD_ROWS.filter((r) => r.group !== 'apps' && r.group !== 'batch' && r.group !== '' && r.rolls !== 'immutable' && r.component === undefined);
export type ContainerList = 'containers' | 'initContainers' | 'ephemeralContainers';

/** One key of a Secret or ConfigMap. */
export interface Entry {
  key: string;
  /** Effective bytes (what the API server stores). */
  bytes: Uint8Array;
  /** Secret: `data` (base64) or `stringData`; ConfigMap: `data` (text) or `binaryData` (base64). */
  field: 'data' | 'stringData' | 'binaryData';
  /** Secret only, with field stringData: a `data` value for the same key, which stringData overrides. */
  shadow?: Uint8Array;
  /** Written instead of the encoded value (to make invalid input on purpose). */
  raw?: YNode;
}

export interface SourceModel {
  cls: SourceClass;
  name: string;
  /** As written; undefined means no metadata.namespace. */
  namespace?: string;
  entries: Entry[];
  /** How empty `data` maps are written. */
  empty: 'omit' | 'map' | 'null';
  labels: Array<[string, string]>;
  annotations: Array<[string, string]>;
  type?: string;
}

interface RefBase {
  cls: SourceClass;
  name: string;
  optional?: boolean;
}

export type Ref =
  | (RefBase & { via: 'env'; key: string; list: ContainerList; container: number })
  | (RefBase & { via: 'envFrom'; list: ContainerList; container: number; prefix?: string })
  | (RefBase & { via: 'volume'; items?: string[] })
  | { via: 'projected'; sources: Array<RefBase & { items?: string[] }> }
  | { via: 'annotation'; cls: SourceClass; namespace?: string; name: string };

export interface WorkloadModel {
  kind: WorkloadKind;
  /** Written as this operator row's kind instead (ROW_SHAPES); `kind` still shapes the pod spec. */
  row?: WorkloadRow;
  name: string;
  namespace?: string;
  /** annotation/label: opted in; false: opted out; none: not a target. */
  optIn: 'annotation' | 'label' | 'false' | 'none';
  refs: Ref[];
  containers: number;
  initContainers: number;
  ephemeralContainers: number;
  imagePullSecrets: string[];
  /** Other annotations of the pod template. */
  templateAnnotations: Array<[string, string]>;
  /** A stamp already in the input (stale, random, or null: `rollstamp.dev/hash:` with no value). */
  stamp?: string | null;
  /** Seed for the fields that do not matter (images, ports …). */
  filler: number;
}

export interface OtherModel {
  kind: 'Service' | 'ServiceAccount' | 'Namespace' | 'ForeignSecret' | 'ForeignConfigMap' | 'Job' | 'Pod' | 'Ingress' | 'ReplicaSetOff';
  name: string;
  namespace?: string;
  filler: number;
  /** Secret names a Job or Pod references (never targets: immutable templates). */
  secretRefs: string[];
}

export interface Bundle {
  sources: SourceModel[];
  workloads: WorkloadModel[];
  others: OtherModel[];
  /** Document order: indices into the concatenation sources ++ workloads ++ others. */
  order?: number[];
}

export const ENABLED = 'rollstamp.dev/enabled';
export const HASH_KEY = 'rollstamp.dev/hash';
export const NAMESPACES = [undefined, 'default', 'prod', 'team-a'] as const;
const SOURCE_NAMES = ['db', 'api-keys', 'web-config', 'tls', 'shared', 'app.settings', 'cache', 'creds-2'];
const WORKLOAD_NAMES = ['web', 'worker', 'api', 'queue', 'batch', 'edge'];

export const effectiveNs = (ns: string | undefined): string => (ns === undefined || ns === '' ? 'default' : ns);
export const sourceId = (cls: SourceClass, ns: string, name: string): string => `${cls}/${ns}/${name}`;
export const idOfSource = (s: SourceModel): string => sourceId(s.cls, effectiveNs(s.namespace), s.name);
export const isTarget = (w: WorkloadModel): boolean => w.optIn === 'annotation' || w.optIn === 'label';
/** How hashes are keyed in results: `Kind/namespace/name`. */
export const workloadId = (w: { kind: string; name: string; namespace?: string; row?: WorkloadRow }): string => `${w.row?.kind ?? w.kind}/${effectiveNs(w.namespace)}/${w.name}`;

export function findSource(b: Bundle, id: string): SourceModel | undefined {
  return b.sources.find((s) => idOfSource(s) === id);
}

/** A source's bytes per key, as the API server would store them. */
export function entriesOf(s: SourceModel): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const e of s.entries) out.set(e.key, e.bytes);
  return out;
}

/** What one target uses of one source (from the model). */
export interface Use {
  id: string;
  cls: SourceClass;
  namespace: string;
  name: string;
  whole: boolean;
  keys: Set<string>;
}

/** The sources a workload uses, by id. */
export function usesOf(w: WorkloadModel): Map<string, Use> {
  const ns = effectiveNs(w.namespace);
  const uses = new Map<string, Use>();
  const add = (cls: SourceClass, refNs: string, name: string, keys: string[] | 'whole'): void => {
    const id = sourceId(cls, refNs, name);
    let u = uses.get(id);
    if (!u) uses.set(id, (u = { id, cls, namespace: refNs, name, whole: false, keys: new Set() }));
    if (keys === 'whole') u.whole = true;
    else for (const k of keys) u.keys.add(k);
  };
  const itemsOrWhole = (items: string[] | undefined): string[] | 'whole' => (items && items.length > 0 ? items : 'whole');
  for (const r of w.refs) {
    if (r.via === 'env') add(r.cls, ns, r.name, [r.key]);
    else if (r.via === 'envFrom') add(r.cls, ns, r.name, 'whole');
    else if (r.via === 'volume') add(r.cls, ns, r.name, itemsOrWhole(r.items));
    else if (r.via === 'projected') for (const s of r.sources) add(s.cls, ns, s.name, itemsOrWhole(s.items));
    else add(r.cls, r.namespace ? r.namespace : ns, r.name, 'whole');
  }
  return uses;
}

/** True when a change of `key` (undefined: the whole object appearing or disappearing) of `id` reaches `w`. */
export function dependsOn(w: WorkloadModel, id: string, key?: string): boolean {
  const use = usesOf(w).get(id);
  if (!use) return false;
  return key === undefined || use.whole || use.keys.has(key);
}

// ---------------------------------------------------------------------------------------------------------
// Generation

export interface GenOptions {
  /** Secret values are unique markers `CANARY-<hex>` (returned in `canaries`). */
  canary?: boolean;
  /** At least this many targets (default 1). */
  minTargets?: number;
}

/** Keys whose UTF-8 byte order differs from their UTF-16 order, or that differ only in normalization or case. */
const ORDER_TRAPS = ['ｚ', '\ue000', '😀', '𝒳', 'z', 'Z', 'é', 'e\u0301', 'a', 'A', '_'];

export function genEntries(rng: Rng, cls: SourceClass, canaries?: string[]): Entry[] {
  const entries: Entry[] = [];
  const traps = rng.bool(0.1);
  const n = traps ? rng.range(2, 4) : rng.pick([0, 1, 1, 2, 2, 3, 4]);
  const keys = new Set<string>();
  for (let i = 0; i < n; i++) {
    const key = traps ? rng.pick(ORDER_TRAPS) : genKey(rng);
    if (keys.has(key)) continue;
    keys.add(key);
    entries.push(genEntry(rng, cls, key, canaries));
  }
  return entries;
}

/** A text entry (ConfigMap data, or Secret stringData). */
export function utf8Entry(key: string, text: string, field: Entry['field'] = 'data'): Entry {
  return { key, bytes: utf8.encode(text), field };
}

export function genEntry(rng: Rng, cls: SourceClass, key: string, canaries?: string[]): Entry {
  if (canaries && cls === 'Secret') {
    const marker = `CANARY-${rng.hex(20)}`;
    canaries.push(marker);
    return { key, bytes: utf8.encode(marker), field: rng.bool() ? 'data' : 'stringData' };
  }
  const r = rng.next();
  if (cls === 'Secret') {
    if (r < 0.4) return { key, bytes: genBytes(rng), field: 'data' };
    if (r < 0.6) return { key, bytes: utf8.encode(genText(rng)), field: 'data' };
    const e: Entry = { key, bytes: utf8.encode(genText(rng)), field: 'stringData' };
    if (rng.bool(0.2)) e.shadow = genBytes(rng);
    return e;
  }
  if (r < 0.7) return { key, bytes: utf8.encode(genText(rng)), field: 'data' };
  return { key, bytes: genBytes(rng), field: 'binaryData' };
}

function genMeta(rng: Rng): Array<[string, string]> {
  const pool: Array<[string, string]> = [
    ['app.kubernetes.io/name', 'app'],
    ['app.kubernetes.io/part-of', 'shop'],
    ['team', 'payments'],
    ['kustomize.toolkit.fluxcd.io/name', 'apps'],
    ['note', 'rotated 2024-01-01'],
    ['checksum/config', 'abc123'],
  ];
  return rng.shuffle(pool).slice(0, rng.int(3));
}

export function genSource(rng: Rng, cls: SourceClass, name: string, namespace: string | undefined, canaries?: string[]): SourceModel {
  const s: SourceModel = {
    cls,
    name,
    entries: genEntries(rng, cls, canaries),
    empty: rng.pick(['omit', 'map', 'null'] as const),
    labels: genMeta(rng),
    annotations: genMeta(rng),
  };
  if (namespace !== undefined) s.namespace = namespace;
  if (cls === 'Secret' && rng.bool(0.5)) s.type = rng.pick(['Opaque', 'kubernetes.io/tls', 'kubernetes.io/basic-auth']);
  return s;
}

/** A namespace as written (undefined, "", or a name). */
function genNamespace(rng: Rng): string | undefined {
  if (rng.bool(0.05)) return '';
  return rng.pick(NAMESPACES);
}

/** A random bundle. */
export function genBundle(rng: Rng, opts: GenOptions = {}): { bundle: Bundle; canaries: string[] } {
  const canaries: string[] = [];
  const sources: SourceModel[] = [];
  const ids = new Set<string>();
  const nSources = rng.range(0, 5);
  for (let i = 0; i < nSources; i++) {
    const cls: SourceClass = rng.bool() ? 'Secret' : 'ConfigMap';
    const ns = genNamespace(rng);
    const name = rng.pick(SOURCE_NAMES);
    const id = sourceId(cls, effectiveNs(ns), name);
    if (ids.has(id)) continue;
    ids.add(id);
    sources.push(genSource(rng, cls, name, ns, opts.canary ? canaries : undefined));
  }

  const workloads: WorkloadModel[] = [];
  const nTargets = rng.range(opts.minTargets ?? 1, 3);
  const nOther = rng.bool(0.3) ? 1 : 0;
  for (let i = 0; i < nTargets + nOther; i++) {
    const kind = rng.pick(['Deployment', 'StatefulSet', 'DaemonSet', 'CronJob'] as const);
    const ns = genNamespace(rng);
    const optIn = i < nTargets ? rng.pick(['annotation', 'annotation', 'label'] as const) : rng.pick(['false', 'none'] as const);
    workloads.push(genWorkload(rng, kind, `${rng.pick(WORKLOAD_NAMES)}-${i}`, ns, optIn, sources));
  }

  const others: OtherModel[] = [];
  const nOthers = rng.pick([0, 0, 1, 1, 2]);
  for (let i = 0; i < nOthers; i++) {
    others.push({
      kind: rng.pick(['Service', 'ServiceAccount', 'Namespace', 'ForeignSecret', 'ForeignConfigMap', 'Job', 'Pod', 'Ingress', 'ReplicaSetOff'] as const),
      name: rng.pick([...SOURCE_NAMES, ...WORKLOAD_NAMES]),
      ...(rng.bool() ? { namespace: rng.pick(['prod', 'team-a', 'default']) } : {}),
      filler: rng.int(2 ** 32),
      secretRefs: rng.shuffle(SOURCE_NAMES).slice(0, rng.int(3)),
    });
  }
  // Others are never sources or targets, but their names may repeat; keep kind/namespace/name unique anyway.
  const seen = new Set<string>();
  const uniqueOthers = others.filter((o) => {
    const id = `${o.kind}/${effectiveNs(o.namespace)}/${o.name}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const bundle: Bundle = { sources, workloads, others: uniqueOthers };
  const total = sources.length + workloads.length + uniqueOthers.length;
  bundle.order = rng.shuffle([...Array(total).keys()]);
  return { bundle, canaries };
}

function genItems(rng: Rng, present: string[]): string[] | undefined {
  const r = rng.next();
  if (r < 0.45) return undefined;
  if (r < 0.5) return [];
  const n = rng.range(1, 3);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(present.length > 0 && rng.bool(0.8) ? rng.pick(present) : genKey(rng));
  return out;
}

export function genWorkload(
  rng: Rng,
  kind: WorkloadKind,
  name: string,
  namespace: string | undefined,
  optIn: WorkloadModel['optIn'],
  sources: readonly SourceModel[],
): WorkloadModel {
  const ns = effectiveNs(namespace);
  const containers = rng.pick([1, 1, 2]);
  const initContainers = rng.pick([0, 0, 0, 1]);
  const ephemeralContainers = rng.pick([0, 0, 0, 0, 0, 1]);
  const local = sources.filter((s) => effectiveNs(s.namespace) === ns);
  /** A reference target: a source of this namespace, or a name nothing defines (missing). */
  const pickSource = (): { cls: SourceClass; name: string; keys: string[] } => {
    if (local.length > 0 && rng.bool(0.85)) {
      const s = rng.pick(local);
      return { cls: s.cls, name: s.name, keys: s.entries.map((e) => e.key) };
    }
    return { cls: rng.bool() ? 'Secret' : 'ConfigMap', name: rng.pick(SOURCE_NAMES), keys: [] };
  };
  const optional = (): { optional?: boolean } => (rng.bool(0.3) ? { optional: rng.bool() } : {});
  const refs: Ref[] = [];
  const nRefs = rng.pick([0, 1, 2, 2, 3, 3, 4, 5]);
  for (let i = 0; i < nRefs; i++) {
    const src = pickSource();
    const lists: ContainerList[] = ['containers', 'containers', 'containers'];
    if (initContainers > 0) lists.push('initContainers');
    if (ephemeralContainers > 0) lists.push('ephemeralContainers');
    const list = rng.pick(lists);
    const container = rng.int(list === 'containers' ? containers : list === 'initContainers' ? initContainers : ephemeralContainers);
    const r = rng.next();
    if (r < 0.35) {
      const key = src.keys.length > 0 && rng.bool(0.85) ? rng.pick(src.keys) : genKey(rng);
      refs.push({ via: 'env', cls: src.cls, name: src.name, key, list, container, ...optional() });
    } else if (r < 0.55) {
      refs.push({ via: 'envFrom', cls: src.cls, name: src.name, list, container, ...optional(), ...(rng.bool(0.3) ? { prefix: 'APP_' } : {}) });
    } else if (r < 0.75) {
      const items = genItems(rng, src.keys);
      refs.push({ via: 'volume', cls: src.cls, name: src.name, ...(items ? { items } : {}), ...optional() });
    } else if (r < 0.92) {
      const n = rng.range(1, 3);
      const projected: Array<RefBase & { items?: string[] }> = [];
      for (let j = 0; j < n; j++) {
        const s = j === 0 ? src : pickSource();
        const items = genItems(rng, s.keys);
        projected.push({ cls: s.cls, name: s.name, ...(items ? { items } : {}), ...optional() });
      }
      refs.push({ via: 'projected', sources: projected });
    } else {
      // Extra dependency by annotation, possibly across namespaces.
      const other = sources.length > 0 && rng.bool(0.7) ? rng.pick(sources) : undefined;
      if (other) {
        const otherNs = effectiveNs(other.namespace);
        refs.push({ via: 'annotation', cls: other.cls, name: other.name, ...(otherNs !== ns || rng.bool(0.3) ? { namespace: otherNs } : {}) });
      } else {
        refs.push({ via: 'annotation', cls: src.cls, name: src.name });
      }
    }
  }
  const w: WorkloadModel = {
    kind,
    name,
    optIn,
    refs,
    containers,
    initContainers,
    ephemeralContainers,
    imagePullSecrets: rng.bool(0.3) ? rng.shuffle(SOURCE_NAMES).slice(0, rng.range(1, 2)) : [],
    templateAnnotations: rng.bool(0.3) ? [['prometheus.io/scrape', 'true']] : [],
    filler: rng.int(2 ** 32),
  };
  if (namespace !== undefined) w.namespace = namespace;
  if (rng.bool(0.15)) w.stamp = rng.pick([`sha256:${rng.hex(64)}`, 'stale', null]);
  // About a third of the workloads are written as an operator row (from the filler seed: no extra draw).
  const shape = (w.filler >>> 4) % (ROW_SHAPES.length * 3);
  if (shape < ROW_SHAPES.length && kind !== 'CronJob') w.row = ROW_SHAPES[shape]!;
  return w;
}

// ---------------------------------------------------------------------------------------------------------
// Objects

export interface ObjectOptions {
  /** Chance that a base64 value is wrapped (line breaks every 76 characters, as `base64` prints). */
  wrapBase64?: number;
  rng?: Rng;
}

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

function encodeBase64(bytes: Uint8Array, opts: ObjectOptions): string {
  const text = b64(bytes);
  if (!opts.rng || !opts.wrapBase64 || text.length <= 8 || !opts.rng.bool(opts.wrapBase64)) return text;
  const width = opts.rng.pick([4, 8, 76]);
  const lines = text.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
  return lines.join('\n') + (opts.rng.bool() ? '\n' : '');
}

function metaMap(m: Array<[string, string]>): YMap | undefined {
  return m.length > 0 ? new YMap(m.map(([k, v]) => [k, v])) : undefined;
}

export function sourceDoc(s: SourceModel, opts: ObjectOptions = {}): YMap {
  const labels = metaMap(s.labels);
  const annotations = metaMap(s.annotations);
  const metadata = ymap(
    ['name', s.name],
    s.namespace !== undefined && ['namespace', s.namespace],
    labels && ['labels', labels],
    annotations && ['annotations', annotations],
  );
  const fields = new Map<string, Array<[string, YNode]>>();
  const put = (field: string, key: string, value: YNode): void => {
    const list = fields.get(field) ?? [];
    list.push([key, value]);
    fields.set(field, list);
  };
  for (const e of s.entries) {
    if (e.raw !== undefined) put(e.field, e.key, e.raw);
    else if (e.field === 'stringData' || (s.cls === 'ConfigMap' && e.field === 'data')) {
      put(e.field, e.key, asText(e.bytes) ?? fail(`${e.key} is not text`));
      if (e.shadow) put('data', e.key, encodeBase64(e.shadow, opts));
    } else put(e.field, e.key, encodeBase64(e.bytes, opts));
  }
  const entries: Array<[string, YNode]> = [
    ['apiVersion', 'v1'],
    ['kind', s.cls],
    ['metadata', metadata],
  ];
  if (s.type) entries.push(['type', s.type]);
  if (fields.size === 0 && s.empty !== 'omit') entries.push(['data', s.empty === 'map' ? new YMap() : null]);
  for (const f of ['data', 'stringData', 'binaryData']) {
    const list = fields.get(f);
    if (list) entries.push([f, new YMap(list)]);
  }
  return new YMap(entries);
}

function fail(message: string): never {
  throw new Error(message);
}

function refMap(r: RefBase, nameField: 'name' | 'secretName', extra: Array<[string, YNode]> = []): YMap {
  return ymap([nameField, r.name], ...extra, r.optional !== undefined && ['optional', r.optional]);
}

function itemsNode(items: string[] | undefined, rng: Rng): Array<[string, YNode]> {
  if (items === undefined) return [];
  return [['items', items.map((key, i) => ymap(['key', key], ['path', `p${i}/${rng.pick(['file', 'f.txt', 'x'])}`], rng.bool(0.2) && ['mode', 256]))]];
}

export function podSpec(w: WorkloadModel, rng: Rng): YMap {
  const mk = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, env: [] as YNode[], envFrom: [] as YNode[], mounts: [] as YNode[] }));
  const lists = {
    containers: mk('c', w.containers),
    initContainers: mk('init', w.initContainers),
    ephemeralContainers: mk('debug', w.ephemeralContainers),
  };
  const containers = lists.containers;
  const volumes: YNode[] = [];
  let envN = 0;
  w.refs.forEach((r) => {
    if (r.via === 'env') {
      const c = lists[r.list][r.container]!;
      const field = r.cls === 'Secret' ? 'secretKeyRef' : 'configMapKeyRef';
      c.env.push(ymap(['name', `E${envN++}`], ['valueFrom', ymap([field, refMap(r, 'name', [['key', r.key]])])]));
    } else if (r.via === 'envFrom') {
      const c = lists[r.list][r.container]!;
      const field = r.cls === 'Secret' ? 'secretRef' : 'configMapRef';
      c.envFrom.push(ymap(r.prefix !== undefined && ['prefix', r.prefix], [field, refMap(r, 'name')]));
    } else if (r.via === 'volume') {
      const name = `v${volumes.length}`;
      const src =
        r.cls === 'Secret'
          ? ['secret', refMap(r, 'secretName', [...itemsNode(r.items, rng), ...(rng.bool(0.3) ? ([['defaultMode', 420]] as Array<[string, YNode]>) : [])])]
          : ['configMap', refMap(r, 'name', itemsNode(r.items, rng))];
      volumes.push(ymap(['name', name], src as [string, YNode]));
      containers[0]!.mounts.push(ymap(['name', name], ['mountPath', `/etc/${name}`], ['readOnly', true]));
    } else if (r.via === 'projected') {
      const name = `v${volumes.length}`;
      const sources: YNode[] = r.sources.map((s) => ymap([s.cls === 'Secret' ? 'secret' : 'configMap', refMap(s, 'name', itemsNode(s.items, rng))]));
      if (rng.bool(0.3)) sources.splice(rng.int(sources.length + 1), 0, ymap(['downwardAPI', ymap(['items', [ymap(['path', 'labels'], ['fieldRef', ymap(['fieldPath', 'metadata.labels'])])]])]));
      if (rng.bool(0.2)) sources.push(ymap(['serviceAccountToken', ymap(['path', 'token'], ['expirationSeconds', 3600])]));
      volumes.push(ymap(['name', name], ['projected', ymap(['sources', sources], rng.bool(0.3) && ['defaultMode', 292])]));
      containers[0]!.mounts.push(ymap(['name', name], ['mountPath', `/var/run/${name}`]));
    }
  });
  if (rng.bool(0.3)) volumes.push(ymap(['name', 'scratch'], ['emptyDir', new YMap()]));
  const fillerEnv = (c: { env: YNode[] }): void => {
    if (rng.bool(0.4)) c.env.splice(rng.int(c.env.length + 1), 0, ymap(['name', 'MODE'], ['value', rng.pick(['prod', '', '1', 'true'])]));
    if (rng.bool(0.2)) c.env.splice(rng.int(c.env.length + 1), 0, ymap(['name', 'POD'], ['valueFrom', ymap(['fieldRef', ymap(['fieldPath', 'metadata.name'])])]));
  };
  const container = (c: ReturnType<typeof mk>[number]): YMap => {
    fillerEnv(c);
    return ymap(
      ['name', c.name],
      ['image', rng.pick(['nginx:1.27', 'busybox:1.36', 'registry.example.com/app@sha256:0123'])],
      rng.bool(0.1) && ['args', ['--port', '8080']],
      c.env.length > 0 && ['env', c.env],
      c.envFrom.length > 0 && ['envFrom', c.envFrom],
      c.mounts.length > 0 && ['volumeMounts', c.mounts],
    );
  };
  return ymap(
    lists.initContainers.length > 0 && ['initContainers', lists.initContainers.map(container)],
    ['containers', containers.map(container)],
    lists.ephemeralContainers.length > 0 && ['ephemeralContainers', lists.ephemeralContainers.map(container)],
    volumes.length > 0 && ['volumes', volumes],
    w.imagePullSecrets.length > 0 && ['imagePullSecrets', w.imagePullSecrets.map((n) => ymap(['name', n]))],
    w.kind === 'CronJob' && ['restartPolicy', 'OnFailure'],
    rng.bool(0.2) && ['serviceAccountName', 'app'],
  );
}

export function workloadDoc(w: WorkloadModel): YMap {
  const rng = new Rng(w.filler);
  const labels: Array<[string, YNode]> = [['app', w.name]];
  const annotations: Array<[string, YNode]> = [];
  if (w.optIn === 'annotation') annotations.push([ENABLED, 'true']);
  else if (w.optIn === 'label') labels.push([ENABLED, 'true']);
  else if (w.optIn === 'false') (rng.bool() ? annotations : labels).push([ENABLED, 'false']);
  for (const cls of ['Secret', 'ConfigMap'] as const) {
    const names = w.refs.flatMap((r) => (r.via === 'annotation' && r.cls === cls ? [r.namespace ? `${r.namespace}/${r.name}` : r.name] : []));
    if (names.length > 0) annotations.push([cls === 'Secret' ? 'rollstamp.dev/secrets' : 'rollstamp.dev/configmaps', names.join(rng.pick([',', ', ', ' , ']))]);
  }
  if (rng.bool(0.3)) annotations.push(['deployment.kubernetes.io/revision', '3']);
  const metadata = ymap(
    ['name', w.name],
    w.namespace !== undefined && ['namespace', w.namespace],
    ['labels', new YMap(labels)],
    annotations.length > 0 && ['annotations', new YMap(annotations)],
  );
  const templateAnnotations: Array<[string, YNode]> = [...w.templateAnnotations];
  if (w.stamp !== undefined) templateAnnotations.splice(rng.int(templateAnnotations.length + 1), 0, [HASH_KEY, w.stamp]);
  const template = ymap(
    ['metadata', ymap(['labels', ymap(['app', w.name])], templateAnnotations.length > 0 && ['annotations', new YMap(templateAnnotations)])],
    ['spec', podSpec(w, rng)],
  );
  const selector = ymap(['matchLabels', ymap(['app', w.name])]);
  const head = (apiVersion: string): Array<[string, YNode]> => [
    ['apiVersion', apiVersion],
    ['kind', w.kind],
    ['metadata', metadata],
  ];
  if (w.row) return rowDoc(w.row, metadata, templateAnnotations, podSpec(w, rng));
  switch (w.kind) {
    case 'Deployment':
      return new YMap([...head('apps/v1'), ['spec', ymap(['replicas', rng.range(1, 3)], ['selector', selector], ['template', template])]]);
    case 'StatefulSet':
      return new YMap([
        ...head('apps/v1'),
        ['spec', ymap(['serviceName', w.name], ['selector', selector], rng.bool(0.3) && ['updateStrategy', ymap(['type', 'RollingUpdate'])], ['template', template])],
      ]);
    case 'DaemonSet':
      return new YMap([...head('apps/v1'), ['spec', ymap(['selector', selector], ['template', template])]]);
    case 'CronJob':
      return new YMap([
        ...head('batch/v1'),
        ['spec', ymap(['schedule', '*/5 * * * *'], ['jobTemplate', ymap(['spec', ymap(['backoffLimit', 2], ['template', template])])])],
      ]);
  }
}

/** A pod spec wrapped in an operator row's shape: the spec at the row's first pod spec path, annotations at its stamp site. */
function rowDoc(row: WorkloadRow, metadata: YMap, annotations: Array<[string, YNode]>, spec: YMap): YMap {
  const root = ymap(['apiVersion', `${row.group}/${row.versions?.[0] ?? 'v1'}`], ['kind', row.kind], ['metadata', metadata]);
  const at = (path: readonly string[]): YMap =>
    path.reduce<YMap>((m, key) => {
      const found = m.entries.find(([k]) => k === key)?.[1];
      if (found instanceof YMap) return found;
      const made = new YMap();
      m.entries.push([key, made]);
      return made;
    }, root);
  at(row.podSpecs[0]!).entries.push(...spec.entries);
  if (annotations.length > 0) at(row.stamp.path).entries.push(...annotations);
  return root;
}

export function otherDoc(o: OtherModel): YMap {
  const rng = new Rng(o.filler);
  const metadata = ymap(['name', o.name], o.namespace !== undefined && ['namespace', o.namespace]);
  const env = o.secretRefs.map((name, i) => ymap(['name', `S${i}`], ['valueFrom', ymap(['secretKeyRef', ymap(['name', name], ['key', 'password'])])]));
  const pod = ymap(['containers', [ymap(['name', 'c'], ['image', 'busybox'], env.length > 0 && ['env', env])]], ['restartPolicy', 'Never']);
  const enabled = ymap(['name', o.name], o.namespace !== undefined && ['namespace', o.namespace], ['annotations', ymap([ENABLED, 'true'])]);
  switch (o.kind) {
    case 'Service':
      return ymap(['apiVersion', 'v1'], ['kind', 'Service'], ['metadata', metadata], ['spec', ymap(['selector', ymap(['app', o.name])], ['ports', [ymap(['port', 80])]])]);
    case 'ServiceAccount':
      return ymap(['apiVersion', 'v1'], ['kind', 'ServiceAccount'], ['metadata', metadata], rng.bool() && ['secrets', o.secretRefs.map((n) => ymap(['name', n]))]);
    case 'Namespace':
      return ymap(['apiVersion', 'v1'], ['kind', 'Namespace'], ['metadata', ymap(['name', o.namespace ?? o.name])]);
    case 'ForeignSecret':
      // Same kind name, another API group: not a Secret rollstamp reads.
      return ymap(['apiVersion', 'bitnami.com/v1alpha1'], ['kind', 'Secret'], ['metadata', metadata], ['data', ymap(['password', 'not base64!'])]);
    case 'ForeignConfigMap':
      return ymap(['apiVersion', 'example.com/v1'], ['kind', 'ConfigMap'], ['metadata', metadata], ['data', ymap(['a', 'b'])]);
    case 'Job':
      return ymap(['apiVersion', 'batch/v1'], ['kind', 'Job'], ['metadata', enabled], ['spec', ymap(['template', ymap(['spec', pod])])]);
    case 'Pod':
      return ymap(['apiVersion', 'v1'], ['kind', 'Pod'], ['metadata', enabled], ['spec', pod]);
    case 'Ingress':
      return ymap(['apiVersion', 'networking.k8s.io/v1'], ['kind', 'Ingress'], ['metadata', metadata], ['spec', ymap(['tls', [ymap(['secretName', 'tls'])]])]);
    case 'ReplicaSetOff':
      return ymap(['apiVersion', 'apps/v1'], ['kind', 'ReplicaSet'], ['metadata', metadata], ['spec', ymap(['template', ymap(['spec', pod])])]);
  }
}

/** The bundle's objects, in its document order. */
export function bundleDocs(b: Bundle, opts: ObjectOptions = {}): YMap[] {
  const docs = [...b.sources.map((s) => sourceDoc(s, opts)), ...b.workloads.map(workloadDoc), ...b.others.map(otherDoc)];
  const order = b.order && b.order.length === docs.length ? b.order : [...docs.keys()];
  return order.map((i) => docs[i]!);
}

/** A ResourceList holding `items`. */
export function resourceListDoc(items: YNode[], functionConfig?: YMap): YMap {
  return ymap(['apiVersion', 'config.kubernetes.io/v1'], ['kind', 'ResourceList'], ['items', items], functionConfig && ['functionConfig', functionConfig]);
}

// ---------------------------------------------------------------------------------------------------------
// Mutations (each returns a changed copy; the order of documents is kept, new documents go last)

export function clone(b: Bundle): Bundle {
  return structuredClone(b);
}

/** Adds a source and places its document somewhere in the order. */
export function addSource(b: Bundle, s: SourceModel, rng: Rng): Bundle {
  const out = clone(b);
  const at = out.sources.length;
  out.sources.push(s);
  // Indices ≥ at shift by one (workloads and others come after sources).
  const order = (out.order ?? []).map((i) => (i >= at ? i + 1 : i));
  order.splice(rng.int(order.length + 1), 0, at);
  out.order = order;
  return out;
}

export function removeSource(b: Bundle, index: number): Bundle {
  const out = clone(b);
  out.sources.splice(index, 1);
  out.order = (out.order ?? []).filter((i) => i !== index).map((i) => (i > index ? i - 1 : i));
  return out;
}

/** Edits one source of a copy. */
export function editSource(b: Bundle, index: number, edit: (s: SourceModel) => void): Bundle {
  const out = clone(b);
  edit(out.sources[index]!);
  return out;
}

/** Stable digest helpers for the model of scheme v1 (written from its description, not from hash.ts). */
function field(value: string | Uint8Array): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
  const len = Buffer.alloc(8);
  len.writeBigUInt64BE(BigInt(bytes.length));
  return Buffer.concat([len, bytes]);
}
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
/** The hash a target should get, computed from the model (HMAC-SHA256 under `hmacKey`, else SHA-256). */
export function modelHash(b: Bundle, w: WorkloadModel, hmacKey?: string): string {
  const sha256 = (parts: Buffer[]): Buffer =>
    (hmacKey === undefined ? createHash('sha256') : createHmac('sha256', Buffer.from(hmacKey, 'utf8'))).update(Buffer.concat(parts)).digest();
  const digests: Array<{ id: string; digest: Buffer }> = [];
  for (const use of usesOf(w).values()) {
    const parts = [field('rollstamp.v1'), field('source'), field(use.cls), field(use.namespace), field(use.name)];
    const src = findSource(b, use.id);
    if (!src) parts.push(field('missing'));
    else {
      parts.push(field('present'));
      const entries = entriesOf(src);
      const keys = new Set(use.keys);
      if (use.whole) for (const k of entries.keys()) keys.add(k);
      for (const k of [...keys].sort(byteOrder)) {
        const v = entries.get(k);
        parts.push(field(k), ...(v === undefined ? [field('absent')] : [field('value'), field(v)]));
      }
    }
    digests.push({ id: use.id, digest: sha256(parts) });
  }
  const parts = [field('rollstamp.v1'), field('target')];
  for (const d of digests.sort((x, y) => byteOrder(x.id, y.id))) parts.push(field(d.id), field(d.digest));
  return `${hmacKey === undefined ? 'sha256' : 'hmac-sha256'}:${sha256(parts).toString('hex')}`;
}
