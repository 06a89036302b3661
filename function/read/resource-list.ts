// Read stage for KRM function mode: ResourceList text → its items as map nodes, and what writing it back needs:
// the facts a text edit depends on, and the yaml Document for a re-rendering (write/resource-list.ts). A list in
// the YAML subset is read by the subset reader (fast) and can then only be written by text edits; its tree then
// lives only as long as its items do (read/resource-list-items.ts reads such a list item by item). Any other
// list is read by the yaml library and given to the stages as the same light nodes (read/from-yaml.ts).
import { isMap, isScalar, Scalar, visit, type Document, type YAMLMap } from 'yaml';
import { INDEX_ANNOTATIONS, PATH_ANNOTATIONS } from '../model/constants.ts';
import { LineCounter, parseYamlDocument, unprintableNodes, yamlErrorResult } from './parse-yaml.ts';
import { unwrapList } from './list-wrappers.ts';
import { errorResult, type FileRef, type Result } from '../model/results.ts';
import { readSubsetStream } from './subset-yaml.ts';
import { blockIndent, child, isMapNode, isScalarNode, isSeqNode, stringValue, type MapNode, type Node } from '../model/nodes.ts';
import { fromYaml } from './from-yaml.ts';
import type { Item, ReadBy } from '../model/object.ts';
import { type ReadMode, yaml11Result } from './parse-yaml.ts';

export interface ResourceList {
  /** The yaml library's document; absent when the subset reader read the list (then only text edits write it). */
  doc?: Document;
  functionConfig: unknown;
  /** The input was JSON, so the output is JSON too. */
  json: boolean;
  text: string;
  /** The list has a `results` key already (then it is printed again, not edited). */
  hasResults: boolean;
  /** The column of the list's keys (a list not at column 0 is printed again). */
  indent: number | undefined;
  /** Where the list's document ends in `text` (appended results go before anything after it). */
  end: number;
}

const RL_API_VERSIONS = new Set(['config.kubernetes.io/v1', 'config.kubernetes.io/v1beta1']);

/**
 * Parses a ResourceList (YAML or JSON).
 * - Returns error results for malformed YAML, a wrong kind, or missing `items`.
 */
export function parseResourceList(text: string, mode: ReadMode = 'fast'): { rl: ResourceList; items: Item[] } | { results: Result[] } {
  const subset = mode === 'fast' ? readSubsetStream(text) : undefined;
  if (subset?.length === 1 && subset[0]!.contents) return readList(subset[0]!.contents, text, undefined);
  const read = readListWithLibrary(text);
  return 'results' in read ? read : readList(read.root, text, read.doc);
}

/**
 * The list's text read by the yaml library, as the light tree of its root, or the results that refuse it (YAML
 * errors, unprintable scalars, a YAML 1.1 directive), in the order the whole reading reports them.
 */
export function readListWithLibrary(text: string): { doc: Document; root: Node | null } | { results: Result[] } {
  const lines = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) return { results: doc.errors.map((e) => yamlErrorResult(e, lines, undefined)) };
  const unprintable = unprintableNodes(doc, text, lines, undefined);
  if (unprintable.length > 0) return { results: unprintable };
  if (doc.directives.yaml.explicit && doc.directives.yaml.version !== '1.2') return { results: [yaml11Result(undefined)] };
  return { doc, root: fromYaml(doc.contents) };
}

function readList(root: unknown, text: string, doc: Document | undefined): { rl: ResourceList; items: Item[] } | { results: Result[] } {
  const header = listHeader(root);
  if ('results' in header) return header;
  const items: Item[] = [];
  const results: Result[] = [];
  // The subset reader declines aliases, merge keys and over-deep nesting: its items need no safety walk.
  header.entries.forEach((node, i) => entryItems(node, i, doc ? 'yaml' : 'subset', items, results));
  if (results.length > 0) return { results };
  if (doc) liftItemHeadComments(doc);
  return { rl: listFacts(header.root, text, doc), items };
}

