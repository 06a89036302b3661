// Read stage, fast form: a reader for the plain subset of YAML that rendered Kubernetes manifests are
// written in — block maps and lists, one-line flow collections, plain, quoted and literal scalars (also wrapped
// over lines, read/subset-folded.ts, or on the line below their key), comments. It builds the light nodes of
// model/nodes.ts directly, without the yaml library's tokenizer (most of a parse's cost), and answers undefined
// for anything outside the subset or in doubt: tabs, CR, control characters, directives, anchors, aliases,
// tags, merge keys (`<<`), explicit keys, continuation lines in doubt, multi-line flow collections, non-string
// keys, unusual indentation, nesting deeper than MAX_DEPTH, and every error (keys: read/subset-keys.ts, flow
// collections: read/subset-flow.ts). The caller then reads the stream with the yaml library
// (read/from-yaml.ts), which reports errors as usual. Accepting is a promise: the yaml library reads an accepted
// stream without errors into equal nodes (test/property/subset-yaml.test.ts holds it to that), and a document
// read here holds nothing model/safety.ts would refuse. A part of a document (a top-level key, or one entry of
// a top-level list) can also be read alone, its offsets still those of the whole text
// (read/resource-list-items.ts).
import { MapNode, PairNode, SeqNode, type Node, type ScalarNode } from '../model/nodes.ts';
import { MAX_DEPTH } from '../model/target.ts';
import { blockScalar, isBlockDash, lineEnd, LineCursor, lineStarting, markerLine, OUT, outside, plainScalar, quoted, restOfLine } from './subset-scalars.ts';
import { foldedPlain, plainValue } from './subset-folded.ts';
import { Building, readKey } from './subset-keys.ts';
import { readFlow } from './subset-flow.ts';
import { keepLayout } from './layouts.ts';

/** One document of a stream read by the subset reader. */
export interface SubsetDoc {
  /** The root map, or null for a document with no content. */
  contents: MapNode | null;
  /** Offset of the document's text in the stream: 0 for the first, else its `---` line. */
  offset: number;
}

// Characters that send a stream to the yaml library: tab, CR, controls, C1, BOM, line/paragraph separators.
const UNUSUAL_CHAR = /[\x00-\x09\x0B-\x1F\x7F-\x9F\uFEFF\u2028\u2029]/;

/**
 * The documents of `text`, or undefined when any part of it is outside the subset. `checked`: the caller found
 * plainSubsetText true of a text holding this one, so it is not searched again. Default: false.
 */
