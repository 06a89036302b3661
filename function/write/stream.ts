// Write stage for plain multi-document streams: each document's original text, with the stamp edits applied to
// the documents rollstamp changed, or printed again where no text edit can write the stamp.
import { isVouchedFor } from '../model/object.ts';
import type { TextEdit } from '../model/target.ts';
import type { StreamDoc } from '../read/stream.ts';
import { detectFormat } from './format.ts';
import { lastNonEmpty, textEditPieces } from './apply-edits.ts';
import { assertEditsReadBack } from './read-back.ts';

/**
 * Prints documents, as the pieces of the stream's text in order: the original text for untouched ones; for
 * changed ones (keyed by item index: see streamItems) the original text with the stamp edit applied, or a fresh
 * rendering when there is no edit — undefined when such a document was read by the subset reader and has no
 * tree to render (the caller reads the stream again with the yaml library). Each edited document is read back
 * before anything is returned (write/read-back.ts: a broken one throws), where it can be only the block maps
 * the edits are in.
 */
export function serializeStream(docs: readonly StreamDoc[], changed: ReadonlyMap<number, ReadonlyArray<TextEdit | undefined>>): string[] | undefined {
  // Pieces, never joined here: a document untouched or stamped is slices of the input and its insert, which share
  // the input's memory, so the stream is not held a second time while it is written (#37).
  const parts: string[] = [];
  let open = false;
  for (const d of docs) {
    const edits = editsOf(d, changed);
    if (edits === undefined) {
      // Untouched, the commonest document: its text, with no array or list of its items made for it (#37).
      if (d.text === '') continue;
      if (open) parts.push('\n');
      parts.push(d.text);
      open = !d.text.endsWith('\n');
      continue;
    }
    const pieces = renderChanged(d, edits);
    if (pieces === undefined) return undefined;
    const end = lastNonEmpty(pieces);
    if (end === undefined) continue;
    if (open) parts.push('\n');
    for (const piece of pieces) parts.push(piece);
    open = !end.endsWith('\n');
  }
  return parts;
}

/**
 * The edits of the document's items (none before streamItems has read them), in item order; undefined when none of
 * them changed. A list wrapper's entries are items of their own: every stamped one is edited in the wrapper's text.
 */
function editsOf(d: StreamDoc, changed: ReadonlyMap<number, ReadonlyArray<TextEdit | undefined>>): ReadonlyArray<TextEdit | undefined> | undefined {
  const first = d.firstItem ?? 0;
  const end = first + (d.itemCount ?? 0);
  // A document of one item, the usual one: its edits as apply made them, with no list of its own (#37).
  if (end === first + 1) return changed.get(first);
  let edits: Array<TextEdit | undefined> | undefined;
  for (let i = first; i < end; i++) {
    const these = changed.get(i);
    if (these !== undefined) {
      edits ??= [];
      for (const edit of these) edits.push(edit);
    }
  }
  return edits;
}

/**
 * The document's text with its edits applied, as pieces, or printed again when one has no edit. Read back first
 * (the edits' windows, else the pieces joined).
 */
function renderChanged(d: StreamDoc, edits: ReadonlyArray<TextEdit | undefined>): string[] | undefined {
  if (edits.some((e) => e === undefined)) {
    const printed = d.doc?.toString(detectFormat(d.text));
    return printed === undefined ? undefined : [printed];
  }
  const pieces = textEditPieces(d.text, d.offset, edits as TextEdit[]);
  assertEditsReadBack(d.text, d.offset, isVouchedFor(d.readBy), edits as TextEdit[], () => pieces.join(''));
  return pieces;
}
