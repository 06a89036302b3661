// Model: a plan — what one visit of the input found and `apply` consumes: the index of what targets read, each
// target with its stamp site's state, its current stamp, its dependencies and the planned text edit of its
// stamp, the Secrets and ConfigMaps to read from the cluster, and the results so far. Types only.
import type { Config } from './config.ts';
import type { Dependencies, SourceRef, SourceSlot } from './dependencies.ts';
import type { MapNode } from './nodes.ts';
import type { KObject, SourceIndex } from './object.ts';
import type { Result, Subject } from './results.ts';
import type { EditPlan, StampSite, TargetMode } from './target.ts';
import type { Rollout } from './workload-row.ts';

/** A Secret or ConfigMap the plugin should read from the cluster. */
export interface LiveNeed {
  /** `Secret/namespace/name`: the key of `fetched`. */
  id: string;
  cls: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
}

/** One target as planned: everything apply and the writers need of its tree, taken once. */
export interface PlannedTarget {
  mode: TargetMode;
  subject: Subject;
  site: StampSite;
  /** Workloads: how a changed stamp rolls. */
  rollout?: Rollout;
  /** Workloads of a kind with component rows: which of the object's pod templates this is. */
  component?: string;
  /** Index of the target's item in the planned items: how the writers find what was stamped. */
  item: number;
  /** The stamp site can hold a stamp; false when it cannot (the errors are in the results) or was not checked. */
  siteOk: boolean;
  /** The stamp at the site now. */
  previous?: string;
  /** Dependencies (workloads and Agents), discovered once; undefined when discovery found errors or did not run. */
  deps?: Dependencies;
  /** Targets of a `unit` kind (a ModelConfig): the object hashed as a unit (a target that names it uses that hash). */
  obj?: KObject;
  /** Targets of a `carried` kind: the planned target whose hash this one carries. */
  carriedFrom?: PlannedTarget;
  /** Where the stamp goes in the source text; undefined when only a fresh rendering can write it. */
  edit?: EditPlan;
  /** The item's tree, kept only when its document can be printed again (read by the yaml library). */
  node?: MapNode;
  /**
   * Where its live-read record goes (planned with the stamp site, when that is fine). Absent under `live: never`
   * when the object carries no record: then no record can be written.
   */
  record?: RecordSite;
}

/**
 * Where an object's live-read record goes (its own `metadata.annotations`, model/live-record.ts) and the record it
 * carries now: every target has one, and so does any other object that carries a record (the render replaces it).
 */
export interface RecordSite {
  /** Index of the object's item in the planned items. */
  item: number;
  subject: Subject;
  /** The record the input carries, if any. */
  previous?: string;
  /** Where the record goes in the source text; undefined when only a fresh rendering can write it. */
  edit?: EditPlan;
  /** The item's tree, kept only when its document can be printed again. */
  node?: MapNode;
}

/** An object hashed as a unit (a ModelConfig): its references, read once, and the results reading them gave (reported when it is first hashed). */
export interface UnitPlan {
  refs: SourceRef[];
  results: Result[];
}

export interface Plan {
  config: Config;
  /** Secrets, ConfigMaps, producers and kagent objects: what resolving reads (their trees stay). */
  index: SourceIndex;
  /** The slot of each source id a planned target uses (SourceUse.slot), by id. */
  slots: ReadonlyMap<string, SourceSlot>;
  targets: PlannedTarget[];
  /** Objects hashed as units, each planned once. */
  units: Map<KObject, UnitPlan>;
  /** Sources to read live, by id (`Secret/ns/name`), sorted. */
  needs: LiveNeed[];
  /** Results of indexing, selecting, checking stamp sites and discovering (not sorted). */
  results: Result[];
  /** How many items were planned. */
  items: number;
  /** How many of them are of a kind some target kind selects (a workload, a kagent 0.x Agent …), chosen or not. */
  selectable: number;
  /** Objects that are not targets but carry a live-read record, which the render replaces with the empty one. */
  strayRecords: RecordSite[];
  /** kagent 1.x objects, in input order (never targets; previewed by `apply` with `kagentPreview`). */
  kagent1x?: KObject[];
  /** What planning spent of Config.maxKeyWork: the paths of declared kinds read in each object (#33). */
  workSpent: number;
  /**
   * Set when a target asked for an object read before it (an Argo Rollout's workloadRef naming a Deployment
   * above it, #38): the ids to plan the same input again with; nothing else in this plan counts.
   */
  replan?: readonly string[];
}
