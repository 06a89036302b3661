// Discover stage, kagent 1.x: the field shapes every 1.x kind shares — a name, a `{name}` reference, a
// `{name, key}` selector, a list of maps — read strictly (#20): a wrong type is a WRONG_TYPE result naming the
// field, never a guess.
import { child, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';

/** A required, non-empty string at `path` (WRONG_TYPE otherwise: never a guess). */
export function nameAt(reader: NodeReader, map: MapNode, path: FieldPath, key = 'name'): string | undefined {
  const value = reader.str(child(map, key), [...path, key]);
  if (value === undefined || value === '') return reader.required([...path, key], 'a non-empty string');
  return value;
}

/** `{name: …}` (a LocalObjectReference) at `path`, if set. */
export function localRef(reader: NodeReader, node: unknown, path: FieldPath): string | undefined {
  const map = reader.map(node, path);
  return map ? nameAt(reader, map, path) : undefined;
}

/** `{name, key}` (a Secret or ConfigMap key selector) at `path`, if set. */
export function keyRef(reader: NodeReader, node: unknown, path: FieldPath): { name: string; key: string } | undefined {
  const map = reader.map(node, path);
  if (!map) return undefined;
  const n = nameAt(reader, map, path);
  const key = nameAt(reader, map, path, 'key');
  return n !== undefined && key !== undefined ? { name: n, key } : undefined;
}

/** The maps of a list at `path` (a non-map entry is WRONG_TYPE). */
export function entries(reader: NodeReader, node: unknown, path: FieldPath): Array<[MapNode, FieldPath]> {
  const seq = reader.seq(node, path);
  const out: Array<[MapNode, FieldPath]> = [];
  seq?.items.forEach((item, i) => {
    const map = reader.map(item, [...path, i]);
    if (map) out.push([map, [...path, i]]);
  });
  return out;
}
