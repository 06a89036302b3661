// Target stage table: which kinds carry a pod template, where it is, and how a template change rolls out.
// New target kinds (kagent Agent, …) are rows here, not branches elsewhere.
import type { KObject } from '../model/object.ts';

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
