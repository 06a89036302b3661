// Plan stage, the index: an item's identity (group, kind, namespace, name), labels and annotations, and the index of
// Secrets, ConfigMaps, kagent objects, Namespaces and producers by namespace/name. Maps, not objects, so
// `__proto__` is just a key.
import { LOCAL_CONFIG_ANNOTATION } from '../model/constants.ts';
import { producerOutputs } from '../kinds/producers.ts';
import { isSopsSecret } from '../resolve/producers.ts';
import { decodeSourceObject } from '../resolve/bundle.ts';
import { errorResult, type FileRef, type ResourceRef, type Result, type Subject } from '../model/results.ts';
import { child, formatPath, isAlias, NodeReader, stringValue, type FieldPath } from '../model/nodes.ts';
import type { Config } from '../model/config.ts';
import { type Item, type KObject, relatedId, type ScannedSource, type SourceClass, type SourceIndex, sourceId } from '../model/object.ts';
import { type MapNode, isMapNode } from '../model/nodes.ts';

/** Kinds indexed in `related`: what kagent references point at, and Namespaces (for namespace selectors). */
const RELATED: ReadonlySet<string> = new Set(['kagent.dev/ModelConfig', 'kagent.dev/RemoteMCPServer', 'kagent.dev/Agent', 'kagent.dev/SandboxAgent', '/Namespace']);

function addTo<T>(map: Map<string, T[]>, id: string, obj: T): void {
  const list = map.get(id);
  if (list) list.push(obj);
  else map.set(id, [obj]);
}

/** An empty index. */
export const emptyIndex = (): SourceIndex => ({ sources: new Map(), related: new Map(), producers: new Map() });

/**
 * Reads one item's identity and files it in `index` when it is a Secret, a ConfigMap, a kagent object, a
 * Namespace or a producer (those keep their trees: resolving reads them later).
 * - An item marked `config.kubernetes.io/local-config: "true"` is skipped (kpt fn-config, Kptfile): undefined.
 * - An item without a string apiVersion and kind is an INVALID_OBJECT error (list wrappers were unwrapped
 *   before: see list-wrappers.ts).
 */
export function indexObject(index: SourceIndex, item: Item, position: number, config: Config, results: Result[]): KObject | undefined {
  const obj = readObject(item, position, config, results);
  if (!obj || obj.annotations.get(LOCAL_CONFIG_ANNOTATION) === 'true') return undefined;
  if (obj.name === '') return obj; // generateName: nothing can reference it
  const source = obj.group === '' && (obj.kind === 'Secret' || obj.kind === 'ConfigMap');
  if (source) addTo(index.sources, sourceId(obj.kind as SourceClass, obj.namespace, obj.name), obj);
  if (RELATED.has(`${obj.group}/${obj.kind}`)) {
    addTo(index.related, relatedId(obj.kind, obj.kind === 'Namespace' ? '' : obj.namespace, obj.name), obj);
  }
  const outputs = producerOutputs(obj);
  for (const output of outputs) addTo(index.producers, sourceId(output.cls, obj.namespace, output.name), { obj, output });
  if (source && outputs.length === 0 && !isSopsSecret(obj)) releaseTree(obj);
  return obj;
}

/**
 * Decodes a plain Secret or ConfigMap now, while its tree is at hand, and lets the tree go: its entries are
 * all that resolving reads of it. Problems are kept for when it is resolved (an unused one reports none).
 * The getter puts the object in V8's dictionary mode; a shared item assigned instead kept it fast and the live
 * heap smaller, but raised peak RSS and CPU at 50k objects (docs/performance.md), so the getter stays.
 */
function releaseTree(obj: KObject): void {
  const results: Result[] = [];
  obj.decoded = { entries: decodeSourceObject(obj, results), results };
  Object.defineProperty(obj, 'item', RELEASED_ITEM);
}

/** The item of a decoded Secret or ConfigMap: one getter for all of them, not a function made per object (#37). */
const RELEASED_ITEM: PropertyDescriptor = Object.freeze({
  get(): never {
    throw new Error('internal: the tree of a decoded Secret or ConfigMap was read');
  },
});

/** What a scanned object has instead of an item: nothing reads it (its entries are all resolving reads of it). */
const NO_ITEM: Item = Object.freeze({
  get node(): never {
    throw new Error('internal: the tree of a scanned Secret or ConfigMap was read');
  },
  readBy: 'subset',
});

/**
 * Files a plain Secret or ConfigMap read without a tree (read/scan-source.ts) in `index`, as indexObject files
 * the same document read into a tree and lets that tree go: the same identity, labels, annotations and uid,
 * and its entries decoded only when it is resolved (KObject.entryTexts).
 */
