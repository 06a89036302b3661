// Model: the node tree every stage reads — light map, pair, list, scalar and alias nodes that both read
// front-ends (read/subset-*.ts and read/from-yaml.ts) build — and the helpers that read them and the layout
// facts text edits use. Plain classes with a `kind` getter on the prototype, a few fields each and no
// symbols (a 10k-object stream holds millions of them).
// Also: typed field access (NodeReader) and the walk that finds aliases, merge keys and deep nesting.
import { errorResult, type Result, type Subject } from './results.ts';

/** A scalar's value as the YAML 1.2 core schema resolves it (tagged scalars may hold bytes). */
export type ScalarValue = string | number | boolean | bigint | null | Uint8Array;

/** How a scalar was written. */
export type QuoteStyle = 'plain' | 'single' | 'double' | 'block';

export type Node = MapNode | SeqNode | ScalarNode | AliasNode;

// Node fields are `declare`d and set in the constructor, never parameter properties or plain class fields: those
// are emitted as class fields, which the bundle defines as undefined on every new node before the constructor sets
// them (a second store per field, millions of nodes), and an offset that held undefined first is no small-integer
// field, so V8 changes the class's layout when the first number comes and drops the optimized code built on it (#37).
export class ScalarNode {
  declare value: ScalarValue;
  declare style: QuoteStyle;
  /** Offset of the scalar's first character (its quote or block indicator) and just past its value. */
  declare start: number;
  declare end: number;

  constructor(value: ScalarValue, style: QuoteStyle, start: number, end: number) {
    this.value = value;
    this.style = style;
    this.start = start;
    this.end = end;
  }
  get kind(): 'scalar' {
    return 'scalar';
  }
}

/** `*name`: only the yaml front-end builds these (every stage refuses them where it interprets values). */
export class AliasNode {
  declare source: string;
  declare start: number;
  declare end: number;

  constructor(source: string, start: number, end: number) {
    this.source = source;
    this.start = start;
    this.end = end;
  }
  get kind(): 'alias' {
    return 'alias';
  }
}

export class PairNode {
  declare key: Node | null;
  declare value: Node | null;

  constructor(key: Node | null, value: Node | null) {
    this.key = key;
    this.value = value;
  }
}

/** A block or flow map and where it was written. */
export class MapNode {
  declare items: PairNode[];
  declare flow: boolean;
  declare start: number;
  declare end: number;
  /** A block map's key column; -1 for a flow map. */
  declare indent: number;
  /** A flow map's `{` offset; -1 for a block map. */
  declare flowOpen: number;
  /** The first key is an explicit `? key` (a text edit cannot insert before it). */
  declare explicitKey: boolean;
  /** The first comment line between `key:` and a block value below it, as [offset, column], by pair index. */
  declare comments: Map<number, readonly [number, number]> | undefined;
  /** The yaml library's map this node was read from (yaml front-end only): a re-rendering edits that. */
  declare yaml: unknown;

  constructor(flow: boolean, start: number, indent: number, flowOpen: number) {
    this.items = [];
    this.flow = flow;
    this.start = start;
    this.end = start;
    this.indent = indent;
    this.flowOpen = flowOpen;
    this.explicitKey = false;
    this.comments = undefined;
    this.yaml = undefined;
  }
  get kind(): 'map' {
    return 'map';
  }
}

/** A block or flow list; `start` is a block list's first `-` (or a flow list's `[`). */
export class SeqNode {
  declare items: Array<Node | null>;
  declare flow: boolean;
  declare start: number;
  declare end: number;
  /** The yaml library's list this node was read from (yaml front-end only). */
  declare yaml: unknown;

  constructor(flow: boolean, start: number) {
    this.items = [];
    this.flow = flow;
    this.start = start;
    this.end = start;
    this.yaml = undefined;
  }
  get kind(): 'seq' {
    return 'seq';
  }
}

// A scalar's value is a string or null in most documents, a number in some (`replicas: 2`). V8 lays out the `value`
// field for what it has seen: in a stream whose first 25,000 documents are Secrets, a string or null, until the first
// number changes the layout and throws away the optimized code of every reader function built on it (about twenty,
// compiled again). A number and a string stored here first, before any code is optimized, make it general (#37).
new ScalarNode(0, 'plain', 0, 0).value = '';

export type FieldPath = readonly (string | number)[];

/** The path a walk from an object's root starts from: one for every walk. */
export const ROOT_PATH: FieldPath = Object.freeze([]);

const PLAIN_SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * `spec.containers[0].env[1]`; keys that are not plain words are quoted: `annotations["rollstamp.dev/hash"]`.
 * Joined once, not grown by `+=`: a reference keeps its path for the whole run, and a grown string is a chain
 * of pieces (at 10k objects, 148,000 of them held after planning).
 */
