// Discover stage, kagent 1.x: the references one object's spec makes — to other 1.x objects and to Secret and
// ConfigMap keys — read field by field (#20). Sources, all from kagent's pre-release API (the GA tree was not
// readable): go/api/v1alpha3/agent_types.go@23e08812 (Agent), agenttemplate_types.go@0e5a0496 (AgentTemplate),
// runtime_types.go@8e6ec3d2 and harness_types.go@039f5e97 (Harness), modelconfig_types.go@0121b24a (ModelConfig),
// adkconfig/builder.go@d48354a6 `BuildProvenance` (what a revision hashes). Every reference is namespace-local.
import { child, formatPath, isMapNode, isSeqNode, stringValue, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import { errorResult } from '../model/results.ts';
import type { Kagent1xEffect } from '../model/kagent1x.ts';

/** A 1.x kind a reference can name. */
export type Kagent1xRefKind = 'AgentTemplate' | 'Harness' | 'ModelConfig' | 'RemoteMCPServer' | 'EgressPolicy';

/** One reference of a spec: to another 1.x object, to an inline spec, or to a Secret or ConfigMap. */
export type Kagent1xEdge =
  | { to: 'object'; kind: Kagent1xRefKind; name: string; field: string }
  /** An inline AgentTemplate or Harness spec (the Agent's own spec covers its fields). */
  | { to: 'inline'; kind: 'AgentTemplate' | 'Harness'; spec: MapNode; path: FieldPath }
  | {
      to: 'source';
      cls: 'Secret' | 'ConfigMap';
      name: string;
      field: string;
      effect: Kagent1xEffect;
      /** The keys consumed; undefined: all of `data` (kagent hashes the whole ConfigMap). */
      keys?: string[];
      /** Keys kagent reads only when present (Bedrock, SAPAICore): their absence is no error. */
      optionalKeys?: boolean;
    };

/** Bedrock reads these keys of the ModelConfig's Secret (a bearer token, or an access key pair and session). */
const BEDROCK_KEYS = ['AWS_ACCESS_KEY_ID', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];
/** SAPAICore reads these keys of the ModelConfig's Secret (OAuth2 client credentials). */
const SAP_AI_CORE_KEYS = ['client_id', 'client_secret'];

/** A required, non-empty string at `path` (WRONG_TYPE otherwise: never a guess). */
function name(reader: NodeReader, map: MapNode, path: FieldPath, key = 'name'): string | undefined {
  const value = reader.str(child(map, key), [...path, key]);
  if (value === undefined || value === '') return reader.required([...path, key], 'a non-empty string');
  return value;
}

/** `{name: …}` (a LocalObjectReference) at `path`, if set. */
function localRef(reader: NodeReader, node: unknown, path: FieldPath): string | undefined {
  const map = reader.map(node, path);
  return map ? name(reader, map, path) : undefined;
}

/** `{name, key}` (a Secret or ConfigMap key selector) at `path`, if set. */
function keyRef(reader: NodeReader, node: unknown, path: FieldPath): { name: string; key: string } | undefined {
  const map = reader.map(node, path);
  if (!map) return undefined;
  const n = name(reader, map, path);
  const key = name(reader, map, path, 'key');
  return n !== undefined && key !== undefined ? { name: n, key } : undefined;
}

/** The maps of a list at `path` (a non-map entry is WRONG_TYPE). */
function entries(reader: NodeReader, node: unknown, path: FieldPath): Array<[MapNode, FieldPath]> {
  const seq = reader.seq(node, path);
  const out: Array<[MapNode, FieldPath]> = [];
  seq?.items.forEach((item, i) => {
    const map = reader.map(item, [...path, i]);
    if (map) out.push([map, [...path, i]]);
  });
  return out;
}

/**
 * An AgentTemplate spec's references: `modelConfig`, `systemPromptFrom` and `outputSchemaFrom` (ConfigMaps
 * hashed whole), `promptTemplate.dataSources` (whole), `tools[].mcp.server`, `tools[].subAgent.templateRef`,
 * and the git `credentialRef` of skills and plugins (sent by the egress gateway: applies live).
 */
export function templateEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const model = localRef(reader, child(spec, 'modelConfig'), [...base, 'modelConfig']);
  if (model !== undefined) out.push({ to: 'object', kind: 'ModelConfig', name: model, field: formatPath([...base, 'modelConfig', 'name']) });
  for (const field of ['systemPromptFrom', 'outputSchemaFrom']) {
    // A ConfigMap key, but BuildProvenance hashes the ConfigMap's whole `data`.
    const ref = keyRef(reader, child(spec, field), [...base, field]);
    if (ref) out.push({ to: 'source', cls: 'ConfigMap', name: ref.name, field: formatPath([...base, field]), effect: 'recompiles' });
  }
  const prompt = reader.map(child(spec, 'promptTemplate'), [...base, 'promptTemplate']);
  if (prompt) {
    for (const [source, path] of entries(reader, child(prompt, 'dataSources'), [...base, 'promptTemplate', 'dataSources'])) {
      const n = name(reader, source, path);
      if (n !== undefined) out.push({ to: 'source', cls: 'ConfigMap', name: n, field: formatPath(path), effect: 'recompiles' });
    }
  }
  for (const [tool, path] of entries(reader, child(spec, 'tools'), [...base, 'tools'])) {
    const mcp = reader.map(child(tool, 'mcp'), [...path, 'mcp']);
    const sub = reader.map(child(tool, 'subAgent'), [...path, 'subAgent']);
    if (mcp && sub) reader.results.push(errorResult('KAGENT_REFERENCE', 'a tool sets both mcp and subAgent; kagent accepts exactly one', reader.subject, formatPath(path)));
    if (mcp) {
      const serverPath = [...path, 'mcp', 'server'];
      const server = reader.map(child(mcp, 'server'), serverPath);
      if (!server) reader.required(serverPath, 'a map');
      else {
        const kind = reader.str(child(server, 'kind'), [...serverPath, 'kind']);
        if (kind !== undefined && kind !== 'RemoteMCPServer') reader.results.push(errorResult('KAGENT_REFERENCE', 'kind must be RemoteMCPServer', reader.subject, formatPath([...serverPath, 'kind'])));
        const n = name(reader, server, serverPath);
        if (n !== undefined && (kind === undefined || kind === 'RemoteMCPServer')) out.push({ to: 'object', kind: 'RemoteMCPServer', name: n, field: formatPath([...serverPath, 'name']) });
      }
    }
    if (sub) {
      const n = localRef(reader, child(sub, 'templateRef'), [...path, 'subAgent', 'templateRef']);
      if (n !== undefined) out.push({ to: 'object', kind: 'AgentTemplate', name: n, field: formatPath([...path, 'subAgent', 'templateRef', 'name']) });
      else if (child(sub, 'templateRef') === undefined) reader.required([...path, 'subAgent', 'templateRef'], 'a map');
    }
  }
  for (const list of ['skills', 'plugins']) {
    for (const [entry, path] of entries(reader, child(spec, list), [...base, list])) {
      const git = reader.mapIn(entry, path, ['source', 'git']);
      const ref = git ? keyRef(reader, child(git, 'credentialRef'), [...path, 'source', 'git', 'credentialRef']) : undefined;
      if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, 'source', 'git', 'credentialRef']), effect: 'applies-live' });
    }
  }
  return out;
}

