// The read-back check (#21): a document a stamp edit changed must read again as YAML before anything is
// written; one that does not is an internal error, never output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertEditsReadBack, assertReadsBack, windowsReadBack } from '../../function/write/read-back.ts';
import { streamDocuments } from '../../function/read/stream-documents.ts';
import { parseResourceList } from '../../function/read/resource-list.ts';
import { serializeResourceList } from '../../function/write/resource-list.ts';
import { serializeStream } from '../../function/write/stream.ts';
import type { TextEdit } from '../../function/model/target.ts';

const DOC = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    rollstamp.dev/hash: old\n    note: x\n';

test('an edited document that reads back passes, in the subset and outside it (#21)', () => {
  assertReadsBack(DOC);
  assertReadsBack(`%YAML 1.2\n---\n${DOC}`); // the subset reader declines a directive; the library reads it
});

test('a stamp line that swallowed the next key does not read back: an internal error (#21)', () => {
  const broken = DOC.replace('old\n    note', '"sha256:x"    note');
  assert.throws(() => assertReadsBack(broken), /does not read back as YAML/);
});

test('serializeStream refuses an edit that breaks its document instead of returning it (#21)', () => {
  const [doc] = [...streamDocuments(DOC, 'in.yaml')];
  assert.ok(doc, 'read');
  doc!.firstItem = 0;
  doc!.itemCount = 1;
  const at = DOC.indexOf('old\n');
  // An edit as the old planner made it for a block scalar: the line break goes with the value.
  assert.throws(() => serializeStream([doc!], new Map([[0, [{ offset: at, remove: 4, insert: '"sha256:x"' }]]])), /does not read back/);
  const fine = serializeStream([doc!], new Map([[0, [{ offset: at, remove: 3, insert: '"sha256:x"' }]]]))?.join('');
  assert.ok(fine?.includes('rollstamp.dev/hash: "sha256:x"\n    note: x\n'), fine);
});

// The annotations map of DOC (keys at column 4, from `rollstamp.dev/hash` to the end of `note: x`).
const at = DOC.indexOf('rollstamp.dev/hash');
const WINDOW = { start: at, end: DOC.indexOf('note: x') + 'note: x'.length, indent: 4 };
const stamp = (insert: string, window = WINDOW): TextEdit => ({ offset: DOC.indexOf('old'), remove: 3, insert, window });

test('an edit inside its block map is read back there alone, and a broken one is not let through', () => {
  assert.ok(windowsReadBack(DOC, 0, [stamp('"sha256:x"')]), 'the annotations map reads alone');
  assert.not.ok(windowsReadBack(DOC, 0, [stamp('"sha256:x"\n  note: y')]), 'a line at a smaller column ends the map early');
  assert.not.ok(windowsReadBack(DOC, 0, [stamp('"sha256:x"# c')]), 'a comment glued to a value');
  assert.not.ok(windowsReadBack(DOC, 0, [stamp('"sha256:x"', { ...WINDOW, indent: 2 })]), 'the window must start a line at its column');
  assert.not.ok(windowsReadBack(DOC, 0, [{ ...stamp('"sha256:x"'), offset: DOC.indexOf('name: c') }]), 'the edit must lie inside its window');
  const { window: _, ...bare } = stamp('"sha256:x"');
  assert.not.ok(windowsReadBack(DOC, 0, [bare]), 'an edit without a window');
});