/** The list's root checked (apiVersion, kind, items): its `items` entries, or the error. */
export function listHeader(root: unknown): { root: MapNode; entries: ReadonlyArray<Node | null> } | { results: Result[] } {
  const bad = (message: string): { results: Result[] } => ({ results: [errorResult('INVALID_INPUT', message)] });
  if (!isMapNode(root)) return bad('input is not a ResourceList: expected a map with kind ResourceList');
  const apiVersion = stringValue(child(root, 'apiVersion'));
  const kind = stringValue(child(root, 'kind'));
  if (kind !== 'ResourceList' || apiVersion === undefined || !RL_API_VERSIONS.has(apiVersion)) {
    return bad('input is not a ResourceList: expected apiVersion config.kubernetes.io/v1 and kind ResourceList');
  }
  const itemsNode = child(root, 'items');
  if (itemsNode === undefined) return bad('ResourceList has no items');
  const isEmpty = isScalarNode(itemsNode) && itemsNode.value === null;
  if (!isSeqNode(itemsNode) && !isEmpty) return bad('ResourceList items must be a list');
  return { root, entries: isSeqNode(itemsNode) ? itemsNode.items : [] };
}

/**
 * Adds the objects of `items[i]` to `items` (a list wrapper gives its entries), or to `results` why it is
 * none. `readBy`: the reader that read it (`yaml` only when the list's library document can print it again).
 */
export function entryItems(node: Node | null, i: number, readBy: ReadBy, items: Item[], results: Result[]): void {
  if (!isMapNode(node)) {
    results.push(errorResult('INVALID_OBJECT', `items[${i}] is not a Kubernetes object`));
    return;
  }
  const file = fileOf(node);
  // An item that wraps a list (kind List, SecretList …): its entries are the objects, as Argo CD reads them.
  const unwrapped = unwrapList(node, file);
  if ('result' in unwrapped) results.push(unwrapped.result);
  for (const object of unwrapped.objects) items.push({ node: object, ...(file ? { file } : {}), readBy });
}

/** What writing the list back needs to know of its root (see ResourceList). */
export function listFacts(root: MapNode, text: string, doc: Document | undefined): ResourceList {
  const facts = { hasResults: child(root, 'results') !== undefined, indent: blockIndent(root), end: doc ? ((doc.contents as YAMLMap | null)?.range?.[2] ?? text.length) : text.length };
  return { ...(doc ? { doc } : {}), functionConfig: child(root, 'functionConfig'), json: isJson(text), text, ...facts };
}

/** JSON in, JSON out. Real JSON only: a YAML flow map also starts with `{` but may hold aliases. */
function isJson(text: string): boolean {
  if (!/^\s*\{/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The file an orchestrator says an item came from (internal annotation first, then the legacy one). */
function fileOf(node: MapNode): FileRef | undefined {
  const meta = child(node, 'metadata');
  const ann = isMapNode(meta) ? child(meta, 'annotations') : undefined;
  if (!isMapNode(ann)) return undefined;
  const first = (keys: readonly string[]): string | undefined =>
    keys.map((k) => stringValue(child(ann, k))).find((v) => v !== undefined);
  const path = first(PATH_ANNOTATIONS);
  if (path === undefined) return undefined;
  const index = Number(first(INDEX_ANNOTATIONS) ?? '0');
  return Number.isInteger(index) && index > 0 ? { path, index } : { path };
}

/**
 * Keeps a comment written right after `- ` inside its item.
 * - yaml prints `- # c\n  kind: A` as `# c\n- kind: A`; kpt then copies its own comment back and the
 *   comment doubles on every run. Moving it onto the first key makes the round trip stable.
 */
function liftItemHeadComments(doc: Document): void {
  visit(doc, {
    Seq(_, seq) {
      const src = seq.srcToken;
      if (!src || src.type !== 'block-seq') return;
      seq.items.forEach((item, i) => {
        const start = src.items[i]?.start ?? [];
        const ind = start.findIndex((t) => t.type === 'seq-item-ind');
        const commentAfterDash = ind >= 0 && start.slice(ind + 1).some((t) => t.type === 'comment');
        if (!commentAfterDash || !isMap(item) || !item.commentBefore || item.items.length === 0) return;
        const firstKey = item.items[0]!.key;
        if (!isScalar(firstKey)) return;
        const key = firstKey as Scalar;
        key.commentBefore = key.commentBefore ? `${item.commentBefore}\n${key.commentBefore}` : item.commentBefore;
        item.commentBefore = undefined;
      });
    },
  });
}
