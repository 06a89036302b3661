// Read stage for plain multi-document streams (`stamp`, `explain`, `generate`), read whole: documents with
// their exact source text (write/stream.ts prints untouched ones byte for byte) and their items. A stream is
// read by the subset reader when it fits it (fast), else by the yaml library (read/from-yaml.ts gives its
// trees as the same light nodes). Reading one document at a time: read/stream-documents.ts.
import { Composer, type Document } from 'yaml';
import { addDuplicateKeyErrors, LineCounter, parseTokens, tooDeepError, PARSE_OPTIONS, unprintableNodes, yamlErrorResult } from './parse-yaml.ts';
import { splitJsonStream } from './json-stream.ts';
import { isLocalConfig, unwrapList } from './list-wrappers.ts';
import { errorResult, type FileRef, type Result } from '../model/results.ts';
import { readSubsetStream } from './subset-yaml.ts';
import { fromYaml } from './from-yaml.ts';
import { findUnsafeNode, isMapNode, isScalarNode, toPlain, type Node } from '../model/nodes.ts';
import type { Item, ReadBy, ScannedIdentity, ScannedSource } from '../model/object.ts';
import { type ReadMode, yaml11Result } from './parse-yaml.ts';

/** One document of a stream: its parsed form and its exact source text (markers and comments included). */
export interface StreamDoc {
  /**
   * The root node: a map for an object; null, or a null scalar, for an empty document. streamItems takes the
   * items and lets it go (undefined then): the items and, for a reprint, `doc` hold what is still needed.
   */
  contents: Node | null | undefined;
  /** Set by streamItems: the index of this document's first item, and how many it holds (a list wrapper's entries). */
  firstItem?: number;
  itemCount?: number;
  /** Which reader read it (see ReadBy); its items carry the same. */
  readBy: ReadBy;
  /**
   * A skimmed document (read/stream-documents.ts): the identity of its one object, which the planner needs
   * nothing else of; it has no tree (`contents` undefined), and streamItems gives it no item.
   */
  identity?: ScannedIdentity;
  /** A scanned plain Secret or ConfigMap (read/scan-source.ts): what the planner reads of it, its entries as written. */
  source?: ScannedSource;
  /** The yaml library's document, which can print the tree again: present only when `readBy` is `yaml`. */
  doc?: Document;
  text: string;
  /** Offset of `text` in the stream (node ranges count from the stream's start). */
  offset: number;
  file: FileRef;
}

/**
 * Splits and parses one stream.
 * - Every error in every document is reported (YAML errors carry line and column, never text).
 */
export function parseStream(text: string, path: string, mode: ReadMode = 'fast'): { docs: StreamDoc[] } | { results: Result[] } {
  const json = splitJsonStream(text);
  if (json) return parseJsonStream(text, json, path, mode);
  const subset = mode === 'fast' ? readSubsetStream(text) : undefined;
  if (subset) {
    const docs = subset.map((d, index): StreamDoc => {
      const to = subset[index + 1]?.offset ?? text.length;
      return { contents: d.contents, text: text.slice(d.offset, to), offset: d.offset, file: index === 0 ? { path } : { path, index }, readBy: 'subset' };
    });
    return { docs };
  }
  return parseWithLibrary(text, path);
}

/**
 * A stream (or one document's text) read by the yaml library; any error in any document is reported.
 * - Node ranges count from the start of `text`; each document's `doc` can print it again.
 */
export function parseWithLibrary(text: string, path: string): { docs: StreamDoc[] } | { results: Result[] } {
  const lines = new LineCounter();
  const read = parseTokens(text, lines);
  // Nesting the yaml library cannot compose safely is refused first, with the same error on every run.
  const deep = 'tokens' in read ? tooDeepError(read.tokens) : read.error;
  if (deep) return { results: [yamlErrorResult(deep, lines, { path })] };
  const tokens = 'tokens' in read ? read.tokens : [];
  const starts = documentStarts(tokens);
  const docs = [...new Composer(PARSE_OPTIONS).compose(tokens, false, text.length)];
  const results: Result[] = [];
  const out: StreamDoc[] = docs.map((doc, index) => {
    const from = index === 0 ? 0 : starts[index]!;
    const to = index + 1 < starts.length ? starts[index + 1]! : text.length;
    const file: FileRef = index === 0 ? { path } : { path, index };
    addDuplicateKeyErrors(doc);
    for (const err of doc.errors) results.push(yamlErrorResult(err, lines, file));
    if (doc.errors.length === 0) results.push(...unprintableNodes(doc, text.slice(from, to), lines, file));
    if (doc.errors.length === 0 && doc.directives.yaml.explicit && doc.directives.yaml.version !== '1.2') results.push(yaml11Result(file));
    return { contents: fromYaml(doc.contents), doc, text: text.slice(from, to), offset: from, file, readBy: 'yaml' };
  });
  if (docs.length === 0 && text.trim() !== '') results.push(errorResult('INVALID_INPUT', 'no YAML document found', { file: { path } }));
  return results.length > 0 ? { results } : { docs: out };
}

