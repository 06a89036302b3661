// Resolve stage helper: base64 exactly as the API server reads Secret `data` (Go's StdEncoding:
// standard alphabet, padding required, only CR and LF ignored). Buffer.from alone would accept more.

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or undefined when `text` is not strict base64 (line breaks allowed). */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}
