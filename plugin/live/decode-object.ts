// Live reads: an API server answer → key → bytes, exactly as the bundle path reads the same object
// (function/resolve/bundle.ts): Secret `data` base64-decoded strictly; ConfigMap `data` as UTF-8 and
// `binaryData` decoded. The answer must be the object that was asked for; anything else fails the run.
import { LiveReadError, objectLabel } from './live-error.ts';
import type { LiveNeed } from './types.ts';
import { decodeBase64Strict, markBinaryDataKeys } from '../../function/index.ts';

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;

/** An object as read: its bytes per key, and the uid and resourceVersion the API server gave it (the live-read record names them). */
export interface DecodedObject {
  entries: Map<string, Uint8Array>;
  version?: { uid: string; resourceVersion: string };
}

export function decodeObject(need: LiveNeed, body: Buffer): DecodedObject {
  let obj: unknown;
  try {
    obj = JSON.parse(utf8Strict.decode(body));
  } catch {
    throw new LiveReadError(`live read of ${objectLabel(need)}: the answer (HTTP 200) is not JSON`, 'response', need.id);
  }
  // A GET's answer names its kind (the items of a list need not: decodeEntries takes either).
  if ((obj as { kind?: unknown } | null)?.kind !== need.cls) throw new LiveReadError(`live read of ${objectLabel(need)}: the answer (HTTP 200) is not the ${need.cls} asked for`, 'response', need.id);
  const entries = decodeEntries(need, obj);
  const meta = (obj as { metadata: { uid?: unknown; resourceVersion?: unknown } }).metadata;
  const { uid, resourceVersion } = meta;
  return typeof uid === 'string' && typeof resourceVersion === 'string' ? { entries, version: { uid, resourceVersion } } : { entries };
}

/**
 * The bytes per key of a Secret or ConfigMap the API server sent (a GET's answer, or an object of a list or a
 * watch event), which must be the object `need` names. Throws LiveReadError('response') naming the field.
 */
export function decodeEntries(need: LiveNeed, obj: unknown): Map<string, Uint8Array> {
  const fail = (why: string): LiveReadError =>
    new LiveReadError(`live read of ${objectLabel(need)}: ${why}`, 'response', need.id);
  const o = obj as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown }; data?: unknown; binaryData?: unknown };
  if (typeof o !== 'object' || o === null || (o.kind !== undefined && o.kind !== need.cls) || o.metadata?.name !== need.name || o.metadata?.namespace !== need.namespace) {
    throw fail(`the answer (HTTP 200) is not the ${need.cls} asked for`);
  }
  const out = new Map<string, Uint8Array>();
  const base64Field = need.cls === 'Secret' ? 'data' : 'binaryData';
  const entries = (field: 'data' | 'binaryData'): Array<[string, unknown]> => {
    const v = o[field];
    if (v === undefined || v === null) return [];
    if (typeof v !== 'object' || Array.isArray(v)) throw fail(`${field} is not a map`);
    return Object.entries(v);
  };
  if (need.cls === 'ConfigMap') {
    for (const [key, value] of entries('data')) {
      if (typeof value !== 'string' || LONE_SURROGATE.test(value)) throw fail(`${fieldName('data', key)} is not a UTF-8 string`);
      out.set(key, utf8.encode(value));
    }
  }
  for (const [key, value] of entries(base64Field)) {
    const bytes = typeof value === 'string' ? decodeBase64Strict(value) : undefined;
    if (bytes === undefined) throw fail(`${fieldName(base64Field, key)} is not valid base64`);
    if (out.has(key)) throw fail(`${fieldName('data', key)} is also in binaryData`);
    out.set(key, bytes);
  }
  if (need.cls === 'ConfigMap') markBinaryDataKeys(out, new Set(entries('binaryData').map(([key]) => key)));
  return out;
}

/** `data.tls.crt`; a key that is not a valid Secret/ConfigMap key is not printed at all. */
function fieldName(field: string, key: string): string {
  return /^[-._a-zA-Z0-9]{1,253}$/.test(key) ? `${field}.${key}` : `a key of ${field}`;
}
