// Target kind for workloads: one generic kind that reads the rows of the workload kind table — the built-in
// rows (workload-rows.ts) and the rows a user declares under `spec.kinds`. Workloads are selected by label,
// annotation, selector or `targets: all`; their hash covers the references in the row's fields
// (discover/row-refs.ts) and the rollstamp.dev/secrets and rollstamp.dev/configmaps annotations. An object of a
// kind with component rows (a VMCluster's vmselect, vminsert, vmstorage) is one target per component it has.
import { annotationRefs } from '../discover/annotations.ts';
import { readReloader, reloaderRefs } from '../discover/reloader.ts';
import { workloadRefOf } from './rollout-workload-ref.ts';
import { rowRefs } from '../discover/row-refs.ts';
import { matchesSelector } from '../config/selector.ts';
import { errorResult, hasErrorsSince, infoResult, warningResult, type Result } from '../model/results.ts';
import { child, childIn, formatPath, isMapNode, isNullish, isScalarNode, NodeReader, ROOT_PATH } from '../model/nodes.ts';
import type { Config } from '../model/config.ts';
import type { KObject } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import { newTarget, type Target } from '../model/target.ts';
import type { Rollout, WorkloadRow } from '../model/workload-row.ts';
import type { TargetKind } from './kind.ts';
import { WORKLOAD_ROWS } from './workload-rows.ts';

/**
 * The built-in rows by Kind, then group: one, or one per component. Found by the object's own kind string, whose
 * hash V8 keeps with it: a `group/Kind` key was built and hashed anew each of the three times a workload is
 * looked up (selecting, reading, Reloader's view), and for every other object once (#37).
 */
const BUILT_IN = new Map<string, Array<{ group: string; rows: WorkloadRow[] }>>();
for (const row of WORKLOAD_ROWS) {
  const groups = BUILT_IN.get(row.kind) ?? [];
  BUILT_IN.set(row.kind, groups);
  const same = groups.find((g) => g.group === row.group);
  if (same) same.rows.push(row);
  else groups.push({ group: row.group, rows: [row] });
}

function builtInRows(group: string, kind: string): WorkloadRow[] | undefined {
  const groups = BUILT_IN.get(kind);
  if (groups === undefined) return undefined;
  for (const g of groups) if (g.group === group) return g.rows;
  return undefined;
}

/** Whether a row reads objects of this apiVersion (`group/version`, or `version` for the core group). */
const readsVersion = (row: WorkloadRow, apiVersion: string): boolean => row.versions === undefined || row.versions.includes(apiVersion.slice(apiVersion.indexOf('/') + 1));

/** Whether every row reads this apiVersion (a loop: `every` made a closure per look-up, #37). */
function allReadVersion(rows: readonly WorkloadRow[], apiVersion: string): boolean {
  for (let i = 0; i < rows.length; i++) if (!readsVersion(rows[i]!, apiVersion)) return false;
  return true;
}

/** No rows: one list for every object of a kind without a pod spec (most objects), never written to. */
const NO_ROWS: readonly WorkloadRow[] = Object.freeze([]);

/** The (first) built-in row of a group and kind, whatever the version (a declared row may not take its place). */
export const builtInRow = (group: string, kind: string): WorkloadRow | undefined => builtInRows(group, kind)?.[0];

/**
 * The rows for an object — one, or one per component — or none when its kind has no pod spec rollstamp knows.
 * - Built-in rows decide for their group and kind; an object of a version they do not read has none.
 * - Declared rows (`config.kinds`) are tried after, in order: the first that reads the object.
 */
export function workloadRowsOf(obj: KObject, config: Config): readonly WorkloadRow[] {
  const builtIn = builtInRows(obj.group, obj.kind);
  // The rows themselves when all read the version (no copy per look-up), else those that do.
  if (builtIn) return allReadVersion(builtIn, obj.apiVersion) ? builtIn : builtIn.filter((r) => readsVersion(r, obj.apiVersion));
  if (!config.kinds) return NO_ROWS;
  const declared = declaredByKind(config.kinds).get(`${obj.group}/${obj.kind}`)?.find((r) => readsVersion(r, obj.apiVersion));
  return declared ? [declared] : NO_ROWS;
}

