// Read stage, fast form (scalars): the scalars of the YAML subset read by read/subset-yaml.ts — plain ones
// resolved by the yaml library's own core-schema tags, single- and double-quoted ones that close on their line,
// literal and folded block scalars — as light ScalarNodes. Anything in doubt throws OUT (`outside()`), which
// the subset reader turns into "not in the subset". Beside them, the line helpers both walkers of the subset
// step with (lineEnd, LineCursor, isBlockDash, restOfLine, plainTextEnd). Over 300 lines: the helpers and the
// scalar readers share OUT and decide together, character by character, what both walkers accept.
import { Document, Scalar, type ScalarTag } from 'yaml';
import { PARSE_OPTIONS } from './parse-yaml.ts';
import { ScalarNode, type ScalarValue } from '../model/nodes.ts';

/** Thrown inside the subset reader when the input leaves the subset; never escapes it. */
class OutsideSubset extends Error {}
export const OUT = new OutsideSubset();
export const outside = (): never => {
  throw OUT;
};

// Plain scalars resolve exactly as the yaml library resolves them: the same schema, the same tags, in order.
const schemaDoc = new Document(null, PARSE_OPTIONS);
const PLAIN_TAGS = schemaDoc.schema.tags.filter((t): t is ScalarTag => t.default === true && !t.collection && t.test !== undefined);
const RESOLVE_OPTIONS = schemaDoc.options;

/** End of the line holding `from` (its `\n`), or `end` when that comes first. */
export function lineEnd(t: string, from: number, end: number): number {
  const i = t.indexOf('\n', from);
  return i < 0 || i > end ? end : i;
}

/**
 * The line holding content a walker of the subset stands on: where it starts, its indentation, and where its
 * content begins (`at` is -1 when there is none before the document's end). Both walkers (read/subset-yaml.ts,
 * read/skim-walker.ts) step through lines with one cursor each, so they agree on what a line is, and reading a
 * line makes no record of it (#37: a record per content line was a tenth of what reading allocated).
 */
export class LineCursor {
  start = 0;
  indent = 0;
  at = -1;
  /** With `comments` on: the first comment line the last `next` skipped, as [offset of `#`, column]. */
  comment: readonly [number, number] | undefined = undefined;

  constructor(private readonly comments: boolean) {}

  /**
   * Moves to the next line holding content at or after the line starting at `from`, skipping blank and comment
   * lines; false (and `at` -1) at `end`.
   */
  next(t: string, from: number, end: number): boolean {
    this.comment = undefined;
    let start = from;
    while (start < end) {
      let at = start;
      while (at < end && t.charCodeAt(at) === 32) at++;
      // Guarded by `end` before reading: a char code past the text's end is NaN, which deoptimizes the caller.
      const c = at < end ? t.charCodeAt(at) : 10;
      if (c === 10) {
        start = at + 1;
        continue;
      }
      if (c === 35) {
        if (this.comments && this.comment === undefined) this.comment = [at, at - start];
        start = lineEnd(t, at, end) + 1;
        continue;
      }
      this.start = start;
      this.indent = at - start;
      this.at = at;
      return true;
    }
    this.at = -1;
    return false;
  }
}

/**
 * Offset of the first `---` marker line at or after `from` in a text that passed plainSubsetText (`---` at a
 * line's start, then a space, a line break or the text's end), or -1. A search for `---`, not a multiline
 * regular expression stepping through every character (#37).
 */
export function markerLine(t: string, from: number): number {
  for (let i = lineStarting(t, '---', from); i >= 0; i = lineStarting(t, '---', i + 1)) {
    if (i + 3 >= t.length) return i;
    const c = t.charCodeAt(i + 3);
    if (c === 32 || c === 10) return i;
  }
  return -1;
}

/** Offset of the first line at or after `from` that starts with `s` (in a text whose only line break is `\n`), or -1. */
export function lineStarting(t: string, s: string, from: number): number {
  for (let i = t.indexOf(s, from); i >= 0; i = t.indexOf(s, i + 1)) if (i === 0 || t.charCodeAt(i - 1) === 10) return i;
  return -1;
}

