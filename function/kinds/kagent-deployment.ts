// Target kind for Deployments rendered for a kagent Agent outside its controller: such a Deployment carries
// exactly its Agent's hash, so both paths roll the same way. Linked once every Agent target is known.
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { childIn, stringValue } from '../model/nodes.ts';
import { type KObject, relatedId } from '../model/object.ts';
import { newTarget, type Target } from '../model/target.ts';
import { kagentAgents } from './kagent-agent.ts';
import type { TargetKind } from './kind.ts';

export const renderedAgentDeployments: TargetKind = {
  mode: 'agent-deployment',
  hash: 'carried',
  local: false,
  candidate: (obj) => renderedAgentName(obj) !== undefined,
  link: linkAgentDeployments,
};

/**
 * A Deployment that may have been rendered for an Agent outside the controller (labels `app: kagent` and
 * `kagent: <agent>`, or an ownerReference to the Agent): the name of that Agent.
 */
function renderedAgentName(obj: KObject): string | undefined {
  if (obj.group !== 'apps' || obj.kind !== 'Deployment' || obj.annotations.get(ENABLED_ANNOTATION) === 'false') return undefined;
  return agentNameOf(obj);
}

/**
 * A Deployment rendered for an Agent carries its Agent's hash, so both paths roll the same way: each of
 * `candidates` (Deployments with a renderedAgentName, in input order) whose Agent is a target becomes a target
 * of mode `agent-deployment`, in the place of its own target or after all others.
 */
function linkAgentDeployments(targets: Array<Target | undefined>, candidates: readonly KObject[]): Array<Target | undefined> {
  const agents = new Map(targets.flatMap((t) => (t?.mode === kagentAgents.mode ? [[relatedId(t.obj.kind, t.obj.namespace, t.obj.name), t] as const] : [])));
  if (agents.size === 0) return targets;
  const byNode = new Map(targets.flatMap((t, i) => (t ? [[t.obj, i] as const] : []))); // an object's place among the targets
  for (const obj of candidates) {
    const name = renderedAgentName(obj);
    const agent = name === undefined ? undefined : (agents.get(relatedId('Agent', obj.namespace, name)) ?? agents.get(relatedId('SandboxAgent', obj.namespace, name)));
    if (!agent) continue;
    const linked = newTarget(obj, 'agent-deployment', { kind: 'annotation', path: ['spec', 'template', 'metadata', 'annotations'] }, { templatePath: ['spec', 'template'], carriedFrom: agent });
    const at = byNode.get(obj);
    if (at !== undefined) targets[at] = linked;
    else targets.push(linked);
  }
  return targets;
}

/** The Agent a Deployment was rendered for: its controller ownerReference, else kagent's selector labels. */
function agentNameOf(obj: KObject): string | undefined {
  const owners = childIn(obj.item.node, ['metadata', 'ownerReferences']);
  const items = (owners as { items?: unknown[] } | undefined)?.items ?? [];
  for (const owner of items) {
    const apiVersion = stringValue(childIn(owner, ['apiVersion']));
    const kind = stringValue(childIn(owner, ['kind']));
    if (apiVersion?.startsWith('kagent.dev/') && (kind === 'Agent' || kind === 'SandboxAgent')) return stringValue(childIn(owner, ['name']));
  }
  return obj.labels.get('app') === 'kagent' ? obj.labels.get('kagent') : undefined;
}

