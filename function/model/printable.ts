// Model: the one way text taken from input is made safe to print (#21). Names and keys rollstamp accepts may
// hold control characters (a line break adds a line), format characters (U+202E right-to-left override
// reorders what follows; U+200B hides in a name), lone surrogates and the Unicode line separators: each is
// written as `\uXXXX`, in every format and every message, so what is shown is what the input holds.

// Cc: C0, DEL, C1 (a terminal reads U+009B as CSI); Cf: format characters; Cs: lone surrogate halves (a
// well-formed pair is one code point and never matches); Zl, Zp: U+2028, U+2029.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
// The same in JSON text, less what JSON.stringify already escapes and what JSON's own layout uses (C0).
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** Each UTF-16 unit of `c` as `\uXXXX` (a format character beyond the BMP becomes its surrogate pair). */
function escaped(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `text` with every control, format and separator character, and every lone surrogate, as `\uXXXX`.
 * - Everything else (letters of any script, emoji, spaces) is kept as it is.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

/** Whether `text` holds a character `printable` would escape. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/**
 * JSON text (from JSON.stringify) with the characters `printable` escapes written as JSON `\uXXXX` escapes:
 * the same JSON value, and nothing invisible or reordering on a screen. Outside strings JSON has none of them.
 */
export function printableJson(json: string): string {
  return json.replace(UNPRINTABLE_IN_JSON, escaped);
}

/** A plain value with `printable` applied to every string in it (keys too): for reports printed as YAML. */
export function printableData<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableData) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [printable(k), printableData(v)])) as T;
  }
  return value;
}
