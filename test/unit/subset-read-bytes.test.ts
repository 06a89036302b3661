// The searches and shortcuts the subset reader takes per byte (#37) decide exactly what the regular expressions
// and full resolution they replace decided.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { splitDocuments } from '../../function/read/stream-documents.ts';
import { markerLines, plainSubsetText, readSubsetStream } from '../../function/read/subset-yaml.ts';
import { lineStarting } from '../../function/read/subset-scalars.ts';
import type { ScalarNode } from '../../function/model/nodes.ts';

/** The definitions the searches replace. */
const UNUSUAL_LINE = /^(?:%|\.\.\.|---[^ \n])/m;
const MARKER = /^---(?= |\n|$)/gm;

const LINES = ['a: 1', '---', '--- ', '--- # c', '---a', '----', '---\t', ' ---', 'a---', '...', '... ', ' ...', 'a...', '%YAML 1.2', ' %', 'a%', '- a', '#---', '', '-- -'];

/** Every text of up to three of LINES, with and without a last line break. */
function* texts(): Generator<string> {
  for (const a of LINES)
    for (const b of LINES) {
      yield `${a}\n${b}`;
      yield `${a}\n${b}\n`;
      for (const c of ['---', '...', 'x']) yield `${a}\n${b}\n${c}`;
    }
}

test('plainSubsetText refuses exactly the lines the multiline expression finds', () => {
  for (const text of texts()) {
    if (/\t/.test(text)) continue; // a tab is refused before lines are looked at
    assert.is(plainSubsetText(text), !UNUSUAL_LINE.test(text), JSON.stringify(text));
  }
});

test('markerLines finds the markers the expression finds, in order, from where it is asked', () => {
  for (const text of texts()) {
    if (/\t/.test(text)) continue;
    const expected = [...text.matchAll(MARKER)].map((m) => m.index);
    assert.equal(markerLines(text, 0, []), expected, JSON.stringify(text));
    // From 1, after what the list holds already (the stream splitter's first start is 0).
    assert.equal(markerLines(text, 1, [0]), [0, ...expected.filter((m) => m > 0)], JSON.stringify(text));
  }
  assert.is(lineStarting('a%\n%b', '%', 0), 3);
  assert.is(lineStarting('a%\n b%', '%', 0), -1);
});

test('a plain stream is cut at the same offsets by the search as by the expression', () => {
  for (const text of texts()) {
    if (!plainSubsetText(text)) continue;
    assert.equal(splitDocuments(text, true), splitDocuments(text), JSON.stringify(text));
  }
});

test('plain scalars resolve as the yaml library resolves them, whatever their first letter and length', () => {
  const words = ['null', 'Null', 'NULL', 'nul', 'nulls', 'nUll', 'true', 'True', 'TRUE', 'tru', 'truee', 'false', 'False', 'FALSE', 'fals', 'falsey', 'n', 'N', 't', 'f', '~', '~a', 'name', 'type', 'token', 'Nope', 'nulla', 'F', 'tRUE', 'fALSE'];
  const numbers = ['0', '12', '-3', '+4', '.5', '1e3', '0x1F', '0o17', '.inf', '-.Inf', '.nan', '1.', '1.2.3', '0x', '12a', '-', '+', '.', '..'];
  for (const word of [...words, ...numbers]) {
    const text = `k: ${word}\n`;
    const read = readSubsetStream(text);
    const expected = (parseDocument(text, PARSE_OPTIONS).toJS() as { k: unknown }).k;
    if (!read) continue; // left to the yaml library
    const value = ((read[0]!.contents!.items[0]!.value) as ScalarNode).value;
    assert.ok(Object.is(value, expected), `${word}: ${String(value)} against ${String(expected)}`);
  }
  // Read twice: the second answer comes from what the first one resolved.
  for (const word of ['true', 'nulls', '8080']) {
    const values = [0, 1].map(() => ((readSubsetStream(`k: ${word}\n`)![0]!.contents!.items[0]!.value) as ScalarNode).value);
    assert.ok(Object.is(values[0], values[1]), word);
  }
});

test.run();
