// Write stage: the one function that applies stamp edits to source text, for streams and ResourceLists alike.
import type { TextEdit } from '../model/target.ts';

/**
 * `text` with `edits` applied. Edit offsets count from the start of the whole input; `base` is where `text`
 * starts in it. Inserted line breaks follow the text's own (`\r\n` when it has any).
 */
export function applyTextEdits(text: string, base: number, edits: readonly TextEdit[]): string {
  const crlf = text.includes('\r\n');
  // Pieces joined once: slicing the whole text per edit would copy it once per stamped workload.
  const parts: string[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.offset - b.offset)) {
    const from = edit.offset - base;
    parts.push(text.slice(at, from), crlf ? edit.insert.replace(/\n/g, '\r\n') : edit.insert);
    at = from + edit.remove;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