const DECLARED = new WeakMap<readonly WorkloadRow[], Map<string, WorkloadRow[]>>();

/** Declared rows by `group/kind`, in order, built once per config: each object finds its row by key (#33). */
function declaredByKind(rows: readonly WorkloadRow[]): Map<string, WorkloadRow[]> {
  let byKind = DECLARED.get(rows);
  if (!byKind) {
    byKind = new Map();
    for (const row of rows) {
      const key = `${row.group}/${row.kind}`;
      const same = byKind.get(key);
      if (same) same.push(row);
      else byKind.set(key, [row]);
    }
    DECLARED.set(rows, byKind);
  }
  return byKind;
}

/** The row for an object (the first, for a kind with components). */
export const workloadRowOf = (obj: KObject, config: Config): WorkloadRow | undefined => workloadRowsOf(obj, config)[0];

export const workloads: TargetKind = {
  mode: 'workload',
  hash: 'dependencies',
  local: true,
  select: {
    matches: (obj, config) => workloadRowsOf(obj, config).length > 0,
    byDefault: (obj, config) =>
      config.targets === 'all' || (config.selector !== undefined && matchesSelector(config.selector, obj.labels)) || (config.reloader === 'enabled' && reloaderOf(obj, config)?.optsIn === true),
    read: (obj, results, config) => readTargets(obj, workloadRowsOf(obj, config), results, config),
  },
  dependencies(target, reader, _inventory, maxReferences) {
    // One list, added to: rowRefs makes it for this target alone (#37).
    const refs = rowRefs(target.obj, target.row!, reader);
    for (const ref of target.reloaderRefs ?? []) refs.push(ref);
    for (const ref of annotationRefs(target.obj, reader.results, Math.max(0, maxReferences - refs.length))) refs.push(ref);
    return { refs, objects: [] };
  },
};

/**
 * What reading one object of a declared row costs against the run's work budget (Config.maxKeyWork): one per
 * path it declares. A built-in row costs nothing: its paths are few and fixed, so its work is linear in the
 * input; a declared row's are the repository's choice (#33).
 */
export function declaredPathWork(row: WorkloadRow): number {
  if (row.declaredAt === undefined) return 0;
  return row.podSpecs.length + (row.secretNames?.length ?? 0) + (row.configMapNames?.length ?? 0);
}

/** Reloader's annotations on a workload (discover/reloader.ts), its pod template's read where its row stamps. */
function reloaderOf(obj: KObject, config: Config): ReturnType<typeof readReloader> {
  const row = workloadRowOf(obj, config);
  return row && row.stamp.kind === 'annotation' ? readReloader(obj, row.stamp.path) : undefined;
}

/** How a stamp on this object rolls: the first rule its fields match, else the row's own way. */
export function rolloutOf(obj: KObject, row: WorkloadRow): { rollout: Rollout | 'immutable'; why: string; field?: string; info?: boolean } {
  for (const rule of row.rules ?? []) {
    const at = childIn(obj.item.node, rule.path);
    // A scalar as written: `enabled: false` is "false", `replicas: 0` is "0".
    const value = isScalarNode(at) && at.value !== null && !(at.value instanceof Uint8Array) ? String(at.value) : undefined;
    const present = !isNullish(at) && value !== '';
    const hit = rule.absent ? !present : rule.unless ? value === undefined || !rule.unless.includes(value) : rule.values ? value !== undefined && rule.values.includes(value) : present;
    const info = rule.absent === true || rule.unless !== undefined;
    if (hit) return { rollout: rule.rolls === 'immutable' ? 'immutable' : { how: rule.rolls, why: rule.why }, why: rule.why, field: formatPath(rule.path), info };
  }
  return { rollout: row.rolls === 'immutable' ? 'immutable' : { how: row.rolls, why: row.why }, why: row.why };
}

/**
 * The targets of an object: one per row, for a kind with component rows one per component whose `required`
 * field it has (none of them: a MISSING_TEMPLATE error naming them all).
 */
