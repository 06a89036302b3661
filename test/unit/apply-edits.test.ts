// The per-edit rule of write/apply-edits.ts (a space before a comment, a block scalar's header comment kept, CRLF
// inserts) must hold alike for the one-edit stamp and for several edits, whose pieces are made by the same helper.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyTextEdits, lastNonEmpty, textEditPieces } from '../../function/write/apply-edits.ts';
import type { TextEdit } from '../../function/model/target.ts';

const at = (text: string, find: string, remove: number, insert: string, block?: boolean): TextEdit =>
  ({ offset: text.indexOf(find), remove, insert, ...(block ? { block } : {}) });

// Each case: a text, one edit in it, and what the text becomes. A second, empty edit elsewhere makes the same
// change through the several-edit path.
const cases: Array<[string, string, (t: string) => TextEdit, string]> = [
  ['plain replacement', 'a: old\nb: c\n', (t) => at(t, 'old', 3, 'new'), 'a: new\nb: c\n'],
  ['an empty value before a comment gets a space', 'a: # none\nb: c\n', (t) => at(t, '# none', 0, 'x'), 'a: x # none\nb: c\n'],
  ['an insert ending in a space gets none', 'a: # none\nb: c\n', (t) => at(t, '# none', 0, 'x '), 'a: x # none\nb: c\n'],
  ['a block scalar keeps its header comment and line break', 'a: | # why\n  one\n  two\n\nb: c\n', (t) => at(t, '| # why', 20, '"x"', true), 'a: "x" # why\n\nb: c\n'],
  ['CRLF text gets CRLF inserts', 'a:\r\n  b: c\r\n', (t) => at(t, '  b', 0, '  s: x\n'), 'a:\r\n  s: x\r\n  b: c\r\n'],
];

for (const [name, text, edit, expected] of cases) {
  test(`apply edits: ${name}, one edit`, () => {
    const one = edit(text);
    assert.is(applyTextEdits(text, 0, [one]), expected);
    assert.is(textEditPieces(text, 0, [one]).length, 5, 'one edit: a list of its own length');
  });
  test(`apply edits: ${name}, among several`, () => {
    const one = edit(text);
    // An empty edit at the end, listed first: the edits are applied in offset order.
    const none: TextEdit = { offset: text.length, remove: 0, insert: '' };
    assert.is(applyTextEdits(text, 0, [none, one]), expected);
  });
}

test('apply edits: offsets count from base', () => {
  const text = 'a: old\n';
  assert.is(applyTextEdits(text, 100, [{ offset: 103, remove: 3, insert: 'new' }]), 'a: new\n');
});

test('apply edits: lastNonEmpty skips the empty pieces the rule leaves', () => {
  const pieces = textEditPieces('a: old', 0, [{ offset: 3, remove: 3, insert: 'new' }]);
  assert.is(lastNonEmpty(pieces), 'new');
  assert.is(lastNonEmpty(['', '']), undefined);
});

test.run();
