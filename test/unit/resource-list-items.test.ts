// The item-by-item reading of a ResourceList (read/resource-list-items.ts) against the whole reading
// (read/resource-list.ts): the same items — node for node, offsets included — the same facts for the
// writer, the same results; and layouts it must leave to the whole reading are declined.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { asResourceList, bundleDocuments } from '../../bench/generate-bundle.ts';
import { toPlain } from '../../function/model/nodes.ts';
import type { Item } from '../../function/model/object.ts';
import { sameEntries, splitResourceList } from '../../function/read/resource-list-items.ts';
import { parseResourceList, readListWithLibrary } from '../../function/read/resource-list.ts';

const HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';
const FC = 'functionConfig:\n  apiVersion: rollstamp.dev/v1alpha1\n  kind: RollstampConfig\n  spec:\n    selector: app=web\n';
const ITEMS = asResourceList(bundleDocuments(40)).slice(HEAD.length); // `items:` and its entries, in column 0

/** Reads `text` item by item; undefined when declined (then also asserted: not half-read). */
function byItems(text: string): { rl: unknown; items: Item[] } | { results: unknown[] } | undefined {
  const list = splitResourceList(text);
  if (!list) return undefined;
  const items: Item[] = [];
  const read = list.read((some) => items.push(...some));
  if (read === false) return undefined;
  return read.length > 0 ? { results: read } : { rl: list.rl, items };
}

/** The item-by-item reading gives exactly what the whole (fast) reading gives, and the yaml library agrees. */
function assertSame(text: string, label: string): void {
  const whole = parseResourceList(text, 'fast');
  const split = byItems(text);
  assert.ok(split !== undefined, `${label}: read item by item`);
  assert.equal(split, whole, `${label}: items, facts and results equal the whole reading's`);
  const full = parseResourceList(text, 'full');
  if ('items' in whole && 'items' in full) {
    assert.is(whole.rl.doc, undefined, `${label}: the whole fast reading took it too`);
    assert.equal(whole.items.map((i) => toPlain(i.node)), full.items.map((i) => toPlain(i.node)), `${label}: the yaml library reads the same objects`);
  }
}

const indented = (items: string): string => items.replace(/^(?!items:)(.+)$/gm, '  $1');

const LAYOUTS: Record<string, string> = {
  generated: HEAD + ITEMS,
  'functionConfig before items': HEAD + FC + ITEMS,
  'functionConfig after items': HEAD + ITEMS + FC,
  'items indented': HEAD + indented(ITEMS) + FC,
  'comments between items': HEAD + ITEMS.replace(/\n- /g, '\n# between, column 0\n  # between, column 2\n\n- ') + '# trailing\n',
  'comment on the items line and before the first entry': HEAD + ITEMS.replace('items:\n', 'items: # all of them\n\n# first\n'),
  'items first': ITEMS + HEAD + FC,
  'an existing results list': HEAD + ITEMS + 'results:\n- message: earlier\n  severity: info\n',
  'empty entry list (flow)': HEAD + 'items: []\n' + FC,
  'empty items (null)': HEAD + 'items:\n' + FC,
  'empty items at the end': HEAD + FC + 'items:\n',
  'items in a flow list': HEAD + 'items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n',
  'a list wrapper item': HEAD + 'items:\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n',
  'an entry with a literal block': HEAD + 'items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    f: |\n      line one\n\n      # not a comment\n    g: x\n\n- kind: B\n',
  'an entry that is not an object': HEAD + ITEMS + '- just a string\n- [1, 2]\n',
};

for (const [label, text] of Object.entries(LAYOUTS)) {
  test(`item by item equals the whole reading: ${label}`, () => assertSame(text, label));
}

test('the items keep offsets in the whole text: a text edit planned from them lands in place', () => {
  const text = HEAD + FC + ITEMS;
  const split = byItems(text);
  assert.ok(split && 'items' in split);
  if (!split || !('items' in split)) return;
  const last = split.items[split.items.length - 1]!.node;
  const kind = last.items.find((p) => toPlain(p.key) === 'kind')!.value as { start: number; end: number; value: unknown };
  assert.is(text.slice(kind.start, kind.end), kind.value);
});

test('each entry is handed to the reader as it is read, in order', () => {
  const list = splitResourceList(HEAD + ITEMS);
  assert.ok(list);
  const sizes: number[] = [];
  const read = list!.read((items) => sizes.push(items.length));
  assert.equal(read, []);
  assert.is(sizes.length, 40);
  assert.ok(sizes.every((n) => n === 1));
});

