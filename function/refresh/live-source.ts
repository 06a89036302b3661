// Refresh stage: a live Secret or ConfigMap as the decision keeps it — its version and a digest per key under the
// given key (the operator's hash key, or the refresher's own), so nothing of a value outlives reading it.
import { keyDigests } from '../hash/record-digest.ts';
import { makeHasher } from '../hash/scheme.ts';
import type { SourceEntries } from '../model/object.ts';
import type { LiveSource } from '../model/refresh.ts';
import { binaryDataKeys } from '../resolve/bundle.ts';

/**
 * The LiveSource of one object from its decoded entries (ConfigMap `binaryData` keys marked, as live reads mark
 * them). `key` keys every digest: the operator's hash key, or (without one) a random key the refresher keeps in
 * memory only, so no digest it holds is an unkeyed one.
 */
export function liveSourceOf(key: Uint8Array, cls: 'Secret' | 'ConfigMap', namespace: string, name: string, version: { uid: string; resourceVersion: string }, entries: SourceEntries): LiveSource {
  return { uid: version.uid, resourceVersion: version.resourceVersion, digests: keyDigests(makeHasher(key), cls, namespace, name, entries), binaryKeys: binaryDataKeys(entries) };
}
