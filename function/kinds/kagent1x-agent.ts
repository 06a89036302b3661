// Target kinds, kagent 1.x: the previewed kinds (#20). A 1.x object is never stamped; `diff` and `explain`
// walk each Agent's graph — Agent → AgentTemplate (and sub-agent templates) and Harness → ModelConfig,
// RemoteMCPServer, EgressPolicy → Secret and ConfigMap keys — and report what a change recompiles. One row
// per kind: where its references are (discover/kagent1x-refs.ts).
import { egressEdges, harnessEdges, modelConfigEdges, remoteMcpEdges } from '../discover/kagent1x-credentials.ts';
import { templateEdges, type Kagent1xEdge, type Kagent1xRefKind } from '../discover/kagent1x-refs.ts';
import { child, formatPath, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import { errorResult } from '../model/results.ts';

/** A kind that is previewed, not stamped: the references of one object's spec. */
export interface PreviewKind {
  readonly kind: string;
  edges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[];
}

/** The 1.x kinds whose spec is a revision input, and where their references are. */
export const KAGENT1X_KINDS: ReadonlyMap<string, PreviewKind> = new Map<string, PreviewKind>([
  ['Agent', { kind: 'Agent', edges: agentEdges }],
  ['AgentTemplate', { kind: 'AgentTemplate', edges: templateEdges }],
  ['Harness', { kind: 'Harness', edges: harnessEdges }],
  ['ModelConfig', { kind: 'ModelConfig', edges: modelConfigEdges }],
  ['RemoteMCPServer', { kind: 'RemoteMCPServer', edges: remoteMcpEdges }],
  ['EgressPolicy', { kind: 'EgressPolicy', edges: egressEdges }],
]);

/**
 * Whether an Agent spec has the Declarative or BYO shape of kagent's pre-1.0 main branch (`spec.type`,
 * `spec.declarative`, `spec.byo`; go/api/v1alpha3/agent_types.go@59fb7063) and none of the template and harness
 * of 1.0: such an Agent is passed through with one result, not previewed (its compile rules were never released).
 */
export function isDeclarativeShape(spec: MapNode): boolean {
  const has = (key: string): boolean => child(spec, key) !== undefined;
  return !['template', 'templateRef', 'harness', 'harnessRef'].some(has) && ['type', 'declarative', 'byo'].some(has);
}

/**
 * An Agent's template and harness, each inline or by reference, and its `egressPolicyRefs`.
 * - Two shapes are accepted, because which one the released 1.0.x serves could not be read: `spec.template`
 *   (inline) / `spec.templateRef`, `spec.harness` / `spec.harnessRef` (the api.kagent.dev CRD read,
 *   helm/kagent-crds/templates/api.kagent.dev_agents.yaml@2f90b3d7), and `spec.template.{inline,ref}` /
 *   `spec.harness.{inline,ref}` (go/api/v1alpha3/agent_types.go@23e08812).
 * - Both forms of one set (inline and ref) is a KAGENT_REFERENCE error naming the Agent; neither, a WRONG_TYPE.
 */
function agentEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  for (const [field, kind] of [['template', 'AgentTemplate'], ['harness', 'Harness']] as const) {
    const edge = sourceOf(spec, base, field, kind, reader);
    if (edge) out.push(edge);
  }
  const refs = reader.seq(child(spec, 'egressPolicyRefs'), [...base, 'egressPolicyRefs']);
  refs?.items.forEach((item, i) => {
    const path = [...base, 'egressPolicyRefs', i];
    const map = reader.map(item, path);
    const name = map ? reader.str(child(map, 'name'), [...path, 'name']) : undefined;
    if (map && !name) reader.required([...path, 'name'], 'a non-empty string');
    if (name) out.push({ to: 'object', kind: 'EgressPolicy', name, field: formatPath([...path, 'name']) });
  });
  return out;
}

function sourceOf(spec: MapNode, base: FieldPath, field: 'template' | 'harness', kind: Extract<Kagent1xRefKind, 'AgentTemplate' | 'Harness'>, reader: NodeReader): Kagent1xEdge | undefined {
  const path = [...base, field];
  const holder = reader.map(child(spec, field), path);
  const flatRef = child(spec, `${field}Ref`);
  const nested = holder !== undefined && (child(holder, 'inline') !== undefined || child(holder, 'ref') !== undefined);
  const inline = nested ? reader.map(child(holder!, 'inline'), [...path, 'inline']) : holder;
  const refNode = nested ? child(holder!, 'ref') : flatRef;
  const refPath = nested ? [...path, 'ref'] : [...base, `${field}Ref`];
  const both = (inline !== undefined && refNode !== undefined) || (nested && flatRef !== undefined);
  if (both) {
    reader.results.push(errorResult('KAGENT_REFERENCE', `the Agent sets ${field} both inline and by reference; kagent accepts exactly one`, reader.subject, formatPath(path)));
    return undefined;
  }
  if (refNode !== undefined) {
    const ref = reader.map(refNode, refPath);
    const name = ref ? reader.str(child(ref, 'name'), [...refPath, 'name']) : undefined;
    if (ref && !name) reader.required([...refPath, 'name'], 'a non-empty string');
    return name ? { to: 'object', kind, name, field: formatPath([...refPath, 'name']) } : undefined;
  }
  if (inline) return { to: 'inline', kind, spec: inline, path: nested ? [...path, 'inline'] : path };
  if (holder === undefined && child(spec, field) === undefined) reader.required(path, `an inline ${kind} or a reference to one`);
  return undefined;
}
