// Discover stage for kagent (kagent.dev): what an Agent's pod uses — its ModelConfigs, Secrets and ConfigMaps
// named in its spec, RemoteMCPServers used as tools — and what a ModelConfig uses. Namespaces follow kagent's
// controller (release/v0.10.x): ModelConfig names are same-namespace; tools may name another namespace when
// the tool's spec.allowedNamespaces permits it.
import { errorResult, warningResult } from '../model/results.ts';
import { child, childIn, formatPath, NodeReader, type FieldPath } from '../model/nodes.ts';
import { caRef, valueSourceRef, wholeRef } from './kagent-values.ts';
import { toolRefs } from './kagent-tools.ts';
import { sandboxDeploymentRefs, sandboxSkillsResult } from './kagent-sandbox.ts';
import { containerRefs, volumeRefs } from './pod-spec.ts';
import type { FoundRefs, SourceRef } from '../model/dependencies.ts';
import type { KObject, SourceIndex } from '../model/object.ts';
import type { StampSite } from '../model/target.ts';
import type { MapNode } from '../model/nodes.ts';

const SECRET_KEYED_PROVIDERS_EXEMPT = new Set(['Bedrock', 'SAPAICore']);

/**
 * Where an Agent's stamp goes: the pod-template annotations kagent copies verbatim onto the agent pods,
 * `spec.declarative.deployment.annotations` or `spec.byo.deployment.annotations` (v1alpha1:
 * `spec.deployment.annotations`). Never metadata.annotations or deploymentAnnotations: those do not roll pods.
 * A SandboxAgent's goes into `spec.<type>.deployment.env` as a literal `ROLLSTAMP_HASH` entry: its Substrate
 * ActorTemplate takes only env from the pod (see kagent-sandbox.ts for the kagent files this follows).
 */
export function agentStampSite(obj: KObject, reader: NodeReader): StampSite | undefined {
  if (obj.apiVersion === 'kagent.dev/v1alpha1') {
    reader.results.push(warningResult('NO_AUTOMATIC_ROLLOUT', "kagent's controller reads only kagent.dev/v1alpha2 Agents: this stamp rolls nothing until the Agent is migrated", obj.subject, 'spec.deployment.annotations'));
    return { kind: 'annotation', path: ['spec', 'deployment', 'annotations'] };
  }
  const section = agentSection(obj, reader);
  if (!section) return undefined;
  // kagent requires the section its type names; stamping would otherwise invent one.
  const before = reader.results.length;
  if (!reader.mapIn(obj.item.node, [], ['spec', section])) {
    if (reader.results.length === before) reader.required(['spec', section], 'a map'); // absent, not mistyped
    return undefined;
  }
  if (obj.kind === 'SandboxAgent') return { kind: 'env', path: ['spec', section, 'deployment', 'env'] };
  return { kind: 'annotation', path: ['spec', section, 'deployment', 'annotations'] };
}

/** `declarative` or `byo` from spec.type (default Declarative, as the CRD defaults it). */
function agentSection(obj: KObject, reader: NodeReader): 'declarative' | 'byo' | undefined {
  const type = reader.str(childIn(obj.item.node, ['spec', 'type']), ['spec', 'type']) ?? 'Declarative';
  if (type === 'Declarative') return 'declarative';
  if (type === 'BYO') return 'byo';
  reader.results.push(errorResult('WRONG_TYPE', 'expected Declarative or BYO', obj.subject, 'spec.type'));
  return undefined;
}