export function formatPath(path: FieldPath): string {
  const parts: string[] = [];
  for (const seg of path) {
    if (typeof seg === 'number') parts.push(`[${seg}]`);
    else if (PLAIN_SEGMENT.test(seg)) parts.push(parts.length === 0 ? seg : `.${seg}`);
    else parts.push(`[${JSON.stringify(seg)}]`);
  }
  return parts.join('');
}

const kindOf = (node: unknown): string | undefined =>
  typeof node === 'object' && node !== null ? (node as { kind?: string }).kind : undefined;

/** True for a map node (block or flow). */
export const isMapNode = (node: unknown): node is MapNode => kindOf(node) === 'map';

/** True for a scalar node. */
export const isScalarNode = (node: unknown): node is ScalarNode => kindOf(node) === 'scalar';

/** True for a sequence node (block or flow). */
export const isSeqNode = (node: unknown): node is SeqNode => kindOf(node) === 'seq';

/** True for an alias (`*name`). */
export const isAlias = (node: unknown): node is AliasNode => kindOf(node) === 'alias';

/** The pair whose key is `key` in a map (undefined when absent). */
export function childPair(map: MapNode, key: string): PairNode | undefined {
  for (const pair of map.items) {
    const k = pair.key;
    if (k !== null && k.kind === 'scalar' && k.value === key) return pair;
  }
  return undefined;
}

/** The value node under `key` in a map (undefined when absent, null for an empty value). */
export function child(map: MapNode, key: string): unknown {
  const pair = childPair(map, key);
  return pair ? pair.value : undefined;
}

/** The node at `keys` below `node`, through maps only (undefined when any step is not a map). */
export function childIn(node: unknown, keys: readonly string[]): unknown {
  let cur = node;
  for (const key of keys) {
    if (!isMapNode(cur)) return undefined;
    cur = child(cur, key);
  }
  return cur;
}

/** The offset of a flow map's `{`, or undefined for a block map. */
export function flowStart(node: unknown): number | undefined {
  return isMapNode(node) && node.flowOpen >= 0 ? node.flowOpen : undefined;
}

/** The key column of a block map, or undefined for anything else. */
export function blockIndent(node: unknown): number | undefined {
  return isMapNode(node) && node.indent >= 0 ? node.indent : undefined;
}

/** Offset of a block map's first key, when that key is a plain implicit one (no `?` form). */
export function keyOffset(map: MapNode): number | undefined {
  const first = map.items[0]?.key;
  if (map.indent < 0 || map.explicitKey || !isScalarNode(first)) return undefined;
  return first.start;
}

/** True when the flow map's first key is written in double quotes (as in JSON). */
export function hasDoubleQuotedKeys(map: MapNode): boolean {
  const first = map.items[0]?.key;
  return isScalarNode(first) && first.style === 'double';
}

/**
 * Offset of the first comment line between `key:` (pair `index` of a block map) and its block-map value, when that comment
 * starts at the value's key column (so text inserted there lines up); undefined otherwise.
 */
export function leadingCommentOffset(map: MapNode, index: number, column: number): number | undefined {
  const comment = map.comments?.get(index);
  return comment?.[1] === column ? comment[0] : undefined;
}

/** [start, end) of a scalar's value in the source (trailing comment excluded); undefined for a null scalar. */
export function scalarRange(node: unknown): [number, number] | undefined {
  if (!isScalarNode(node) || node.value === null) return undefined;
  return [node.start, node.end];
}

/** [start, end) of any node in the source (a block list starts at its first `-`). */
export function nodeRange(node: unknown): [number, number] | undefined {
  const k = kindOf(node);
  if (k === undefined) return undefined;
  const n = node as { start: number; end: number };
  return [n.start, n.end];
}

export const isNullish = (node: unknown): boolean =>
  node === undefined || node === null || (isScalarNode(node) && node.value === null);

/** A string scalar's value, or undefined for anything else (no result). */
export function stringValue(node: unknown): string | undefined {
  return isScalarNode(node) && typeof node.value === 'string' ? node.value : undefined;
}

/**
 * A node as plain JSON data, as the yaml library's toJSON gives it: maps become objects (keys as strings;
 * `__proto__` defined as an own key, never a prototype), lists arrays, scalars their values. Callers check
 * the tree with findUnsafeNode first (an alias reads as undefined here).
 */
