// Index stage: every item's identity (group, kind, namespace, name), labels and annotations, and an
// index of Secrets and ConfigMaps by namespace/name. Maps, not objects, so `__proto__` is just a key.
import { LOCAL_CONFIG_ANNOTATION } from '../model/constants.ts';
import { producerOutputs } from '../resolve/producers.ts';
import { errorResult, type ResourceRef, type Result, type Subject } from '../model/results.ts';
import { child, formatPath, isAlias, NodeReader, stringValue, type FieldPath } from '../model/nodes.ts';
import type { Config } from '../model/config.ts';
import { type Inventory, type Item, type KObject, type ProducerEntry, relatedId, sourceId } from '../model/object.ts';
import { type MapNode, isMapNode } from '../model/nodes.ts';

/** Kinds indexed in `related`: what kagent references point at, and Namespaces (for namespace selectors). */
const RELATED: ReadonlySet<string> = new Set(['kagent.dev/ModelConfig', 'kagent.dev/RemoteMCPServer', 'kagent.dev/Agent', 'kagent.dev/SandboxAgent', '/Namespace']);

function addTo<T>(map: Map<string, T[]>, id: string, obj: T): void {
  const list = map.get(id);
  if (list) list.push(obj);
  else map.set(id, [obj]);
}

/**
 * Reads every item's identity.
 * - Items marked `config.kubernetes.io/local-config: "true"` are skipped (kpt fn-config, Kptfile).
 * - An item without a string apiVersion and kind is an INVALID_OBJECT error (list wrappers were unwrapped
 *   before: see list-wrappers.ts).
 */
export function buildInventory(items: readonly Item[], config: Config, results: Result[]): Inventory {
  const objects: KObject[] = [];
  const sources = new Map<string, KObject[]>();
  const related = new Map<string, KObject[]>();
  const producers = new Map<string, ProducerEntry[]>();
  for (const [index, item] of items.entries()) {
    const obj = readObject(item, index, config, results);
    if (!obj || obj.annotations.get(LOCAL_CONFIG_ANNOTATION) === 'true') continue;
    objects.push(obj);
    if (obj.name === '') continue; // generateName: nothing can reference it
    if (obj.group === '' && (obj.kind === 'Secret' || obj.kind === 'ConfigMap')) addTo(sources, sourceId(obj.kind, obj.namespace, obj.name), obj);
    if (RELATED.has(`${obj.group}/${obj.kind}`)) {
      addTo(related, relatedId(obj.kind, obj.kind === 'Namespace' ? '' : obj.namespace, obj.name), obj);
    }
    for (const output of producerOutputs(obj)) addTo(producers, sourceId(output.cls, obj.namespace, output.name), { obj, output });
  }
  return { objects, sources, related, producers };
}

function readObject(item: Item, index: number, config: Config, results: Result[]): KObject | undefined {
  const node = item.node;
  const apiVersion = stringValue(child(node, 'apiVersion'));
  const kind = stringValue(child(node, 'kind'));
  const fileSubject: Subject = item.file ? { file: item.file } : {};
  if (apiVersion === undefined || kind === undefined || apiVersion === '' || kind === '') {
    results.push(errorResult('INVALID_OBJECT', 'not a Kubernetes object: apiVersion and kind must be strings', fileSubject));
    return undefined;
  }
  const meta = child(node, 'metadata');
  const metaMap = isMapNode(meta) ? meta : undefined;
  const name = (metaMap && (stringValue(child(metaMap, 'name')) ?? stringValue(child(metaMap, 'generateName')))) ?? '';
  const explicitNs = metaMap ? stringValue(child(metaMap, 'namespace')) : undefined;
  const ref: ResourceRef = { apiVersion, kind, name };
  if (explicitNs) ref.namespace = explicitNs;
  const subject: Subject = { ...fileSubject, ref };
  const metadataProblems: Result[] = [];
  const reader = new NodeReader(subject, metadataProblems);
  const m = isAlias(meta) ? aliasProblem(metadataProblems, subject, ['metadata']) : reader.map(meta, ['metadata']);
  const slash = apiVersion.indexOf('/');
  return {
    item,
    index,
    apiVersion,
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    kind,
    name,
    namespace: explicitNs || config.defaultNamespace,
    labels: m ? stringMap(m, 'labels', reader) : new Map(),
    annotations: m ? stringMap(m, 'annotations', reader) : new Map(),
    metadataProblems,
    subject,
  };
}

/** labels/annotations as a Map; problems go to the reader's results (the object's metadataProblems). */
function stringMap(meta: MapNode, key: 'labels' | 'annotations', reader: NodeReader): Map<string, string> {
  const out = new Map<string, string>();
  const value = child(meta, key);
  const node = isAlias(value) ? aliasProblem(reader.results, reader.subject, ['metadata', key]) : reader.map(value, ['metadata', key]);
  if (!node) return out;
  for (const pair of node.items) {
    const k = stringValue(pair.key);
    const v = stringValue(pair.value);
    if (k === undefined) continue;
    if (v !== undefined) out.set(k, v);
    else if (k.startsWith('rollstamp.dev/')) {
      reader.results.push(errorResult('WRONG_TYPE', 'expected a string', reader.subject, formatPath(['metadata', key, k])));
    }
  }
  return out;
}

function aliasProblem(results: Result[], subject: Subject, path: FieldPath): undefined {
  results.push(errorResult('ALIAS_NOT_ALLOWED', 'YAML aliases are not allowed in objects rollstamp reads', subject, formatPath(path)));
  return undefined;
}
