// Read stage, skim form: one document's identity (apiVersion, kind, metadata name and namespace) without a tree,
// for objects the planner needs nothing else of (plan/identity-only.ts). It walks the document as the subset
// reader does (read/subset-yaml.ts), with the same scalar and flow helpers, and builds no map, list or pair:
// it accepts exactly where that reader would read the document, and declines (undefined) everywhere else.
import { blockScalar, isBlockDash, lineEnd, nextContentLine, OUT, outside, plainScalar, quoted, restOfLine, type ContentLine } from './subset-scalars.ts';
import { readKey } from './subset-keys.ts';
import { foldedPlain, plainValue } from './subset-folded.ts';
import { readFlow } from './subset-flow.ts';
import { plainSubsetText } from './subset-yaml.ts';
import { MAX_DEPTH } from '../model/target.ts';
import type { ScalarNode } from '../model/nodes.ts';
import type { ScannedIdentity } from '../model/object.ts';

const MARKER = /^---(?= |\n|$)/gm;

/**
 * The identity of the one document in `text` (one document's text as read/stream-documents.ts cuts it: at
 * most one `---` line, with only blank and comment lines above it), or undefined.
 * - Undefined whenever the subset reader would not read `text` as exactly that one document, for an empty
 *   document, and for one whose root holds `items` (a list wrapper: its entries are the objects), whose
 *   `metadata` is not a block map, or whose apiVersion or kind is not a non-empty string.
 * - Accepting is a promise: the subset reader reads `text` into one document whose root map gives these facts
 *   (test/property/scan-identity.test.ts holds it to that).
 */
export function scanIdentity(text: string): ScannedIdentity | undefined {
  if (!plainSubsetText(text)) return undefined;
  try {
    return new Skimmer(text).document();
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

/** A content line: where it starts, its indentation, and where its first character is. */
type Line = ContentLine;

/** What a map's reader keeps of some keys' values: the scalar, `map` for a block map, `other` for another collection. */
type Facts = Map<string, ScalarNode | 'map' | 'other'>;

/** Which keys of a block map to keep (`facts`), and the role its `metadata` block map is read with, if any. */
interface Role {
  keys: ReadonlySet<string>;
  facts: Facts;
  metadata?: Role;
}

const ROOT_KEYS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'items']);
const METADATA_KEYS: ReadonlySet<string> = new Set(['name', 'generateName', 'namespace']);
/** Keys of a map past which a Set finds a duplicate faster than a scan. */
const FEW_KEYS = 32;

class Skimmer {
  private end: number;

  constructor(private readonly text: string) {
    this.end = text.length;
  }

  document(): ScannedIdentity | undefined {
    const markers = [...this.text.matchAll(MARKER)].map((m) => m.index);
    if (markers.length > 1) return undefined;
    let body = 0;
    if (markers.length === 1) {
      this.end = markers[0]!;
      if (this.nextContent(0)) return undefined; // content above the marker: a document of its own
      this.end = this.text.length;
      const eol = lineEnd(this.text, markers[0]!, this.end);
      restOfLine(this.text, markers[0]! + 3, eol);
      body = Math.min(eol + 1, this.end);
    }
    const line = this.nextContent(body);
    if (!line || this.isDash(line.at)) return undefined; // empty, or a list at the root
    const metadata: Role = { keys: METADATA_KEYS, facts: new Map() };
    const root: Role = { keys: ROOT_KEYS, facts: new Map(), metadata };
    if (this.blockMap(line.at, line.indent, 0, root) !== undefined) outside();
    return identityOf(root.facts, metadata.facts);
  }

  private nextContent(from: number): Line | undefined {
    return nextContentLine(this.text, from, this.end);
  }

  private isDash(at: number): boolean {
    return isBlockDash(this.text, at, this.end);
  }

  private key(at: number): { node: ScalarNode; after: number } | undefined {
    return readKey(this.text, at, lineEnd(this.text, at, this.end));
  }

