// Resolve stage helper: base64 exactly as the API server reads Secret `data` (Go's StdEncoding:
// standard alphabet, padding required, only CR and LF ignored). Buffer.from alone would accept more.
import { Slabs } from '../model/slabs.ts';

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or undefined when `text` is not strict base64 (line breaks allowed). */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/**
 * `decodeBase64Strict`, the bytes kept in a slab that many values share (model/slabs.ts): for values a run keeps,
 * such as a Secret's decoded entries between its readers (#37). Not for bytes sent to another thread.
 */
export function decodeBase64StrictKept(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return undefined;
  return KEPT.encode(compact, 'base64');
}

/** `text` as UTF-8, as TextEncoder gives it (a lone surrogate as U+FFFD), kept in a shared slab (model/slabs.ts). */
export function utf8Kept(text: string): Uint8Array {
  return KEPT.encode(text, 'utf8');
}

const KEPT = new Slabs();