/**
 * Concatenated JSON objects: each is read as a document of its own, its text running to the next object
 * (whitespace included, so the texts join back to the input). Node ranges count from the start of that
 * text, hence offset 0.
 */
function parseJsonStream(text: string, starts: readonly number[], path: string, mode: ReadMode): { docs: StreamDoc[] } | { results: Result[] } {
  const docs: StreamDoc[] = [];
  const results: Result[] = [];
  starts.forEach((start, index) => {
    const piece = text.slice(index === 0 ? 0 : start, starts[index + 1] ?? text.length);
    const file: FileRef = index === 0 ? { path } : { path, index };
    const read = parseStream(piece, path, mode);
    if ('results' in read) results.push(...read.results.map((r) => ({ ...r, file })));
    else for (const d of read.docs) docs.push({ ...d, file });
  });
  return results.length > 0 ? { results } : { docs };
}

/** Where each document's text starts: at its first directive (`%YAML`, `%TAG`), else at the document itself. */
function documentStarts(tokens: ReadonlyArray<{ type: string; offset: number }>): number[] {
  const starts: number[] = [];
  let prologue: number | undefined;
  for (const t of tokens) {
    if (t.type === 'directive') prologue ??= t.offset;
    else if (t.type === 'document') {
      starts.push(prologue ?? t.offset);
      prologue = undefined;
    }
  }
  return starts;
}

/**
 * A stream read by the yaml library as plain values, one per document (undefined for an empty one), for files
 * the plugin checks rather than stamps (kustomize generator configs). Undefined when any document has an error,
 * an alias, a merge key or nesting deeper than 64.
 */
export function plainDocuments(text: string, path: string): unknown[] | undefined {
  const stream = parseStream(text, path, 'full');
  if ('results' in stream || stream.docs.some((d) => d.contents && findUnsafeNode(d.contents, 64))) return undefined;
  return stream.docs.map((d) => (d.contents ? toPlain(d.contents) : undefined));
}

/** True for a document marked `config.kubernetes.io/local-config: "true"` (KRM: configuration, not an object to apply). */
export function isLocalConfigDoc(d: StreamDoc): boolean {
  return isMapNode(d.contents) && isLocalConfig(d.contents);
}

/**
 * The items of parsed streams; a document that is not a map (or empty) is an error (or skipped). A list
 * wrapper (top-level `items` list, any kind) gives its entries as items, as Argo CD applies them.
 * - Each document is given the range of its items (firstItem, itemCount: how write/stream.ts finds what was
 *   stamped; `firstIndex` is the index of the first item, for documents read one at a time) and lets its root
 *   go, so a tree lives only as long as its items do.
 */
export function streamItems(docs: readonly StreamDoc[], firstIndex = 0): { items: Item[]; results: Result[] } {
  const items: Item[] = [];
  const results: Result[] = [];
  for (const d of docs) {
    d.firstItem = firstIndex + items.length;
    d.itemCount = 0;
    const contents = d.contents;
    d.contents = undefined;
    if (contents === null || contents === undefined || (isScalarNode(contents) && contents.value === null)) continue;
    if (!isMapNode(contents)) {
      results.push(errorResult('INVALID_OBJECT', 'document is not a Kubernetes object', { file: d.file }));
      continue;
    }
    const unwrapped = unwrapList(contents, d.file);
    if ('result' in unwrapped) results.push(unwrapped.result);
    for (const node of unwrapped.objects) items.push({ node, file: d.file, readBy: d.readBy });
    d.itemCount = unwrapped.objects.length;
  }
  return { items, results };
}
