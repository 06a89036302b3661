// Target stage: which objects get a stamp. Workloads opt in by annotation or label, by the config's selector,
// or all; kagent Agents and ModelConfigs are targets unless kagent support is off; `rollstamp.dev/enabled:
// "false"` always wins. Immutable templates are reported, never stamped.
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { agentStampSite } from '../discover/kagent.ts';
import { HARNESS_NOT_STAMPED, KAGENT_GROUP, kagentVersionSupport, unsupportedVersionMessage } from '../kinds/kagent-versions.ts';
import { errorResult, infoResult, warningResult, type Result } from '../model/results.ts';
import { matchesSelector } from '../config/selector.ts';
import { workloadKindOf, type WorkloadKind } from '../kinds/workloads.ts';
import { childIn, formatPath, NodeReader, stringValue } from '../model/nodes.ts';
import type { Config } from '../model/config.ts';
import { type KObject, relatedId } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { Target, TargetMode } from '../model/target.ts';

/**
 * Whether one object is a target, and how (undefined: not one). Objects are selected one at a time, in input
 * order; rendered agent Deployments are linked to their Agents afterwards (linkAgentDeployments).
 * - Reports: a bad `rollstamp.dev/enabled` value (error), an immutable template (info), an OnDelete strategy
 *   or a ReplicaSet (warning), a missing template (error, info for a Rollout with workloadRef).
 */
export function selectTarget(obj: KObject, config: Config, results: Result[]): Target | undefined {
  const kagentNote = config.kagent === 'enabled' ? kagentPassThrough(obj) : undefined;
  if (kagentNote) {
    const optedOut = (obj.annotations.get(ENABLED_ANNOTATION) ?? obj.labels.get(ENABLED_ANNOTATION)) === 'false';
    if (!optedOut) results.push(kagentNote);
    return undefined;
  }
  const kind = workloadKindOf(obj);
  const kagentKind = config.kagent === 'enabled' ? kagentTargetMode(obj) : undefined;
  if ((kind || kagentKind) && obj.metadataProblems.length > 0) {
    results.push(...obj.metadataProblems);
    return undefined;
  }
  const fromAnnotation = obj.annotations.get(ENABLED_ANNOTATION);
  const enabled = fromAnnotation ?? obj.labels.get(ENABLED_ANNOTATION);
  if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') {
    const field = formatPath(['metadata', fromAnnotation !== undefined ? 'annotations' : 'labels', ENABLED_ANNOTATION]);
    results.push(errorResult('BAD_ANNOTATION', `${ENABLED_ANNOTATION} must be "true" or "false"`, obj.subject, field));
    return undefined;
  }
  if (kagentKind) return enabled !== 'false' ? readKagentTarget(obj, kagentKind, results) : undefined;
  if (!kind) {
    if (enabled === 'true') {
      results.push(warningResult('NO_TEMPLATE', `${obj.kind} has no pod template rollstamp knows; not stamped`, obj.subject));
    }
    return undefined;
  }
  const wanted =
    enabled === 'true' ||
    (enabled === undefined && (config.targets === 'all' || (config.selector !== undefined && matchesSelector(config.selector, obj.labels))));
  return wanted ? readTarget(obj, kind, results) : undefined;
}

/**
 * kagent objects that are never written, with the result that says why: an unreleased or unknown API version
 * (a field added there is pruned or rejected, #13), and an AgentHarness (nothing of it rolls).
 */
function kagentPassThrough(obj: KObject): Result | undefined {
  const support = kagentVersionSupport(obj);
  if (support === 'unsupported') return warningResult('UNSUPPORTED_KAGENT_VERSION', unsupportedVersionMessage(obj), obj.subject);
  if (support === 'supported' && obj.kind === 'AgentHarness') return infoResult('NO_AUTOMATIC_ROLLOUT', HARNESS_NOT_STAMPED, obj.subject);
  return undefined;
}

function kagentTargetMode(obj: KObject): TargetMode | undefined {
  if (obj.group !== KAGENT_GROUP) return undefined;
  if (obj.kind === 'Agent' || obj.kind === 'SandboxAgent') return 'agent';
  return obj.kind === 'ModelConfig' ? 'model-config' : undefined;
}

function readKagentTarget(obj: KObject, mode: TargetMode, results: Result[]): Target | undefined {
  if (!isSafeToRead(obj, results)) return undefined;
  if (mode === 'model-config') return { obj, mode, site: { kind: 'annotation', path: ['metadata', 'annotations'] } };
  const site = agentStampSite(obj, new NodeReader(obj.subject, results));
  return site ? { obj, mode, site } : undefined;
}

/**
 * A Deployment that may have been rendered for an Agent outside the controller (labels `app: kagent` and
 * `kagent: <agent>`, or an ownerReference to the Agent): the name of that Agent.
 */
export function renderedAgentName(obj: KObject): string | undefined {
  if (obj.group !== 'apps' || obj.kind !== 'Deployment' || obj.annotations.get(ENABLED_ANNOTATION) === 'false') return undefined;
  return agentNameOf(obj);
}

/**
 * A Deployment rendered for an Agent carries its Agent's hash, so both paths roll the same way: each of
 * `candidates` (Deployments with a renderedAgentName, in input order) whose Agent is a target becomes a target
 * of mode `agent-deployment`, in the place of its own target or after all others.
 */
export function linkAgentDeployments(targets: Target[], candidates: readonly KObject[]): Target[] {
  const agents = new Map(targets.filter((t) => t.mode === 'agent').map((t) => [relatedId(t.obj.kind, t.obj.namespace, t.obj.name), t]));
  if (agents.size === 0) return targets;
  const byNode = new Map(targets.map((t) => [t.obj, t]));
  for (const obj of candidates) {
    const name = renderedAgentName(obj);
    const agent = name === undefined ? undefined : (agents.get(relatedId('Agent', obj.namespace, name)) ?? agents.get(relatedId('SandboxAgent', obj.namespace, name)));
    if (!agent) continue;
    const linked: Target = { obj, mode: 'agent-deployment', site: { kind: 'annotation', path: ['spec', 'template', 'metadata', 'annotations'] }, templatePath: ['spec', 'template'], agent };
    if (byNode.has(obj)) targets[targets.indexOf(byNode.get(obj)!)] = linked;
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