/** `-` at `at` followed by a space or the end of its line: a block list entry. */
export function isBlockDash(t: string, at: number, end: number): boolean {
  if (t.charCodeAt(at) !== 45) return false; // char codes, not one-character strings: asked of every content line (#37)
  if (at + 1 >= end) return true; // the document's end, asked first: no char code read past it (#37)
  const next = t.charCodeAt(at + 1);
  return next === 32 || next === 10;
}

/** After a value that ended on its line at `pos`: only spaces and a comment may follow. */
export function restOfLine(t: string, pos: number, eol: number): void {
  let i = pos;
  while (i < eol && t.charCodeAt(i) === 32) i++;
  if (i < eol && !(t.charCodeAt(i) === 35 && i > pos)) outside();
}

/**
 * Where the plain text on [from, to) of one line ends: before a ` #` comment, its trailing spaces dropped. Throws
 * OUT at a `:` followed by a space or the line's end before that (`a: b: c`, `a: b:`: a key, or an error). One
 * pass over the line, not a search for each indicator (#37).
 */
export function plainTextEnd(t: string, from: number, to: number): number {
  let end = to;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === 35 && i > from && t.charCodeAt(i - 1) === 32) {
      end = i - 1;
      break;
    }
    if (c === 58 && (i + 1 === to || t.charCodeAt(i + 1) === 32)) outside();
  }
  while (t.charCodeAt(end - 1) === 32) end--;
  return end;
}

/**
 * Whether the implicit key in [at, end) may be longer than the yaml library allows (1024 characters; `max`
 * leaves room): after an empty value in a nested map or a list, yaml counts the blank lines above a key as part
 * of it, so the spaces and line breaks right above a long key count here too.
 */
export function keyTooLong(t: string, at: number, end: number, max: number): boolean {
  if (end - at <= max / 2) return false; // keys are short: look above only a long one
  let from = at;
  while (from > 0 && end - from <= max && (t.charCodeAt(from - 1) === 32 || t.charCodeAt(from - 1) === 10)) from--;
  return end - from > max;
}

/** Whether a plain scalar may start at `at` (not an indicator; `-` only before a non-space). */
export function plainStart(t: string, at: number, eol: number): boolean {
  if (at >= eol || at >= t.length) return false;
  const c = t.charCodeAt(at);
  if (c < 128 && NOT_PLAIN_START[c] === 1) return false;
  if (c === 45 || c === 58) {
    // `-` and `:` start a plain scalar only before a character that is not a space or a flow indicator
    const n = t.charCodeAt(at + 1);
    return at + 1 < eol && !(n < 128 && ENDS_FLOW_PLAIN[n] === 1);
  }
  return true;
}

/** A table by char code of the ASCII characters in `chars` (a lookup per character, not a string search: #37). */
function asciiTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}
/** Indicators no plain scalar starts with. */
const NOT_PLAIN_START = asciiTable('[]{},#&*!|>\'"%@`?');
/** After `-` or `:`: a space or a flow indicator (then they are not a plain scalar's start). */
const ENDS_FLOW_PLAIN = asciiTable(' ,[]{}');
// Only these first characters can make a plain scalar anything but a string in the core schema
// (null `~ null`, bool `true false`, numbers `+1 -1 .5 .inf 0x1`); the empty scalar is null.
const MAYBE_TYPED = asciiTable('~nNtTfF0123456789+-.');

/**
 * Plain texts already resolved to a primitive (`true`, `8080`, `team-1` recur in every manifest), so the tags'
 * tests run once per distinct text; bounded, so a stream of distinct values cannot grow it without end.
 */
const RESOLVED = new Map<string, ScalarValue>();
const MAX_RESOLVED = 4096;

/** The scalar for the plain text [at, end): resolved by the schema's tags, as the yaml library does. */
export function plainScalar(t: string, at: number, end: number): ScalarNode {
  const source = t.slice(at, end);
  if (at < end && !maybeTyped(t.charCodeAt(at), end - at)) return new ScalarNode(source, 'plain', at, end);
  const known = RESOLVED.get(source);
  if (known !== undefined) return new ScalarNode(known, 'plain', at, end);
  const value = resolvePlain(source);
  if (RESOLVED.size < MAX_RESOLVED && (value === null || typeof value !== 'object')) RESOLVED.set(source, value);
  return new ScalarNode(value, 'plain', at, end);
}

