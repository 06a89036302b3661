// Test support for the refresh decision (#34): builders for workloads, live sources, Applications and records, so
// tests state a cluster in a few lines. Records are made as the render makes them (the core's encodeRecord and
// record digest), live sources as the refresher keeps them (liveSourceOf: per-key digests only).
import { keyDigests, liveSourceOf, recordDigest } from '../../function/hash/record-digest.ts';
import { makeHasher } from '../../function/hash/scheme.ts';
import { encodeRecord, type RecordEntry } from '../../function/model/live-record.ts';
import type { ApplicationView, LiveSource, RefreshScope, WorkloadView } from '../../function/model/refresh.ts';
import { resourceKey } from '../../function/refresh/tracking.ts';

export const HASH_KEY = new TextEncoder().encode('operator hash key for tests');
export const OWN_KEY = new TextEncoder().encode('the refresher own random key');

export interface SourceState {
  kind: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  data: Record<string, string>;
}

const entriesOf = (data: Record<string, string>): Map<string, Uint8Array> => new Map(Object.entries(data).map(([k, v]) => [k, new TextEncoder().encode(v)]));
export const idOf = (s: Pick<SourceState, 'kind' | 'namespace' | 'name'>): string => `${s.kind}/${s.namespace}/${s.name}`;

/** The source as the refresher keeps it, its digests under `key`. */
export function live(s: SourceState, key: Uint8Array = HASH_KEY): LiveSource {
  return liveSourceOf(key, s.kind, s.namespace, s.name, { uid: s.uid, resourceVersion: s.resourceVersion }, entriesOf(s.data));
}

/** What a workload consumed of a source: named keys, or all of them. */
export interface Consumed {
  source: SourceState | { kind: 'Secret' | 'ConfigMap'; namespace: string; name: string; missing: true };
  keys: string[];
  whole?: boolean;
}

/** The record a render at the sources' current state writes; with `keyed`, digests under HASH_KEY. */
export function recordOf(consumed: readonly Consumed[], keyed: boolean): string {
  const hasher = makeHasher(HASH_KEY);
  const entries = consumed.map(({ source, keys, whole }): RecordEntry => {
    const base = { kind: source.kind, namespace: source.namespace, name: source.name, keys, ...(whole ? { whole: true as const } : {}) };
    const sel = { keys, whole: whole === true, dataOnly: false };
    if ('missing' in source) return { ...base, missing: true, ...(keyed ? { digest: recordDigest(hasher, source.kind, source.namespace, source.name, sel, undefined) } : {}) };
    const view = { digests: keyDigests(hasher, source.kind, source.namespace, source.name, entriesOf(source.data)), binaryKeys: new Set<string>() };
    const digest = keyed ? { digest: recordDigest(hasher, source.kind, source.namespace, source.name, sel, view) } : {};
    return { ...base, uid: source.uid, resourceVersion: source.resourceVersion, ...digest };
  });
  return encodeRecord(entries);
}

/** A Deployment tracked (annotation tracking) by Application `app` in `argocd`. */
export function deployment(namespace: string, name: string, app: string, record?: string): WorkloadView {
  return {
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name },
    group: 'apps',
    trackingId: `${app}:apps/Deployment:${namespace}/${name}`,
    ...(record !== undefined ? { record } : {}),
  };
}

/** An Application that lists `workloads` among its resources. */
export function application(name: string, workloads: readonly WorkloadView[], namespace = 'argocd', requested?: string): ApplicationView {
  return {
    namespace,
    name,
    resources: new Set(workloads.map((w) => resourceKey(w.group, w.ref.kind, w.ref.namespace, w.ref.name))),
    ...(requested !== undefined ? { requested } : {}),
  };
}

export const SCOPE: RefreshScope = { argocdNamespace: 'argocd', applicationNamespaces: new Set(), sharedNamespaces: new Set() };

/** Applications by `namespace/name`, sources by id. */
export const appsMap = (apps: readonly ApplicationView[]): Map<string, ApplicationView> => new Map(apps.map((a) => [`${a.namespace}/${a.name}`, a]));
export const sourcesMap = (sources: readonly SourceState[], key: Uint8Array = HASH_KEY): Map<string, LiveSource> => new Map(sources.map((s) => [idOf(s), live(s, key)]));
