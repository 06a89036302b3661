// Model: the one way text taken from input is made safe to print (#21, #33). Kubernetes names, namespaces,
// kinds and keys have fixed ASCII alphabets, and rollstamp's own words are ASCII but for a few symbols of its
// own (— → … ›). So every character outside printable ASCII that is not one of those symbols came from input
// and is written as `\uXXXX`, in every format and every message: controls (a line break adds a line), format
// characters (U+202E reorders what follows), lone surrogates, and letters, marks and blanks that display as
// something else or as nothing (U+034F, U+3164, U+2800, an overlay U+0336). What is shown is what the input holds.

/** Symbols rollstamp writes itself (separators, arrows, ellipses in its messages and tables). */
const OWN_SYMBOLS = '—–→…›≥×·';
const UNPRINTABLE = new RegExp(`[^\\x20-\\x7e${OWN_SYMBOLS}]`, 'gu');
// The same in JSON text, less what JSON.stringify already escapes and what JSON's own layout uses (C0).
const UNPRINTABLE_IN_JSON = new RegExp(`[^\\x00-\\x7e${OWN_SYMBOLS}]`, 'gu');
/** Outside the alphabet of Kubernetes names, namespaces, kinds, API groups and versions, and data keys. */
const OUTSIDE_NAME = /[^-._a-zA-Z0-9]/gu;
/** Longest name or data key Kubernetes allows (a DNS subdomain; a Secret or ConfigMap key). */
export const MAX_NAME_LENGTH = 253;

/** Each UTF-16 unit of `c` as `\uXXXX` (a character beyond the BMP becomes its surrogate pair). */
function escaped(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `text` with every character outside printable ASCII, but for rollstamp's own symbols, as `\uXXXX`.
 * - ASCII is kept (so are rollstamp's — – → … › ≥ × ·): a message's own words and punctuation stay readable.
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
 * the same JSON value, and nothing invisible, reordering or look-alike on a screen.
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

/**
 * A name or key as text and Markdown show it: every character outside Kubernetes' alphabet (ASCII letters,
 * digits, `-`, `.`, `_`) as `\uXXXX`, so a space, `/`, `(`, a look-alike letter or an invisible mark inside a
 * name can neither pass for another name nor for rollstamp's own separators (#33); one longer than
 * MAX_NAME_LENGTH is cut there, with `…(N characters)`. Tables that use it say why once (ESCAPED_NAME_NOTE).
 */
export function shownName(name: string): string {
  const cut = name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}` : name;
  const shown = cut.replace(OUTSIDE_NAME, escaped);
  return cut === name ? shown : `${shown}…(${name.length} characters)`;
}

/** `Kind namespace/name` (how the core labels a producer, `ExternalSecret shop/db`) with each part by `shownName`. */
export function shownLabel(label: string): string {
  const m = /^(\S+) ([^/]*)\/(.*)$/s.exec(label);
  return m ? `${shownName(m[1]!)} ${shownName(m[2]!)}/${shownName(m[3]!)}` : shownName(label);
}

/** Whether `shownName` shows `name` otherwise than it is written. */
export const isShownOtherwise = (name: string): boolean => shownName(name) !== name;

/** The line that says why, under output that showed a name by `shownName` otherwise than it is written. */
export const ESCAPED_NAME_NOTE =
  '\\uXXXX in a name or key: a character Kubernetes does not allow in names and keys, shown by its code so that the name cannot pass for another (a name longer than 253 characters is cut at …).';