test('a window vouches only for what it can see: the line breaks and lines after its map, markers, whole maps', () => {
  const pass = (text: string, edit: TextEdit): boolean => windowsReadBack(text, 0, [edit]);
  // A block scalar last in the map: the map ends past its line break, so an edit there reaches the next line.
  const scalarLast = 'a:\n  k: |\n    x\nb: 1\n';
  const w = { start: 5, end: 16, indent: 2 };
  assert.not.ok(pass(scalarLast, { offset: 16, remove: 0, insert: '   ', window: w }), 'spaces put before the next key');
  assert.not.ok(pass(scalarLast, { offset: 8, remove: 8, insert: '"sha256:x"', window: w }), 'a block-scalar stamp replaced with its line break (#21)');
  assert.ok(pass(scalarLast, { offset: 8, remove: 8, insert: '"sha256:x"\n', window: w }), 'the same with the line break kept');
  // A value made a block scalar takes in the blank and comment lines below the map: they are read with it.
  const below = 'a:\n  k: v\n        \n    # c\nb: 1\n';
  assert.not.ok(pass(below, { offset: 8, remove: 1, insert: '|', window: { start: 5, end: 9, indent: 2 } }));
  // A document marker at the window's line start would start a document of its own in place.
  assert.not.ok(pass('a:\n  k: v\n', { offset: 3, remove: 0, insert: '---\n', window: { start: 5, end: 9, indent: 2 } }));
  // A window that is not a whole map (the next line is a key at its column) cannot vouch for duplicate keys.
  assert.not.ok(pass('a:\n  k: v\n  m: w\n', { offset: 8, remove: 0, insert: '\n  m: z', window: { start: 5, end: 9, indent: 2 } }));
  assert.not.ok(pass('a:\n  k: v\nb: 1\n', { offset: 12, remove: -3, insert: '\n   z', window: { start: 5, end: 9, indent: 2 } }), 'a negative removal');
  // Looking above a window on the text's second line stops at the text's start, not at the window's own line.
  assert.ok(pass('\n  k: v\n', { offset: 3, remove: 1, insert: 'k', window: { start: 3, end: 7, indent: 2 } }));
  assert.ok(pass('a:\n\n  # c\n  k: v\nb: 1\n', { offset: 15, remove: 1, insert: 'w', window: { start: 12, end: 16, indent: 2 } }), 'blank and comment lines above');
  assert.not.ok(pass('a:\n  x: 1\n  # c\n  k: v\nb: 1\n', { offset: 21, remove: 1, insert: 'w', window: { start: 18, end: 22, indent: 2 } }), 'content above at the same column');
});

test('a window that does not read sends the whole document to be read, which decides', () => {
  const edit = stamp('"sha256:x"\n  note: y');
  assert.throws(() => assertEditsReadBack(DOC, 0, true, [edit], () => DOC.replace('old', edit.insert)), /does not read back/);
  // Valid YAML that the window cannot vouch for (its map ends early) still passes when the document reads.
  const outward = { ...stamp('"sha256:x"\n  extra: y'), remove: 'old\n    note: x'.length };
  assert.not.ok(windowsReadBack(DOC, 0, [outward]));
  assertEditsReadBack(DOC, 0, true, [outward], () => DOC.replace('old\n    note: x', outward.insert));
  // A window that reads vouches for the document: the edited text is not even made (the stream writer keeps pieces).
  assertEditsReadBack(DOC, 0, true, [stamp('"sha256:x"')], (): string => {
    throw new Error('the whole text was asked for');
  });
  // Read by the yaml library: the windows are not trusted, the document is read.
  assert.throws(() => assertEditsReadBack(DOC, 0, false, [stamp('"sha256:x"# c')], () => DOC.replace('old', '"sha256:x"# c')), /does not read back/);
});

test('fn reads back the ResourceList it edited: a broken edit throws instead of being written', () => {
  const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${DOC.replace(/^(.)/gm, '  $1').replace(/^  apiVersion/, '- apiVersion')}`;
  const read = parseResourceList(list);
  assert.ok('rl' in read, 'read');
  const offset = list.indexOf('old');
  const windowed = { start: list.indexOf('rollstamp.dev/hash'), end: list.indexOf('note: x') + 7, indent: 6 };
  const fine = serializeResourceList(read.rl, [], new Map([[0, [{ offset, remove: 3, insert: '"sha256:x"', window: windowed }]]]))?.join('');
  assert.ok(fine?.includes('rollstamp.dev/hash: "sha256:x"\n      note: x\n'), fine);
  assert.throws(() => serializeResourceList(read.rl, [], new Map([[0, [{ offset, remove: 4, insert: '"sha256:x"', window: windowed }]]])), /does not read back/);
  assert.throws(() => serializeResourceList(read.rl, [], new Map([[0, [{ offset, remove: 4, insert: '"sha256:x"' }]]])), /does not read back/);
});

test.run();
