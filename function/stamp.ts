// Stamp stage: writes the hash into an annotations map (a pod template's, or a kagent Agent's deployment
// annotations), creating the maps on the way when absent. The value is always a double-quoted scalar, so no
// YAML 1.1 reader retypes it. Writing the same value is a no-op.
import { Scalar, YAMLMap } from 'yaml';
import { child, childIn, isMapNode, stringValue } from './yaml-nodes.ts';

/** The current value of `key` in the annotations map at `path` below `root`, if any. */
export function currentStamp(root: YAMLMap, path: readonly string[], key: string): string | undefined {
  const annotations = childIn(root, path);
  return isMapNode(annotations) ? stringValue(child(annotations, key)) : undefined;
}

/**
 * Sets `<path>[key] = value` below `root`.
 * - Returns false (and changes nothing) when the value is already there.
 * - Callers have checked that every map on the path, when present, is a map (or empty).
 */
export function stampAnnotation(root: YAMLMap, path: readonly string[], key: string, value: string): boolean {
  if (currentStamp(root, path, key) === value) return false;
  const annotations = path.reduce(ensureMap, root);
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  annotations.set(key, scalar);
  return true;
}

function ensureMap(parent: YAMLMap, key: string): YAMLMap {
  const existing = child(parent, key);
  if (existing instanceof YAMLMap) return existing;
  const created = new YAMLMap();
  parent.set(key, created); // replaces an empty (null) value, or appends the key
  return created;
}
