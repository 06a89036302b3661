// Target kind for workloads: the table of kinds that carry a pod template, where it is, and how a template
// change rolls out; they are selected by label, annotation, selector or `targets: all`, and their hash covers
// the pod spec's references and the rollstamp.dev/secrets and rollstamp.dev/configmaps annotations.
import { annotationRefs } from '../discover/annotations.ts';
import { podSpecRefs } from '../discover/pod-spec.ts';
import { matchesSelector } from '../config/selector.ts';
import { errorResult, infoResult, warningResult, type Result } from '../model/results.ts';
import { childIn, formatPath, NodeReader, stringValue } from '../model/nodes.ts';
import type { KObject } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { Target } from '../model/target.ts';
import type { TargetKind } from './kind.ts';

export interface WorkloadKind {
  group: string;
  kind: string;
  /** Path of the pod template (a PodTemplateSpec map). */
  templatePath: readonly string[];
  /** The template can be absent legitimately (Argo Rollout with `workloadRef`). */
  templateOptional?: boolean;
  /** Path of the update strategy type, where `OnDelete` means no automatic rollout. */
  strategyPath?: readonly string[];
  /** Why a stamp does not roll pods by itself: `immutable` (never stamped) or `no-rollout` (stamped, warned). */
  caveat?: 'immutable' | 'no-rollout';
}

export const WORKLOAD_KINDS: readonly WorkloadKind[] = [
  { group: 'apps', kind: 'Deployment', templatePath: ['spec', 'template'] },
  { group: 'apps', kind: 'StatefulSet', templatePath: ['spec', 'template'], strategyPath: ['spec', 'updateStrategy', 'type'] },
  { group: 'apps', kind: 'DaemonSet', templatePath: ['spec', 'template'], strategyPath: ['spec', 'updateStrategy', 'type'] },
  // A ReplicaSet uses a changed template only for pods it creates later.
  { group: 'apps', kind: 'ReplicaSet', templatePath: ['spec', 'template'], caveat: 'no-rollout' },
  // The next Job the CronJob creates uses the new template.
  { group: 'batch', kind: 'CronJob', templatePath: ['spec', 'jobTemplate', 'spec', 'template'] },
  { group: 'argoproj.io', kind: 'Rollout', templatePath: ['spec', 'template'], templateOptional: true },
  // Pod templates of Jobs and Pods are immutable: a changed stamp would make the apply fail.
  { group: 'batch', kind: 'Job', templatePath: ['spec', 'template'], caveat: 'immutable' },
  { group: '', kind: 'Pod', templatePath: [], caveat: 'immutable' },
];

const BY_GROUP_KIND = new Map(WORKLOAD_KINDS.map((k) => [`${k.group}/${k.kind}`, k]));

/** The workload row for an object, or undefined when its kind has no pod template rollstamp knows. */
export function workloadKindOf(obj: KObject): WorkloadKind | undefined {
  return BY_GROUP_KIND.get(`${obj.group}/${obj.kind}`);
}

export const workloads: TargetKind = {
  mode: 'workload',
  hash: 'dependencies',
  local: true,
  select: {
    matches: (obj) => workloadKindOf(obj) !== undefined,
    byDefault: (obj, config) => config.targets === 'all' || (config.selector !== undefined && matchesSelector(config.selector, obj.labels)),
    read: (obj, results) => readTarget(obj, workloadKindOf(obj)!, results),
  },
  dependencies(target, reader, _inventory, maxReferences) {
    const { obj } = target;
    const templatePath = target.templatePath ?? [];
    const spec = reader.mapIn(obj.item.node, [], [...templatePath, 'spec']);
    const podRefs = spec ? podSpecRefs(spec, [...templatePath, 'spec'], reader) : [];
    return { refs: [...podRefs, ...annotationRefs(obj, reader.results, Math.max(0, maxReferences - podRefs.length))], objects: [] };
  },
};

/**
 * A workload's target, or undefined with the reason reported: an immutable template (info), a missing one
 * (error; info for a Rollout with workloadRef). An OnDelete strategy or a ReplicaSet is stamped and warned.
 */
function readTarget(obj: KObject, kind: WorkloadKind, results: Result[]): Target | undefined {
  if (kind.caveat === 'immutable') {
    results.push(infoResult('IMMUTABLE_TEMPLATE', `the pod template of a ${obj.kind} is immutable; not stamped`, obj.subject));
    return undefined;
  }
  if (!isSafeToRead(obj, results)) return undefined;
  const reader = new NodeReader(obj.subject, results);
  const before = results.length;
  const template = reader.mapIn(obj.item.node, [], kind.templatePath);
  if (results.length > before) return undefined;
  const templateField = formatPath(kind.templatePath);
  if (!template) {
    if (kind.templateOptional) {
      results.push(infoResult('NO_TEMPLATE', `${obj.kind} has no ${templateField} (workloadRef?); not stamped`, obj.subject));
    } else {
      results.push(errorResult('MISSING_TEMPLATE', `${obj.kind} has no pod template`, obj.subject, templateField));
    }
    return undefined;
  }
  if (kind.strategyPath) {
    const strategy = stringValue(childIn(obj.item.node, kind.strategyPath));
    if (strategy === 'OnDelete') {
      results.push(warningResult('ON_DELETE_STRATEGY', 'updateStrategy OnDelete: pods roll only when deleted', obj.subject, formatPath(kind.strategyPath)));
    }
  }
  if (kind.caveat === 'no-rollout') {
    results.push(warningResult('NO_AUTOMATIC_ROLLOUT', `a ${obj.kind} does not replace running pods when its template changes`, obj.subject));
  }
  return { obj, mode: 'workload', templatePath: kind.templatePath, site: { kind: 'annotation', path: [...kind.templatePath, 'metadata', 'annotations'] } };
}
