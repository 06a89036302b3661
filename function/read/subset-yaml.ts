// Read stage, fast form: a reader for the plain subset of YAML that rendered Kubernetes manifests are
// written in — block maps and lists, one-line flow collections, plain, quoted and literal scalars, comments.
// It builds the nodes the yaml library would build, without its tokenizer (most of a parse's cost), and
// answers undefined for anything outside the subset or in doubt: tabs, CR, control characters, directives,
// anchors, aliases, tags, explicit keys, multi-line plain or quoted scalars, folded or kept block scalars,
// multi-line flow collections, non-string keys, unusual indentation, and every error. The caller then reads
// the stream with the yaml library, which reports errors as usual. Accepting is a promise: the yaml library
// reads an accepted stream without errors into equal nodes (test/property/subset-yaml.test.ts holds it to that).
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node, type ScalarTag } from 'yaml';
import { PARSE_OPTIONS } from './parse-yaml.ts';
import { setLayout } from '../model/nodes.ts';

/** One document of a stream read by the subset reader. */
export interface SubsetDoc {
  /** The root map, or null for a document with no content. */
  contents: YAMLMap | null;
  /** Offset of the document's text in the stream: 0 for the first, else its `---` line. */
  offset: number;
}

/** Thrown inside the reader when the input leaves the subset; never escapes it. */
class OutsideSubset extends Error {}
const OUT = new OutsideSubset();
const outside = (): never => {
  throw OUT;
};

// Characters that send a stream to the yaml library: tab, CR, controls, C1, BOM, line/paragraph separators.
const UNUSUAL_CHAR = /[\x00-\x09\x0B-\x1F\x7F-\x9F\uFEFF\u2028\u2029]/;
// Lines the subset does not split on by itself: directives, document end markers, `---` glued to text.
const UNUSUAL_LINE = /^(?:%|\.\.\.|---[^ \n])/m;
const MARKER = /^---(?= |\n|$)/gm;
const MAX_DEPTH = 64;
const MAX_KEY = 1000; // yaml refuses implicit keys longer than 1024 characters

// Plain scalars resolve exactly as the yaml library resolves them: the same schema, the same tags, in order.
const schemaDoc = new Document(null, PARSE_OPTIONS);
const PLAIN_TAGS = schemaDoc.schema.tags.filter((t): t is ScalarTag => t.default === true && !t.collection && t.test !== undefined);
const RESOLVE_OPTIONS = schemaDoc.options;
// Only these first characters can make a plain scalar anything but a string in the core schema
// (null `~ null`, bool `true false`, numbers `+1 -1 .5 .inf 0x1`); the empty scalar is null.
const MAYBE_TYPED = /^[~nNtTfF0-9+\-.]/;

