// Model: what a run reports per target and per dependency — names, keys and digests only, never a value.
import type { Resolution } from './dependencies.ts';
import type { FileRef, ResourceRef } from './results.ts';
import type { Rollout } from './workload-row.ts';

/** What one dependency contributed to one target (names, keys and digests only: never a value). */
export interface SourceReport {
  cls: string;
  namespace: string;
  name: string;
  from: Resolution['from'];
  whole: boolean;
  optional: boolean;
  /** `digest`: the key's own digest, only with HashContext.keyDigests (`rollstamp diff` compares them). */
  keys: Array<{ key: string; present: boolean; digest?: string }>;
  fields: string[];
  /** The producer whose spec stands for the value (`ExternalSecret ns/name`), or the SOPS Secret itself. */
  producedBy?: string;
  /**
   * A Secret whose values the input shows masked, as Argo CD's API does (`++++++++`): its digest covers the
   * mask, not the values (#38).
   */
  masked?: true;
  /** Prefixed digest of this dependency; absent for ignored or invalid sources. */
  digest?: string;
  /** A ModelConfig's own sources. */
  sources?: SourceReport[];
}

export interface TargetReport {
  resourceRef: ResourceRef;
  /** An object with several pod templates (a VMCluster's `vmstorage`): which one this target stamps. */
  component?: string;
  file?: FileRef;
  /** Field that holds the stamp. */
  field: string;
  hash: string;
  previous?: string;
  changed: boolean;
  /** Workloads: how a changed stamp reaches its pods (the kind table's row and the object's strategy). */
  rollout?: Rollout;
  sources: SourceReport[];
}
