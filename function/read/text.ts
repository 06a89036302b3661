// Read stage: bytes → text. Invalid UTF-8 is an error with its byte offset, never a silent U+FFFD
// (a replaced byte would change a value and its hash).

/** Decoded text, or the byte offset of the first invalid UTF-8 sequence. */
export type DecodedText = { ok: true; text: string } | { ok: false; offset: number };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes UTF-8 strictly.
 * - A leading BOM is dropped (it hashes like the plain form).
 * - CRLF is left to the YAML parser, which reads line breaks in scalars as LF.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, offset: firstInvalidUtf8(bytes) };
  }
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let min = 0;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) (need = 1), (min = 0x80);
    else if (b >= 0xe0 && b <= 0xef) (need = 2), (min = 0x800);
    else if (b >= 0xf0 && b <= 0xf4) (need = 3), (min = 0x10000);
    else return i;
    let cp = need === 0 ? b : b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (need > 0 && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) return i;
    i += need + 1;
  }
  return bytes.length;
}
