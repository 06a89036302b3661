// Target kind for Argo Rollouts' `spec.workloadRef` (#38): an opted-in Rollout that takes its pod template from
// a Deployment, ReplicaSet or PodTemplate is stamped on that object's template, which is the one the Rollouts
// controller copies into each new revision (argoproj/argo-rollouts rollout/templateref.go Resolve). Linked once
// the whole input is read: the Rollout waits, and the object it names is kept when read.
import { annotationRefs } from '../discover/annotations.ts';
import { podSpecRefs } from '../discover/pod-spec.ts';
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { childIn, formatPath, isScalarNode, NodeReader, stringValue } from '../model/nodes.ts';
import { infoResult, result, warningResult, type Result } from '../model/results.ts';
import type { Config } from '../model/config.ts';
import type { KObject } from '../model/object.ts';
import { newTarget, type Target } from '../model/target.ts';
import type { KeyPath, Rollout } from '../model/workload-row.ts';
import type { TargetKind } from './kind.ts';

const MODE = 'workload-ref';

/** What `workloadRef` may name, and where its pod template is (templateref.go infoByGroupKind). */
const REFERABLE: ReadonlyMap<string, KeyPath> = new Map([
  ['apps/Deployment', ['spec', 'template']],
  ['apps/ReplicaSet', ['spec', 'template']],
  ['/PodTemplate', ['template']],
]);

const idOf = (group: string, kind: string, namespace: string, name: string): string => `${group}/${kind}/${namespace}/${name}`;

/** The id under which a Rollout asks for this object, when workloadRef may name it. */
// Asked twice of every object the planner reads (candidate, linkId): the object's kind is compared first, so only a
// Deployment, ReplicaSet or PodTemplate builds a `group/Kind` key (#37).
// The group is compared as it is, too: a `group/Kind` key built for each Deployment was garbage (#37).
const REFERABLE_GROUPS: ReadonlyMap<string, string> = new Map([...REFERABLE.keys()].map((groupKind) => {
  const slash = groupKind.indexOf('/');
  return [groupKind.slice(slash + 1), groupKind.slice(0, slash)];
}));
const referableId = (obj: KObject): string | undefined =>
  REFERABLE_GROUPS.get(obj.kind) === obj.group ? idOf(obj.group, obj.kind, obj.namespace, obj.name) : undefined;

/**
 * The waiting target of an opted-in Rollout whose `path` (its row's delegate field) names another object, or
 * undefined with the reason reported: a workloadRef without a name (WRONG_TYPE error), or naming a kind Argo
 * Rollouts cannot take a template from (a warning; the controller refuses it too).
 */
export function workloadRefOf(obj: KObject, path: KeyPath, results: Result[], base: Target): Target | undefined {
  const reader = new NodeReader(obj.subject, results);
  const ref = reader.mapIn(obj.item.node, [], path);
  if (!ref) return undefined;
  const apiVersion = stringValue(childIn(ref, ['apiVersion'])) ?? '';
  const kind = stringValue(childIn(ref, ['kind'])) ?? '';
  const name = reader.str(childIn(ref, ['name']), [...path, 'name']);
  if (name === undefined || name === '') return reader.required([...path, 'name'], 'a non-empty string');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (!REFERABLE.has(`${group}/${kind}`)) {
    results.push(warningResult('NO_TEMPLATE', `names ${apiVersion} ${kind} ${name}, which Argo Rollouts takes no pod template from (only a Deployment, ReplicaSet or PodTemplate); not stamped`, obj.subject, formatPath(path)));
    return undefined;
  }
  return newTarget(base.obj, MODE, base.site, { ...base, handsTo: { id: idOf(group, kind, obj.namespace, name), what: `${kind} ${obj.namespace}/${name}`, field: formatPath(path) } });
}

export const rolloutWorkloadRefs: TargetKind = {
  mode: MODE,
  hash: 'dependencies',
  local: false,
  linkId: referableId,
  candidate: (obj, wanted) => {
    // No Rollout has asked for an object yet, as in most renders: no id to look up.
    if (wanted.size === 0) return false;
    const id = referableId(obj);
    return id !== undefined && wanted.has(id);
  },
  link: linkWorkloadRefs,
  dependencies(target, reader, _inventory, maxReferences) {
    const { obj } = target;
    const template = target.templatePath!;
    const spec = reader.mapIn(obj.item.node, [], [...template, 'spec']);
    const refs = [...(spec ? podSpecRefs(spec, [...template, 'spec'], reader) : []), ...(target.reloaderRefs ?? [])];
    // Extra dependencies named on the object itself and on each Rollout that takes its template.
    for (const source of [obj, ...(target.via ?? [])]) refs.push(...annotationRefs(source, reader.results, Math.max(0, maxReferences - refs.length)));
    return { refs, objects: [] };
  },
};

