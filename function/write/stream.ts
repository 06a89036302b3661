// Write stage for plain multi-document streams: each document's original text, with the stamp edits applied to
// the documents rollstamp changed, or printed again where no text edit can write the stamp.
import type { TextEdit } from '../model/target.ts';
import { memberNodes } from '../read/list-wrappers.ts';
import type { StreamDoc } from '../read/stream.ts';
import { detectFormat } from './format.ts';
import { applyTextEdits } from './apply-edits.ts';

/**
 * Prints documents: the original text for untouched ones; for changed ones (keyed by their item node) the
 * original text with the stamp edit applied, or a fresh rendering when there is no edit — undefined when such
 * a document was read by the subset reader and has no tree to render (the caller reads the stream again with
 * the yaml library). (The edit is planned from the parsed positions; test/unit/text-edit and the idempotence
 * properties check that the edited text reads back as the changed tree. Checking it again here doubled the
 * run time.)
 */
export function serializeStream(docs: readonly StreamDoc[], changed: ReadonlyMap<unknown, TextEdit | undefined>): string | undefined {
  // Parts joined once at the end: endsWith() on a growing concatenated string flattens it every time.
  const parts: string[] = [];
  let last = '';
  for (const d of docs) {
    // A list wrapper's entries are items of their own: every stamped one is edited in the wrapper's text.
    const stamped = memberNodes(d.contents).filter((n) => changed.has(n));
    const text = stamped.length > 0 ? renderChanged(d, stamped.map((n) => changed.get(n))) : d.text;
    if (text === undefined) return undefined;
    if (text === '') continue;
    if (last !== '' && !last.endsWith('\n')) parts.push('\n');
    parts.push(text);
    last = text;
  }
  return parts.join('');
}

/** The document's text with its edits applied, or printed again when one has no edit. */
function renderChanged(d: StreamDoc, edits: ReadonlyArray<TextEdit | undefined>): string | undefined {
  if (edits.some((e) => e === undefined)) return d.doc?.toString(detectFormat(d.text));
  return applyTextEdits(d.text, d.offset, edits as TextEdit[]);
}