/**
 * A Harness spec's references: `env[].credentialRef` (a Secret key the egress gateway injects with its
 * current value: applies live; the entry's other fields differ between pre-releases and are not read), and
 * the ModelConfigs of `kagent.memory.modelConfigRef` and `kagent.compaction.summarizer.modelConfigRef`.
 */
export function harnessEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  for (const [env, path] of entries(reader, child(spec, 'env'), [...base, 'env'])) {
    const ref = keyRef(reader, child(env, 'credentialRef'), [...path, 'credentialRef']);
    if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, 'credentialRef']), effect: 'applies-live' });
  }
  for (const keys of [['kagent', 'memory'], ['kagent', 'compaction', 'summarizer']]) {
    const holder = reader.mapIn(spec, base, keys);
    const n = holder ? localRef(reader, child(holder, 'modelConfigRef'), [...base, ...keys, 'modelConfigRef']) : undefined;
    if (n !== undefined) out.push({ to: 'object', kind: 'ModelConfig', name: n, field: formatPath([...base, ...keys, 'modelConfigRef', 'name']) });
  }
  return out;
}

/**
 * A ModelConfig spec's references: `apiKeySecret` with `apiKeySecretKey` (one key), or the fixed keys of
 * Bedrock and SAPAICore; `foundry.endpointFrom` (a ConfigMap key, inlined into the agent's config).
 * `apiKeyPassthrough` reads no Secret.
 */
