// Discover stage for a kagent SandboxAgent (kagent.dev/v1alpha2, kagent 0.10): of its deployment spec, only
// what kagent's Substrate backend passes on to the ActorTemplate counts. Read from kagent-dev/kagent at
// release/v0.10.x (03e950f6e; same code at tag v0.10.0-rc3, 7c52fffed):
// - go/core/internal/controller/translator/agent/deployments.go (`resolveInlineDeployment`,
//   `resolveByoDeployment`): `spec.<declarative|byo>.deployment.env` becomes the deployment's env;
// - translator/agent/manifest_builder.go: that env leads the `kagent` container's env (`podRuntimeInputs`,
//   `buildPodTemplate`), and `buildWorkloadObjects` hands the pod template to the sandbox backend;
// - go/core/pkg/sandboxbackend/substrate/agents_backend.go `BuildSandbox` → agent_lifecycle.go
//   `buildSandboxAgentActorTemplate`: the ActorTemplate gets the kagent container's image, a command, and
//   `actorTemplateEnvFromPodEnv(env)` — nothing else of the pod (no annotations, envFrom, volumes, other
//   containers); lifecycle_shared.go `sanitizeActorTemplateEnvVar` keeps literal values and secretKeyRef
//   only (configMapKeyRef, fieldRef … are dropped), and the first entry of a name wins;
// - agent_lifecycle.go `actorTemplateShapeHash`: the template name carries a hash of its spec, literal env
//   included, so a changed literal value makes a new ActorTemplate and new actors (blue-green), while a
//   changed Secret alone does not.
// - go/api/v1alpha2/sandboxagent_types.go: `spec.skills` is rejected for SandboxAgents (CEL).
import { warningResult, type Result, type Subject } from '../model/results.ts';
import { ENV_STAMP_NAME } from '../model/constants.ts';
import { child, formatPath, isMapNode, stringValue, type FieldPath, type NodeReader } from '../model/nodes.ts';
import { containerRefs, volumeRefs } from './pod-spec.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { MapNode } from '../model/nodes.ts';

const SUBSTRATE = "kagent's Substrate backend";

/**
 * The references of a SandboxAgent's deployment spec that reach its actor: secretKeyRef env entries. Every
 * other Secret or ConfigMap reference there (configMapKeyRef env, envFrom, volumes, extraContainers) is
 * dropped by kagent before the ActorTemplate: a warning names it, and it is not hashed.
 */
export function sandboxDeploymentRefs(deployment: MapNode, path: FieldPath, subject: Subject, reader: NodeReader): SourceRef[] {
  const kept: SourceRef[] = [];
  const dropped = (ref: SourceRef, what: string): void => {
    const message = `${SUBSTRATE} drops ${what} from a SandboxAgent (only literal and secretKeyRef env reach its actor): ${ref.cls} ${ref.name} is not hashed`;
    reader.results.push(warningResult('DROPPED_BY_KAGENT', message, subject, ref.field));
  };
  // The stamp's own entry is rollstamp's output, never an input (it is replaced by a literal when stamped).
  const own = new Set<string>();
  reader.seq(child(deployment, 'env'), [...path, 'env'])?.items.forEach((e, i) => {
    if (isMapNode(e) && stringValue(child(e, 'name')) === ENV_STAMP_NAME) own.add(`${formatPath([...path, 'env', i])}.`);
  });
  for (const ref of containerRefs(deployment, path, reader)) {
    if ([...own].some((prefix) => ref.field.startsWith(prefix))) continue;
    if (ref.field.endsWith('.valueFrom.secretKeyRef')) kept.push(ref);
    else dropped(ref, ref.field.endsWith('.valueFrom.configMapKeyRef') ? 'configMapKeyRef env' : 'envFrom');
  }
  reader.seq(child(deployment, 'volumes'), [...path, 'volumes'])?.items.forEach((v, i) => {
    const volume = reader.map(v, [...path, 'volumes', i]);
    for (const ref of volume ? volumeRefs(volume, [...path, 'volumes', i], reader) : []) dropped(ref, 'volumes');
  });
  reader.seq(child(deployment, 'extraContainers'), [...path, 'extraContainers'])?.items.forEach((c, i) => {
    const container = reader.map(c, [...path, 'extraContainers', i]);
    for (const ref of container ? containerRefs(container, [...path, 'extraContainers', i], reader) : []) dropped(ref, 'extraContainers');
  });
  return kept;
}

/** kagent's CRD rejects `spec.skills` on a SandboxAgent: nothing under it is hashed. */
export function sandboxSkillsResult(subject: Subject): Result {
  return warningResult('KAGENT_REFERENCE', "kagent's SandboxAgent CRD rejects spec.skills (not supported for sandbox agents): not hashed", subject, 'spec.skills');
}
