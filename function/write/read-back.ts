// Write stage: the read-back check. A document a text edit changed must read again as one YAML document
// without errors before anything is written: an edit that broke the YAML (#21: a block-scalar stamp replaced
// with its line break) is a bug in rollstamp, reported as an internal error (exit 1), never printed.
import { isMapNode } from '../model/nodes.ts';
import type { TextEdit } from '../model/target.ts';
import { parseYamlDocument } from '../read/parse-yaml.ts';
import { readSubsetStream } from '../read/subset-yaml.ts';
import { applyTextEdits } from './apply-edits.ts';

/**
 * Throws unless `edited()` (`text`, which starts at `base` in the input and which the subset reader read when
 * `subset` is true, with `edits` applied) reads back. The edited text is asked for only when it is read whole, so a
 * writer that keeps it as pieces joins them only then.
 * - Where every edit has a window (TextEdit.window) and the original was read by the subset reader, only
 *   the windows are read again (windowsReadBack): outside them the text is what the subset reader read, and
 *   a block map that reads alone at its column, ending where it ended, reads the same in place — in the
 *   subset, where a block node ends is decided by indentation alone. Reading the stamped documents whole was
 *   most of writing: on the 10k-object bench bundle, warm, writing went from about 100 to 35 ms
 *   (bench/phases.ts).
 * - Otherwise, or when a window does not read alone, the whole edited text is read again (assertReadsBack).
 */
export function assertEditsReadBack(text: string, base: number, subset: boolean, edits: readonly TextEdit[], edited: () => string): void {
  if (subset && windowsReadBack(text, base, edits)) return;
  assertReadsBack(edited());
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

/** A document marker line: inside a window it would start a document of its own in place. */
const MARKER_LINE = /^(?:---|\.\.\.)(?:[ \n]|$)/m;
/**
 * True when `text` from `from` to `to` (a line, without its line break) holds nothing but spaces and a comment: it
 * belongs to no node. What `/^ *(?:#.*)?$/` says of the line, read in place: a copy of each line tested was
 * garbage (#37).
 */
function isEmptyLine(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && text.charCodeAt(i) === 32) i++;
  if (i === to) return true;
  if (text.charCodeAt(i) !== 35) return false; // `#`
  // `.` stops at a line terminator: a comment holding one does not reach the end of the line.
  for (i++; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

/** True when `text` holds `count` spaces from `at` on (and no fewer before its end). */
function spacesAt(text: string, at: number, count: number): boolean {
  if (at < 0 || at + count > text.length) return false;
  for (let i = at; i < at + count; i++) if (text.charCodeAt(i) !== 32) return false;
  return true;
}

/**
 * True when every edit lies in its own window, the windows do not overlap, each starts a line with only spaces
 * before its first key, and each, with its edit applied, is read by the subset reader alone as one block map at
 * the window's column that still ends with its line break, with no document marker in it. A window is read
 * with the blank and comment lines after its map (a new block scalar would take them in), up to the next line
 * with content, which is at a smaller column and so ends the map in place as the end of the text ends it alone.
 * False means "read the whole text", never "broken".
 * - Each window must be a whole block map of the tree the subset reader read from `text` (the planner takes it
 *   from there: text-edit.ts). That is what makes it stand for the document, and it cannot be told from the
 *   text alone (a plain scalar's continuation line, block-scalar content or the rest of a list entry's map can
 *   look like one); the column checks below only refuse the plainest misuse.
 * - Nesting is counted from the window: an edit that takes the document past the subset reader's depth passes
 *   here, as it passed the whole-document check, which the yaml library then answered.
 */
export function windowsReadBack(text: string, base: number, edits: readonly TextEdit[]): boolean {
  // One edit, the usual stamp: no sorted copy (#37).
  const sorted = edits.length === 1 ? edits : [...edits].sort((a, b) => a.offset - b.offset);
  let last = base;
  for (const edit of sorted) {
    const w = edit.window;
    if (!w || !Number.isInteger(w.indent) || w.indent < 0 || !Number.isInteger(edit.remove) || edit.remove < 0) return false;
    const lineStart = w.start - w.indent;
    const end = windowEnd(text, w.end - base);
    if (end === undefined || lineStart < last || edit.offset < lineStart || edit.offset + edit.remove > base + end) return false;
    if (lineStart > base && text[lineStart - base - 1] !== '\n') return false;
    if (!spacesAt(text, lineStart - base, w.indent)) return false;
    // The lines of content around the window sit at a smaller column, as around any block map.
    // (`end` is where the next line with content starts, or the end of the text.)
    if (!(columnAbove(text, lineStart - base) < w.indent) || !(columnAt(text, end) < w.indent)) return false;
    const edited = applyTextEdits(text.slice(lineStart - base, end), lineStart, [edit]);
    if ((end < text.length && !edited.endsWith('\n')) || MARKER_LINE.test(edited)) return false;
    const read = readSubsetStream(edited);
    const root = read?.length === 1 ? read[0]!.contents : undefined;
    if (!isMapNode(root) || root.indent !== w.indent) return false;
    last = base + end;
  }
  return true;
}

/**
 * Where a window whose map ends at `mapEnd` (in `text`) ends: after the rest of the map's last line (spaces or a
 * comment) and the blank and comment lines below it, at the start of the next line with content or at the end of
 * the text. Undefined when the rest of that line holds anything else.
 */
function windowEnd(text: string, mapEnd: number): number | undefined {
  if (mapEnd < 0 || mapEnd > text.length) return undefined;
  let at = mapEnd;
  let first = at > 0 && text[at - 1] !== '\n'; // the map ends inside its last line
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 ? text.length : nl;
    if (!isEmptyLine(text, at, lineEnd)) {
      if (first) return undefined;
      break;
    }
    first = false;
    at = nl < 0 ? text.length : nl + 1;
  }
  return at;
}

/** The column of the last line with content above the line starting at `at`; -1 when there is none. */
function columnAbove(text: string, at: number): number {
  for (let start = at; start > 0; ) {
    const end = start - 1; // the line break that ends the line above
    start = end === 0 ? 0 : text.lastIndexOf('\n', end - 1) + 1;
    if (!isEmptyLine(text, start, end)) return columnAt(text, start);
  }
  return -1;
}

/** The column of the content on the line starting at `at`; -1 at the end of the text. */
function columnAt(text: string, at: number): number {
  if (at >= text.length) return -1;
  let i = at;
  while (text.charCodeAt(i) === 32) i++;
  return i - at;
}
