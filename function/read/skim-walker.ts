// Read stage, skim form: the walker both skims share (read/scan-identity.ts, read/scan-source.ts). It steps
// through one document as the subset reader does (read/subset-yaml.ts), with the same scalar and flow helpers,
// builds no block map, list or pair, and keeps only what the roles it is given ask for. Anything the subset
// reader would not read throws OUT, as in that reader.
import { blockScalar, isBlockDash, lineEnd, nextContentLine, outside, plainScalar, quoted, restOfLine, type ContentLine } from './subset-scalars.ts';
import { readKey } from './subset-keys.ts';
import { foldedPlain, plainValue } from './subset-folded.ts';
import { readFlow } from './subset-flow.ts';
import { MAX_DEPTH } from '../model/target.ts';
import type { MapNode, ScalarNode, SeqNode } from '../model/nodes.ts';

const MARKER = /^---(?= |\n|$)/gm;

/** A content line: where it starts, its indentation, and where its first character is. */
type Line = ContentLine;

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

/** What a block map's reader keeps: some keys' values (`facts`), roles for the maps below some keys, and each pair. */
export interface Role {
  keys: ReadonlySet<string>;
  facts: Map<string, Fact>;
  /** The role a block map below one of these keys is read with. */
  under?: ReadonlyMap<string, Role>;
  /** Given every pair of the map as it is read: its key, its value's fact, and where the value is. */
  each?(key: string, fact: Fact, site: ValueSite): void;
}

/** Keys of a map past which a Set finds a duplicate faster than a scan. */
const FEW_KEYS = 32;

/**
 * Walks one document's text (one document as read/stream-documents.ts cuts it: at most one `---` line, with only
 * blank and comment lines above it), for a caller that has checked plainSubsetText and catches OUT.
 */
export class Walker {
  private end: number;
  /** lineEnd's last search: from `breakFrom`, the first line break (or the text's end) is at `breakAt`. */
  private breakFrom = 0;
  private breakAt = -1;

  constructor(private readonly text: string) {
    this.end = text.length;
  }

  /** Reads the document's root block map with `root`; throws OUT unless the text is exactly that one document. */
  document(root: Role): void {
    const markers = [...this.text.matchAll(MARKER)].map((m) => m.index);
    if (markers.length > 1) outside();
    let body = 0;
    if (markers.length === 1) {
      this.end = markers[0]!;
      if (this.nextContent(0)) outside(); // content above the marker: a document of its own
      this.end = this.text.length;
      const eol = this.lineEnd(markers[0]!);
      restOfLine(this.text, markers[0]! + 3, eol);
      body = Math.min(eol + 1, this.end);
    }
    const line = this.nextContent(body);
    if (!line || this.isDash(line.at)) outside(); // empty, or a list at the root
    if (this.blockMap(line!.at, line!.indent, 0, root) !== undefined) outside();
  }

  /**
   * The scalar a value read by `document` is, read again from its site (the same reading, so the same scalar);
   * undefined when it is not a scalar.
   */
  valueAt(site: ValueSite): ScalarNode | undefined {
    const fact = this.value(site.pos, site.indent, site.depth, true).fact;
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

  private nextContent(from: number): Line | undefined {
    return nextContentLine(this.text, from, this.end);
  }

  private isDash(at: number): boolean {
    return isBlockDash(this.text, at, this.end);
  }

  private key(at: number): ScalarNode | undefined {
    return readKey(this.text, at, this.lineEnd(at));
  }

  /** A block map in column `indent` whose first key is at `at`; the next content line after it. */
  private blockMap(at: number, indent: number, depth: number, role?: Role): Line | undefined {
    if (depth >= MAX_DEPTH) outside();
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
      const value = this.value(key!.end + 1, indent, depth, true, role?.under?.get(name));
      if (role?.keys.has(name)) role.facts.set(name, value.fact);
      role?.each?.(name, value.fact, { pos: key!.end + 1, indent, depth });
      const next = value.next;
      if (!next || next.indent < indent) return next;
      if (next.indent > indent || this.isDash(next.at)) outside();
      keyAt = next.at;
    }
  }

  private blockSeq(at: number, indent: number, depth: number): Line | undefined {
    if (depth >= MAX_DEPTH) outside();
    let dash = at;
    for (;;) {
      const next = this.value(dash + 1, indent, depth, false).next;
      if (!next || next.indent < indent || (next.indent === indent && !this.isDash(next.at))) return next;
      if (next.indent > indent) outside();
      dash = next.at;
    }
  }

  /** The value after `key:` or `-` (`pos` just past it), as the subset reader reads it; a block map below its key is read with `role`. */
  private value(pos: number, indent: number, depth: number, inMap: boolean, role?: Role): { next: Line | undefined; fact: Fact } {
    const t = this.text;
    const eol = this.lineEnd(pos);
    let at = pos;
    while (at < eol && t.charCodeAt(at) === 32) at++;
    const c = at < eol ? t.charCodeAt(at) : 10;
    if (c === 10 || c === 35) {
      const next = this.nextContent(eol + 1);
      const below = next && (next.indent > indent || (inMap && next.indent === indent && this.isDash(next.at)));
      if (!below) return { next, fact: plainScalar(t, at, at) };
      if (this.isDash(next.at)) return { next: this.blockSeq(next.at, next.indent, depth + 1), fact: 'other' };
      if (!this.key(next.at)) {
        if (this.commentBetween(eol + 1, next.start)) outside(); // as the subset reader: a comment above a scalar below its key
        return this.inline(next.at, indent, depth);
      }
      return { next: this.blockMap(next.at, next.indent, depth + 1, role), fact: 'map' };
    }
    if (!inMap && this.key(at)) return { next: this.blockMap(at, at - (t.lastIndexOf('\n', at - 1) + 1), depth + 1), fact: 'map' };
    return this.inline(at, indent, depth);
  }

  private commentBetween(from: number, to: number): boolean {
    const i = this.text.indexOf('#', from);
    return i >= 0 && i < to;
  }

  /** A scalar or flow collection at `at`, the value of a collection in column `indent`. */
  private inline(at: number, indent: number, depth: number): { next: Line | undefined; fact: Fact } {
    const t = this.text;
    const c = t.charCodeAt(at);
    let eol = this.lineEnd(at);
    let fact: ScalarNode | MapNode | SeqNode;
    if (c === 124 || c === 62) {
      const node = blockScalar(t, at, indent, this.end);
      const next = this.nextContent(node.end);
      if (next && next.indent > indent) outside();
      return { next, fact: node };
    } else if (c === 34 || c === 39) {
      fact = quoted(t, at, eol, { parent: indent, docEnd: this.end });
      eol = this.lineEnd(fact.end);
    } else if (c === 91 || c === 123) {
      fact = readFlow(t, at, eol, depth + 1);
    } else {
      fact = foldedPlain(t, plainValue(t, at, eol), indent, this.end);
      eol = this.lineEnd(fact.end);
    }
    restOfLine(t, fact.end, eol);
    const next = this.nextContent(eol + 1);
    if (next && next.indent > indent) outside(); // a continuation line (or an error)
    return { next, fact };
  }
}
