// Read stage, fast form (keys): an implicit key on its line, and the collections being read (read/subset-yaml.ts,
// read/subset-flow.ts): their pairs and entries until each ends, and finding a duplicate key among a map's pairs,
// cheaply for the few-key maps manifests are mostly made of and without a quadratic scan for a large one.
import type { MapNode, Node, PairNode, ScalarNode } from '../model/nodes.ts';
import { keyTooLong, outside, plainScalar, plainStart, quotedOnLine } from './subset-scalars.ts';

/** The keys of each large map being read (see Building.hasKey). */
const LARGE_MAP_KEYS = new WeakMap<MapNode, Set<string>>();

/**
 * The pairs and list entries of the collections one reader is reading, innermost last. A collection's become its
 * `items` when it ends: an array of exactly their number (#37: grown by push, every map's and list's array had
 * 17 slots, most of them empty). Slots above the top keep what a finished collection left until they are
 * written again; a reader reads one document, so they go with it.
 */
export class Building {
  private readonly pairs: PairNode[] = [];
  private pairTop = 0;
  private readonly entries: Node[] = [];
  private entryTop = 0;

  /** Where the pairs of a map that starts now begin (pass it to addPair's counterparts below). */
  pairMark(): number {
    return this.pairTop;
  }

  addPair(pair: PairNode): void {
    if (this.pairTop === this.pairs.length) this.pairs.push(pair);
    else this.pairs[this.pairTop] = pair;
    this.pairTop++;
  }

  /** The pairs added since `from`, as a map's items; they leave the stack. */
  takePairs(from: number): PairNode[] {
    const items = this.pairs.slice(from, this.pairTop);
    this.pairTop = from;
    return items;
  }

  entryMark(): number {
    return this.entryTop;
  }

  addEntry(node: Node): void {
    if (this.entryTop === this.entries.length) this.entries.push(node);
    else this.entries[this.entryTop] = node;
    this.entryTop++;
  }

  /** The entries added since `from`, as a list's items; they leave the stack. */
  takeEntries(from: number): Node[] {
    const items = this.entries.slice(from, this.entryTop);
    this.entryTop = from;
    return items;
  }

  /**
   * Whether the map `map`, whose pairs so far were added since `from`, already has the key `name`. Most maps
   * hold a few keys, where a scan beats building a Set per map; a large map gets a Set of its keys, kept beside
   * it while it is read.
   */
  hasKey(from: number, map: MapNode, name: string): boolean {
    const pairs = this.pairs;
    const top = this.pairTop;
    if (top - from < 32) {
      for (let i = from; i < top; i++) if ((pairs[i]!.key as ScalarNode).value === name) return true;
      return false;
    }
    let keys = LARGE_MAP_KEYS.get(map);
    if (!keys) {
      keys = new Set();
      for (let i = from; i < top; i++) keys.add((pairs[i]!.key as ScalarNode).value as string);
      LARGE_MAP_KEYS.set(map, keys);
    }
    if (keys.has(name)) return true;
    keys.add(name);
    return false;
  }
}

const MAX_KEY = 1000; // yaml refuses implicit keys longer than 1024 characters

/**
 * The implicit key `key:` at `at`, on the line ending at `eol` (a plain or quoted key, then `:` and a space or the
 * line's end); undefined when no key starts there. Its `:` is at its `end`, so its value starts at `end + 1` (no
 * object of its own for that: every key of every document is read here, #37). Throws OUT (outside the subset)
 * for a key the subset leaves to the yaml library: not a string, too long, or a merge key.
 */
export function readKey(t: string, at: number, eol: number): ScalarNode | undefined {
  const c = t.charCodeAt(at); // char codes, not one-character strings: asked of every key (#37)
  let node: ScalarNode;
  let end: number;
  if (c === 34 /* " */ || c === 39 /* ' */) {
    const key = quotedOnLine(t, at, eol);
    if (!key) return undefined; // open past its line: not a key (a wrapped value, or an error)
    node = key;
    end = node.end;
  } else {
    if (c === 58 /* : */ || !plainStart(t, at, eol)) return undefined; // a key starting `:` is left to the library
    // One pass: the first `:` followed by a space or the line's end, unless a ` #` comment comes before it.
    end = -1;
    for (let i = at; i < eol; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 58 && (i + 1 === eol || t.charCodeAt(i + 1) === 32)) {
        end = i;
        break;
      }
      if (ch === 35 && i > at && t.charCodeAt(i - 1) === 32) return undefined;
    }
    if (end < 0) return undefined;
    while (t.charCodeAt(end - 1) === 32) end--;
    node = plainScalar(t, at, end);
  }
  if (end >= t.length || t.charCodeAt(end) !== 58 /* : */ || !(end + 1 === eol || t.charCodeAt(end + 1) === 32)) return undefined;
  if (typeof node.value !== 'string' || keyTooLong(t, at, end, MAX_KEY)) outside();
  if (node.value === '<<' && node.style === 'plain') outside(); // a merge key: model/safety.ts reports it
  return node;
}