/**
 * Whether a plain text of `length` characters starting with char code `first` may be anything but a string in
 * the core schema. A letter starts only `null`, `true`, `false` in their three spellings, four or five letters
 * long: most keys and names (`name`, `namespace`, `template`) are strings by their first letter and length,
 * without a lookup (#37).
 */
function maybeTyped(first: number, length: number): boolean {
  if (first >= 128 || MAYBE_TYPED[first] !== 1) return false;
  return first < 65 || first === 126 || length === 4 || length === 5; // a digit, a sign, `.` or `~`; else a letter
}

function resolvePlain(source: string): ScalarValue {
  for (const tag of PLAIN_TAGS) {
    if (!tag.test!.test(source)) continue;
    const value = tag.resolve(source, outside, RESOLVE_OPTIONS);
    return (value instanceof Scalar ? value.value : value) as ScalarValue;
  }
  return source;
}

/** Where a quoted scalar may go on past its first line: its collection's column and the document's end. */
export interface Lines {
  parent: number;
  docEnd: number;
}

/**
 * A single- or double-quoted scalar at `at`; its `end` is past the closing quote. It closes before `eol`, or,
 * given `lines`, on a later line indented deeper than `lines.parent`, its line breaks folded as YAML folds
 * them (a break between two lines is a space, n empty lines are n breaks, spaces around a break dropped; `\`
 * before a break joins the lines).
 */
export function quoted(t: string, at: number, eol: number, lines?: Lines): ScalarNode {
  const double = t.charCodeAt(at) === 34;
  const closing = double ? 34 : 39; // the closing quote's char code
  // Runs of ordinary characters are copied as slices (one string per piece, not per character). `kept` holds
  // what came before the last escape or fold, whose spaces stay; `soft` what came after it, from this line's
  // runs, whose trailing spaces a line break drops. A break trims `soft` only, so each character is looked at
  // a bounded number of times however many lines the scalar has.
  const kept: string[] = [];
  let soft = '';
  let i = at + 1;
  const harden = (piece: string): void => {
    kept.push(soft, piece);
    soft = '';
  };
  for (;;) {
    let run = i;
    while (run < eol) {
      const ch = t.charCodeAt(run);
      if (ch === closing || (double && ch === 92)) break;
      run++;
    }
    if (run > i) soft += t.slice(i, run);
    if (run >= eol) {
      // unclosed on this line: a multi-line scalar (folded), or an error
      if (!lines) outside();
      let cut = soft.length;
      while (cut > 0 && soft.charCodeAt(cut - 1) === 32) cut--;
      soft = soft.slice(0, cut);
      const next = nextLine(t, eol, lines!);
      harden(next.empties === 0 ? ' ' : '\n'.repeat(next.empties));
      [i, eol] = [next.at, next.eol];
      continue;
    }
    i = run;
    if (t[i] === '\\') {
      const e = t[i + 1];
      const simple = e === undefined ? undefined : ESCAPES.get(e);
      if (simple !== undefined) {
        harden(simple);
        i += 2;
      } else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(t.slice(i + 2, i + 6))) {
        harden(String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16)));
        i += 6;
      } else if (lines && i + 1 === eol) {
        // an escaped line break: the lines join with nothing between them
        const next = nextLine(t, eol, lines);
        if (next.empties > 0) outside();
        harden('');
        [i, eol] = [next.at, next.eol];
      } else outside();
    } else if (!double && t[i + 1] === "'") {
      soft += "'";
      i += 2;
    } else break;
  }
  const value = kept.length === 0 ? soft : kept.join('') + soft;
  return new ScalarNode(value, double ? 'double' : 'single', at, i + 1);
}