/**
 * Each waiting Rollout target (`handsTo`) becomes a target on the object it names, in the Rollout's place; an
 * object several Rollouts name is one target covering them all, and one that is a target of its own is replaced
 * by it. Reports per Rollout: an info saying where its stamp goes, or (the object not in the input, or opted
 * out) why nothing is stamped for it. A dropped target is `undefined` in the list.
 */
function linkWorkloadRefs(targets: Array<Target | undefined>, candidates: readonly KObject[], results: Result[], config: Config): Array<Target | undefined> {
  const byId = new Map<string, KObject[]>();
  for (const c of candidates) {
    const id = referableId(c);
    if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), c]);
  }
  const linked = new Map<KObject, { at: number; target: Target }>();
  const own = new Map<KObject, number>(targets.flatMap((t, i) => (t && !t.handsTo ? [[t.obj, i] as const] : [])));
  targets.forEach((t, i) => {
    if (!t?.handsTo) return;
    targets[i] = undefined;
    const { obj: rollout, handsTo } = t;
    const found = byId.get(handsTo.id) ?? [];
    if (found.length === 0) {
      if (config.onMissing === 'ignore') return;
      const message = `names ${handsTo.what}, which is not in the input: nothing is stamped for this Rollout (render them together)`;
      results.push(result(config.onMissing === 'error' ? 'error' : 'warning', 'MISSING_OBJECT', message, rollout.subject, handsTo.field));
      return;
    }
    for (const obj of found) {
      if ((obj.annotations.get(ENABLED_ANNOTATION) ?? obj.labels.get(ENABLED_ANNOTATION)) === 'false') {
        results.push(infoResult('WORKLOAD_REF', `takes its pod template from ${handsTo.what}, which says ${ENABLED_ANNOTATION}: "false"; not stamped`, rollout.subject, handsTo.field));
        continue;
      }
      results.push(infoResult('WORKLOAD_REF', `takes its pod template from ${handsTo.what}: the stamp goes there`, rollout.subject, handsTo.field));
      const known = linked.get(obj);
      if (known) {
        known.target.via!.push(rollout);
        known.target.reloaderRefs = [...(known.target.reloaderRefs ?? []), ...(t.reloaderRefs ?? [])];
        known.target.rollout = rolloutOf(obj, known.target.via!);
        continue;
      }
      const template = REFERABLE.get(`${obj.group}/${obj.kind}`)!;
      const ownAt = own.get(obj);
      const ownTarget = ownAt === undefined ? undefined : targets[ownAt];
      const target = newTarget(obj, MODE, { kind: 'annotation', path: [...template, 'metadata', 'annotations'] }, {
        templatePath: template,
        via: [rollout],
        rollout: rolloutOf(obj, [rollout]),
        reloaderRefs: t.reloaderRefs || ownTarget?.reloaderRefs ? [...(ownTarget?.reloaderRefs ?? []), ...(t.reloaderRefs ?? [])] : undefined,
        alsoRolledBy: ownTarget?.alsoRolledBy || t.alsoRolledBy ? 'Reloader' : undefined,
      });
      const at = ownAt ?? i;
      targets[at] = target;
      linked.set(obj, { at, target });
    }
  });
  return targets;
}

/**
 * How a stamp on the referenced object rolls: each Rollout makes a new revision by its own steps; and a
 * Deployment that keeps replicas and that no Rollout scales down (`workloadRef.scaleDown` unset or `never`)
 * rolls its own pods too (argo-rollouts docs/migrating.md).
 */
function rolloutOf(obj: KObject, rollouts: readonly KObject[]): Rollout {
  const names = rollouts.map((r) => `Rollout ${r.namespace}/${r.name}`);
  const replicas = childIn(obj.item.node, ['spec', 'replicas']);
  const none = isScalarNode(replicas) && (replicas.value === 0 || replicas.value === '0');
  const scaledDown = rollouts.some((r) => !['never', undefined].includes(stringValue(childIn(r.item.node, ['spec', 'workloadRef', 'scaleDown']))));
  const tail = obj.kind === 'Deployment' && !none && !scaledDown ? `; the Deployment's own pods roll too (replicas not 0, no workloadRef.scaleDown)` : '';
  const who = names.length === 1 ? `${names[0]} makes` : `${names.join(', ')} each make`;
  return { how: 'rolling', why: `${who} a new revision from this template (spec.workloadRef), by its own canary or blue-green steps${tail}` };
}