/** Everything an Agent (or SandboxAgent) uses. */
export function agentRefs(obj: KObject, reader: NodeReader, inventory: SourceIndex): FoundRefs {
  const out: FoundRefs = { refs: [], objects: [] };
  if (obj.apiVersion === 'kagent.dev/v1alpha1') return v1alpha1AgentRefs(obj, reader, out);
  const section = agentSection(obj, reader);
  if (!section) return out;
  const spec = reader.mapIn(obj.item.node, [], ['spec', section]);
  const base = ['spec', section];
  const sandbox = obj.kind === 'SandboxAgent';
  if (spec) {
    const deployment = reader.map(child(spec, 'deployment'), [...base, 'deployment']);
    const path = [...base, 'deployment'];
    if (deployment) out.refs.push(...(sandbox ? sandboxDeploymentRefs(deployment, path, obj.subject, reader) : deploymentRefs(deployment, path, reader)));
    if (section === 'declarative') declarativeRefs(obj, spec, base, reader, inventory, out);
  }
  const skills = reader.mapIn(obj.item.node, [], ['spec', 'skills']);
  if (skills && sandbox) reader.results.push(sandboxSkillsResult(obj.subject));
  else if (skills) {
    const git = reader.map(child(skills, 'gitAuthSecretRef'), ['spec', 'skills', 'gitAuthSecretRef']);
    const name = git ? reader.str(child(git, 'name'), ['spec', 'skills', 'gitAuthSecretRef', 'name']) : undefined;
    if (name) out.refs.push(wholeRef('Secret', '', name, 'spec.skills.gitAuthSecretRef'));
    // Mounted whole into the skills-init container like gitAuthSecretRef, one Secret volume each at
    // DockerSecretsDir/<name> (adk_api_translator.go buildSkillsInitContainer, release/v0.10.x): a runtime input
    // there, unlike a pod's imagePullSecrets.
    reader.seq(child(skills, 'imagePullSecrets'), ['spec', 'skills', 'imagePullSecrets'])?.items.forEach((s, i) => {
      const path = ['spec', 'skills', 'imagePullSecrets', i];
      const ref = reader.map(s, path);
      const pull = ref ? reader.str(child(ref, 'name'), [...path, 'name']) : undefined;
      if (ref && !pull) reader.required([...path, 'name'], 'a Secret name');
      if (pull) out.refs.push(wholeRef('Secret', '', pull, formatPath(path)));
    });
    const init = reader.map(child(skills, 'initContainer'), ['spec', 'skills', 'initContainer']);
    if (init) out.refs.push(...containerRefs(init, ['spec', 'skills', 'initContainer'], reader));
  }
  return out;
}

/** env, envFrom, volumes and extraContainers of a kagent deployment spec (its own pod-spec fields). */
function deploymentRefs(deployment: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs = [...containerRefs(deployment, path, reader)];
  reader.seq(child(deployment, 'volumes'), [...path, 'volumes'])?.items.forEach((v, i) => {
    const volume = reader.map(v, [...path, 'volumes', i]);
    if (volume) refs.push(...volumeRefs(volume, [...path, 'volumes', i], reader));
  });
  reader.seq(child(deployment, 'extraContainers'), [...path, 'extraContainers'])?.items.forEach((c, i) => {
    const container = reader.map(c, [...path, 'extraContainers', i]);
    if (container) refs.push(...containerRefs(container, [...path, 'extraContainers', i], reader));
  });
  return refs;
}

function declarativeRefs(obj: KObject, spec: MapNode, base: FieldPath, reader: NodeReader, inventory: SourceIndex, out: FoundRefs): void {
  const modelField = [...base, 'modelConfig'];
  const model = reader.str(child(spec, 'modelConfig'), modelField);
  if (model === undefined || model === '') reader.required(modelField, 'a ModelConfig name');
  else addModelConfig(obj, model, formatPath(modelField), reader, out);
  const summarizerField = [...base, 'context', 'compaction', 'summarizer', 'modelConfig'];
  const summarizer = reader.str(childIn(spec, ['context', 'compaction', 'summarizer', 'modelConfig']), summarizerField);
  if (summarizer) addModelConfig(obj, summarizer, formatPath(summarizerField), reader, out);
  const memoryField = [...base, 'memory', 'modelConfig'];
  const memory = reader.str(childIn(spec, ['memory', 'modelConfig']), memoryField);
  if (memory) addModelConfig(obj, memory, formatPath(memoryField), reader, out);

  const systemFrom = valueSourceRef(child(spec, 'systemMessageFrom'), [...base, 'systemMessageFrom'], '', reader);
  if (systemFrom) out.refs.push(systemFrom);
  reader.seq(childIn(spec, ['promptTemplate', 'dataSources']), [...base, 'promptTemplate', 'dataSources'])?.items.forEach((d, i) => {
    const path = [...base, 'promptTemplate', 'dataSources', i];
    const source = reader.map(d, path);
    const name = source ? reader.str(child(source, 'name'), [...path, 'name']) : undefined;
    // kagent reads every key of a ConfigMap of this name in the Agent's namespace, whatever `kind` says.
    if (name) out.refs.push(wholeRef('ConfigMap', '', name, formatPath(path)));
  });
  reader.seq(child(spec, 'tools'), [...base, 'tools'])?.items.forEach((t, i) => {
    const path = [...base, 'tools', i];
    const tool = reader.map(t, path);
    if (tool) toolRefs(obj, tool, path, reader, inventory, out);
  });
}

