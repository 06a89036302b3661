// Model: targets — the objects that get a stamp, how their hash is made, where the stamp goes, and the
// text edit that writes it.
import type { SourceRef } from './dependencies.ts';
import type { KObject } from './object.ts';
import type { Rollout, WorkloadRow } from './workload-row.ts';

/**
 * The name of a target's kind (`workload`, `agent` …). Open: each kind module in kinds/ owns its own, and
 * the registry (kinds/index.ts) is the only list, so a new kind is one module and one row.
 */
export type TargetMode = string;

/** An object that will be stamped. */
export interface Target {
  obj: KObject;
  mode: TargetMode;
  /** Where the stamp is written. */
  site: StampSite;
  /** Workloads: path of the pod template. */
  templatePath?: readonly string[];
  /** Targets of a `carried` kind (a rendered agent Deployment): the target whose hash this one carries. */
  carriedFrom?: Target;
  /** Workloads: the row of the kind table that reads it. */
  row?: WorkloadRow;
  /** Workloads of a kind with component rows: the component (a VMCluster's `vmstorage`), one target each. */
  component?: string;
  /** Workloads: how its stamp rolls. */
  rollout?: Rollout;
  /** Workloads: the sources Stakater Reloader's `…/reload` annotations name (#38). */
  reloaderRefs?: SourceRef[];
  /** The object carries annotations another tool reloads it by (Reloader): a change rolls it twice (#38). */
  alsoRolledBy?: 'Reloader';
  /**
   * A target waiting to hand its stamp to another object (an Argo Rollout's `spec.workloadRef`, #38): that
   * object's id as its kind's `linkId` gives it, how to name it, and the field naming it.
   */
  handsTo?: { id: string; what: string; field: string };
  /** A target linked from others (the Rollouts whose `workloadRef` names it): those objects. */
  via?: KObject[];
}

/** A target's fields past obj, mode and site (see Target). */
export type TargetFields = Omit<Target, 'obj' | 'mode' | 'site'>;

/**
 * A target, every field written in one order, absent ones as undefined: the planner reads targets of every kind at
 * the same sites, and targets of several layouts (a component spread in or not, Reloader's fields added later)
 * made it optimized again at each new one (#37). Every kind makes its targets here.
 */
export function newTarget(obj: KObject, mode: TargetMode, site: StampSite, more: TargetFields = NONE): Target {
  return {
    obj,
    mode,
    site,
    templatePath: more.templatePath,
    carriedFrom: more.carriedFrom,
    row: more.row,
    component: more.component,
    rollout: more.rollout,
    reloaderRefs: more.reloaderRefs,
    alsoRolledBy: more.alsoRolledBy,
    handsTo: more.handsTo,
    via: more.via,
  };
}
const NONE: TargetFields = {};

/** Deepest nesting rollstamp walks inside an object it interprets. */
export const MAX_DEPTH = 100;

/**
 * Where a target's stamp goes.
 * - `annotation`: `<path>[annotationKey]`, path naming an annotations map;
 * - `env`: the entry named `ROLLSTAMP_HASH` of the env list at `path` (its `value`): kagent's Substrate
 *   ActorTemplate takes only image, command and env from a SandboxAgent (#13).
 */
export interface StampSite {
  kind: 'annotation' | 'env';
  path: readonly string[];
}

/**
 * Replace `remove` characters at `offset` (in the stream's text) with `insert`. Line breaks are `\n`.
 * - `block`: the removed range is a block scalar (`|`, `>-` …) as the readers give it — header, content lines and
 *   their line breaks. Only the scalar goes: its header's comment stays after the insert, and the line break
 *   (and the blank lines of `|+`) stay too, so the next key keeps its own line (#21).
 */
export interface TextEdit {
  offset: number;
  remove: number;
  insert: string;
  block?: boolean;
  /** The block map the edit lies inside, which is all a read-back needs to read again (see EditWindow). */
  window?: EditWindow;
}

/**
 * A whole block map of the document as read, from its first key (`start`, at column `indent`) to its end. The
 * text outside it is what was read, so reading it alone with its edit applied can stand for reading the
 * whole document; write/read-back.ts checks when it can (windowsReadBack).
 */
export interface EditWindow {
  start: number;
  end: number;
  indent: number;
}

/** A text edit planned before the stamp's value is known: `insert` is `before`, the quoted value, `after`. */
export interface EditPlan {
  offset: number;
  remove: number;
  before: string;
  after: string;
  /** See TextEdit.block. */
  block?: boolean;
  /** See TextEdit.window. */
  window?: EditWindow;
}

/** The edit that writes `value` where `plan` says. */
export function fillEdit(plan: EditPlan, value: string): TextEdit {
  const edit: TextEdit = { offset: plan.offset, remove: plan.remove, insert: `${plan.before}${JSON.stringify(value)}${plan.after}` };
  if (plan.block) edit.block = true;
  if (plan.window) edit.window = plan.window;
  return edit;
}