/** The documents of `text`, or undefined when any part of it is outside the subset. */
export function readSubsetStream(text: string): SubsetDoc[] | undefined {
  if (UNUSUAL_CHAR.test(text) || UNUSUAL_LINE.test(text)) return undefined;
  try {
    return new Reader(text).stream();
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

/** A content line: where it starts, its indentation, and where its first character is. */
interface Line {
  start: number;
  indent: number;
  at: number;
}

class Reader {
  /** End of the document being read (its next `---` line, or the end of the text). */
  private end = 0;
  /** First comment line seen by the last call to nextContent: [offset of `#`, column]. */
  private comment: [number, number] | undefined;

  constructor(private readonly text: string) {}

  stream(): SubsetDoc[] {
    const markers: number[] = [];
    for (const m of this.text.matchAll(MARKER)) markers.push(m.index);
    const docs: SubsetDoc[] = [];
    // Text before the first marker is a document of its own when it holds content; comments alone belong
    // to the first marked document (as the yaml library reads them).
    const first = markers[0] ?? this.text.length;
    this.end = first;
    if (this.nextContent(0)) docs.push({ contents: this.document(0), offset: 0 });
    markers.forEach((marker, i) => {
      this.end = markers[i + 1] ?? this.text.length;
      const body = this.afterMarker(marker);
      docs.push({ contents: this.document(body), offset: docs.length === 0 ? 0 : marker });
    });
    if (docs.length === 0) outside(); // comments only: the yaml library decides what that is
    return docs;
  }

  /** Start of the line after a `---` marker line (which may hold a comment, nothing else). */
  private afterMarker(marker: number): number {
    const eol = this.lineEnd(marker);
    this.restOfLine(marker + 3, eol);
    return Math.min(eol + 1, this.end);
  }

  /** The root map of the document whose content starts at or after `from`, or null when it has none. */
  private document(from: number): YAMLMap | null {
    const line = this.nextContent(from);
    if (!line) return null;
    if (this.isDash(line.at)) outside(); // a list at the root is not a Kubernetes object
    const { node, next } = this.blockMap(line.at, line.indent, 0);
    if (next) outside();
    return node;
  }

  // ---- lines ----

  private lineEnd(from: number): number {
    const i = this.text.indexOf('\n', from);
    return i < 0 || i > this.end ? this.end : i;
  }

  /**
   * The next line holding content at or after the line starting at `from`, skipping blank and comment
   * lines (the first comment line is kept in `this.comment`), or undefined at the document's end.
   */
  private nextContent(from: number): Line | undefined {
    this.comment = undefined;
    const t = this.text;
    let start = from;
    while (start < this.end) {
      let at = start;
      while (at < this.end && t.charCodeAt(at) === 32) at++;
      const c = t[at];
      if (at >= this.end || c === '\n') {
        start = at + 1;
        continue;
      }
      if (c === '#') {
        this.comment ??= [at, at - start];
        start = this.lineEnd(at) + 1;
        continue;
      }
      return { start, indent: at - start, at };
    }
    return undefined;
  }

  /** After a value that ended on its line at `pos`: only spaces and a comment may follow. */
  private restOfLine(pos: number, eol: number): void {
    const t = this.text;
    let i = pos;
    while (i < eol && t.charCodeAt(i) === 32) i++;
    if (i < eol && !(t[i] === '#' && i > pos)) outside();
  }

  /** `-` followed by a space or the end of its line: a block list entry. */
  private isDash(at: number): boolean {
    const next = this.text[at + 1];
    return this.text[at] === '-' && (next === ' ' || next === '\n' || at + 1 >= this.end);
  }

  // ---- block collections ----

  /** A block map whose first key starts at `at`, in column `indent`. */
  private blockMap(at: number, indent: number, depth: number): { node: YAMLMap; next: Line | undefined } {
    if (depth > MAX_DEPTH) outside();
    const map = new YAMLMap();
    let comments: Map<number, [number, number]> | undefined;
    const seen = new Set<string>();
    let keyAt = at;
    for (;;) {
      const key = this.implicitKey(keyAt);
      if (!key) outside();
      const name = key!.node.value as string;
      if (seen.has(name)) outside(); // duplicate key: an error the yaml library reports
      seen.add(name);
      const value = this.value(key!.after, indent, depth, true);
      if (value.comment) (comments ??= new Map()).set(map.items.length, value.comment);
      map.items.push(new Pair(key!.node, value.node));
      const next = value.next;
      if (!next || next.indent < indent) {
        map.range = [at, this.rangeEnd(value.node), this.rangeEnd(value.node)];
        setLayout(map, comments ? { indent, comments } : { indent });
        return { node: map, next };
      }
      if (next.indent > indent || this.isDash(next.at)) outside();
      keyAt = next.at;
    }
  }

  /** A block list whose first `-` is at `at`, in column `indent`. */
  private blockSeq(at: number, indent: number, depth: number): { node: YAMLSeq; next: Line | undefined } {
    if (depth > MAX_DEPTH) outside();
    const seq = new YAMLSeq();
    let dash = at;
    for (;;) {
      const value = this.value(dash + 1, indent, depth, false);
      seq.items.push(value.node);
      const next = value.next;
      if (!next || next.indent < indent || (next.indent === indent && !this.isDash(next.at))) {
        seq.range = [at, this.rangeEnd(value.node), this.rangeEnd(value.node)];
        return { node: seq, next };
      }
      if (next.indent > indent) outside();
      dash = next.at;
    }
  }

  private rangeEnd(node: unknown): number {
    return (node as { range?: number[] }).range?.[1] ?? 0;
  }

  /**
   * The value after `key:` or `-` (`pos` is just past the indicator) of a collection in column `indent`, and
   * the next content line after it. `comment`: the first comment line between an empty `key:` line and a
   * value on the lines below (text edits insert above it).
   */
  private value(pos: number, indent: number, depth: number, inMap: boolean): { node: Node; next: Line | undefined; comment?: [number, number] } {
    const t = this.text;
    const eol = this.lineEnd(pos);
    let at = pos;
    while (at < eol && t.charCodeAt(at) === 32) at++;
    const c = at < eol ? t[at]! : '\n';
    if (c === '\n' || c === '#') {
      const next = this.nextContent(eol + 1);
      const comment = this.comment;
      const below = next && (next.indent > indent || (inMap && next.indent === indent && this.isDash(next.at)));
      if (!below) return { node: this.plainScalar(at, at), next }; // an empty value: null
      const { node, next: after } = this.isDash(next.at) ? this.blockSeq(next.at, next.indent, depth + 1) : this.blockMap(next.at, next.indent, depth + 1);
      return { node, next: after, ...(comment ? { comment } : {}) };
    }
    if (!inMap && this.implicitKey(at)) {
      // `- key: value`: a map that starts on the entry's line, in the column of its first key
      return this.blockMap(at, at - this.lineStart(at), depth + 1);
    }
    let node: Node;
    let end: number;
    if (c === '|' || c === '>') {
      const block = this.blockScalar(at, indent);
      const next = this.nextContent(block.end);
      if (next && next.indent > indent) outside();
      return { node: block.node, next };
    } else if (c === '"' || c === "'") {
      ({ node, end } = this.quoted(at, eol));
    } else if (c === '[' || c === '{') {
      ({ node, end } = this.flow(at, eol, depth + 1));
    } else {
      ({ node, end } = this.plain(at, eol));
    }
    this.restOfLine(end, eol);
    const next = this.nextContent(eol + 1);
    if (next && next.indent > indent) outside(); // a continuation line (or an error)
    return { node, next };
  }

  private lineStart(at: number): number {
    return this.text.lastIndexOf('\n', at - 1) + 1;
  }

  /** `key:` at `at` on one line (plain or quoted key, then `:` and a space or the line's end), or undefined. */
  private implicitKey(at: number): { node: Scalar; after: number } | undefined {
    const t = this.text;
    const eol = this.lineEnd(at);
    const c = t[at]!;
    let node: Scalar;
    let end: number;
    if (c === '"' || c === "'") {
      ({ node, end } = this.quoted(at, eol));
    } else {
      if (!this.plainStart(at, eol)) return undefined;
      end = -1;
      for (let i = this.indexOnLine(':', at, eol); i >= 0; i = this.indexOnLine(':', i + 1, eol)) {
        if (i + 1 === eol || t.charCodeAt(i + 1) === 32) {
          end = i;
          break;
        }
      }
      if (end < 0) return undefined;
      if (t.slice(at, end).includes(' #')) return undefined;
      while (t.charCodeAt(end - 1) === 32) end--;
      node = this.plainScalar(at, end);
    }
    if (t[end] !== ':' || !(end + 1 === eol || t.charCodeAt(end + 1) === 32)) return undefined;
    if (typeof node.value !== 'string' || end - at > MAX_KEY) outside();
    return { node, after: end + 1 };
  }

  // ---- scalars ----

  /** Whether a plain scalar may start at `at` (not an indicator; `-` only before a non-space). */
  private plainStart(at: number, eol: number): boolean {
    const c = this.text[at];
    if (c === undefined || at >= eol) return false;
    if ('[]{},#&*!|>\'"%@`?:'.includes(c)) return false;
    if (c === '-') {
      // `-` starts a plain scalar only before a character that is not a space or a flow indicator
      const n = this.text[at + 1]!;
      return at + 1 < eol && !' ,[]{}'.includes(n);
    }
    return true;
  }

  /** A plain scalar in block context: to the end of the line or a ` #` comment. */
  private plain(at: number, eol: number): { node: Scalar; end: number } {
    const t = this.text;
    if (!this.plainStart(at, eol)) outside();
    const hash = this.indexOnLine(' #', at, eol);
    let end = hash >= 0 ? hash : eol;
    while (t.charCodeAt(end - 1) === 32) end--;
    for (let i = this.indexOnLine(':', at, end); i >= 0; i = this.indexOnLine(':', i + 1, end)) {
      if (i + 1 === end || t.charCodeAt(i + 1) === 32) outside(); // `a: b: c`, `a: b:`
    }
    return { node: this.plainScalar(at, end), end };
  }

  /** The scalar for the plain text [at, end): resolved by the schema's tags, as the yaml library does. */
  private plainScalar(at: number, end: number): Scalar {
    const source = this.text.slice(at, end);
    let scalar: Scalar | undefined;
    if (source === '' || MAYBE_TYPED.test(source)) {
      for (const tag of PLAIN_TAGS) {
        if (!tag.test!.test(source)) continue;
        const value = tag.resolve(source, outside, RESOLVE_OPTIONS);
        scalar = value instanceof Scalar ? value : new Scalar(value);
        if (tag.format) scalar.format = tag.format;
        break;
      }
    }
    scalar ??= new Scalar(source);
    scalar.range = [at, end, end];
    scalar.source = source;
    scalar.type = Scalar.PLAIN;
    return scalar;
  }

  /** A single- or double-quoted scalar that closes on its own line. */
  private quoted(at: number, eol: number): { node: Scalar; end: number } {
    const t = this.text;
    const double = t[at] === '"';
    const quote = double ? '"' : "'";
    // Runs of ordinary characters are copied as slices (one string per piece, not per character).
    const pieces: string[] = [];
    let i = at + 1;
    for (;;) {
      let run = i;
      while (run < eol && t[run] !== quote && !(double && t[run] === '\\')) run++;
      if (run >= eol) outside(); // unclosed on this line: a multi-line scalar, or an error
      if (run > i) pieces.push(t.slice(i, run));
      i = run;
      if (t[i] === '\\') {
        const e = t[i + 1];
        const simple = e === undefined ? undefined : ESCAPES.get(e);
        if (simple !== undefined) {
          pieces.push(simple);
          i += 2;
        } else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(t.slice(i + 2, i + 6))) {
          pieces.push(String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16)));
          i += 6;
        } else outside();
      } else if (!double && t[i + 1] === "'") {
        pieces.push("'");
        i += 2;
      } else break;
    }
    const value = pieces.join('');
    const scalar = new Scalar(value);
    scalar.range = [at, i + 1, i + 1];
    scalar.source = value;
    scalar.type = double ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
    return { node: scalar, end: i + 1 };
  }

  /**
   * A block scalar (`|`, `>`, with `-` or `+` chomping) whose header is at `at`, in a collection in column
   * `parent`: its lines are those indented like its first line (deeper than `parent`) and the empty lines
   * among them. A folded scalar with more-indented lines (which fold by extra rules) is left to the library.
   */
  private blockScalar(at: number, parent: number): { node: Scalar; end: number } {
    const t = this.text;
    const folded = t[at] === '>';
    let i = at + 1;
    const chomp = t[i] === '-' || t[i] === '+' ? t[i++] : '';
    const eol = this.lineEnd(at);
    this.restOfLine(i, eol); // refuses `|2` (an indentation indicator) and `|-+`
    const lines: string[] = [];
    let indent = -1;
    let start = eol + 1;
    let end = start; // after the last content line
    let blanks = 0; // empty lines not yet known to be inside the scalar
    let leading = 0; // the longest line of spaces before the first content line
    while (start < this.end) {
      const lineEnd = this.lineEnd(start);
      let col = start;
      while (col < lineEnd && t.charCodeAt(col) === 32) col++;
      const lineIndent = col - start;
      if (col === lineEnd && !(indent >= 0 && lineIndent > indent)) {
        // An empty line (spaces up to the content's indentation are not content).
        if (indent < 0) leading = Math.max(leading, lineIndent);
        blanks++;
        start = lineEnd + 1;
        continue;
      }
      if (indent < 0) {
        if (lineIndent <= parent) break;
        if (leading > lineIndent) outside(); // more-indented leading empty lines need an indentation indicator
        indent = lineIndent;
      } else if (lineIndent < indent) break;
      if (folded && lineIndent > indent) outside();
      for (; blanks > 0; blanks--) lines.push('');
      lines.push(t.slice(start + indent, lineEnd));
      end = Math.min(lineEnd + 1, this.end);
      start = lineEnd + 1;
    }
    if (indent < 0) outside(); // an empty block scalar
    let value = folded ? fold(lines) : lines.join('\n');
    if (chomp === '') value += '\n';
    if (chomp === '+') {
      if (t[end - 1] !== '\n' || start > this.end) outside(); // a kept line without its line break (end of input)
      value += '\n'.repeat(blanks + 1);
      end = start;
    }
    const scalar = new Scalar(value);
    scalar.range = [at, end, end];
    scalar.source = value;
    scalar.type = folded ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL;
    return { node: scalar, end };
  }

  // ---- flow collections (on one line) ----

  private flow(at: number, eol: number, depth: number): { node: YAMLMap | YAMLSeq; end: number } {
    if (depth > MAX_DEPTH) outside();
    const t = this.text;
    const isMap = t[at] === '{';
    const close = isMap ? '}' : ']';
    const node = isMap ? new YAMLMap() : new YAMLSeq();
    node.flow = true;
    const seen = new Set<string>();
    let i = this.skipSpaces(at + 1, eol);
    if (t[i] === close) i++;
    else {
      for (;;) {
        let item: Node;
        ({ node: item, end: i } = this.flowItem(i, eol, depth));
        i = this.skipSpaces(i, eol);
        if (isMap) {
          const key = item instanceof Scalar ? item.value : undefined;
          if (typeof key !== 'string' || t[i] !== ':' || t[i + 1] !== ' ' || seen.has(key)) outside();
          seen.add(key as string);
          let value: Node;
          ({ node: value, end: i } = this.flowItem(this.skipSpaces(i + 1, eol), eol, depth));
          (node as YAMLMap).items.push(new Pair(item, value));
          i = this.skipSpaces(i, eol);
        } else {
          if (t[i] === ':') outside(); // `[a: b]`: a pair in a list
          (node as YAMLSeq).items.push(item);
        }
        if (t[i] === close) {
          i++;
          break;
        }
        if (t[i] !== ',') outside();
        i = this.skipSpaces(i + 1, eol);
        if (t[i] === close) outside(); // a trailing comma
      }
    }
    node.range = [at, i, i];
    if (isMap) setLayout(node as YAMLMap, { flowOpen: at });
    return { node, end: i };
  }

  private flowItem(at: number, eol: number, depth: number): { node: Node; end: number } {
    const c = this.text[at];
    if (at >= eol) outside();
    if (c === '[' || c === '{') return this.flow(at, eol, depth + 1);
    if (c === '"' || c === "'") return this.quoted(at, eol);
    if (!this.plainStart(at, eol)) outside();
    // A plain scalar in a flow collection ends at a flow indicator, `: `, ` #` or the line's end.
    const t = this.text;
    let end = at;
    while (end < eol) {
      const ch = t[end]!;
      if (ch === ',' || ch === ']' || ch === '}') break;
      if (ch === '[' || ch === '{') outside();
      if (ch === ':' && (end + 1 >= eol || ' ,]}[{'.includes(t[end + 1]!))) break;
      if (ch === '#' && t[end - 1] === ' ') outside();
      end++;
    }
    if (end >= eol) outside(); // the collection continues on the next line
    let valueEnd = end;
    while (t.charCodeAt(valueEnd - 1) === 32) valueEnd--;
    return { node: this.plainScalar(at, valueEnd), end: valueEnd };
  }

  /** Index of `s` in [from, to) of the text, or -1 (never searches past the line). */
  private indexOnLine(s: string, from: number, to: number): number {
    const i = from < to ? this.text.slice(from, to).indexOf(s) : -1;
    return i < 0 ? -1 : from + i;
  }

  private skipSpaces(i: number, eol: number): number {
    while (i < eol && this.text.charCodeAt(i) === 32) i++;
    return i;
  }
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
