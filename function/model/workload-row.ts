// Model: a workload kind as data — one row of the kind table (kinds/workload-rows.ts for the built-in rows,
// `spec.kinds` for the rows a user declares): where its pod specs are, which operator fields name whole
// Secrets and ConfigMaps, where its stamp goes and how a changed stamp rolls its pods. Types only.

/** A field path as keys (`['spec', 'template', 'spec']`). */
export type KeyPath = readonly string[];

/**
 * How a changed stamp reaches running pods:
 * - `rolling`: the controller replaces pods a few at a time (Deployment, StatefulSet, a new Knative Revision …);
 * - `recreate`: every old pod is stopped before new ones start (Deployment `Recreate`, VMSingle, KEDA's
 *   default ScaledJob rollout, which deletes the running Jobs);
 * - `on-delete`: only pods deleted by someone else come back with the new template;
 * - `next-job`: running Jobs finish as they are; the next Job uses the new template (CronJob, gradual ScaledJob);
 * - `never`: the stamp is written but no pod restarts because of it (ReplicaSet; OpenKruise in-place updates,
 *   which patch a changed annotation onto the running pod).
 */
export type Rolls = 'rolling' | 'recreate' | 'on-delete' | 'next-job' | 'never';

/** How a target's stamp rolls, and why (the operator's own behaviour, said by `explain` and `diff`). */
export interface Rollout {
  how: Rolls;
  why: string;
}

/**
 * A field of the object that changes how it rolls: when the scalar at `path` is one of `values` (or, without
 * `values`, when the field is present and not empty; with `absent`, when it is absent; with `unless`, when it
 * is none of those values, absent included). A scalar is compared as written (`false`, `0` as text).
 * `immutable`: the object is never stamped (the operator would refuse a changed template, or a stamp would
 * replace what applies now, or runs no pods), reported with `why` (a warning; an info for `absent` and `unless`).
 */
export interface RollRule {
  path: KeyPath;
  values?: readonly string[];
  absent?: true;
  unless?: readonly string[];
  rolls: Rolls | 'immutable';
  why: string;
}

export interface WorkloadRow {
  /** API group (`''` for the core group). */
  group: string;
  kind: string;
  /**
   * The part of the object whose pods this row describes, when one object runs several pod templates (a
   * VMCluster's `vmselect`, `vminsert`, `vmstorage`) or takes one of several (a UnitedDeployment's
   * `cloneSetTemplate` …): a kind has one row per component, each a target of its own when its `required`
   * field is there, stamped where its pods take annotations from (#38). Undefined: the object is one workload.
   */
  component?: string;
  /** API versions this row reads; undefined: any version of the group. */
  versions?: readonly string[];
  /**
   * The field that must be present for the object to be a target (a pod template, the operator's spec);
   * absent: MISSING_TEMPLATE. `[]`: the object itself (a bare Pod).
   */
  required: KeyPath;
  /**
   * Maps read as pod specs: their `containers`, `initContainers`, `ephemeralContainers` and `volumes`. A `*`
   * key stands for every item of a list (a UnitedDeployment's `spec.topology.subsets.*.patch.spec`).
   */
  podSpecs: readonly KeyPath[];
  /** Lists of env entries (`[{name, valueFrom: {secretKeyRef}}]`) outside a container. */
  env?: readonly KeyPath[];
  /** Lists of envFrom entries (`[{secretRef}, {configMapRef}]`) outside a container. */
  envFrom?: readonly KeyPath[];
  /** Maps naming one key of one Secret (`{name, key, optional}`) that the operator mounts for its pods to read. */
  keyRefs?: readonly KeyPath[];
  /** Lists of Secret names the operator mounts whole (Prometheus `spec.secrets`). */
  secretNames?: readonly KeyPath[];
  /** Lists of ConfigMap names the operator mounts whole (Prometheus `spec.configMaps`). */
  configMapNames?: readonly KeyPath[];
  /** Where the stamp goes: an annotations map the operator copies onto its pods, or a literal env entry. */
  stamp: { kind: 'annotation' | 'env'; path: KeyPath };
  /** How a stamp rolls when no rule says otherwise. `immutable`: never stamped (Job, Pod). */
  rolls: Rolls | 'immutable';
  /** Why it rolls that way (the operator's behaviour in a few words). */
  why: string;
  /** Fields that change how it rolls, tried in order; the first that matches decides. */
  rules?: readonly RollRule[];
  /**
   * A field that names another object whose pod template this one runs (Argo Rollouts `spec.workloadRef`):
   * when present the object is not stamped itself; its stamp goes on that object (kinds/rollout-workload-ref.ts).
   */
  delegate?: { path: KeyPath };
  /** Where the row's facts come from: the operator's source file or documentation page. */
  source: string;
  /** Rows a user declared: the setting that declared it (`spec.kinds[0]`, with the file it came from). */
  declaredAt?: string;
}