/** A ModelConfig name: same namespace only in v1alpha2 (kagent has no cross-namespace form). */
function addModelConfig(obj: KObject, name: string, field: string, reader: NodeReader, out: FoundRefs): void {
  if (name.includes('/')) {
    reader.results.push(errorResult('KAGENT_REFERENCE', 'a ModelConfig is named without a namespace: kagent.dev/v1alpha2 Agents use a ModelConfig in their own namespace', obj.subject, field));
    return;
  }
  out.objects.push({ kind: 'ModelConfig', namespace: obj.namespace, name, field });
}

/** v1alpha1 Agents: `spec.modelConfig` (`name` or `namespace/name`) and `spec.deployment` env and volumes. */
function v1alpha1AgentRefs(obj: KObject, reader: NodeReader, out: FoundRefs): FoundRefs {
  const model = reader.str(childIn(obj.item.node, ['spec', 'modelConfig']), ['spec', 'modelConfig']);
  if (model) {
    const [namespace, name] = model.includes('/') ? model.split('/', 2) : [obj.namespace, model];
    out.objects.push({ kind: 'ModelConfig', namespace: namespace!, name: name!, field: 'spec.modelConfig' });
  }
  const deployment = reader.mapIn(obj.item.node, [], ['spec', 'deployment']);
  if (deployment) out.refs.push(...deploymentRefs(deployment, ['spec', 'deployment'], reader));
  return out;
}

/**
 * What a ModelConfig uses: its API-key Secret (the one key, or the whole Secret for Bedrock and SAPAICore,
 * which read fixed key names), its TLS CA Secret key, and Foundry's endpointFrom ConfigMap key.
 */
export function modelConfigRefs(obj: KObject, reader: NodeReader): SourceRef[] {
  const spec = reader.mapIn(obj.item.node, [], ['spec']);
  if (!spec) return [];
  const refs: SourceRef[] = [];
  const provider = reader.str(child(spec, 'provider'), ['spec', 'provider']) ?? 'OpenAI';
  const secretField = obj.apiVersion === 'kagent.dev/v1alpha1' ? 'apiKeySecretRef' : 'apiKeySecret';
  const secret = reader.str(child(spec, secretField), ['spec', secretField]);
  if (secret) {
    const field = formatPath(['spec', secretField]);
    if (SECRET_KEYED_PROVIDERS_EXEMPT.has(provider)) refs.push(wholeRef('Secret', '', secret, field));
    else {
      const key = reader.str(child(spec, 'apiKeySecretKey'), ['spec', 'apiKeySecretKey']);
      if (key) refs.push({ cls: 'Secret', namespace: '', name: secret, keys: [key], optional: false, field });
      else reader.required(['spec', 'apiKeySecretKey'], 'the key of the API-key Secret');
    }
  }
  const tls = reader.map(child(spec, 'tls'), ['spec', 'tls']);
  const ca = tls ? caRef(tls, ['spec', 'tls'], reader) : undefined;
  if (ca) refs.push(ca);
  const endpointFrom = reader.mapIn(spec, ['spec'], ['foundry', 'endpointFrom']);
  if (endpointFrom) {
    const path = ['spec', 'foundry', 'endpointFrom'];
    const name = reader.str(child(endpointFrom, 'name'), [...path, 'name']);
    const key = reader.str(child(endpointFrom, 'key'), [...path, 'key']);
    const optional = reader.bool(child(endpointFrom, 'optional'), [...path, 'optional']) ?? false;
    // kagent reads `cm.Data[key]` (reconciler.go ReconcileKagentModelConfig, adk_api_translator.go
    // resolveFoundryEndpoint, release/v0.10.x): a key only in binaryData is an empty endpoint to kagent.
    if (name && key) refs.push({ cls: 'ConfigMap', namespace: '', name, keys: [key], optional, field: formatPath(path), dataOnly: true });
  }
  return refs;
}
