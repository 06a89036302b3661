// Read stage, skim form: the walker both skims share (read/scan-identity.ts, read/scan-source.ts). It steps
// through one document as the subset reader does (read/subset-yaml.ts), with the same scalar and flow helpers,
// builds no block map, list or pair, and keeps only what the roles it is given ask for. Anything the subset
// reader would not read throws OUT, as in that reader.
import { blockScalar, isBlockDash, lineEnd, LineCursor, markerLine, outside, plainScalar, quoted, restOfLine } from './subset-scalars.ts';
import { Building, readKey } from './subset-keys.ts';
import { foldedPlain, plainValue } from './subset-folded.ts';
import { readFlow } from './subset-flow.ts';
import { keepLayout } from './layouts.ts';
import { MAX_DEPTH } from '../model/target.ts';
import type { MapNode, ScalarNode, SeqNode } from '../model/nodes.ts';

/** What a role keeps of a value: the scalar, `map` for a block map, the flow collection, `other` for a block list. */
export type Fact = ScalarNode | MapNode | SeqNode | 'map' | 'other';

/** Where a block map's value starts and the map it is in: enough to read that value again (Walker.valueAt). */
export interface ValueSite {
  /** Just past the key's `:`. */
  pos: number;
  /** The map's column. */
  indent: number;
  /** The map's depth (the document's root map is 0). */
  depth: number;
}

/**
 * How a block map is read: what its reader is given of each pair, and the role a block map below some keys is
 * read with. Roles are made once, not per document; what a walk keeps goes into the sink it was started with
 * (#37: roles made for each document, each with Maps of its own, were most of what skimming one allocated).
 */
export interface Role<S> {
  /** The role a block map below one of these keys is read with. */
  under?: ReadonlyMap<string, Role<S>>;
  /**
   * Given every pair of the map as it is read: its key, its value's fact, where the value is (a ValueSite's
   * fields, as numbers: no object per pair), and the walk's sink.
   */
  pair(key: string, fact: Fact, pos: number, indent: number, depth: number, sink: S): void;
}

/** Keys of a map past which a Set finds a duplicate faster than a scan. */
const FEW_KEYS = 32;

/**
 * Walks one document's text (one document as read/stream-documents.ts cuts it: at most one `---` line, with only
 * blank and comment lines above it), for a caller that has checked plainSubsetText and catches OUT.
 */
export class Walker<S = undefined> {
  private end: number;
  /** lineEnd's last search: from `breakFrom`, the first line break (or the text's end) is at `breakAt`. */
  private breakFrom = 0;
  private breakAt = -1;
  /** The next content line after what was read last: each reader of a value leaves it there (#37). */
  private readonly line = new LineCursor(false);
  /** The pairs and entries of the flow collections being read. */
  private readonly building = new Building();

  /** `sink`: what the roles a walk is given keep what they read in. */
  constructor(
    private readonly text: string,
    private readonly sink: S,
  ) {
    this.end = text.length;
  }

  /** Reads the document's root block map with `root`; throws OUT unless the text is exactly that one document. */
  document(root: Role<S>): void {
    const t = this.text;
    // At most one marker line.
    const marker = markerLine(t, 0);
    if (marker >= 0 && markerLine(t, marker + 3) >= 0) outside();
    let body = 0;
    if (marker >= 0) {
      this.end = marker;
      if (this.nextContent(0)) outside(); // content above the marker: a document of its own
      this.end = t.length;
      const eol = this.lineEnd(marker);
      restOfLine(t, marker + 3, eol);
      body = Math.min(eol + 1, this.end);
    }
    if (!this.nextContent(body) || this.isDash(this.line.at)) outside(); // empty, or a list at the root
    this.blockMap(this.line.at, this.line.indent, 0, root);
    if (this.line.at >= 0) outside();
  }

  /**
   * The scalar a value read by `document` is, read again from its site (the same reading, so the same scalar);
   * undefined when it is not a scalar.
   */
  valueAt(site: ValueSite): ScalarNode | undefined {
    const fact = this.value(site.pos, site.indent, site.depth, true);
    return typeof fact === 'object' && fact.kind === 'scalar' ? fact : undefined;
  }

  /** End of the line holding `from`, or the document's end; the line break found last answers every offset up to it (#37). */
  private lineEnd(from: number): number {
    if (from < this.breakFrom || from > this.breakAt) {
      this.breakFrom = from;
      this.breakAt = lineEnd(this.text, from, this.text.length);
    }
    return this.breakAt > this.end ? this.end : this.breakAt;
  }

  /** Moves `line` to the next line holding content at or after the line starting at `from`; false at the document's end. */
  private nextContent(from: number): boolean {
    return this.line.next(this.text, from, this.end);
  }

