// Stamp stage, text form: the smallest edit to the source text that writes the stamp, so a stamped file
// diffs only in its annotation lines (comments, spacing and quoting elsewhere stay byte for byte). When the
// shape is unusual the answer is "no edit" and the document is printed again from its syntax tree instead.
import type { YAMLMap } from 'yaml';
import { blockIndent, child, flowStart, isMapNode, keyOffset, scalarRange } from './yaml-nodes.ts';

/** Replace `remove` characters at `offset` (in the stream's text) with `insert`. Line breaks are `\n`. */
export interface TextEdit {
  offset: number;
  remove: number;
  insert: string;
}

/**
 * The edit that sets `metadata.annotations[key] = "value"` on a pod template, planned before the tree is
 * changed (it reads the nodes' source positions).
 * - undefined: no safe text edit (null maps, explicit keys, nodes without positions).
 */
export function planStampEdit(template: YAMLMap, key: string, value: string): TextEdit | undefined {
  const entry = `${yamlKey(key)}: ${JSON.stringify(value)}`;
  const meta = child(template, 'metadata');
  if (meta === undefined) return insertEntry(template, ['metadata', 'annotations'], entry);
  if (!isMapNode(meta)) return undefined;
  const annotations = child(meta, 'annotations');
  if (annotations === undefined) return insertEntry(meta, ['annotations'], entry);
  if (!isMapNode(annotations)) return undefined;
  const existing = child(annotations, key);
  if (existing === undefined) return insertEntry(annotations, [], entry);
  const range = scalarRange(existing);
  return range ? { offset: range[0], remove: range[1] - range[0], insert: JSON.stringify(value) } : undefined;
}

/** Inserts `entry` (wrapped in the `wrappers` maps) as the first entry of `map`. */
function insertEntry(map: YAMLMap, wrappers: readonly string[], entry: string): TextEdit | undefined {
  const open = flowStart(map);
  if (open !== undefined) {
    const nested = wrappers.reduceRight((inner, w) => `${w}: {${inner}}`, entry);
    return { offset: open + 1, remove: 0, insert: map.items.length > 0 ? `${nested}, ` : nested };
  }
  const indent = blockIndent(map);
  const offset = keyOffset(map);
  if (indent === undefined || offset === undefined) return undefined;
  const step = childStep(map, indent);
  const lines = [...wrappers, entry].map((text, depth) => `${' '.repeat(indent + depth * step)}${text}${depth < wrappers.length ? ':' : ''}`);
  // The first line's indentation is already in the text before the first key.
  return { offset, remove: 0, insert: `${lines.join('\n').slice(indent)}\n${' '.repeat(indent)}` };
}

/** The indentation step the file uses: from a nested block map of `map`, else 2. */
function childStep(map: YAMLMap, indent: number): number {
  for (const pair of map.items) {
    const inner = blockIndent(pair.value);
    if (inner !== undefined && inner > indent) return inner - indent;
  }
  return 2;
}

/** A plain key when it is safe to write one unquoted, else a double-quoted one. */
function yamlKey(key: string): string {
  return /^[A-Za-z0-9][-A-Za-z0-9_./]*$/.test(key) ? key : JSON.stringify(key);
}
