// Discover stage for kagent tools: an Agent's `tools[]` — their headersFrom, the RemoteMCPServers they name
// (its CA Secret mounted in the Agent's namespace, its headersFrom read in its own), Agents used as tools —
// and kagent's rule for tools in another namespace (the tool's spec.allowedNamespaces).
import { errorResult, warningResult } from '../model/results.ts';
import { matchesSelector, selectorFromObject } from '../config/selector.ts';
import { child, childIn, findUnsafeNode, formatPath, NodeReader, stringValue, toPlain, type FieldPath } from '../model/nodes.ts';
import { caRef, headersFromRefs } from './kagent-values.ts';
import type { FoundRefs } from '../model/dependencies.ts';
import { type KObject, relatedId, type SourceIndex } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { MapNode } from '../model/nodes.ts';

/** A tool: its own headersFrom (Agent's namespace), and the RemoteMCPServer or Agent it names. */
export function toolRefs(obj: KObject, tool: MapNode, path: FieldPath, reader: NodeReader, inventory: SourceIndex, out: FoundRefs): void {
  out.refs.push(...headersFromRefs(child(tool, 'headersFrom'), [...path, 'headersFrom'], '', reader));
  const server = reader.map(child(tool, 'mcpServer'), [...path, 'mcpServer']);
  if (server) mcpServerRefs(obj, server, [...path, 'mcpServer'], reader, inventory, out);
  const agent = reader.map(child(tool, 'agent'), [...path, 'agent']);
  if (agent) toolAgentRef(obj, agent, [...path, 'agent'], reader, inventory, out);
}

function mcpServerRefs(obj: KObject, server: MapNode, path: FieldPath, reader: NodeReader, inventory: SourceIndex, out: FoundRefs): void {
  const ref = typedReference(server, path, reader);
  if (!ref) return;
  const namespace = ref.namespace || obj.namespace;
  const field = formatPath(path);
  const group = ref.apiGroup === '' || ref.apiGroup === 'kagent.dev' || ref.apiGroup === 'core';
  if (ref.kind !== 'RemoteMCPServer' || !group) {
    // kmcp MCPServer (the default kind) and Service carry no Secrets; kagent refuses them across namespaces.
    if (namespace !== obj.namespace) {
      const what = ref.kind === 'Service' ? 'Service' : 'MCPServer';
      reader.results.push(errorResult('KAGENT_REFERENCE', `${what} does not support cross-namespace references (kagent refuses the Agent)`, obj.subject, field));
    }
    return;
  }
  out.objects.push({ kind: 'RemoteMCPServer', namespace, name: ref.name, field });
  const found = inventory.related.get(relatedId('RemoteMCPServer', namespace, ref.name));
  if (!found || found.length !== 1) return; // missing or ambiguous: handled where the reference is hashed
  const rms = found[0]!;
  if (!crossNamespaceAllowed(obj, rms, field, reader, inventory)) return;
  if (!isSafeToRead(rms, reader.results)) return;
  const rmsReader = new NodeReader(rms.subject, reader.results);
  const tls = rmsReader.mapIn(rms.item.node, [], ['spec', 'tls']);
  const ca = tls ? caRef(tls, ['spec', 'tls'], rmsReader) : undefined;
  // The CA Secret is mounted into the agent pod by name, so the kubelet reads it in the Agent's namespace.
  if (ca) out.refs.push({ ...ca, namespace: obj.namespace, field });
  for (const header of headersFromRefs(childIn(rms.item.node, ['spec', 'headersFrom']), ['spec', 'headersFrom'], rms.namespace, rmsReader)) {
    out.refs.push({ ...header, field }); // resolved in the RemoteMCPServer's own namespace
  }
}

function toolAgentRef(obj: KObject, agent: MapNode, path: FieldPath, reader: NodeReader, inventory: SourceIndex, out: FoundRefs): void {
  const ref = typedReference(agent, path, reader);
  if (!ref) return;
  const field = formatPath(path);
  if (ref.kind !== '' && ref.kind !== 'Agent' && ref.kind !== 'SandboxAgent') {
    reader.results.push(errorResult('KAGENT_REFERENCE', 'an agent tool must name an Agent or SandboxAgent', obj.subject, field));
    return;
  }
  const kind = ref.kind === 'SandboxAgent' ? 'SandboxAgent' : 'Agent';
  const namespace = ref.namespace || obj.namespace;
  out.objects.push({ kind, namespace, name: ref.name, field });
  // kagent checks the allowedNamespaces of an Agent of that name, even when the tool names a SandboxAgent.
  const found = inventory.related.get(relatedId('Agent', namespace, ref.name)) ?? inventory.related.get(relatedId(kind, namespace, ref.name));
  if (found?.length === 1) crossNamespaceAllowed(obj, found[0]!, field, reader, inventory);
}

interface TypedReference {
  kind: string;
  apiGroup: string;
  name: string;
  namespace: string;
}

function typedReference(node: MapNode, path: FieldPath, reader: NodeReader): TypedReference | undefined {
  const name = reader.str(child(node, 'name'), [...path, 'name']);
  if (!name) return reader.required([...path, 'name'], 'a name');
  return {
    name,
    kind: reader.str(child(node, 'kind'), [...path, 'kind']) ?? '',
    apiGroup: reader.str(child(node, 'apiGroup'), [...path, 'apiGroup']) ?? '',
    namespace: reader.str(child(node, 'namespace'), [...path, 'namespace']) ?? '',
  };
}

/**
 * kagent's rule for a tool in another namespace: the tool's spec.allowedNamespaces must permit the Agent's
 * namespace (unset or Same: same namespace only; All; Selector: the Agent's Namespace labels). A Selector
 * whose Namespace object is not in the input cannot be checked here: a warning says so and the tool counts.
 */
function crossNamespaceAllowed(obj: KObject, tool: KObject, field: string, reader: NodeReader, inventory: SourceIndex): boolean {
  if (tool.namespace === obj.namespace) return true;
  const allowed = childIn(tool.item.node, ['spec', 'allowedNamespaces']);
  const from = stringValue(childIn(allowed, ['from'])) ?? (allowed === undefined ? undefined : 'Same');
  if (from === 'All') return true;
  const what = `${tool.kind} ${tool.namespace}/${tool.name}`;
  if (from === 'Selector') {
    const selectorNode = childIn(allowed, ['selector']);
    const selector = selectorFromObject(selectorNode && findUnsafeNode(selectorNode, 16) === undefined ? toPlain(selectorNode) : undefined);
    const ns = inventory.related.get(relatedId('Namespace', '', obj.namespace))?.[0];
    if (selector && ns) {
      if (matchesSelector(selector, ns.labels)) return true;
    } else {
      reader.results.push(warningResult('UNCHECKED_NAMESPACE_SELECTOR', `${what} allows namespaces by selector; the Namespace ${obj.namespace} is not in the input, so the selector was not checked`, obj.subject, field));
      return true;
    }
  }
  reader.results.push(errorResult('CROSS_NAMESPACE_DENIED', `${what} does not allow references from namespace ${obj.namespace} (spec.allowedNamespaces); kagent refuses the Agent`, obj.subject, field));
  return false;
}
