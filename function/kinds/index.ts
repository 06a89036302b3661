// Target kinds registry: every kind of object rollstamp stamps, one module each behind TargetKind (kind.ts),
// and the objects it never writes. Selection tries the kinds in this order; the first that matches decides.
import { kagentAgents } from './kagent-agent.ts';
import { renderedAgentDeployments } from './kagent-deployment.ts';
import { kagentModelConfigs } from './kagent-model-config.ts';
import { kagentPassThrough } from './kagent-versions.ts';
import { kagent1xPassThrough } from './kagent1x-versions.ts';
import { rolloutWorkloadRefs } from './rollout-workload-ref.ts';
import { sidecarSetPassThrough } from './sidecar-sets.ts';
import { workloads } from './workloads.ts';
export { declaredPathWork } from './workloads.ts';
export { declaredKindProblems } from './declared-kinds.ts';
import type { Config } from '../model/config.ts';
import type { KObject } from '../model/object.ts';
import type { TargetMode } from '../model/target.ts';
import type { PassThrough, Selection, TargetKind } from './kind.ts';

export type { HashRule, PassThrough, Selection, TargetKind } from './kind.ts';

export const TARGET_KINDS: readonly TargetKind[] = [workloads, kagentAgents, kagentModelConfigs, renderedAgentDeployments, rolloutWorkloadRefs];

/** Checked before any kind: objects whose kind or version rollstamp must not write into. */
export const PASS_THROUGH: readonly PassThrough[] = [kagent1xPassThrough, kagentPassThrough, sidecarSetPassThrough];


/** How an object is selected: the selection of the first kind it matches, if any. */
export function selectionFor(obj: KObject, config: Config): Selection | undefined {
  for (const kind of TARGET_KINDS) if (kind.select?.matches(obj, config)) return kind.select;
  return undefined;
}

/** The kind of a target, by its mode. */
export function kindOf(mode: TargetMode): TargetKind {
  // Asked several times per target: five kinds are searched faster than a map is looked up (#37).
  for (let i = 0; i < TARGET_KINDS.length; i++) if (TARGET_KINDS[i]!.mode === mode) return TARGET_KINDS[i]!;
  throw new Error(`internal: no target kind for mode ${mode}`);
}

/** The `unit` kind hashing objects of this Kubernetes kind (a dependency naming one takes its hash), if any. */
export const unitKindFor = (kubernetesKind: string): TargetKind | undefined => TARGET_KINDS.find((k) => k.unitKind === kubernetesKind);

/** Kinds whose targets are linked to others once every target is known. */
export const LINKED_KINDS: readonly TargetKind[] = TARGET_KINDS.filter((k) => k.link !== undefined);
