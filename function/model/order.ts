// Model: the one string order of the core — UTF-8 byte order, as the hash scheme and every sorted output
// require — computed on JS strings without encoding them.
//
// UTF-8 byte order is code-point order. JS `<` compares UTF-16 code units, which agrees with code-point order
// except where a surrogate (U+D800–U+DFFF, half of an astral character) meets a unit in U+E000–U+FFFF. Names,
// keys and ids are almost always below U+D800, so those take the native compare; the rest is compared code point
// by code point, a lone surrogate counting as U+FFFD (what `Buffer.from(string)` encodes it as).

const HIGH_UNITS = /[\ud800-\uffff]/;

/** Orders strings exactly as `Buffer.compare(Buffer.from(a), Buffer.from(b))` does. */
export function byteOrder(a: string, b: string): number {
  if (!HIGH_UNITS.test(a) || !HIGH_UNITS.test(b)) {
    // At the first difference at least one unit is below U+D800 (or one string is a prefix of the other); there
    // unit order and code-point order agree, also when a surrogate pair or a lone surrogate ends the common prefix.
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return codePointOrder(a, b);
}

function codePointOrder(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = scalar(a, i);
    const y = scalar(b, j);
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

/** The code point at `i`, a lone surrogate read as U+FFFD. */
function scalar(s: string, i: number): number {
  const c = s.codePointAt(i)!;
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

/** Longest list sorted by insertion; a longer one goes to Array#sort. */
const INSERTION_MAX = 12;

/**
 * Sorts `items` in place by byteOrder of `keyOf(item)` and returns them: the same order as
 * `items.sort((a, b) => byteOrder(keyOf(a), keyOf(b)))`, both sorts being stable. A short list is sorted by
 * insertion: V8's Array#sort sets up a work array of its own on every call, and the core sorts the few keys of a
 * source and the few sources of a target tens of thousands of times a run (#37).
 */
export function sortInByteOrder<T>(items: T[], keyOf: (item: T) => string): T[] {
  if (items.length > INSERTION_MAX) return items.sort((a, b) => byteOrder(keyOf(a), keyOf(b)));
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    const key = keyOf(item);
    let j = i - 1;
    // Moves only past strictly greater keys: equal ones keep their order, as a stable sort keeps it.
    while (j >= 0 && byteOrder(keyOf(items[j]!), key) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/** A string as its own sort key (sortInByteOrder over strings). */
export const itself = (text: string): string => text;
