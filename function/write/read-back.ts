// Write stage: the read-back check. A document a text edit changed must read again as one YAML document
// without errors before anything is written: an edit that broke the YAML (#21: a block-scalar stamp replaced
// with its line break) is a bug in rollstamp, reported as an internal error (exit 1), never printed.
import { isMapNode } from '../model/nodes.ts';
import type { TextEdit } from '../model/target.ts';
import { parseYamlDocument } from '../read/parse-yaml.ts';
import { readSubsetStream } from '../read/subset-yaml.ts';
import { applyTextEdits } from './apply-edits.ts';

/**
 * Throws unless `edited` (`text`, which starts at `base` in the input and which the subset reader read when
 * `subset` is true, with `edits` applied) reads back.
 * - Where every edit has a window (TextEdit.window) and the original was read by the subset reader, only
 *   the windows are read again: outside them the text is what the subset reader read, and a block map that
 *   reads alone at its column reads the same in place — in the subset, where a block node ends is decided by
 *   indentation alone. Reading the stamped documents whole was most of writing: on the 10k-object bench
 *   bundle, warm, writing went from about 100 to 35 ms (bench/phases.ts).
 * - Otherwise, or when a window does not read alone, the whole edited text is read again (assertReadsBack).
 */
export function assertEditsReadBack(text: string, base: number, subset: boolean, edits: readonly TextEdit[], edited: string): void {
  if (subset && windowsReadBack(text, base, edits)) return;
  assertReadsBack(edited);
}

/**
 * Throws unless `text` (one document's edited text) reads back: the subset reader reads it (it declines
 * anything with an error), or the yaml library parses it as one document without errors.
 * - Reading the whole output again instead of the changed documents doubled the run time.
 */
export function assertReadsBack(text: string): void {
  if (readSubsetStream(text)?.length === 1) return;
  const doc = parseYamlDocument(text);
  if (doc.errors.length > 0) throw new Error('internal: a stamped document does not read back as YAML; nothing was written');
}

/**
 * True when every edit lies in its own window, the windows do not overlap, each starts a line with only spaces
 * before its first key, and each, with its edit applied, is read by the subset reader alone as one block map
 * at the window's column. False means "read the whole text", never "broken".
 */
export function windowsReadBack(text: string, base: number, edits: readonly TextEdit[]): boolean {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  let last = base;
  for (const edit of sorted) {
    const w = edit.window;
    if (!w) return false;
    const lineStart = w.start - w.indent;
    if (lineStart < last || w.end - base > text.length || edit.offset < lineStart || edit.offset + edit.remove > w.end) return false;
    if (lineStart > base && text[lineStart - base - 1] !== '\n') return false;
    if (text.slice(lineStart - base, w.start - base) !== ' '.repeat(w.indent)) return false;
    const read = readSubsetStream(applyTextEdits(text.slice(lineStart - base, w.end - base), lineStart, [edit]));
    const root = read?.length === 1 ? read[0]!.contents : undefined;
    if (!isMapNode(root) || root.indent !== w.indent) return false;
    last = w.end;
  }
  return true;
}
