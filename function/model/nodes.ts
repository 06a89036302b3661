// The only module that checks yaml node types. Readers return typed nodes or record a WRONG_TYPE
// result naming the field; a null or absent field reads as undefined (Kubernetes treats both as unset).
import { isAlias, isMap, isScalar, isSeq, Scalar, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { errorResult, type Result, type Subject } from './results.ts';

/**
 * The node types every stage reads. Only this module and the read/write stages know how they are built;
 * everything else names these and reads them through the helpers below.
 */
export type MapNode = YAMLMap;
export type SeqNode = YAMLSeq;
export type ScalarNode = Scalar;

export type FieldPath = readonly (string | number)[];

const PLAIN_SEGMENT = /^[A-Za-z0-9_-]+$/;

/** `spec.containers[0].env[1]`; keys that are not plain words are quoted: `annotations["rollstamp.dev/hash"]`. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (PLAIN_SEGMENT.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** The pair whose key is `key` in a map (undefined when absent). */
export function childPair(map: YAMLMap, key: string): Pair | undefined {
  for (const pair of map.items) {
    const k = pair.key;
    if ((isScalar(k) && k.value === key) || k === key) return pair;
  }
  return undefined;
}

/** The value node under `key` in a map (undefined when absent, null for an empty value). */
export function child(map: YAMLMap, key: string): unknown {
  const pair = childPair(map, key);
  return pair ? (pair.value ?? null) : undefined;
}

/** The node at `keys` below `node`, through maps only (undefined when any step is not a map). */
export function childIn(node: unknown, keys: readonly string[]): unknown {
  let cur = node;
  for (const key of keys) {
    if (!isMap(cur)) return undefined;
    cur = child(cur, key);
  }
  return cur;
}

/**
 * Where a map was written, for maps the subset reader built (the yaml library's own maps carry their
 * source tokens instead): a block map's key column, and the first comment line between `key:` and a block
 * map below it ([offset, column], by pair index); or a flow map's `{`.
 */
export interface MapLayout {
  indent?: number;
  comments?: ReadonlyMap<number, readonly [number, number]>;
  flowOpen?: number;
}
// Kept on the map itself: a WeakMap with millions of entries made collection slow on node-dense input.
const LAYOUT = Symbol('rollstamp.layout');
type WithLayout = YAMLMap & { [LAYOUT]?: MapLayout };

export function setLayout(map: YAMLMap, layout: MapLayout): void {
  (map as WithLayout)[LAYOUT] = layout;
}

const layoutOf = (map: YAMLMap): MapLayout | undefined => (map as WithLayout)[LAYOUT];

/** True for a map node (block or flow). */
export const isMapNode = (node: unknown): node is YAMLMap => isMap(node);

/** True for a scalar node. */
export const isScalarNode = (node: unknown): node is Scalar => isScalar(node);

/** True for a sequence node (block or flow). */
export const isSeqNode = (node: unknown): node is YAMLSeq => isSeq(node);

/** The offset of a flow map's `{`, or undefined for a block map or a node without source. */
export function flowStart(node: unknown): number | undefined {
  const layout = isMap(node) ? layoutOf(node) : undefined;
  if (layout) return layout.flowOpen;
  const tok = isMap(node) ? node.srcToken : undefined;
  return tok?.type === 'flow-collection' && tok.start.source === '{' ? tok.start.offset : undefined;
}

/** The key column of a block map, or undefined when it is not one read from source. */
export function blockIndent(node: unknown): number | undefined {
  const layout = isMap(node) ? layoutOf(node) : undefined;
  if (layout) return layout.indent;
  const tok = isMap(node) ? node.srcToken : undefined;
  return tok?.type === 'block-map' ? tok.indent : undefined;
}

/** Offset of a block map's first key, when that key is a plain implicit one (no `?` form) read from source. */
export function keyOffset(map: YAMLMap): number | undefined {
  const tok = map.srcToken;
  const first = map.items[0];
  const layout = layoutOf(map);
  if (layout) return layout.indent !== undefined && isScalar(first?.key) ? first.key.range?.[0] : undefined;
  if (tok?.type !== 'block-map' || !first || !isScalar(first.key) || !first.key.range) return undefined;
  if (tok.items[0]?.start.some((t) => t.type === 'explicit-key-ind')) return undefined;
  return first.key.range[0];
}

/** True when the flow map's first key is written in double quotes (as in JSON). */
export function hasDoubleQuotedKeys(map: YAMLMap): boolean {
  const first = map.items[0]?.key;
  return isScalar(first) && first.type === Scalar.QUOTE_DOUBLE;
}

/**
 * Offset of the first comment line between `key:` (pair `index` of a block map) and its block-map value, when that comment
 * starts at the value's key column (so text inserted there lines up); undefined otherwise.
 */
export function leadingCommentOffset(map: YAMLMap, index: number, column: number): number | undefined {
  const layout = layoutOf(map);
  if (layout) {
    const comment = layout.comments?.get(index);
    return comment?.[1] === column ? comment[0] : undefined;
  }
  const tok = map.srcToken;
  const sep = tok?.type === 'block-map' ? (tok.items[index]?.sep ?? []) : [];
  const firstBreak = sep.findIndex((t) => t.type === 'newline');
  for (let i = firstBreak + 1; firstBreak >= 0 && i < sep.length; i++) {
    const t = sep[i]!;
    if (t.type !== 'comment') continue;
    const before = sep[i - 1];
    const col = before?.type === 'space' ? before.source.length : before?.type === 'newline' ? 0 : -1;
    return col === column ? t.offset : undefined;
  }
  return undefined;
}

/** [start, end) of a scalar's value in the source (trailing comment excluded). */
export function scalarRange(node: unknown): [number, number] | undefined {
  if (!isScalar(node) || !node.range || node.value === null) return undefined;
  return [node.range[0], node.range[1]];
}

export const isNullish = (node: unknown): boolean =>
  node === undefined || node === null || (isScalar(node) && node.value === null);

/** A string scalar's value, or undefined for anything else (no result). */
export function stringValue(node: unknown): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
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

  map(node: unknown, path: FieldPath): YAMLMap | undefined {
    if (isNullish(node)) return undefined;
    return isMap(node) ? node : this.wrong(path, 'a map');
  }

  seq(node: unknown, path: FieldPath): YAMLSeq | undefined {
    if (isNullish(node)) return undefined;
    return isSeq(node) ? node : this.wrong(path, 'a list');
  }

  str(node: unknown, path: FieldPath): string | undefined {
    if (isNullish(node)) return undefined;
    return isScalar(node) && typeof node.value === 'string' ? node.value : this.wrong(path, 'a string');
  }

  bool(node: unknown, path: FieldPath): boolean | undefined {
    if (isNullish(node)) return undefined;
    return isScalar(node) && typeof node.value === 'boolean' ? node.value : this.wrong(path, 'true or false');
  }

  /** Walks `keys` from `node` through maps; a non-map on the way is a WRONG_TYPE result. */
  mapIn(node: unknown, base: FieldPath, keys: readonly string[]): YAMLMap | undefined {
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
  stringEntries(map: YAMLMap, path: FieldPath): Array<[string, string, Scalar]> {
    const out: Array<[string, string, Scalar]> = [];
    for (const pair of map.items) {
      const key = stringValue(pair.key);
      if (key === undefined) {
        this.results.push(errorResult('WRONG_TYPE', 'expected string keys', this.subject, formatPath(path)));
        continue;
      }
      const v = pair.value;
      if (!isScalar(v) || typeof v.value !== 'string') {
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
  // every object rollstamp reads; copying a path per node was a measurable share of a run).
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
    if (isMap(cur)) {
      for (const pair of cur.items) {
        if (isAlias(pair.key)) return { problem: 'alias', path: pathOf(entry) };
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        if (key === '<<' && isScalar(pair.key) && pair.key.type === Scalar.PLAIN) return { problem: 'merge', path: pathOf(entry) };
        stack.push({ node: pair.value, depth: entry.depth + 1, key, parent: entry });
      }
    } else if (isSeq(cur)) {
      cur.items.forEach((item, i) => stack.push({ node: item, depth: entry.depth + 1, key: i, parent: entry }));
    }
  }
  return undefined;
}

export type { Node };
export { isAlias };