function readTargets(obj: KObject, rows: readonly WorkloadRow[], results: Result[], config: Config): Target[] {
  if (rows.length === 1 && rows[0]!.component === undefined) {
    const target = readTarget(obj, rows[0]!, results, config);
    return target ? [target] : [];
  }
  const present = rows.filter((r) => !isNullish(childIn(obj.item.node, r.required)));
  if (present.length === 0) {
    results.push(errorResult('MISSING_TEMPLATE', `${obj.kind} has none of ${rows.map((r) => formatPath(r.required)).join(', ')}`, obj.subject));
    return [];
  }
  return present.flatMap((row) => readTarget(obj, row, results, config) ?? []);
}

/**
 * A workload's target, or undefined with the reason reported: an immutable template (info; a warning when a
 * field of the object makes it so), a template handed to another object (info), a missing one (error), a
 * declared pod spec path that holds no pod spec (error). A stamp that rolls only on delete or not at all is
 * written and warned.
 */
function readTarget(obj: KObject, row: WorkloadRow, results: Result[], config: Config): Target | undefined {
  const { rollout, why, field, info } = rolloutOf(obj, row);
  if (rollout === 'immutable') {
    if (field && !info) results.push(warningResult('IMMUTABLE_TEMPLATE', `${why}; not stamped`, obj.subject, field));
    else results.push(infoResult('IMMUTABLE_TEMPLATE', `${why}; not stamped`, obj.subject, field));
    return undefined;
  }
  if (!isSafeToRead(obj, results)) return undefined;
  const reader = new NodeReader(obj.subject, results);
  const before = results.length;
  const delegated = row.delegate && !isNullish(childIn(obj.item.node, row.delegate.path)) ? row.delegate.path : undefined;
  const required = delegated ? undefined : reader.mapIn(obj.item.node, ROOT_PATH, row.required);
  if (results.length > before) return undefined;
  if (!required && !delegated) {
    results.push(errorResult('MISSING_TEMPLATE', `${obj.kind} has no ${row.required.at(-1) === 'template' ? 'pod template' : formatPath(row.required)}`, obj.subject, formatPath(row.required)));
    return undefined;
  }
  if (row.declaredAt !== undefined && !declaredPodSpecsHold(obj, row, results)) return undefined;
  if (rollout.how === 'on-delete') results.push(warningResult('ON_DELETE_STRATEGY', rollout.why, obj.subject, field));
  if (rollout.how === 'never') results.push(warningResult('NO_AUTOMATIC_ROLLOUT', rollout.why, obj.subject, field));
  const target = newTarget(obj, 'workload', row.stamp, { row, rollout, component: row.component || undefined });
  const reloader = reloaderOf(obj, config);
  if (reloader?.reloaded) target.alsoRolledBy = 'Reloader';
  if (reloader && config.reloader === 'enabled') {
    const named = reloaderRefs(obj, reloader, results, config.maxReferences);
    if (hasErrorsSince(results, before)) return undefined;
    if (named.length > 0) target.reloaderRefs = named;
  }
  // A template taken from another object (Argo Rollouts' workloadRef): the stamp goes there, linked later (#38).
  return delegated ? workloadRefOf(obj, delegated, results, target) : target;
}

const POD_SPEC_LISTS = ['containers', 'initContainers', 'ephemeralContainers', 'volumes'];

/** A declared row's pod spec paths must each hold a pod spec in the object: a map with containers or volumes. */
function declaredPodSpecsHold(obj: KObject, row: WorkloadRow, results: Result[]): boolean {
  let ok = true;
  row.podSpecs.forEach((path, i) => {
    const at = childIn(obj.item.node, path);
    if (isMapNode(at) && POD_SPEC_LISTS.some((list) => child(at, list) !== undefined)) return;
    ok = false;
    const message = `${row.declaredAt}.podSpecPaths[${i}]: ${path.join('.')} holds no pod spec (a map with containers or volumes) in this ${obj.kind}`;
    results.push(errorResult('INVALID_CONFIG', message, obj.subject, formatPath(path)));
  });
  return ok;
}
