// Read stage, fast form (keys): an implicit key on its line, and finding a duplicate key while a block or flow
// map is read by read/subset-yaml.ts, cheaply for the few-key maps manifests are mostly made of and without a
// quadratic scan for a large one.
import type { MapNode, ScalarNode } from '../model/nodes.ts';
import { keyTooLong, outside, plainScalar, plainStart, quotedOnLine } from './subset-scalars.ts';

/** The keys of each large map being read (see hasKey). */
const LARGE_MAP_KEYS = new WeakMap<MapNode, Set<string>>();

/**
 * Whether `map` already has the key `name`. Most maps hold a few keys, where a scan beats building a Set per
 * map; a large map gets a Set of its keys, kept beside it while it is read.
 */
export function hasKey(map: MapNode, name: string): boolean {
  const items = map.items;
  if (items.length < 32) {
    for (const pair of items) if ((pair.key as ScalarNode).value === name) return true;
    return false;
  }
  let keys = LARGE_MAP_KEYS.get(map);
  if (!keys) {
    keys = new Set(items.map((p) => (p.key as ScalarNode).value as string));
    LARGE_MAP_KEYS.set(map, keys);
  }
  if (keys.has(name)) return true;
  keys.add(name);
  return false;
}

const MAX_KEY = 1000; // yaml refuses implicit keys longer than 1024 characters

/**
 * The implicit key `key:` at `at`, on the line ending at `eol` (a plain or quoted key, then `:` and a space or the
 * line's end); undefined when no key starts there. Its `:` is at its `end`, so its value starts at `end + 1` (no
 * object of its own for that: every key of every document is read here, #37). Throws OUT (outside the subset)
 * for a key the subset leaves to the yaml library: not a string, too long, or a merge key.
 */
export function readKey(t: string, at: number, eol: number): ScalarNode | undefined {
  const c = t[at]!;
  let node: ScalarNode;
  let end: number;
  if (c === '"' || c === "'") {
    const key = quotedOnLine(t, at, eol);
    if (!key) return undefined; // open past its line: not a key (a wrapped value, or an error)
    node = key;
    end = node.end;
  } else {
    if (c === ':' || !plainStart(t, at, eol)) return undefined; // a key starting `:` is left to the library
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
  if (t[end] !== ':' || !(end + 1 === eol || t.charCodeAt(end + 1) === 32)) return undefined;
  if (typeof node.value !== 'string' || keyTooLong(t, at, end, MAX_KEY)) outside();
  if (node.value === '<<' && node.style === 'plain') outside(); // a merge key: model/safety.ts reports it
  return node;
}
