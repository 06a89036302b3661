// Refresh stage, one record entry against the live object: has what the workload consumed changed since the render?
// Precise where it can be: with the operator's hash key the record's digest is recomputed from the live per-key
// digests (a labels-only change, an unconsumed key or a re-created object with the same bytes is no change); without
// it, the per-key digests seen at the recorded version (a baseline) are compared; with neither, a moved version is
// `unverified` — requested, and said so, never silently taken for "unchanged".
import { recordDigest, selectedKeys, type KeyDigestView } from '../hash/record-digest.ts';
import type { Hasher } from '../hash/scheme.ts';
import { entryId, type RecordEntry } from '../model/live-record.ts';
import type { Baselines, ChangeReason, LiveSource } from '../model/refresh.ts';

/** What comparing one entry found. */
export type EntryState =
  | { changed: false }
  | { changed: true; reason: ChangeReason; keys: string[]; exact: boolean }
  /** The digest differs at the very version the record names: the record was made under another hash key. */
  | { changed: false; keyMismatch: true };

/** The baseline key of a source at a version. */
export const baselineKey = (id: string, uid: string, resourceVersion: string): string => `${id}\0${uid}\0${resourceVersion}`;

/** `hasher`: the operator's keyed hasher, when the live digests are under its key; undefined otherwise. */
export function compareEntry(entry: RecordEntry, live: LiveSource | undefined, baselines: Baselines, hasher: Hasher | undefined): EntryState {
  const consumed = { keys: entry.keys, whole: entry.whole === true, dataOnly: entry.dataOnly === true };
  const named = [...consumed.keys].sort();
  if (entry.missing) return live === undefined ? { changed: false } : { changed: true, reason: 'created', keys: live ? selectedKeys(consumed, live) : named, exact: true };
  if (live === undefined) return { changed: true, reason: 'deleted', keys: named, exact: true };
  const sameVersion = live.uid === entry.uid && live.resourceVersion === entry.resourceVersion;
  const baseline = entry.uid !== undefined && entry.resourceVersion !== undefined ? baselines.get(baselineKey(entryId(entry), entry.uid, entry.resourceVersion)) : undefined;
  if (hasher && entry.digest !== undefined) {
    const now = recordDigest(hasher, entry.kind, entry.namespace, entry.name, consumed, live);
    if (now === entry.digest) return { changed: false };
    if (sameVersion) return { changed: false, keyMismatch: true };
    return baseline ? { changed: true, reason: 'changed', keys: changedKeys(consumed, baseline, live), exact: true } : { changed: true, reason: 'changed', keys: named, exact: false };
  }
  if (sameVersion) return { changed: false };
  if (!baseline) return { changed: true, reason: 'unverified', keys: named, exact: false };
  const keys = changedKeys(consumed, baseline, live);
  return keys.length === 0 ? { changed: false } : { changed: true, reason: 'changed', keys, exact: true };
}

/** The consumed keys whose digest (or presence) differs between two views, in byte order. */
function changedKeys(consumed: { keys: readonly string[]; whole: boolean; dataOnly: boolean }, before: KeyDigestView, after: KeyDigestView): string[] {
  const keys = new Set([...selectedKeys(consumed, before), ...selectedKeys(consumed, after)]);
  const seen = (view: KeyDigestView, key: string): Uint8Array | undefined => (consumed.dataOnly && view.binaryKeys.has(key) ? undefined : view.digests.get(key));
  return [...keys].filter((key) => !sameBytes(seen(before, key), seen(after, key))).sort();
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
