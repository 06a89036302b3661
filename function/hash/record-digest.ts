// Hash stage: the digest a live-read record carries (model/live-record.ts). It is built from per-key digests, not
// from values, so `rollstamp refresh` can recompute it from what it keeps of a live object (a digest per key)
// without holding any value: the render computes the per-key digests from the bytes it read, the refresher from
// the bytes it watched, with the same operator hash key, and both compare the same message.
import { SCHEME_V1 } from '../model/constants.ts';
import type { SourceEntries } from '../model/object.ts';
import { byteOrder } from '../model/order.ts';
import type { LiveSource } from '../model/refresh.ts';
import { binaryDataKeys } from '../resolve/bundle.ts';
import { fieldsMessage, formatDigest, makeHasher, sourceDigest, type Hasher } from './scheme.ts';

/** A live object as the record digest sees it: a digest per key, and which keys came from ConfigMap `binaryData`. */
export interface KeyDigestView {
  digests: ReadonlyMap<string, Uint8Array>;
  binaryKeys: ReadonlySet<string>;
}

/** What one record entry consumed of an object. */
export interface ConsumedKeys {
  /** Keys named explicitly. */
  keys: readonly string[];
  /** Every key the object has (in the view) counts too. */
  whole: boolean;
  /** Only ConfigMap `data` is read: keys in `binaryData` count as absent. */
  dataOnly: boolean;
}

/**
 * The digest of each key: the scheme v1 message of the object with that one key selected, under `hasher` (the
 * per-key digest `rollstamp diff` compares). The object's identity is in each, so equal values of two keys differ.
 */
export function keyDigests(hasher: Hasher, cls: string, namespace: string, name: string, entries: SourceEntries): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const key of entries.keys()) out.set(key, sourceDigest(hasher, { cls, namespace, name, entries, keys: [key] }));
  return out;
}

/** The keys `consumed` selects of `view`, in byte order: named ones, and with `whole` every key the view has. */
export function selectedKeys(consumed: ConsumedKeys, view: KeyDigestView): string[] {
  const keys = new Set(consumed.keys);
  if (consumed.whole) for (const key of view.digests.keys()) if (!(consumed.dataOnly && view.binaryKeys.has(key))) keys.add(key);
  return [...keys].sort(byteOrder);
}

/**
 * The record digest: F("rollstamp.v1") F("record") F(class) F(namespace) F(name), then F("missing") for an object
 * that is not there, else F("present") F("data" | "all") and, for each selected key in byte order, F(key) followed by
 * F("value") F(key digest) or F("absent"). Formatted `hmac-sha256:<hex>` (the caller keys the hasher).
 */
export function recordDigest(hasher: Hasher, cls: string, namespace: string, name: string, consumed: ConsumedKeys, view: KeyDigestView | undefined): string {
  const fields: Array<string | Uint8Array> = [SCHEME_V1, 'record', cls, namespace, name];
  if (view === undefined) fields.push('missing');
  else {
    fields.push('present', consumed.dataOnly ? 'data' : 'all');
    for (const key of selectedKeys(consumed, view)) {
      const digest = consumed.dataOnly && view.binaryKeys.has(key) ? undefined : view.digests.get(key);
      fields.push(key, ...(digest === undefined ? ['absent'] : ['value', digest]));
    }
  }
  return formatDigest(hasher, hasher.digest(fieldsMessage(fields)));
}

/**
 * A live Secret or ConfigMap as `rollstamp refresh` keeps it: its version and a digest per key under `key` (the
 * operator's hash key, or a random key the refresher holds in memory only, so no digest it keeps is unkeyed and
 * nothing of a value outlives reading it). ConfigMap `binaryData` keys as live reads mark them.
 */
export function liveSourceOf(key: Uint8Array, cls: 'Secret' | 'ConfigMap', namespace: string, name: string, version: { uid: string; resourceVersion: string }, entries: SourceEntries): LiveSource {
  return { uid: version.uid, resourceVersion: version.resourceVersion, digests: keyDigests(makeHasher(key), cls, namespace, name, entries), binaryKeys: binaryDataKeys(entries) };
}
