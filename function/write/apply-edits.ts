// Write stage: the one function that applies stamp edits to source text, for streams and ResourceLists alike.
import type { TextEdit } from '../model/target.ts';

/**
 * `text` with `edits` applied. Edit offsets count from the start of the whole input; `base` is where `text`
 * starts in it. Inserted line breaks follow the text's own (`\r\n` when it has any).
 */
export function applyTextEdits(text: string, base: number, edits: readonly TextEdit[]): string {
  return textEditPieces(text, base, edits).join('');
}

/** The last of `pieces` with text in it: the text they join to ends as it does. */
export function lastNonEmpty(pieces: readonly string[]): string | undefined {
  for (let i = pieces.length - 1; i >= 0; i--) if (pieces[i] !== '') return pieces[i];
  return undefined;
}

/**
 * `applyTextEdits`'s result as the pieces it joins: slices of `text` (which share its memory) around the inserts.
 * A stream's writer joins every document's pieces once, rather than each stamped document into a copy first (#37).
 */
export function textEditPieces(text: string, base: number, edits: readonly TextEdit[]): string[] {
  const crlf = text.includes('\r\n');
  if (edits.length === 1) {
    // The usual stamp: a list of its own length, without a sorted copy of the edits or a list grown by push
    // (room for 17), both garbage per stamped document (#37).
    const pieces = ['', '', '', '', ''];
    pieces[4] = text.slice(editPieces(text, base, edits[0]!, crlf, 0, pieces, 0));
    return pieces;
  }
  // Pieces joined once: slicing the whole text per edit would copy it once per stamped workload.
  const parts: string[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.offset - b.offset)) at = editPieces(text, base, edit, crlf, at, parts, parts.length);
  parts.push(text.slice(at));
  return parts;
}

/**
 * Writes one edit's four pieces into `parts` from index `i` — the text from `at` up to the edit, the insert, what
 * of the old value stays, and a space or nothing — and returns where the text resumes after the edit.
 */
function editPieces(text: string, base: number, edit: TextEdit, crlf: boolean, at: number, parts: string[], i: number): number {
  const from = edit.offset - base;
  const { remove, keep } = edit.block ? blockScalarKept(text, from, edit.remove) : { remove: edit.remove, keep: '' };
  const after = from + remove;
  parts[i] = text.slice(at, from);
  parts[i + 1] = crlf ? edit.insert.replace(/\n/g, '\r\n') : edit.insert;
  parts[i + 2] = keep;
  // A comment must stay apart from what comes before it: `annotations: # none yet` filled in would glue the
  // stamp's closing quote to the `#` (an empty value is read where the comment starts).
  parts[i + 3] = keep === '' && text[after] === '#' && !/\s$/.test(edit.insert) ? ' ' : '';
  return after;
}

/**
 * What of a block scalar at `from` (`remove` long, its header through its last line break) stays when it is
 * replaced: a comment on its header line (`| # why`), and everything after its last content character — the
 * line break and any blank lines — so the next key keeps its own line (#21).
 */
function blockScalarKept(text: string, from: number, remove: number): { remove: number; keep: string } {
  const range = text.slice(from, from + remove);
  const headerEnd = range.search(/\r?\n|$/);
  const comment = /[ \t]+#.*$/.exec(range.slice(0, headerEnd))?.[0] ?? '';
  // The header, then the content up to its last character (none for an empty scalar).
  return { remove: headerEnd + range.slice(headerEnd).trimEnd().length, keep: comment };
}