export function toPlain(node: unknown): unknown {
  if (isScalarNode(node)) return node.value;
  if (isSeqNode(node)) return node.items.map(toPlain);
  if (!isMapNode(node)) return node === null ? null : undefined;
  const out: Record<string, unknown> = {};
  for (const pair of node.items) {
    const key = isScalarNode(pair.key) ? String(pair.key.value) : JSON.stringify(toPlain(pair.key));
    Object.defineProperty(out, key, { value: toPlain(pair.value), writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** Typed field access for one object; wrong types become results, never exceptions. */
export class NodeReader {
  constructor(
    readonly subject: Subject,
    readonly results: Result[],
  ) {}

  private wrong(path: FieldPath, expected: string): undefined {
    this.results.push(errorResult('WRONG_TYPE', `expected ${expected}`, this.subject, formatPath(path)));
    return undefined;
  }

  /** Records that a required field is absent or empty. */
  required(path: FieldPath, expected: string): undefined {
    this.results.push(errorResult('WRONG_TYPE', `required: expected ${expected}`, this.subject, formatPath(path)));
    return undefined;
  }

  map(node: unknown, path: FieldPath): MapNode | undefined {
    if (isNullish(node)) return undefined;
    return isMapNode(node) ? node : this.wrong(path, 'a map');
  }

  seq(node: unknown, path: FieldPath): SeqNode | undefined {
    if (isNullish(node)) return undefined;
    return isSeqNode(node) ? node : this.wrong(path, 'a list');
  }

  str(node: unknown, path: FieldPath): string | undefined {
    if (isNullish(node)) return undefined;
    return isScalarNode(node) && typeof node.value === 'string' ? node.value : this.wrong(path, 'a string');
  }

  bool(node: unknown, path: FieldPath): boolean | undefined {
    if (isNullish(node)) return undefined;
    return isScalarNode(node) && typeof node.value === 'boolean' ? node.value : this.wrong(path, 'true or false');
  }

  /** Walks `keys` from `node` through maps; a non-map on the way is a WRONG_TYPE result. */
  mapIn(node: unknown, base: FieldPath, keys: readonly string[]): MapNode | undefined {
    // Walked first without a path: every step a map or absent, as almost always. Only a step of another type is
    // walked again with the path, to name it (a copy of the path per lookup was a share of planning's garbage, #37).
    let cur = node;
    for (let i = 0; i < keys.length; i++) {
      if (!isMapNode(cur)) return isNullish(cur) ? undefined : this.mapInNaming(node, base, keys);
      cur = child(cur, keys[i]!);
    }
    if (isMapNode(cur)) return cur;
    return isNullish(cur) ? undefined : this.mapInNaming(node, base, keys);
  }

  /** mapIn's walk with the path, reporting the first step that is neither a map nor absent. */
  private mapInNaming(node: unknown, base: FieldPath, keys: readonly string[]): MapNode | undefined {
    let cur: unknown = node;
    const path = [...base];
    for (const key of keys) {
      const m = this.map(cur, path);
      if (!m) return undefined;
      path.push(key);
      cur = child(m, key);
    }
    return this.map(cur, path);
  }

  /** The string entries of a map of strings (labels, annotations, data); wrong entries are results. */
  stringEntries(map: MapNode, path: FieldPath): Array<[string, string, ScalarNode]> {
    const out: Array<[string, string, ScalarNode]> = [];
    for (const pair of map.items) {
      const key = stringValue(pair.key);
      if (key === undefined) {
        this.results.push(errorResult('WRONG_TYPE', 'expected string keys', this.subject, formatPath(path)));
        continue;
      }
      const v = pair.value;
      if (!isScalarNode(v) || typeof v.value !== 'string') {
        this.wrong([...path, key], 'a string');
        continue;
      }
      out.push([key, v.value, v]);
    }
    return out;
  }
}

export type Problem = 'alias' | 'merge' | 'depth';

/**
 * Finds the first alias, merge key (`<<`) or over-deep nesting under `node`, without recursion.
 * - Aliases and merge keys are refused where rollstamp interprets YAML: they would let one value hide
 *   behind another, and expanding them is how alias bombs work.
 */
export function findUnsafeNode(node: unknown, maxDepth: number): { problem: Problem; path: FieldPath } | undefined {
  // Each entry links to its parent, so the path is built only for the node that fails (this runs over
  // every object the yaml front-end read; copying a path per node was a measurable share of a run).
  interface Entry {
    node: unknown;
    depth: number;
    key: string | number;
    parent: Entry | undefined;
  }
  const pathOf = (e: Entry | undefined): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let cur = e; cur?.parent; cur = cur.parent) path.push(cur.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ node, depth: 0, key: '', parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const cur = entry.node;
    if (isAlias(cur)) return { problem: 'alias', path: pathOf(entry) };
    if (entry.depth > maxDepth) return { problem: 'depth', path: pathOf(entry).slice(0, 8) };
    if (isMapNode(cur)) {
      for (const pair of cur.items) {
        if (isAlias(pair.key)) return { problem: 'alias', path: pathOf(entry) };
        const key = isScalarNode(pair.key) ? String(pair.key.value) : '?';
        if (key === '<<' && isScalarNode(pair.key) && pair.key.style === 'plain') return { problem: 'merge', path: pathOf(entry) };
        stack.push({ node: pair.value, depth: entry.depth + 1, key, parent: entry });
      }
    } else if (isSeqNode(cur)) {
      cur.items.forEach((item, i) => stack.push({ node: item, depth: entry.depth + 1, key: i, parent: entry }));
    }
  }
  return undefined;
}
