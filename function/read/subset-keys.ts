// Read stage, fast form (keys): finding a duplicate key while a block or flow map is read by
// read/subset-yaml.ts, cheaply for the few-key maps manifests are mostly made of and without a quadratic scan
// for a large one.
import type { MapNode, ScalarNode } from '../model/nodes.ts';

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
