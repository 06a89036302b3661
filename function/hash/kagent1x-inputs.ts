// Hash stage, kagent 1.x: one revision input of an Agent — an object whose spec counts, or the keys of a Secret
// or ConfigMap — with what `diff` compares of it and what in the render keeps the Agent from compiling (#20,
// #35). kagent 1.0.x (adkconfig/builder.go@015961a6 `BuildProvenance`): an object counts by spec and UID; a
// prompt ConfigMap by its whole `data` (not binaryData) and UID; a compiled ConfigMap key by its value; an output
// schema as canonical JSON; a gateway credential by nothing kagent hashes (rollstamp compares its keys and UID
// only to say it applies live). Fingerprints stay in memory (`fingerprintsOf`): no output ever holds one.
import { createHash } from 'node:crypto';
import { BEDROCK_BEARER_KEY } from '../discover/kagent1x-credentials.ts';
import { canonicalJson } from '../model/canonical.ts';
import { byteOrder } from '../model/order.ts';
import { dataEntries } from '../resolve/bundle.ts';
import { resolveSource, type ResolveContext } from '../resolve/index.ts';
import { sourceId, type KObject, type SourceEntries } from '../model/object.ts';
import type { MapNode } from '../model/nodes.ts';
import type { Kagent1xEdge } from '../discover/kagent1x-refs.ts';
import type { Kagent1xFailure, Kagent1xInput } from '../model/kagent1x.ts';
import { canonicalOutputSchema } from './kagent1x-output-schema.ts';

/** What `diff` compares of one input: the spec or whole data with the UID, and each consumed key. Never printed. */
export interface Fingerprints {
  whole?: string;
  /** A gateway credential's UID: a Secret deleted and created again applies live (no revision). */
  uid?: string;
  keys: ReadonlyMap<string, string>;
}

const PRINTS = new WeakMap<Kagent1xInput, Fingerprints>();

/** The fingerprints of an input this module made (empty for one it did not). */
export const fingerprintsOf = (input: Kagent1xInput): Fingerprints => PRINTS.get(input) ?? { keys: new Map() };

/** The same input under another chain (a Secret shared by many Agents is resolved once), with its fingerprints. */
export function withChain(input: Kagent1xInput, chain: string[]): Kagent1xInput {
  const out = { ...input, chain };
  PRINTS.set(out, fingerprintsOf(input));
  return out;
}

/** `Kind namespace/name`, as chains print them. */
export const labelOf = (kind: string, namespace: string, name: string): string => `${kind} ${namespace}/${name}`;

/** A failure found resolving an input, before a chain is put on it. */
export type FoundFailure = Omit<Kagent1xFailure, 'chain'>;

/** A Secret or ConfigMap input, how it resolved, and the failures the render shows in it. */
export interface SourceInput {
  input: Kagent1xInput;
  failures: FoundFailure[];
  /** Keys consumed that are not in a Secret or ConfigMap the render holds, or a missing object (onMissing). */
  missing: string[];
}

type SourceEdge = Extract<Kagent1xEdge, { to: 'source' }>;

/**
 * A Secret or ConfigMap a 1.x object references, resolved in the holder's namespace.
 * - A consumed key absent from a Secret or ConfigMap the render holds will not compile (kagent validates every
 *   Secret key it binds and reads every ConfigMap key it compiles); Bedrock's Secret without the bearer token
 *   but with an access key pair is a mode kagent 1.0 cannot serve. A Secret or ConfigMap not in the input is
 *   `missing`: only the cluster knows it (`diff` calls it removed when the old render held it).
 * - An output schema that kagent would refuse will not compile.
 */
