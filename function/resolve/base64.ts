// Resolve stage helper: base64 exactly as the API server reads Secret `data` (Go's StdEncoding:
// standard alphabet, padding required, only CR and LF ignored). Buffer.from alone would accept more.

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or undefined when `text` is not strict base64 (line breaks allowed). */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/**
 * `decodeBase64Strict`, the bytes kept in a slab that many values share (keptBytes): for values a run keeps,
 * such as a Secret's decoded entries between its readers (#37). Not for bytes sent to another thread, which
 * would copy the whole slab with each value.
 */
export function decodeBase64StrictKept(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return undefined;
  return keptBytes(compact, 'base64');
}

/** `text` as UTF-8, as TextEncoder gives it (a lone surrogate as U+FFFD), kept in a shared slab (keptBytes). */
export function utf8Kept(text: string): Uint8Array {
  return keptBytes(text, 'utf8');
}

/** Slabs of 64 KiB; a value over a sixteenth of one gets a buffer of its own, so no large value pins a slab's rest. */
const SLAB_BYTES = 64 * 1024;
let slab = Buffer.alloc(0);
let slabAt = 0;

/**
 * `text` decoded into the current slab, as a view of its bytes: one typed array a value, where a copy of its own
 * was a typed array, an array buffer and its bytes, each for the collector to copy and promote (#37).
 */
function keptBytes(text: string, encoding: 'base64' | 'utf8'): Uint8Array {
  const length = Buffer.byteLength(text, encoding);
  if (length > SLAB_BYTES / 16) return new Uint8Array(Buffer.from(text, encoding));
  if (slabAt + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabAt = 0;
  }
  const written = slab.write(text, slabAt, length, encoding);
  const bytes = new Uint8Array(slab.buffer, slab.byteOffset + slabAt, written);
  slabAt += written;
  return bytes;
}
