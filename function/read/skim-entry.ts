// Read stage for KRM function mode, skim form: one entry of a ResourceList's `items` skimmed as `stamp` skims a
// stream's document (read/stream-documents.ts) — a plain Secret or ConfigMap scanned for its entries
// (read/scan-source.ts), an object the planner needs only the identity of scanned for that (read/scan-identity.ts),
// neither read into a tree. Everything else, and whatever the scanners decline, is read as before.
import { fileOfAnnotations } from './resource-list.ts';
import { scanEntryIdentity } from './scan-identity.ts';
import { scanEntrySource } from './scan-source.ts';
import type { EntrySpan } from './skim-walker.ts';
import type { Skim } from './stream-documents.ts';
import type { ScannedIdentity, ScannedSource } from '../model/object.ts';
import type { FileRef } from '../model/results.ts';

/**
 * An entry skimmed: its object's identity, and when it is a plain Secret or ConfigMap its scanned facts and the
 * file its annotations name (as read/resource-list.ts's entryItems gives the same entry's tree).
 */
export interface SkimmedEntry {
  identity: ScannedIdentity;
  source?: ScannedSource;
  file?: FileRef;
}

/** A line whose key is `kind:` with a plain name (after a `- ` on the entry's first line). */
const KIND_LINE = /^( *(?:- +)?)kind: *([A-Za-z]+) *$/gm;
const SOURCE_KINDS: ReadonlySet<string> = new Set(['Secret', 'ConfigMap']);

/**
 * The entry at `span` of `text` (a ResourceList's text that passed plainSubsetText) skimmed for `skim`, or
 * undefined: the caller reads it into a tree.
 * - A plain Secret or ConfigMap the scanner accepts and `skim.sources` takes comes with `source`; else an object
 *   of a kind in `skim.kinds` the identity scanner accepts and `skim.wants` takes comes alone. `skim` is asked
 *   with the entry's own text (from its `-` to its end), as `stamp` asks with a document's.
 * - Skimming is exact where the scanners are: each accepts only where readSubsetPart reads the entry into one
 *   map with the facts it gives.
 */
export function skimEntry(text: string, span: EntrySpan, skim: Skim): SkimmedEntry | undefined {
  const own = text.slice(span.dash, span.end);
  const kind = entryKind(own, text, span);
  if (kind === undefined) return undefined;
  if (skim.sources && SOURCE_KINDS.has(kind)) {
    const source = scanEntrySource(text, span, kind as 'Secret' | 'ConfigMap');
    if (source && skim.sources(source.identity, own)) {
      const file = fileOfAnnotations((key) => source.annotations.get(key));
      return { identity: source.identity, source, ...(file ? { file } : {}) };
    }
  }
  if (!skim.kinds.has(kind)) return undefined;
  const identity = scanEntryIdentity(text, span);
  return identity && skim.wants(identity, own) ? { identity } : undefined;
}

/**
 * The kind named on a `kind:` line at the column of the entry's map, looked for in the entry's own text `own`
 * only: a cheap first look, so only the entries that may be skimmed are scanned (the scanners read the kind
 * themselves, and decline any other).
 */
function entryKind(own: string, text: string, span: EntrySpan): string | undefined {
  const column = mapColumn(text, span);
  if (column === undefined) return undefined;
  KIND_LINE.lastIndex = 0;
  for (let m = KIND_LINE.exec(own); m !== null; m = KIND_LINE.exec(own)) {
    // `own` starts at the `-`, in the entry's column.
    if (m[1]!.length + (m.index === 0 ? span.column : 0) === column) return m[2];
  }
  return undefined;
}

/** The column of the map an entry's `-` opens: its first key's, on the `-` line or the next content line. */
function mapColumn(text: string, { dash, column, end }: EntrySpan): number | undefined {
  let at = dash + 1;
  while (text.charCodeAt(at) === 32) at++;
  if (at < end && text[at] !== '\n' && text[at] !== '#') return column + (at - dash);
  // The map starts below the `-`: the first line that is neither blank nor a comment.
  for (let line = text.indexOf('\n', at) + 1; line > 0 && line < end; line = text.indexOf('\n', line) + 1) {
    let first = line;
    while (text.charCodeAt(first) === 32) first++;
    if (first < end && text[first] !== '\n' && text[first] !== '#') return first - line;
  }
  return undefined;
}