  /** A block map in column `indent` whose first key is at `at`; the next content line after it. */
  private blockMap(at: number, indent: number, depth: number, role?: Role): Line | undefined {
    if (depth >= MAX_DEPTH) outside();
    let keys: string[] | Set<string> = [];
    let keyAt = at;
    for (;;) {
      const key = this.key(keyAt);
      if (!key) outside();
      const name = key!.node.value as string;
      // A duplicate key: an error the yaml library reports.
      if (Array.isArray(keys)) {
        if (keys.includes(name)) outside();
        keys.push(name);
        if (keys.length >= FEW_KEYS) keys = new Set(keys);
      } else {
        if (keys.has(name)) outside();
        keys.add(name);
      }
      const sub = name === 'metadata' ? role?.metadata : undefined;
      const value = this.value(key!.after, indent, depth, true, sub);
      if (role?.keys.has(name)) role.facts.set(name, value.scalar ?? (value.mapped ? 'map' : 'other'));
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

  /**
   * The value after `key:` or `-` (`pos` just past it), as the subset reader reads it. `scalar`: the value when
   * it is one; `mapped`: a block map below its key, read with `role` when given.
   */
  private value(pos: number, indent: number, depth: number, inMap: boolean, role?: Role): { next: Line | undefined; scalar?: ScalarNode; mapped?: boolean } {
    const t = this.text;
    const eol = lineEnd(t, pos, this.end);
    let at = pos;
    while (at < eol && t.charCodeAt(at) === 32) at++;
    const c = at < eol ? t[at]! : '\n';
    if (c === '\n' || c === '#') {
      const next = this.nextContent(eol + 1);
      const below = next && (next.indent > indent || (inMap && next.indent === indent && this.isDash(next.at)));
      if (!below) return { next, scalar: plainScalar(t, at, at) };
      if (this.isDash(next.at)) return { next: this.blockSeq(next.at, next.indent, depth + 1) };
      if (!this.key(next.at)) {
        if (this.commentBetween(eol + 1, next.start)) outside(); // as the subset reader: a comment above a scalar below its key
        return this.inline(next.at, indent, depth);
      }
      return { next: this.blockMap(next.at, next.indent, depth + 1, role), mapped: true };
    }
    if (!inMap && this.key(at)) return { next: this.blockMap(at, at - (t.lastIndexOf('\n', at - 1) + 1), depth + 1) };
    return this.inline(at, indent, depth);
  }

  private commentBetween(from: number, to: number): boolean {
    const i = this.text.indexOf('#', from);
    return i >= 0 && i < to;
  }

  /** A scalar or flow collection at `at`, the value of a collection in column `indent`. */
  private inline(at: number, indent: number, depth: number): { next: Line | undefined; scalar?: ScalarNode } {
    const t = this.text;
    const c = t[at]!;
    let eol = lineEnd(t, at, this.end);
    let scalar: ScalarNode | undefined;
    let end: number;
    if (c === '|' || c === '>') {
      const node = blockScalar(t, at, indent, this.end);
      const next = this.nextContent(node.end);
      if (next && next.indent > indent) outside();
      return { next, scalar: node };
    } else if (c === '"' || c === "'") {
      scalar = quoted(t, at, eol, { parent: indent, docEnd: this.end });
      end = scalar.end;
      eol = lineEnd(t, end, this.end);
    } else if (c === '[' || c === '{') {
      end = readFlow(t, at, eol, depth + 1).end;
    } else {
      scalar = foldedPlain(t, plainValue(t, at, eol), indent, this.end);
      end = scalar.end;
      eol = lineEnd(t, end, this.end);
    }
    restOfLine(t, end, eol);
    const next = this.nextContent(eol + 1);
    if (next && next.indent > indent) outside(); // a continuation line (or an error)
    return scalar ? { next, scalar } : { next };
  }
}

/** The facts of a root map read: undefined unless they name a Kubernetes object the planner can index as is. */
function identityOf(root: Facts, metadata: Facts): ScannedIdentity | undefined {
  const meta = root.get('metadata');
  if (root.has('items') || (meta !== undefined && meta !== 'map')) return undefined;
  const str = (v: ScalarNode | 'map' | 'other' | undefined): string | undefined => (typeof v === 'object' && typeof v.value === 'string' ? v.value : undefined);
  const apiVersion = str(root.get('apiVersion'));
  const kind = str(root.get('kind'));
  if (!apiVersion || !kind) return undefined;
  const name = str(metadata.get('name')) ?? str(metadata.get('generateName')) ?? '';
  const namespace = str(metadata.get('namespace'));
  return namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
}
