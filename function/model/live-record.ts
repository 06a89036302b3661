// Model: the live-read record (`rollstamp.dev/live-reads`, version 1) — which Secrets and ConfigMaps a render read
// from the cluster for one workload, which keys it consumed, the version it saw and, with a hash key, a keyed
// digest of what it read. Written by apply, read by the refresh decision. Names, keys, uids, resourceVersions and
// HMAC digests only: nothing from which a value can be recovered. Its text is canonical (one spelling per record).
import { byteOrder } from './order.ts';
import type { StampSite } from './target.ts';

/** One Secret or ConfigMap the render read from the cluster for a workload. */
export interface RecordEntry {
  kind: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
  /** The object as read; absent when it was not found (`missing`) or the reader did not say. */
  uid?: string;
  resourceVersion?: string;
  /** The live read found no such object (its later appearance changes the hash). */
  missing?: true;
  /** Every key was consumed (envFrom, a volume without items …); `keys` still lists the keys named explicitly. */
  whole?: true;
  /** Only ConfigMap `data` was read (keys in `binaryData` count as absent). */
  dataOnly?: true;
  /** Keys named explicitly, in byte order. */
  keys: string[];
  /** `hmac-sha256:<64 hex>` over the consumed keys (hash/record-digest.ts); only with the operator's hash key. */
  digest?: string;
}

/** Where the record is written: the object's own annotations (never a pod template: it must not roll anything). */
export const RECORD_SITE: StampSite = { kind: 'annotation', path: ['metadata', 'annotations'] };

/** The record's format version: a reader refuses any other. */
export const RECORD_VERSION = 1;
/** The record a render writes over one the input carried when it read nothing live for that object. */
export const EMPTY_RECORD = `{"v":${RECORD_VERSION},"reads":[]}`;
/** Longest record written or read: the API server allows 256 KiB for all of an object's annotations. */
export const MAX_RECORD_BYTES = 64 * 1024;
/** Most entries one record may hold. */
export const MAX_RECORD_ENTRIES = 1000;

/** The record's canonical text: entries and keys in byte order, fields in a fixed order, compact JSON. */
export function encodeRecord(entries: readonly RecordEntry[]): string {
  const sorted = [...entries].sort((a, b) => byteOrder(entryId(a), entryId(b)));
  const reads = sorted.map((e) => {
    const out: Record<string, unknown> = { kind: e.kind, namespace: e.namespace, name: e.name };
    if (e.missing) out.missing = true;
    if (e.uid !== undefined) out.uid = e.uid;
    if (e.resourceVersion !== undefined) out.resourceVersion = e.resourceVersion;
    if (e.whole) out.whole = true;
    if (e.dataOnly) out.dataOnly = true;
    out.keys = [...new Set(e.keys)].sort(byteOrder);
    if (e.digest !== undefined) out.digest = e.digest;
    return out;
  });
  return JSON.stringify({ v: RECORD_VERSION, reads });
}

/** `Secret/namespace/name`: the id the core names sources by. */
export const entryId = (e: Pick<RecordEntry, 'kind' | 'namespace' | 'name'>): string => `${e.kind}/${e.namespace}/${e.name}`;

/** What reading a record gave: its entries, or why it was refused (a message of names and limits only). */
export type ParsedRecord = { entries: RecordEntry[] } | { refused: string };

const LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/;
const VERSION_TEXT = /^[\x21-\x7e]{1,128}$/;
const DIGEST = /^hmac-sha256:[0-9a-f]{64}$/;
const FIELDS = new Set(['kind', 'namespace', 'name', 'uid', 'resourceVersion', 'missing', 'whole', 'dataOnly', 'keys', 'digest']);

/**
 * Reads a record strictly: version 1, at most MAX_RECORD_BYTES and MAX_RECORD_ENTRIES, known fields only,
 * Kubernetes names and data keys, one entry per object. Anything else is refused whole (a repository may write
 * any text there; nothing of a refused record is acted on).
 */
export function parseRecord(text: string): ParsedRecord {
  if (text.length > MAX_RECORD_BYTES) return { refused: `longer than ${MAX_RECORD_BYTES} bytes` };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { refused: 'not JSON' };
  }
  if (!isObject(doc) || Object.keys(doc).some((k) => k !== 'v' && k !== 'reads')) return { refused: 'not a record (fields v and reads)' };
  if (doc.v !== RECORD_VERSION) return { refused: `version is not ${RECORD_VERSION}` };
  if (!Array.isArray(doc.reads)) return { refused: 'reads is not a list' };
  if (doc.reads.length > MAX_RECORD_ENTRIES) return { refused: `more than ${MAX_RECORD_ENTRIES} entries` };
  const entries: RecordEntry[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of doc.reads.entries()) {
    const entry = readEntry(raw);
    if (typeof entry === 'string') return { refused: `reads[${i}]: ${entry}` };
    if (seen.has(entryId(entry))) return { refused: `reads[${i}]: the object is named twice` };
    seen.add(entryId(entry));
    entries.push(entry);
  }
  return { entries };
}

/** One entry, or why it is refused. */
function readEntry(raw: unknown): RecordEntry | string {
  if (!isObject(raw)) return 'not an object';
  if (Object.keys(raw).some((k) => !FIELDS.has(k))) return 'unknown field';
  const { kind, namespace, name, uid, resourceVersion, missing, whole, dataOnly, keys, digest } = raw;
  if (kind !== 'Secret' && kind !== 'ConfigMap') return 'kind is not Secret or ConfigMap';
  if (typeof namespace !== 'string' || !LABEL.test(namespace)) return 'namespace is not a namespace name';
  if (typeof name !== 'string' || !SUBDOMAIN.test(name)) return 'name is not an object name';
  if (!Array.isArray(keys) || keys.length > MAX_RECORD_ENTRIES || !keys.every((k) => typeof k === 'string' && DATA_KEY.test(k))) return 'keys are not data keys';
  const flags = [missing, whole, dataOnly].every((f) => f === undefined || f === true);
  if (!flags) return 'missing, whole and dataOnly may only be true';
  if (dataOnly !== undefined && kind !== 'ConfigMap') return 'dataOnly is for ConfigMaps';
  if (digest !== undefined && (typeof digest !== 'string' || !DIGEST.test(digest))) return 'digest is not hmac-sha256';
  const entry: RecordEntry = { kind, namespace, name, keys: [...new Set(keys as string[])] };
  if (missing) {
    if (uid !== undefined || resourceVersion !== undefined) return 'a missing object has no uid or resourceVersion';
    entry.missing = true;
  } else {
    for (const v of [uid, resourceVersion]) if (v !== undefined && (typeof v !== 'string' || !VERSION_TEXT.test(v))) return 'uid and resourceVersion are not short printable text';
    if (typeof uid === 'string') entry.uid = uid;
    if (typeof resourceVersion === 'string') entry.resourceVersion = resourceVersion;
  }
  if (whole) entry.whole = true;
  if (dataOnly) entry.dataOnly = true;
  if (typeof digest === 'string') entry.digest = digest;
  return entry;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