const DECLINED: Record<string, string> = {
  CRLF: (HEAD + ITEMS).replace(/\n/g, '\r\n'),
  'a document marker': '---\n' + HEAD + ITEMS,
  'two documents': HEAD + ITEMS + '---\nkind: B\n',
  'keys not in column 0': (HEAD + ITEMS).replace(/^/gm, ' ').trimEnd() + '\n',
  'a duplicate key': HEAD + ITEMS + 'kind: ResourceList\n',
  'a duplicate items key': HEAD + ITEMS + 'items: []\n',
  'items holding a map': HEAD + 'items:\n  a: 1\n',
  'an entry left at a column between': HEAD + indented(ITEMS) + ' kind: X\n',
  'a dash in column 0 after indented entries': HEAD + indented(ITEMS) + '- kind: X\n',
  'not a ResourceList': 'apiVersion: v1\nkind: List\n' + ITEMS,
  'no items': HEAD + FC,
  'comments only': '# nothing\n',
  'a JSON list': '{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[]}\n',
};

/** Entries the subset reader declines, between entries it reads: an anchor, a tag, an alias inside an entry. */
const MIXED = HEAD + FC + ITEMS.replace('\n- ', '\n- &first\n  kind: Anchored\n  metadata: {name: a}\n- !!map\n  kind: Tagged\n  metadata: {name: t}\n- kind: Aliased\n  metadata: &m {name: m}\n  spec: {meta: *m}\n- ');

test('an entry outside the subset is taken from the yaml library, the others from the subset reader', () => {
  const list = splitResourceList(MIXED);
  assert.ok(list, 'split');
  const items: Item[] = [];
  const read = list!.read((some) => items.push(...some));
  assert.equal(read, []);
  assert.is(list!.rl.doc, undefined, 'written by text edits');
  const full = parseResourceList(MIXED, 'full');
  assert.ok('items' in full);
  if (!('items' in full)) return;
  assert.equal(items.map((i) => toPlain(i.node)), full.items.map((i) => toPlain(i.node)), 'the objects the yaml library reads');
  assert.equal(items.map((i) => i.node.start), full.items.map((i) => i.node.start), 'offsets in the whole text');
  const ranges = (list: readonly Item[]) => list.map((i, k) => (items[k]!.readBy === 'subset' ? [] : [i.node.start, i.node.end]));
  assert.equal(ranges(items), ranges(full.items), 'the library\'s entries as the whole reading has them');
  const by = (kind: string): string | undefined => items.find((i) => (toPlain(i.node) as { kind?: string }).kind === kind)?.readBy;
  assert.equal([by('Anchored'), by('Tagged'), by('Aliased')], ['yaml-document', 'yaml-document', 'yaml-document']);
  assert.is(items.filter((i) => i.readBy === 'subset').length, 40, 'the other entries are vouched for');
});

test('a YAML error in an entry outside the subset refuses the list with the whole reading\'s results', () => {
  const text = HEAD + ITEMS + '- &a\n  kind: A\n  kind: B\n';
  const list = splitResourceList(text);
  assert.ok(list);
  let taken = 0;
  const read = list!.read(() => taken++);
  const whole = parseResourceList(text, 'fast');
  assert.ok('results' in whole && whole.results.length > 0, 'the whole reading refuses it');
  assert.equal(read, 'results' in whole ? whole.results : undefined);
});

test('library entries that are not the scan\'s are not used (each must lie inside its part)', () => {
  const root = (text: string) => {
    const read = readListWithLibrary(text);
    assert.ok(!('results' in read));
    return 'root' in read ? read.root : null;
  };
  const text = HEAD + 'items:\n- kind: A\n- kind: B\n';
  const dashes = [text.indexOf('- kind: A'), text.indexOf('- kind: B')];
  const ends = new Map([[dashes[0]!, dashes[1]!], [dashes[1]!, text.length]]);
  assert.ok(sameEntries(root(text), { dashes }, ends), 'the same entries');
  assert.is(sameEntries(root(HEAD + 'items:\n- kind: A\n'), { dashes }, ends), undefined, 'fewer entries');
  assert.is(sameEntries(root(HEAD + 'items:\n- kind: B\n- kind: A\n  x: 1\n'), { dashes }, ends), undefined, 'an entry past its part');
});

for (const [label, text] of Object.entries(DECLINED)) {
  test(`declined, left to the whole reading: ${label}`, () => {
    assert.is(byItems(text), undefined);
  });
}

test.run();
