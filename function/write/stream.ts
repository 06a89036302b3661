// Write stage for plain multi-document streams: each document's original text, with the stamp edits applied to
// the documents rollstamp changed, or printed again where no text edit can write the stamp.
import { isVouchedFor } from '../model/object.ts';
import type { TextEdit } from '../model/target.ts';
import type { StreamDoc } from '../read/stream.ts';
import { detectFormat } from './format.ts';
import { applyTextEdits } from './apply-edits.ts';
import { assertEditsReadBack } from './read-back.ts';

/**
 * Prints documents: the original text for untouched ones; for changed ones (keyed by item index: see
 * streamItems) the
 * original text with the stamp edit applied, or a fresh rendering when there is no edit — undefined when such
 * a document was read by the subset reader and has no tree to render (the caller reads the stream again with
 * the yaml library). Each edited document is read back before anything is returned (write/read-back.ts:
 * a broken one throws), where it can be only the block maps the edits are in.
 */
export function serializeStream(docs: readonly StreamDoc[], changed: ReadonlyMap<number, ReadonlyArray<TextEdit | undefined>>): string | undefined {
  // Parts joined once at the end: endsWith() on a growing concatenated string flattens it every time.
  const parts: string[] = [];
  let last = '';
  for (const d of docs) {
    // A list wrapper's entries are items of their own: every stamped one is edited in the wrapper's text.
    const stamped = itemsOf(d).filter((i) => changed.has(i));
    const text = stamped.length > 0 ? renderChanged(d, stamped.flatMap((i) => changed.get(i)!)) : d.text;
    if (text === undefined) return undefined;
    if (text === '') continue;
    if (last !== '' && !last.endsWith('\n')) parts.push('\n');
    parts.push(text);
    last = text;
  }
  return parts.join('');
}

/** Indexes of the document's items (none before streamItems has read them). */
function itemsOf(d: StreamDoc): number[] {
  const first = d.firstItem ?? 0;
  return Array.from({ length: d.itemCount ?? 0 }, (_, i) => first + i);
}

/** The document's text with its edits applied, or printed again when one has no edit. */
function renderChanged(d: StreamDoc, edits: ReadonlyArray<TextEdit | undefined>): string | undefined {
  if (edits.some((e) => e === undefined)) return d.doc?.toString(detectFormat(d.text));
  const text = applyTextEdits(d.text, d.offset, edits as TextEdit[]);
  assertEditsReadBack(d.text, d.offset, isVouchedFor(d.readBy), edits as TextEdit[], text);
  return text;
}
