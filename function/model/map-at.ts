// Model: a map found by walking keys from a node, as NodeReader.mapIn finds it, without its copy of the path.
import { child, isMapNode, isNullish, type FieldPath, type MapNode, type NodeReader } from './nodes.ts';

/**
 * `reader.mapIn(node, path, keys)`, walked without copying `path` where every step is a map or absent, as almost
 * always: the reader is asked only to report a step of another type, from the start, so it reports exactly what
 * mapIn reports (a copy of the path per lookup was a share of planning's garbage, #37).
 */
export function mapAt(node: unknown, path: FieldPath, keys: readonly string[], reader: NodeReader): MapNode | undefined {
  let cur = node;
  for (let i = 0; i < keys.length; i++) {
    if (!isMapNode(cur)) return isNullish(cur) ? undefined : reader.mapIn(node, path, keys);
    cur = child(cur, keys[i]!);
  }
  if (isMapNode(cur)) return cur;
  return isNullish(cur) ? undefined : reader.mapIn(node, path, keys);
}

/** The path a walk from an object's root starts from. */
export const ROOT_PATH: FieldPath = Object.freeze([]);
