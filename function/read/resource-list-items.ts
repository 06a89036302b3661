// Read stage for KRM function mode, item by item: a ResourceList in the YAML subset is split by a line scan
// into its top-level keys and the entries of its `items` block list, and each part is read alone by the
// subset reader, with node offsets counted in the whole text (text edits and the writer use them). The
// caller plans each entry's items as they come and lets them go, so only one item's tree exists at a time
// (besides those the plan keeps). An entry the subset reader declines is taken from the yaml library's
// reading of the whole list; what the scan declines is left to parseResourceList (read/resource-list.ts),
// which reads the list whole and gives the same items and results.
import { MapNode, nodeRange, PairNode, ScalarNode, SeqNode, type Node } from '../model/nodes.ts';
import type { Item, ReadBy } from '../model/object.ts';
import type { Result } from '../model/results.ts';
import { entryItems, listFacts, listHeader, readListWithLibrary, type ResourceList } from './resource-list.ts';
import { plainSubsetText, readSubsetPart } from './subset-yaml.ts';

/** A ResourceList split into parts, its header read. */
export interface ListItems {
  rl: ResourceList;
  /**
   * Reads the items in input order and gives each entry's objects to `take`. An entry outside the subset is
   * taken from the yaml library's reading of the whole list, made once (readListWithLibrary), so the other
   * entries are still read alone and vouched for: a stamp in them is read back by its window, not by reading
   * the whole list with the library a second time (SECURITY.md "Bounded work"). Gives the results that
   * refuse the list — the library's when it reads one (YAML errors first, as parseResourceList reports them),
   * else those of entries that are not objects — or false when the library's entries are not the scan's
   * (parseResourceList then decides).
   */
  read(take: (items: Item[]) => void): Result[] | false;
}

/** The top-level parts of a list: where each key's line starts, and the `items` block list's entries. */
interface Parts {
  /** Line starts of the top-level keys, except an `items:` whose value is a block list below it. */
  keys: number[];
  /** That `items:` line, the column of its entries, and where each entry's `-` is. */
  items?: { key: number; column: number; dashes: number[] };
  /** Where each part ends: the start of the next part's line (by the part's first offset). */
  ends: Map<number, number>;
}

/**
 * Splits and reads the top-level keys of a ResourceList. Undefined when the list is not one the item-by-item
 * reading takes: not in the subset, no `items` block list, or a header parseResourceList would refuse (its
 * message depends on what the whole reading finds first).
 */
export function splitResourceList(text: string): ListItems | undefined {
  if (!plainSubsetText(text)) return undefined;
  const parts = scan(text);
  if (!parts || parts.keys.length + (parts.items ? 1 : 0) === 0) return undefined;
  const { keys, items: block, ends } = parts;
  const root = new MapNode(false, Math.min(...keys, block?.key ?? Infinity), 0, -1);
  const names = new Set<string>();
  const add = (key: ScalarNode, value: Node): boolean => {
    if (names.has(key.value as string)) return false; // a duplicate key: an error the whole reading reports
    names.add(key.value as string);
    root.items.push(new PairNode(key, value));
    return true;
  };
  for (const from of keys) {
    const read = readSubsetPart(text, from, ends.get(from)!);
    if (!read || !add(read.key!, read.value)) return undefined;
  }
  // Stands for the block list, whose entries are read one by one.
  if (block && !add(new ScalarNode('items', 'plain', block.key, block.key + 'items'.length), new SeqNode(false, block.dashes[0]!))) return undefined;
  const header = listHeader(root);
  if ('results' in header) return undefined;
  return {
    rl: listFacts(header.root, text, undefined),
    read(take) {
      const results: Result[] = [];
      // Entries on the `items` line itself (`items: [...]`) were read with the header.
      const count = block ? block.dashes.length : header.entries.length;
      // The library's entries, read the first time the subset reader declines one.
      let library: ReadonlyArray<Node | null> | undefined;
      for (let i = 0; i < count; i++) {
        const dash = block?.dashes[i];
        let node = dash === undefined ? header.entries[i] : readSubsetPart(text, dash, ends.get(dash)!, block!.column)?.value;
        let readBy: ReadBy = 'subset';
        if (node === undefined) {
          if (!library) {
            const read = readListWithLibrary(text);
            if ('results' in read) return read.results;
            library = sameEntries(read.root, block!, ends);
            if (!library) return false;
          }
          node = library[i]!;
          readBy = 'yaml-document';
        }
        const items: Item[] = [];
        entryItems(node, i, readBy, items, results);
        // Once the list is refused nothing is planned; the rest is still read (it may be outside the subset).
        if (results.length === 0) take(items);
      }
      return results;
    },
  };
}

