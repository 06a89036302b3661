// Stamp stage: writes the hash into a pod template's annotations, creating the maps when absent.
// The value is always a double-quoted scalar, so no YAML 1.1 reader retypes it. Writing the same value is a no-op.
import { Scalar, YAMLMap } from 'yaml';
import { child, stringValue } from './yaml-nodes.ts';

/** The current value of `key` in the template's annotations, if any. */
export function currentStamp(template: YAMLMap, key: string): string | undefined {
  const meta = child(template, 'metadata');
  const annotations = meta instanceof YAMLMap ? child(meta, 'annotations') : undefined;
  return annotations instanceof YAMLMap ? stringValue(child(annotations, key)) : undefined;
}

/**
 * Sets `metadata.annotations[key] = value` on the template.
 * - Returns false (and changes nothing) when the value is already there.
 * - Callers have checked that `metadata` and `annotations`, when present, are maps.
 */
export function stampTemplate(template: YAMLMap, key: string, value: string): boolean {
  if (currentStamp(template, key) === value) return false;
  const meta = ensureMap(template, 'metadata');
  const annotations = ensureMap(meta, 'annotations');
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
