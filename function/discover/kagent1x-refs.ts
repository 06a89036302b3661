// Discover stage, kagent 1.x: the references an AgentTemplate's spec makes — to other 1.x objects and to
// ConfigMap keys — and the edge type every 1.x kind's references share (#20, #35). Rules of kagent 1.0.x as
// released, read in kagent-dev/kagent: go/core/internal/translator/adkconfig/builder.go@015961a6
// `BuildProvenance` (what a revision hashes), translator/outputschema.go@25bc8a04 (the output schema),
// go/api/v1alpha3/agenttemplate_types.go@0e5a0496 (the fields). Every reference is namespace-local.
import { child, formatPath, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import { errorResult } from '../model/results.ts';
import type { Kagent1xEffect } from '../model/kagent1x.ts';
import { entries, keyRef, localRef, nameAt } from './util-kagent1x-fields.ts';

/** A 1.x kind a reference can name. */
export type Kagent1xRefKind = 'AgentTemplate' | 'Harness' | 'ModelConfig' | 'RemoteMCPServer' | 'EgressPolicy';

/** One reference of a spec: to another 1.x object, to an inline spec, to a Secret or ConfigMap, or a mode kagent refuses. */
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
      /** The keys consumed; undefined: all of `data` and the UID (kagent's provenance of a prompt ConfigMap). */
      keys?: string[];
      /** With all of `data`: the key the field names, which must be there (systemPromptFrom). */
      required?: string;
      /** The one key is an output schema, compared as canonical JSON. */
      schema?: true;
      /** Counts only when the template holding it is the Agent's root template (outputSchemaFrom). */
      rootOnly?: true;
      /** Bedrock's Secret: the bearer token is served live; an access key pair instead cannot be (kagent #2873). */
      bedrock?: true;
    }
  /** A credential mode kagent 1.0's egress gateway cannot serve: the Agent will not compile. */
  | { to: 'unsupported'; field: string; reason: string };

/**
 * An AgentTemplate spec's references.
 * - `modelConfig`, `tools[].mcp.server` (RemoteMCPServer), `tools[].subAgent.templateRef` (AgentTemplate): their
 *   specs and UIDs are provenance: recompiles.
 * - `systemPromptFrom`, `promptTemplate.dataSources`: the ConfigMap's whole `data` and UID (not binaryData).
 * - `outputSchemaFrom`: only that key, as canonical JSON, and only on the root template.
 * - skills and plugins `source.git.credentialRef`: a gateway binding (CompileCredentials): applies live.
 */
export function templateEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const model = localRef(reader, child(spec, 'modelConfig'), [...base, 'modelConfig']);
  if (model !== undefined) out.push({ to: 'object', kind: 'ModelConfig', name: model, field: formatPath([...base, 'modelConfig', 'name']) });
  const prompt = keyRef(reader, child(spec, 'systemPromptFrom'), [...base, 'systemPromptFrom']);
  if (prompt) out.push({ to: 'source', cls: 'ConfigMap', name: prompt.name, required: prompt.key, field: formatPath([...base, 'systemPromptFrom']), effect: 'recompiles' });
  const schema = keyRef(reader, child(spec, 'outputSchemaFrom'), [...base, 'outputSchemaFrom']);
  if (schema) {
    out.push({ to: 'source', cls: 'ConfigMap', name: schema.name, keys: [schema.key], schema: true, rootOnly: true, field: formatPath([...base, 'outputSchemaFrom']), effect: 'recompiles' });
  }
  const template = reader.map(child(spec, 'promptTemplate'), [...base, 'promptTemplate']);
  if (template) {
    for (const [source, path] of entries(reader, child(template, 'dataSources'), [...base, 'promptTemplate', 'dataSources'])) {
      const n = nameAt(reader, source, path);
      if (n !== undefined) out.push({ to: 'source', cls: 'ConfigMap', name: n, field: formatPath(path), effect: 'recompiles' });
    }
  }
  out.push(...toolEdges(spec, base, reader));
  for (const list of ['skills', 'plugins']) {
    for (const [entry, path] of entries(reader, child(spec, list), [...base, list])) {
      const git = reader.mapIn(entry, path, ['source', 'git']);
      const ref = git ? keyRef(reader, child(git, 'credentialRef'), [...path, 'source', 'git', 'credentialRef']) : undefined;
      if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, 'source', 'git', 'credentialRef']), effect: 'applies-live' });
    }
  }
  return out;
}

/** `tools[]`: each an MCP server (a RemoteMCPServer) or a sub-agent (another AgentTemplate), never both. */
function toolEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
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
        const n = nameAt(reader, server, serverPath);
        if (n !== undefined && (kind === undefined || kind === 'RemoteMCPServer')) out.push({ to: 'object', kind: 'RemoteMCPServer', name: n, field: formatPath([...serverPath, 'name']) });
      }
    }
    if (sub) {
      const n = localRef(reader, child(sub, 'templateRef'), [...path, 'subAgent', 'templateRef']);
      if (n !== undefined) out.push({ to: 'object', kind: 'AgentTemplate', name: n, field: formatPath([...path, 'subAgent', 'templateRef', 'name']) });
      else if (child(sub, 'templateRef') === undefined) reader.required([...path, 'subAgent', 'templateRef'], 'a map');
    }
  }
  return out;
}
