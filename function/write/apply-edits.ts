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
  if (edits.length === 1) return onePieces(text, base, edits[0]!, crlf);
  // Pieces joined once: slicing the whole text per edit would copy it once per stamped workload.
  const parts: string[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.offset - b.offset)) {
    const from = edit.offset - base;
    const { remove, keep } = edit.block ? blockScalarKept(text, from, edit.remove) : { remove: edit.remove, keep: '' };
    parts.push(text.slice(at, from), crlf ? edit.insert.replace(/\n/g, '\r\n') : edit.insert, keep);
    at = from + remove;
    // A comment must stay apart from what comes before it: `annotations: # none yet` filled in would glue the
    // stamp's closing quote to the `#` (an empty value is read where the comment starts).
    if (keep === '' && text[at] === '#' && !/\s$/.test(edit.insert)) parts.push(' ');
  }
  parts.push(text.slice(at));
  return parts;
}

/**
 * textEditPieces of one edit, the usual stamp, as a list of its own length: the same pieces, without a sorted copy
 * of the edits or a list grown by push (room for 17), both garbage per stamped document (#37).
 */
function onePieces(text: string, base: number, edit: TextEdit, crlf: boolean): string[] {
  const from = edit.offset - base;
  const { remove, keep } = edit.block ? blockScalarKept(text, from, edit.remove) : { remove: edit.remove, keep: '' };
  const insert = crlf ? edit.insert.replace(/\n/g, '\r\n') : edit.insert;
  const at = from + remove;
  // As in textEditPieces: a comment must stay apart from what comes before it.
  return keep === '' && text[at] === '#' && !/\s$/.test(edit.insert)
    ? [text.slice(0, from), insert, keep, ' ', text.slice(at)]
    : [text.slice(0, from), insert, keep, text.slice(at)];
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