export function sourceInput(edge: SourceEdge, holder: KObject, chain: string[], ctx: ResolveContext): SourceInput {
  const ns = holder.namespace;
  const id = sourceId(edge.cls, ns, edge.name);
  const label = labelOf(edge.cls, ns, edge.name);
  const resolution = resolveSource({ id, cls: edge.cls, namespace: ns, name: edge.name, whole: edge.keys === undefined, keys: new Map(), optional: false, fields: [edge.field] }, ctx);
  const input: Kagent1xInput = { chain: [...chain, label], kind: edge.cls, namespace: ns, name: edge.name, effect: edge.effect, field: edge.field, from: resolution.from, whole: edge.keys === undefined, ...(edge.schema ? { schema: true as const } : {}), keys: [] };
  const prints: { whole?: string; uid?: string; keys: Map<string, string> } = { keys: new Map() };
  const out: SourceInput = { input, failures: [], missing: [] };
  const uid = ctx.inventory.sources.get(id)?.[0]?.uid ?? '';
  if ('entries' in resolution) {
    const data = edge.cls === 'ConfigMap' ? dataEntries(resolution.entries) : resolution.entries;
    const keys = edge.keys ?? [...data.keys()].sort(byteOrder);
    input.keys = keys.map((key) => ({ key, present: data.has(key) }));
    for (const key of keys) {
      const value = data.get(key);
      if (value === undefined) continue;
      const schema = edge.schema ? canonicalOutputSchema(value) : undefined;
      if (schema && 'invalid' in schema) out.failures.push({ code: 'invalid-output-schema', field: edge.field, reason: `${schema.invalid} (key "${key}" of ${label})` });
      prints.keys.set(key, schema && 'canonical' in schema ? digest('schema', Buffer.from(schema.canonical, 'utf8')) : digest('key', value));
    }
    // The UID counts where kagent's provenance records it (a prompt ConfigMap); for a credential it shows a
    // recreation, which applies live; for a compiled key or an output schema only the value counts.
    if (edge.keys === undefined) prints.whole = digest('data', entriesBytes(data, uid));
    else if (edge.effect === 'applies-live') prints.uid = uid;
    const absent = input.keys.filter((k) => !k.present);
    if (edge.required !== undefined && !data.has(edge.required)) absent.push({ key: edge.required, present: false });
    for (const k of absent) {
      if (edge.bedrock && data.has('AWS_ACCESS_KEY_ID')) {
        out.failures.push({ code: 'unsupported-credential', field: edge.field, reason: `${label} holds an AWS access key pair, not ${BEDROCK_BEARER_KEY}: request signing inside the runtime cannot be served by kagent 1.0's egress gateway (kagent issue #2873)` });
      } else {
        out.failures.push({ code: 'missing-key', field: edge.field, reason: `key "${k.key}" is not in ${label}` });
        out.missing.push(`key "${k.key}" is not in ${label}`);
      }
    }
  } else if ('produced' in resolution) {
    input.producedBy = resolution.produced.producer;
    input.keys = (edge.keys ?? []).map((key) => ({ key, present: true }));
    const common = digest('produced', resolution.produced.common);
    for (const k of input.keys) prints.keys.set(k.key, resolution.produced.keyed?.get(k.key) ? digest('produced', resolution.produced.keyed.get(k.key)!) : common);
    prints.whole = common;
  } else {
    input.keys = (edge.keys ?? []).map((key) => ({ key, present: false }));
    if (resolution.from === 'missing') out.missing.push(`${label} is not in the input`);
  }
  PRINTS.set(input, prints);
  return out;
}

/** Spec digests by spec node: an object shared by many Agents is digested once. */
const SPEC_PRINTS = new WeakMap<MapNode, string>();

/** An object whose spec and UID are provenance (BuildProvenance: UID, generation and a spec hash); metadata alone counts for nothing. */
export function objectInput(chain: string[], kind: string, obj: KObject, field: string, spec: MapNode | undefined): Kagent1xInput {
  const input: Kagent1xInput = { chain, kind, namespace: obj.namespace, name: obj.name, effect: 'recompiles', field, from: 'bundle', whole: false, keys: [] };
  let specPrint = spec ? SPEC_PRINTS.get(spec) : undefined;
  if (specPrint === undefined) {
    specPrint = digest('spec', Buffer.from(canonicalJson(spec), 'utf8'));
    if (spec) SPEC_PRINTS.set(spec, specPrint);
  }
  PRINTS.set(input, { whole: obj.uid ? `${specPrint}:${digest('uid', Buffer.from(obj.uid, 'utf8'))}` : specPrint, keys: new Map() });
  return input;
}

/** An object a reference names that the input lacks, or holds more than once. */
export function absentInput(chain: string[], kind: string, namespace: string, name: string, field: string, from: 'missing' | 'invalid'): Kagent1xInput {
  const input: Kagent1xInput = { chain, kind, namespace, name, effect: 'recompiles', field, from, whole: false, keys: [] };
  PRINTS.set(input, { keys: new Map() });
  return input;
}

/** A domain-separated SHA-256, hex. */
function digest(domain: string, bytes: Uint8Array): string {
  return createHash('sha256').update(`rollstamp kagent1x ${domain}\0`).update(bytes).digest('hex');
}

/** Every entry, length-prefixed, in byte order of its key, then the UID. */
function entriesBytes(entries: SourceEntries, uid: string): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const key of [...entries.keys()].sort(byteOrder)) {
    const k = Buffer.from(key, 'utf8');
    const v = entries.get(key)!;
    parts.push(Buffer.from(`${k.length}:`), k, Buffer.from(`${v.length}:`), v);
  }
  parts.push(Buffer.from(`uid:${uid}`, 'utf8'));
  return Buffer.concat(parts);
}