export function indexScanned(index: SourceIndex, source: ScannedSource, file: FileRef, position: number, config: Config): KObject {
  const { apiVersion, kind, name, namespace: explicitNs } = source.identity;
  const ref = refOf(apiVersion, kind, name, explicitNs);
  const obj: KObject = {
    item: NO_ITEM,
    index: position,
    apiVersion,
    group: '',
    kind,
    name,
    namespace: explicitNs || config.defaultNamespace,
    labels: source.labels.size > 0 ? source.labels : NONE,
    annotations: source.annotations.size > 0 ? source.annotations : NONE,
    metadataProblems: NO_PROBLEMS,
    subject: { file, ref },
    uid: source.uid || undefined,
    decoded: undefined,
    entryTexts: source.entries,
  };
  addTo(index.sources, sourceId(kind as SourceClass, obj.namespace, name), obj);
  return obj;
}

function readObject(item: Item, index: number, config: Config, results: Result[]): KObject | undefined {
  const node = item.node;
  const apiVersion = stringValue(child(node, 'apiVersion'));
  const kind = stringValue(child(node, 'kind'));
  if (apiVersion === undefined || kind === undefined || apiVersion === '' || kind === '') {
    const fileSubject: Subject = item.file ? { file: item.file } : {};
    results.push(errorResult('INVALID_OBJECT', 'not a Kubernetes object: apiVersion and kind must be strings', fileSubject));
    return undefined;
  }
  const meta = child(node, 'metadata');
  const metaMap = isMapNode(meta) ? meta : undefined;
  const name = (metaMap && (stringValue(child(metaMap, 'name')) ?? stringValue(child(metaMap, 'generateName')))) ?? '';
  const explicitNs = metaMap ? stringValue(child(metaMap, 'namespace')) : undefined;
  const ref = refOf(apiVersion, kind, name, explicitNs);
  // A literal, not a spread: a subject outlives its object in the plan, and spread ones each had a hidden class of their own (#37).
  const subject: Subject = item.file ? { file: item.file, ref } : { ref };
  const metadataProblems: Result[] = [];
  const reader = new NodeReader(subject, metadataProblems);
  const m = isAlias(meta) ? aliasProblem(metadataProblems, subject, ['metadata']) : reader.map(meta, ['metadata']);
  // Every field in the order indexScanned writes them, undefined or not: an object read into a tree and a scanned
  // one then share one layout, so the planner's predicates (isKagent1x, the kinds' `matches`) are not handed two
  // kinds of object and optimized again when the first workload follows the Secrets (#37). Two literals still:
  // one allocation site for both would make workloads' objects where the scanned ones live (the old generation).
  return {
    item,
    index,
    apiVersion,
    group: groupOf(apiVersion),
    kind,
    name,
    namespace: explicitNs || config.defaultNamespace,
    labels: m ? stringMap(m, 'labels', reader) : NONE,
    annotations: m ? stringMap(m, 'annotations', reader) : NONE,
    // The index keeps every object to the end of the run: most have no problem, and share one empty list (#37).
    metadataProblems: metadataProblems.length > 0 ? metadataProblems : NO_PROBLEMS,
    subject,
    uid: uidOf(metaMap),
    decoded: undefined,
    entryTexts: undefined,
  };
}

/**
 * The API group of `apiVersion`: `''` for `v1`, else one copy per group that V8 keeps internalized, as it keeps the
 * `''` of every Secret and ConfigMap (#37). A group sliced anew per object is a string of another kind, and the
 * planner's comparisons of groups, optimized on 25,000 Secrets' `''`, were thrown away at the first workload.
 */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return '';
  const sliced = apiVersion.slice(0, slash);
  let group = GROUPS.get(sliced);
  if (group === undefined) {
    group = Object.keys({ [sliced]: 0 })[0]!; // a property name: V8 hands back its internalized copy
    GROUPS.set(group, group);
  }
  return group;
}
const GROUPS = new Map<string, string>();

/**
 * An object's reference, written whole: a namespace added to it afterwards gave each reference a property array
 * of its own, and a plan keeps one per object to the end of the run (#37).
 */
function refOf(apiVersion: string, kind: string, name: string, namespace: string | undefined): ResourceRef {
  return namespace ? { apiVersion, kind, name, namespace } : { apiVersion, kind, name };
}

/** No metadata problem: one frozen list for every object that has none (nothing adds to an indexed object's). */
const NO_PROBLEMS: readonly Result[] = Object.freeze([]);

/** metadata.uid when a render carries it (kagent 1.x counts a recreated ConfigMap or object, #35). */
function uidOf(meta: MapNode | undefined): string | undefined {
  return (meta ? stringValue(child(meta, 'uid')) : undefined) || undefined;
}

/** Labels or annotations of an object that has none: one map for all of them (most Secrets have neither). */
const NONE: ReadonlyMap<string, string> = new Map();

/** labels/annotations as a Map; problems go to the reader's results (the object's metadataProblems). */
function stringMap(meta: MapNode, key: 'labels' | 'annotations', reader: NodeReader): ReadonlyMap<string, string> {
  const value = child(meta, key);
  if (value === undefined) return NONE;
  const out = new Map<string, string>();
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
