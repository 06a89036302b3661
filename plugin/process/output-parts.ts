// Process edge: a run's standard output encoded into parts of a fixed size, for the worker thread, which hands each
// part to main.ts to be written (plugin/run-worker.ts). Encoded a part at a time into one buffer that comes back
// once written: the whole output encoded at once was a second copy of it at the run's peak (25 MiB at 50k objects,
// #37). The pieces are cut where the text's structure is (between documents, around a stamp's insert), never
// inside a character, and never joined.
import type { OutputText } from './io.ts';

const utf8 = new TextEncoder();

/** Bytes of output encoded and handed on at a time (encodeInto never splits a character). */
export const OUTPUT_PART = 4 * 1024 * 1024;

/**
 * Hands a part on: `bytes` is a view of `buffer`'s first bytes; `more`, further parts follow. Resolves with the
 * buffer to fill next (the same one back, once written), or undefined for a new one.
 */
export type HandPart = (bytes: Uint8Array, buffer: ArrayBuffer, more: boolean) => Promise<ArrayBuffer | undefined>;

/**
 * Encodes `text` and hands it on in parts of at most `size` bytes, the last with `more` false.
 * - Every piece is made before the first part is handed on: an output made while it is written (explain's JSON,
 *   a generator) that throws or runs out of heap partway would otherwise leave the parts before it written, where a
 *   failed run must write nothing (DESIGN: fail closed). A string or an array is already made.
 */
export async function handInParts(text: OutputText, hand: HandPart, size = OUTPUT_PART): Promise<void> {
  if (size < 4) throw new RangeError('a part holds at least one character (4 bytes)');
  const pieces = typeof text === 'string' ? [text] : Array.isArray(text) ? (text as readonly string[]) : Array.from(text);
  let buffer = new ArrayBuffer(size);
  let filled = 0;
  const handOn = async (more: boolean): Promise<void> => {
    buffer = (await hand(new Uint8Array(buffer, 0, filled), buffer, more)) ?? new ArrayBuffer(size);
    filled = 0;
  };
  for (const whole of pieces) {
    let piece = whole;
    for (;;) {
      const { read, written } = utf8.encodeInto(piece, new Uint8Array(buffer, filled));
      filled += written;
      if (read === piece.length) break;
      piece = piece.slice(read);
      await handOn(true);
    }
  }
  await handOn(false);
}