  private isDash(at: number): boolean {
    return isBlockDash(this.text, at, this.end);
  }

  private key(at: number): ScalarNode | undefined {
    return readKey(this.text, at, this.lineEnd(at));
  }

  // Each reader below leaves `line` on the next content line after what it read (`at` -1: the document's end).

  /** A block map in column `indent` whose first key is at `at`. */
  private blockMap(at: number, indent: number, depth: number, role?: Role<S>): void {
    if (depth >= MAX_DEPTH) outside();
    const line = this.line;
    let keys: string[] | Set<string> = [];
    let keyAt = at;
    for (;;) {
      const key = this.key(keyAt);
      if (!key) outside();
      const name = key!.value as string;
      // A duplicate key: an error the yaml library reports.
      if (Array.isArray(keys)) {
        if (keys.includes(name)) outside();
        keys.push(name);
        if (keys.length >= FEW_KEYS) keys = new Set(keys);
      } else {
        if (keys.has(name)) outside();
        keys.add(name);
      }
      const fact = this.value(key!.end + 1, indent, depth, true, role?.under?.get(name));
      role?.pair(name, fact, key!.end + 1, indent, depth, this.sink);
      if (line.at < 0 || line.indent < indent) return;
      if (line.indent > indent || this.isDash(line.at)) outside();
      keyAt = line.at;
    }
  }

  private blockSeq(at: number, indent: number, depth: number): void {
    if (depth >= MAX_DEPTH) outside();
    const line = this.line;
    let dash = at;
    for (;;) {
      this.value(dash + 1, indent, depth, false);
      if (line.at < 0 || line.indent < indent || (line.indent === indent && !this.isDash(line.at))) return;
      if (line.indent > indent) outside();
      dash = line.at;
    }
  }

  /** The value after `key:` or `-` (`pos` just past it), as the subset reader reads it; a block map below its key is read with `role`. */
  private value(pos: number, indent: number, depth: number, inMap: boolean, role?: Role<S>): Fact {
    const t = this.text;
    const eol = this.lineEnd(pos);
    let at = pos;
    while (at < eol && t.charCodeAt(at) === 32) at++;
    const c = at < eol ? t.charCodeAt(at) : 10;
    if (c === 10 || c === 35) {
      const line = this.line;
      const found = this.nextContent(eol + 1);
      const below = found && (line.indent > indent || (inMap && line.indent === indent && this.isDash(line.at)));
      if (!below) return plainScalar(t, at, at);
      const next = line.at;
      if (this.isDash(next)) {
        this.blockSeq(next, line.indent, depth + 1);
        return 'other';
      }
      if (!this.key(next)) {
        if (this.commentBetween(eol + 1, line.start)) outside(); // as the subset reader: a comment above a scalar below its key
        return this.inline(next, indent, depth);
      }
      this.blockMap(next, line.indent, depth + 1, role);
      return 'map';
    }
    if (!inMap && this.key(at)) {
      this.blockMap(at, at - (t.lastIndexOf('\n', at - 1) + 1), depth + 1);
      return 'map';
    }
    return this.inline(at, indent, depth);
  }

  private commentBetween(from: number, to: number): boolean {
    const i = this.text.indexOf('#', from);
    return i >= 0 && i < to;
  }

  /** A scalar or flow collection at `at`, the value of a collection in column `indent`. */
  private inline(at: number, indent: number, depth: number): Fact {
    const t = this.text;
    const c = t.charCodeAt(at);
    let eol = this.lineEnd(at);
    let fact: ScalarNode | MapNode | SeqNode;
    if (c === 124 || c === 62) {
      const node = blockScalar(t, at, indent, this.end);
      if (this.nextContent(node.end) && this.line.indent > indent) outside();
      return node;
    } else if (c === 34 || c === 39) {
      fact = quoted(t, at, eol, { parent: indent, docEnd: this.end });
      eol = this.lineEnd(fact.end);
    } else if (c === 91 || c === 123) {
      fact = readFlow(t, at, eol, depth + 1, this.building);
    } else {
      fact = plainValue(t, at, eol);
      // As the subset reader: only a deeper content line below may continue a plain value.
      if (!this.nextContent(eol + 1) || this.line.indent <= indent) {
        restOfLine(t, fact.end, eol);
        return fact;
      }
      fact = foldedPlain(t, fact, indent, this.end);
      eol = this.lineEnd(fact.end);
    }
    restOfLine(t, fact.end, eol);
    if (this.nextContent(eol + 1) && this.line.indent > indent) outside(); // a continuation line (or an error)
    return fact;
  }
}
keepLayout(new Walker('', undefined));
