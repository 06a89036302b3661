// `rollstamp refresh`: what its caches keep of each watched object, taken as the object arrives from a list or a
// watch and the rest let go. A Secret or ConfigMap becomes its version and a digest per key (function/refresh
// liveSourceOf: no value outlives decoding it, and 10,000 watched Secrets cost little); a workload its record and
// tracking; an Application the annotations the decision reads and the resources Argo CD lists in its status.
import {
  ARGOCD_INSTANCE_LABEL,
  ARGOCD_REFRESH_ANNOTATION,
  ARGOCD_TRACKING_ANNOTATION,
  LIVE_RECORD_ANNOTATION,
  liveSourceOf,
  REFRESH_REQUESTED_ANNOTATION,
  resourceKey,
  type LiveSource,
} from '../../../function/index.ts';
import { decodeEntries } from '../../live/decode-object.ts';

/** A resource the refresher lists and watches. */
export interface WatchedType {
  group: string;
  version: string;
  /** Plural: `deployments`. */
  resource: string;
  /** Filled from the first object seen (list items carry no kind); for sources and Applications, known. */
  kind?: string;
}

export interface SlimMeta {
  name: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
}

/** A Secret or ConfigMap: its digests; `live` undefined when it could not be decoded (never from a real API server). */
export interface SlimSource {
  metadata: SlimMeta;
  live?: LiveSource;
}

export interface SlimWorkload {
  apiVersion: string;
  kind: string;
  metadata: SlimMeta;
  record?: string;
  trackingId?: string;
  instance?: string;
}

export interface SlimApplication {
  metadata: SlimMeta;
  refresh?: string;
  requested?: string;
  /** `group/Kind/namespace/name` of status.resources. */
  resources: ReadonlySet<string>;
}

type Raw = { apiVersion?: unknown; kind?: unknown; metadata?: Record<string, unknown>; status?: { resources?: unknown } };

function metaOf(raw: Raw): SlimMeta {
  const m = raw.metadata ?? {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { name: text(m.name), namespace: text(m.namespace), uid: text(m.uid), resourceVersion: text(m.resourceVersion) };
}

function stringIn(map: unknown, key: string): string | undefined {
  const v = typeof map === 'object' && map !== null ? (map as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A Secret or ConfigMap as digests under `key` (the operator's hash key, or the refresher's own random key). */
export function slimSource(raw: Raw, cls: 'Secret' | 'ConfigMap', key: Uint8Array): SlimSource {
  const metadata = metaOf(raw);
  const { namespace, name } = metadata;
  try {
    const entries = decodeEntries({ id: `${cls}/${namespace}/${name}`, cls, namespace, name }, raw);
    return { metadata, live: liveSourceOf(key, cls, namespace, name, metadata, entries) };
  } catch {
    return { metadata };
  }
}

export function slimWorkload(raw: Raw, type: WatchedType): SlimWorkload {
  const metadata = metaOf(raw);
  const out: SlimWorkload = {
    apiVersion: type.group === '' ? type.version : `${type.group}/${type.version}`,
    kind: typeof raw.kind === 'string' ? raw.kind : (type.kind ?? type.resource),
    metadata,
  };
  const annotations = raw.metadata?.annotations;
  const record = stringIn(annotations, LIVE_RECORD_ANNOTATION);
  const trackingId = stringIn(annotations, ARGOCD_TRACKING_ANNOTATION);
  const instance = stringIn(raw.metadata?.labels, ARGOCD_INSTANCE_LABEL);
  if (record !== undefined) out.record = record;
  if (trackingId !== undefined) out.trackingId = trackingId;
  if (instance !== undefined) out.instance = instance;
  return out;
}

export function slimApplication(raw: Raw): SlimApplication {
  const resources = new Set<string>();
  const listed = raw.status?.resources;
  if (Array.isArray(listed)) {
    for (const r of listed as Array<Record<string, unknown>>) {
      if (typeof r?.kind === 'string' && typeof r.name === 'string') resourceKeyOf(r, resources);
    }
  }
  const out: SlimApplication = { metadata: metaOf(raw), resources };
  const refresh = stringIn(raw.metadata?.annotations, ARGOCD_REFRESH_ANNOTATION);
  const requested = stringIn(raw.metadata?.annotations, REFRESH_REQUESTED_ANNOTATION);
  if (refresh !== undefined) out.refresh = refresh;
  if (requested !== undefined) out.requested = requested;
  return out;
}

function resourceKeyOf(r: Record<string, unknown>, into: Set<string>): void {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  into.add(resourceKey(text(r.group), text(r.kind), text(r.namespace), text(r.name)));
}