export function modelConfigEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const secret = reader.str(child(spec, 'apiKeySecret'), [...base, 'apiKeySecret']);
  const key = reader.str(child(spec, 'apiKeySecretKey'), [...base, 'apiKeySecretKey']);
  const provider = reader.str(child(spec, 'provider'), [...base, 'provider']);
  const field = formatPath([...base, 'apiKeySecret']);
  if (secret !== undefined && secret !== '') {
    const fixed = provider === 'Bedrock' ? BEDROCK_KEYS : provider === 'SAPAICore' ? SAP_AI_CORE_KEYS : undefined;
    if (fixed) out.push({ to: 'source', cls: 'Secret', name: secret, keys: fixed, optionalKeys: true, field, effect: 'recompiles' });
    if (key !== undefined && key !== '' && !fixed?.includes(key)) out.push({ to: 'source', cls: 'Secret', name: secret, keys: [key], field, effect: 'recompiles' });
    if (!fixed && (key === undefined || key === '')) reader.required([...base, 'apiKeySecretKey'], 'a non-empty string (apiKeySecret is set)');
  }
  const foundry = reader.map(child(spec, 'foundry'), [...base, 'foundry']);
  const endpoint = foundry ? keyRef(reader, child(foundry, 'endpointFrom'), [...base, 'foundry', 'endpointFrom']) : undefined;
  if (endpoint) out.push({ to: 'source', cls: 'ConfigMap', name: endpoint.name, keys: [endpoint.key], field: formatPath([...base, 'foundry', 'endpointFrom']), effect: 'recompiles' });
  return out;
}

/**
 * A RemoteMCPServer spec's `headersFrom[]`: `valueFrom.type` Secret or ConfigMap, with `name` and `key`. A
 * Secret value is copied into the revision's environment, a ConfigMap value into its config: both recompile.
 */
export function remoteMcpEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  for (const [header, path] of entries(reader, child(spec, 'headersFrom'), [...base, 'headersFrom'])) {
    const from = reader.map(child(header, 'valueFrom'), [...path, 'valueFrom']);
    if (!from) continue;
    const type = reader.str(child(from, 'type'), [...path, 'valueFrom', 'type']);
    if (type !== 'Secret' && type !== 'ConfigMap') {
      if (type !== undefined) reader.results.push(errorResult('WRONG_TYPE', 'expected Secret or ConfigMap', reader.subject, formatPath([...path, 'valueFrom', 'type'])));
      continue;
    }
    const ref = keyRef(reader, from, [...path, 'valueFrom']);
    if (ref) out.push({ to: 'source', cls: type, name: ref.name, keys: [ref.key], field: formatPath([...path, 'valueFrom']), effect: 'recompiles' });
  }
  return out;
}

/**
 * An EgressPolicy's credentials: every `credentialRef` or `secretRef` holding a Secret `name` and `key`, at
 * any depth of its spec (the released shape could not be read: the docs say only that the gateway adds a
 * credential from a Secret to each request). The gateway reads the current value: applies live.
 */
export function egressEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const walk = (map: MapNode, path: FieldPath): void => {
    for (const pair of map.items) {
      const key = stringValue(pair.key);
      if (key === undefined) continue;
      const value = pair.value;
      if ((key === 'credentialRef' || key === 'secretRef') && isMapNode(value) && child(value, 'key') !== undefined) {
        const ref = keyRef(reader, value, [...path, key]);
        if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, key]), effect: 'applies-live' });
      } else if (isMapNode(value)) walk(value, [...path, key]);
      else if (isSeqNode(value)) value.items.forEach((item, i) => isMapNode(item) && walk(item, [...path, key, i]));
    }
  };
  walk(spec, base);
  return out;
}
