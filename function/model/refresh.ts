// Model: what the refresh decision (function/refresh/) reads and gives — the workloads with their live-read records,
// the live Secrets and ConfigMaps as digests per key (never values), the Argo CD Applications, the scope the
// operator set — and the hard refreshes to request. Types only: the shell (plugin/commands/refresh/) fills them
// from its caches and acts on the result.
import type { ResourceRef, Result } from './results.ts';

/** A workload the refresher watches, as much of it as the decision reads. */
export interface WorkloadView {
  /** apiVersion, kind, namespace and name. */
  ref: ResourceRef & { namespace: string };
  /** API group (`apps`; empty for the core group). */
  group: string;
  /** Its `rollstamp.dev/live-reads` annotation. */
  record?: string;
  /** Its `argocd.argoproj.io/tracking-id` annotation. */
  trackingId?: string;
  /** Its `app.kubernetes.io/instance` label. */
  instance?: string;
}

/** A live Secret or ConfigMap: its version, and a digest of each key (the values themselves are not kept). */
export interface LiveSource {
  uid: string;
  resourceVersion: string;
  /** Per-key digests (hash/record-digest.ts keyDigests) under the decision's key: see RefreshInput.hashKey. */
  digests: ReadonlyMap<string, Uint8Array>;
  /** Keys of a ConfigMap that came from `binaryData`. */
  binaryKeys: ReadonlySet<string>;
}

/** An Argo CD Application, as much of it as the decision reads. */
export interface ApplicationView {
  namespace: string;
  name: string;
  /** What Argo CD lists in `status.resources`, each as `group/Kind/namespace/name`: the objects it manages. */
  resources: ReadonlySet<string>;
  /** Its `rollstamp.dev/refresh-requested` annotation: the change last requested. */
  requested?: string;
}

/** Where the refresher may act, as the operator set it. */
export interface RefreshScope {
  /** Where Applications live (`--argocd-namespace`); a label-tracked workload's Application is here. */
  argocdNamespace: string;
  /** Other namespaces whose Applications it may refresh (`--application-namespaces`, Argo CD's apps in any namespace). */
  applicationNamespaces: ReadonlySet<string>;
  /** Namespaces a record may name besides the workload's own (`--shared-namespaces`; as ROLLSTAMP_LIVE_NAMESPACES). */
  sharedNamespaces: ReadonlySet<string>;
  /** The namespaces whose objects are watched (`--namespaces`); undefined: every namespace. */
  watched?: ReadonlySet<string>;
}

/**
 * Per-key digests of a source at the version a record names, kept from an earlier pass where the source was
 * seen at that version: what tells a changed key from a metadata-only change when no hash key is set. Keyed by
 * `Secret/ns/name`, uid and resourceVersion joined by NUL.
 */
export type Baselines = ReadonlyMap<string, LiveSource>;

export interface RefreshInput {
  workloads: readonly WorkloadView[];
  /** Live Secrets and ConfigMaps by `Secret/namespace/name` (only watched namespaces; absent = not there). */
  sources: ReadonlyMap<string, LiveSource>;
  /** Applications by `namespace/name`. */
  applications: ReadonlyMap<string, ApplicationView>;
  scope: RefreshScope;
  /**
   * The operator's hash key (the sidecar's): the digests in `sources` and `baselines` are under it, and a record's
   * digest is compared with them. Absent: they are under a key of the refresher's own, and records carry no digest.
   */
  hashKey?: Uint8Array;
  baselines: Baselines;
}

/**
 * Why a source counts as changed since the render:
 * - `changed`: a consumed key's bytes differ (or a whole read gained or lost a key);
 * - `created` / `deleted`: the object appeared / went away;
 * - `unverified`: its version moved and no digest tells whether a consumed key changed (no hash key, and not seen
 *   at the recorded version since the refresher started): requested to be safe, and said so.
 */
export type ChangeReason = 'changed' | 'created' | 'deleted' | 'unverified';

/** One changed source of one workload. */
export interface LiveChange {
  workload: ResourceRef;
  kind: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
  reason: ChangeReason;
  /** The keys that changed (`exact`), or the keys consumed when it cannot tell which. */
  keys: string[];
  /** The workload reads every key. */
  whole: boolean;
  exact: boolean;
}

/** A hard refresh to request of one Application. */
export interface RefreshRequest {
  application: { namespace: string; name: string };
  /** What was seen (names and versions only): written on the Application, so the same change is requested once. */
  fingerprint: string;
  changes: LiveChange[];
}

export interface RefreshDecision {
  requests: RefreshRequest[];
  /** Applications with changes already requested (their fingerprint is on them): nothing to do. */
  alreadyRequested: Array<{ namespace: string; name: string }>;
  /** Records refused or not acted on, one result each (names only). */
  problems: Result[];
  /** The baselines to pass to the next decision. */
  baselines: Map<string, LiveSource>;
}
