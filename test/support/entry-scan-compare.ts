// Compares the scanners with the subset reader on ResourceList items, as `fn` cuts them (#37): the documents of a
// text are written as the entries of a list's `items` in the layouts lists are written in, and for every entry the
// identity scanner must accept exactly where the subset reader reads it into a block map with an identity, and
// give that identity; an entry skimmed as a Secret or ConfigMap must be filed as its tree is filed, with the same
// entries and results (test/support/source-scan-compare.ts). Returns the first difference as a sentence (no
// values), or undefined when they agree.
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import type { Item, ScannedIdentity } from '../../function/model/object.ts';
import type { Result } from '../../function/model/results.ts';
import { emptyIndex, indexObject, indexScanned } from '../../function/plan/inventory.ts';
import { entryItems } from '../../function/read/resource-list.ts';
import { entrySpans } from '../../function/read/resource-list-items.ts';
import { scanEntryIdentity } from '../../function/read/scan-identity.ts';
import { skimEntry } from '../../function/read/skim-entry.ts';
import { splitDocuments, type Skim } from '../../function/read/stream-documents.ts';
import { readSubsetPart } from '../../function/read/subset-yaml.ts';
import { identityOfMap } from './scan-compare.ts';
import { scannedDifference } from './source-scan-compare.ts';

/**
 * How an entry is written: `- ` then the map in column 2 (`dash`), the same with the entries in column 2
 * (`indented`), `-` alone with the map below it (`below`), `-   ` with the map in column 4 (`wide`).
 */
export type EntryLayout = 'dash' | 'indented' | 'below' | 'wide';
export const ENTRY_LAYOUTS: readonly EntryLayout[] = ['dash', 'indented', 'below', 'wide'];

const PREFIX: Record<EntryLayout, readonly [first: string, rest: string]> = {
  dash: ['- ', '  '],
  indented: ['  - ', '    '],
  below: ['-\n  ', '  '],
  wide: ['-   ', '    '],
};

/** Skims every entry the scanners accept, of any kind: the property is the scanners', not the planner's choice. */
const EVERY: Skim = { kinds: { has: () => true } as unknown as ReadonlySet<string>, wants: () => true, sources: () => true };

/** The documents of `text` (each without its `---` line) as the items of a ResourceList, in `layout`. */
export function asListItems(text: string, layout: EntryLayout): string {
  const [first, rest] = PREFIX[layout];
  const entry = (piece: string): string =>
    piece
      .replace(/^---(?:[ \t][^\n]*)?(?:\n|$)/, '')
      .replace(/\n$/, '')
      .split('\n')
      .map((line, i) => (i === 0 ? first + line : line === '' ? '' : rest + line))
      .join('\n');
  const items = (splitDocuments(text) ?? [text]).map(entry).join('\n');
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}\n`;
}

/** entryScanDifference of `text`'s documents written as items in each of `layouts`. Default: every layout. */
export function entryScanDifference(text: string, layouts: readonly EntryLayout[] = ENTRY_LAYOUTS): string | undefined {
  for (const layout of layouts) {
    const difference = listScanDifference(asListItems(text, layout));
    if (difference) return `written as items (${layout}): ${difference}`;
  }
  return undefined;
}

/** The first entry of the ResourceList `list` on which a scanner decides unlike the subset reader. */
export function listScanDifference(list: string): string | undefined {
  const spans = entrySpans(list) ?? [];
  for (const [i, span] of spans.entries()) {
    const tree = readSubsetPart(list, span.dash, span.end, span.column)?.value;
    const want = identityOfMap(tree);
    const got = scanEntryIdentity(list, span);
    if (JSON.stringify(got) !== JSON.stringify(want)) return `item ${i}: the identity scanner gives ${what(got)}, the subset reader's tree ${what(want)}`;
    const skimmed = skimEntry(list, span, EVERY);
    if (!skimmed) continue;
    if (JSON.stringify(skimmed.identity) !== JSON.stringify(want)) return `item ${i}: the skim gives ${what(skimmed.identity)}, the subset reader's tree ${what(want)}`;
    if (!skimmed.source) continue;
    const items: Item[] = [];
    const results: Result[] = [];
    entryItems(tree ?? null, i, undefined, items, results);
    const filed = results.length === 0 && items.length === 1 ? indexObject(emptyIndex(), items[0]!, 0, DEFAULT_CONFIG, results) : undefined;
    const difference = scannedDifference(indexScanned(emptyIndex(), skimmed.source, skimmed.file, 0, DEFAULT_CONFIG), results.length === 0 ? filed : undefined);
    if (difference) return `item ${i}: ${difference}`;
  }
  return undefined;
}

function what(v: ScannedIdentity | undefined): string {
  return v ? `an identity with fields ${Object.keys(v).join(', ')}` : 'none';
}