export function readSubsetStream(text: string, checked = false): SubsetDoc[] | undefined {
  if (!checked && !plainSubsetText(text)) return undefined;
  try {
    return new Reader(text).stream();
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

/**
 * Every markerLine at or after `from`, in order, pushed to `into` (returned): the stream splitter's and the
 * subset reader's one walk over a text's `---` lines.
 */
export function markerLines(t: string, from: number, into: number[]): number[] {
  for (let m = markerLine(t, from); m >= 0; m = markerLine(t, m + 3)) into.push(m);
  return into;
}

/** Whether `text` holds nothing that sends a stream to the yaml library by itself (checked once per text). */
export function plainSubsetText(text: string): boolean {
  return !UNUSUAL_CHAR.test(text) && !unusualLine(text);
}

/**
 * Whether a line the subset does not split on by itself starts in `text` (which holds no line break but `\n`):
 * a directive, a document end marker, `---` glued to text. Searches for each, not a multiline regular
 * expression stepping through every character (#37).
 */
function unusualLine(t: string): boolean {
  if (lineStarting(t, '%', 0) >= 0 || lineStarting(t, '...', 0) >= 0) return true;
  for (let i = lineStarting(t, '---', 0); i >= 0; i = lineStarting(t, '---', i + 1)) {
    const c = i + 3 < t.length ? t.charCodeAt(i + 3) : 32;
    if (c !== 32 && c !== 10) return true;
  }
  return false;
}

/**
 * One part of a document whose root map is in column 0, read alone from [from, to) of `text` (a text that
 * passed plainSubsetText); node offsets are those of `text`. `entry` undefined: a top-level `key: value` at
 * `from`. `entry` a column: one entry of a top-level key's block list, its `-` at `from` in that column. The
 * part must end at `to`; undefined when it is outside the subset.
 */
export function readSubsetPart(text: string, from: number, to: number, entry?: number): { key?: ScalarNode; value: Node } | undefined {
  try {
    return new Reader(text).part(from, to, entry);
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

class Reader {
  /** End of the document being read (its next `---` line, or the end of the text). */
  private end = 0;
  /**
   * The next content line after what was read last: each reader of a value leaves it on the line after the value
   * (no record per line or per value, #37). Its `comment`: the first comment line skipped to reach it.
   */
  private readonly line = new LineCursor(true);
  /**
   * What `value` read last was a block collection below its `key:` line, and this is the first comment line
   * between them (text edits insert above it); undefined otherwise.
   */
  private comment: readonly [number, number] | undefined = undefined;
  /** The pairs and entries of the collections being read. */
  private readonly building = new Building();
  /** implicitKey's last answer: for the key at `keyAt` while the document ended at `keyEnd`. */
  private key: ScalarNode | undefined;
  private keyAt = -1;
  private keyEnd = -1;
  /** lineEnd's last search: from `breakFrom`, the first line break (or the text's end) is at `breakAt`. */
  private breakFrom = 0;
  private breakAt = -1;

  constructor(private readonly text: string) {}

  stream(): SubsetDoc[] {
    const markers = markerLines(this.text, 0, []);
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

  part(from: number, to: number, entry: number | undefined): { key?: ScalarNode; value: Node } {
    this.end = to;
    // Depths and columns as when the whole document is read: the root map is depth 0 in column 0.
    const key = entry === undefined ? this.implicitKey(from) : undefined;
    if (entry === undefined && !key) outside();
    const value = key ? this.value(key.end + 1, 0, 0, true) : this.value(from + 1, entry!, 1, false);
    if (this.line.at >= 0) outside();
    return { ...(key ? { key } : {}), value };
  }

  /** Start of the line after a `---` marker line (which may hold a comment, nothing else). */
  private afterMarker(marker: number): number {
    const eol = this.lineEnd(marker);
    restOfLine(this.text, marker + 3, eol);
    return Math.min(eol + 1, this.end);
  }

  /** The root map of the document whose content starts at or after `from`, or null when it has none. */
  private document(from: number): MapNode | null {
    if (!this.nextContent(from)) return null;
    const { at, indent } = this.line;
    if (this.isDash(at)) outside(); // a list at the root is not a Kubernetes object
    const node = this.blockMap(at, indent, 0);
    if (this.line.at >= 0) outside();
    return node;
  }

  // ---- lines ----

  private lineEnd(from: number): number {
    // Asked three or four times of most lines (a key, its value, what follows it): the line break found last
    // answers every offset up to it (#37).
    if (from < this.breakFrom || from > this.breakAt) {
      this.breakFrom = from;
      this.breakAt = lineEnd(this.text, from, this.text.length);
    }
    return this.breakAt > this.end ? this.end : this.breakAt;
  }

  /**
   * Moves `line` to the next line holding content at or after the line starting at `from`, skipping blank and
   * comment lines (the first comment line is kept in `line.comment`); false at the document's end.
   */
  private nextContent(from: number): boolean {
    return this.line.next(this.text, from, this.end);
  }

  /** `-` followed by a space or the end of its line: a block list entry. */
  private isDash(at: number): boolean {
    return isBlockDash(this.text, at, this.end);
  }

  // ---- block collections ----
  // Each reads its collection and leaves `line` on the next content line after it (`at` -1: the document's end).

  /**
   * A block map whose first key starts at `at`, in column `indent`. `depth` counts collections from the
   * document's root (0) as model/safety.ts does; a collection at MAX_DEPTH would hold values deeper than it allows.
   */
  private blockMap(at: number, indent: number, depth: number): MapNode {
    if (depth >= MAX_DEPTH) outside();
    const map = new MapNode(false, at, indent, -1);
    const building = this.building;
    const from = building.pairMark();
    const line = this.line;
    let keyAt = at;
    for (;;) {
      const key = this.implicitKey(keyAt);
      if (!key) outside();
      if (building.hasKey(from, map, key!.value as string)) outside(); // duplicate key: an error the yaml library reports
      const value = this.value(key!.end + 1, indent, depth, true);
      if (this.comment) (map.comments ??= new Map()).set(building.pairMark() - from, this.comment);
      building.addPair(new PairNode(key!, value));
      if (line.at < 0 || line.indent < indent) {
        map.items = building.takePairs(from);
        map.end = value.end;
        return map;
      }
      if (line.indent > indent || this.isDash(line.at)) outside();
      keyAt = line.at;
    }
  }

  /** A block list whose first `-` is at `at`, in column `indent`. */
  private blockSeq(at: number, indent: number, depth: number): SeqNode {
    if (depth >= MAX_DEPTH) outside();
    const seq = new SeqNode(false, at);
    const building = this.building;
    const from = building.entryMark();
    const line = this.line;
    let dash = at;
    for (;;) {
      const value = this.value(dash + 1, indent, depth, false);
      building.addEntry(value);
      if (line.at < 0 || line.indent < indent || (line.indent === indent && !this.isDash(line.at))) {
        seq.items = building.takeEntries(from);
        seq.end = value.end;
        return seq;
      }
      if (line.indent > indent) outside();
      dash = line.at;
    }
  }

  /**
   * The value after `key:` or `-` (`pos` is just past the indicator) of a collection in column `indent`; `line`
   * is left on the next content line after it. `comment` is set to the first comment line between an empty
   * `key:` line and a block collection on the lines below (text edits insert above it), else cleared.
   */
  private value(pos: number, indent: number, depth: number, inMap: boolean): MapNode | SeqNode | ScalarNode {
    const t = this.text;
    const eol = this.lineEnd(pos);
    let at = pos;
    while (at < eol && t.charCodeAt(at) === 32) at++;
    const c = at < eol ? t.charCodeAt(at) : 10;
    if (c === 10 || c === 35) {
      const line = this.line;
      const found = this.nextContent(eol + 1);
      const comment = line.comment;
      const below = found && (line.indent > indent || (inMap && line.indent === indent && this.isDash(line.at)));
      if (!below) {
        this.comment = undefined;
        return plainScalar(t, at, at); // an empty value: null
      }
      const next = line.at;
      if (!this.isDash(next) && !this.implicitKey(next)) {
        // A scalar or flow collection on the line below its key or `-` (`ports:` then `{}`, `|-`)
        if (comment) outside();
        this.comment = undefined;
        return this.inline(next, indent, depth);
      }
      const node = this.isDash(next) ? this.blockSeq(next, line.indent, depth + 1) : this.blockMap(next, line.indent, depth + 1);
      this.comment = comment;
      return node;
    }
    if (!inMap && this.implicitKey(at)) {
      // `- key: value`: a map that starts on the entry's line, in the column of its first key
      const node = this.blockMap(at, at - this.lineStart(at), depth + 1);
      this.comment = undefined;
      return node;
    }
    this.comment = undefined;
    return this.inline(at, indent, depth);
  }

  /** A scalar or flow collection starting at `at`, the value of a collection in column `indent`; `line` is left after it. */
  private inline(at: number, indent: number, depth: number): MapNode | SeqNode | ScalarNode {
    const t = this.text;
    const c = t.charCodeAt(at);
    let eol = this.lineEnd(at);
    let node: MapNode | SeqNode | ScalarNode;
    if (c === 124 || c === 62) {
      node = blockScalar(t, at, indent, this.end);
      if (this.nextContent(node.end) && this.line.indent > indent) outside();
      return node;
    } else if (c === 34 || c === 39) {
      node = quoted(t, at, eol, { parent: indent, docEnd: this.end });
      eol = this.lineEnd(node.end);
    } else if (c === 91 || c === 123) {
      node = readFlow(t, at, eol, depth + 1, this.building);
    } else {
      node = plainValue(t, at, eol);
      // Only a line below, past blank and comment lines, indented deeper than the collection may continue a plain
      // value: found with the next content line, which is sought anyway, not looked at twice (#37).
      if (!this.nextContent(eol + 1) || this.line.indent <= indent) {
        restOfLine(t, node.end, eol);
        return node;
      }
      node = foldedPlain(t, node, indent, this.end);
      eol = this.lineEnd(node.end);
    }
    restOfLine(t, node.end, eol);
    if (this.nextContent(eol + 1) && this.line.indent > indent) outside(); // a continuation line (or an error)
    return node;
  }

  private lineStart(at: number): number {
    return this.text.lastIndexOf('\n', at - 1) + 1;
  }

  /** `key:` at `at` on one line (plain or quoted key, then `:` and a space or the line's end), or undefined. */
  private implicitKey(at: number): ScalarNode | undefined {
    // Asked twice of most keys (a value's reader asks whether its next line is one; the map then reads it).
    if (at !== this.keyAt || this.end !== this.keyEnd) {
      this.key = readKey(this.text, at, this.lineEnd(at));
      this.keyAt = at;
      this.keyEnd = this.end;
    }
    return this.key;
  }
}
keepLayout(new Reader(''));
// A tree of every node class the reader builds, and every kind of scalar value, made as the reader makes them and
// kept: the optimized code of the reader and of the stages reading its trees stays valid across a full
// collection that comes between two documents, when no other tree is alive (read/layouts.ts).
keepLayout(readSubsetStream('a: 1\nb: x\nc: [1, {d: null}]\ne:\n  # c\n  - f: true\n    g: |\n      h\n  - "i"\n')!);