/** A quoted scalar that closes on its line, or undefined (then it is not a key). */
export function quotedOnLine(t: string, at: number, eol: number): ScalarNode | undefined {
  try {
    return quoted(t, at, eol);
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

/** The next line holding text after the line ending at `eol` of a multi-line quoted scalar, and the empty lines before it. */
function nextLine(t: string, eol: number, lines: Lines): { at: number; eol: number; empties: number } {
  let empties = 0;
  for (let start = eol + 1; start < lines.docEnd; ) {
    const end = lineEnd(t, start, lines.docEnd);
    let col = start;
    while (col < end && t.charCodeAt(col) === 32) col++;
    if (col === end) {
      empties++;
      start = end + 1;
      continue;
    }
    if (col - start <= lines.parent) outside();
    return { at: col, eol: end, empties };
  }
  return outside();
}

/**
 * A block scalar (`|`, `>`, with `-` or `+` chomping) whose header is at `at`, in a collection in column
 * `parent`, in a document ending at `docEnd`: its lines are those indented like its first line (deeper than
 * `parent`) and the empty lines among them. A folded scalar with more-indented lines (which fold by extra
 * rules) is left to the library. Its `end` is past its last line. A block scalar with no line is empty.
 */
export function blockScalar(t: string, at: number, parent: number, docEnd: number): ScalarNode {
  const folded = t[at] === '>';
  let i = at + 1;
  const chomp = t[i] === '-' || t[i] === '+' ? t[i++] : '';
  const eol = lineEnd(t, at, docEnd);
  restOfLine(t, i, eol); // refuses `|2` (an indentation indicator) and `|-+`
  const lines: string[] = [];
  let indent = -1;
  let start = eol + 1;
  let end = start; // after the last content line
  let blanks = 0; // empty lines not yet known to be inside the scalar
  let leading = 0; // the longest line of spaces before the first content line
  while (start < docEnd) {
    const next = lineEnd(t, start, docEnd);
    let col = start;
    while (col < next && t.charCodeAt(col) === 32) col++;
    const lineIndent = col - start;
    if (col === next && !(indent >= 0 && lineIndent > indent)) {
      // An empty line (spaces up to the content's indentation are not content).
      if (indent < 0) leading = Math.max(leading, lineIndent);
      blanks++;
      start = next + 1;
      continue;
    }
    if (indent < 0) {
      if (lineIndent <= parent) break;
      if (leading > lineIndent) outside(); // more-indented leading empty lines need an indentation indicator
      indent = lineIndent;
    } else if (lineIndent < indent) break;
    if (folded && lineIndent > indent) outside();
    for (; blanks > 0; blanks--) lines.push('');
    lines.push(t.slice(start + indent, next));
    end = Math.min(next + 1, docEnd);
    start = next + 1;
  }
  if (indent < 0) return emptyBlockScalar(at, chomp, start, docEnd);
  let value = folded ? fold(lines) : lines.join('\n');
  if (chomp === '') value += '\n';
  if (chomp === '+') {
    if (t[end - 1] !== '\n' || start > docEnd) outside(); // a kept line without its line break (end of input)
    value += '\n'.repeat(blanks + 1);
    end = start;
  }
  return new ScalarNode(value, 'block', at, end);
}

/**
 * A block scalar with no content line (`key: |-` and then a line no deeper than its collection): the empty
 * string, ending where that line starts (past the empty lines before it), or at the document's end. With
 * `+` chomping its empty lines would be kept: that is left to the library.
 */
function emptyBlockScalar(at: number, chomp: string | undefined, next: number, docEnd: number): ScalarNode {
  if (chomp === '+') outside();
  return new ScalarNode('', 'block', at, Math.min(next, docEnd));
}

/** Folds the lines of a folded scalar: a single line break between two lines becomes a space, n empty lines n breaks. */
function fold(lines: readonly string[]): string {
  const out: string[] = [];
  let empties = 0;
  for (const line of lines) {
    if (line === '') {
      empties++;
      continue;
    }
    out.push(out.length > 0 && empties === 0 ? ' ' : '\n'.repeat(empties), line);
    empties = 0;
  }
  return out.join('');
}

/** Double-quoted escapes the subset reads (others, like `\x` or `\U`, go to the yaml library). */
const ESCAPES = new Map<string, string>([
  ['\\', '\\'],
  ['"', '"'],
  ['/', '/'],
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['0', '\0'],
  ['b', '\b'],
  ['f', '\f'],
  ['e', '\x1b'],
  ['a', '\x07'],
  ['v', '\v'],
  [' ', ' '],
]);