/**
 * The entries of the library's `items` list when they are the scan's: as many, each inside its part (from its
 * `-` to the next part's line). Only then does an entry the library read stand where the scan put it.
 */
export function sameEntries(root: Node | null, block: Pick<NonNullable<Parts['items']>, 'dashes'>, ends: ReadonlyMap<number, number>): ReadonlyArray<Node | null> | undefined {
  const header = listHeader(root);
  if ('results' in header || header.entries.length !== block.dashes.length) return undefined;
  const inside = (node: Node | null, i: number): boolean => {
    const dash = block.dashes[i]!;
    const range = nodeRange(node);
    // An empty entry has no range to compare: it refuses the list either way (entryItems).
    return range === undefined ? node === null : range[0] > dash && range[1] <= ends.get(dash)!;
  };
  return header.entries.every(inside) ? header.entries : undefined;
}

/** A line's first character after its indentation, and that indentation. */
interface Line {
  start: number;
  indent: number;
  at: number;
}

/**
 * The line scan. Undefined for a layout the whole reading would read differently or refuse: content before
 * the first key or not in column 0, a `---` line, a list below `items:` that a line leaves at a column
 * other than its own or 0, an `items:` holding a map.
 */
function scan(text: string): Parts | undefined {
  const keys: number[] = [];
  const ends = new Map<number, number>();
  let items: Parts['items'];
  let open: number | undefined; // the part being read: its first offset
  let state: 'root' | 'items-first' | 'items' = 'root';
  const begin = (line: Line, at: number): void => {
    if (open !== undefined) ends.set(open, line.start);
    open = at;
  };
  for (const line of contentLines(text)) {
    const dash = isDash(text, line.at);
    if (line.indent === 0 && text.startsWith('---', line.at)) return undefined;
    if (state === 'items-first') {
      if (dash) {
        items!.column = line.indent;
        items!.dashes.push(line.at);
        begin(line, line.at);
        state = 'items';
        continue;
      }
      if (line.indent > 0) return undefined; // a map: not a list (the whole reading says so)
      // `items:` with nothing below: an empty value, read as a key of its own.
      keys.push(items!.key);
      items = undefined;
      state = 'root';
    } else if (state === 'items') {
      const column = items!.column;
      if (line.indent > column) continue;
      if (line.indent === column && dash) {
        items!.dashes.push(line.at);
        begin(line, line.at);
        continue;
      }
      if (line.indent > 0 || dash) return undefined;
      state = 'root';
    }
    if (line.indent > 0 || dash) {
      if (open === undefined) return undefined; // content before the first key
      continue;
    }
    // A key in column 0.
    begin(line, line.start);
    if (/^items:(?: +(?:#.*)?)?$/.test(text.slice(line.at, lineEnd(text, line.at)))) {
      if (items !== undefined) return undefined; // a duplicate key
      items = { key: line.at, column: 0, dashes: [] };
      state = 'items-first';
    } else keys.push(line.at);
  }
  if (state === 'items-first' && items) {
    keys.push(items.key);
    items = undefined;
  }
  if (open !== undefined) ends.set(open, text.length);
  return { keys, ends, ...(items ? { items } : {}) };
}

/** The lines holding content (not blank, not only a comment), in order. */
function* contentLines(text: string): Generator<Line> {
  for (let start = 0; start < text.length; ) {
    const eol = lineEnd(text, start);
    let at = start;
    while (at < eol && text.charCodeAt(at) === 32) at++;
    if (at < eol && text[at] !== '#') yield { start, indent: at - start, at };
    start = eol + 1;
  }
}

function lineEnd(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i < 0 ? text.length : i;
}

/** `-` followed by a space or the end of its line: a block list entry. */
function isDash(text: string, at: number): boolean {
  const next = text[at + 1];
  return text[at] === '-' && (next === undefined || next === ' ' || next === '\n');
}
