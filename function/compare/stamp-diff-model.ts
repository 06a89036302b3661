// Compare stage, model: what `rollstamp diff` reports (#16) — each target whose stamp differs and why, by
// names, keys and digests only. Types only; compare/stamp-diff.ts builds them.
import type { ResourceRef } from '../model/results.ts';
import type { Rollout } from '../model/workload-row.ts';

/**
 * How a target's stamp differs: a new hash, or the target is only in NEW (appears) or only in OLD; `may-roll`:
 * it uses values the renders mask and a render carries no stamp to compare, so whether it rolls cannot be told.
 */
export type TargetChange = 'rolls' | 'appears' | 'disappears' | 'may-roll';

/** How a source of a rolling target differs: only in NEW (`added`), only in OLD (`removed`), or its digest. */
export type SourceChangeKind = 'added' | 'removed' | 'changed';

/** A consumed key whose digest differs (`changed`), that only NEW has (`added`), or only OLD (`removed`). */
export interface KeyChange {
  key: string;
  change: SourceChangeKind;
}

export interface SourceChange {
  /** Secret, ConfigMap, ModelConfig … (named `kind`, as in `explain -o json`). */
  kind: string;
  namespace: string;
  name: string;
  change: SourceChangeKind;
  /** Where the source resolved in OLD and in NEW (`bundle`, `producer`, `cluster`, `missing`, …). */
  from: { old?: string; new?: string };
  digest: { old?: string; new?: string };
  /** The producer that stands for the value in NEW (else in OLD), e.g. `ExternalSecret shop/db`. */
  producedBy?: string;
  keys: KeyChange[];
  /**
   * What the renders do not show of it: `masked`, its values are masked (Argo CD's `++++++++`); `absent`,
   * neither render holds it. Whether it changed is then told by the stamps only (TargetDiff.basis).
   */
  unknown?: 'masked' | 'absent';
  /** A hidden source (`unknown`): the keys the target's stamp covers, as the render names them. */
  covers?: string[];
  /** For a ModelConfig: which of its own sources changed. */
  sources?: SourceChange[];
}

export interface TargetDiff {
  resourceRef: ResourceRef;
  /** An object with several pod templates (a VMCluster's `vmstorage`): which one this target stamps. */
  component?: string;
  change: TargetChange;
  /** The field that holds the stamp (as in NEW, else OLD). */
  field: string;
  hash: { old?: string; new?: string };
  /**
   * `stamps`: the renders hide what the target uses, and the stamps they carry differ: `hash` holds those stamps
   * and `sources` the hidden sources the stamp covers (#38).
   */
  basis?: 'stamps';
  /** Workloads: how the stamp rolls the pods (as in NEW, else OLD). */
  rollout?: Rollout;
  /** Empty for targets that appear or disappear. */
  sources: SourceChange[];
}

export interface StampDiff {
  targets: TargetDiff[];
  summary: Record<TargetChange, number>;
}
