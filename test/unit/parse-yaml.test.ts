// addDuplicateKeyErrors makes the yaml library's own uniqueKeys check in linear time (#12): for each text,
// the DUPLICATE_KEY errors (count and positions) equal those the library reports with uniqueKeys on. And the
// nesting limit: text the yaml library could not compose on every run alike is refused with one message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineCounter, parseAllDocuments } from 'yaml';
import { addDuplicateKeyErrors, MAX_YAML_NESTING, PARSE_OPTIONS, parseTokens, parseYamlDocument, tooDeepError, yamlErrorResult } from '../../function/read/parse-yaml.ts';

const CASES: Array<[string, string, number]> = [
  ['block map', 'a: 1\nb: 2\na: 3\n', 1],
  ['three times', 'a: 1\na: 2\na: 3\n', 2],
  ['flow map', '{a: 1, b: 2, a: 3}\n', 1],
  ['nested maps are separate', 'a: {x: 1}\nb: {x: 2}\n', 0],
  ['inside a nested map', 'a:\n  x: 1\n  x: 2\n', 1],
  ['inside a sequence', '- {x: 1, x: 2}\n- x: 1\n  x: 2\n', 2],
  ['a quoted key equals a plain one', 'a: 1\n"a": 2\n', 1],
  ['1 and "1" differ', '1: a\n"1": b\n', 0],
  ['0x1 and 1 are both 1', '0x1: a\n1: b\n', 1],
  ['true twice', 'true: a\ntrue: b\n', 1],
  ['null keys', '? \n: a\n~: b\n', 1],
  ['.nan is never equal', '.nan: a\n.nan: b\n', 0],
  ['an anchored key', '&k a: 1\na: 2\n', 1],
  ['alias keys are not compared by value', 'x: &k a\n*k : 1\na: 2\n', 0],
  ['collection keys are never equal', '? [a]\n: 1\n? [a]\n: 2\n', 0],
  ['several documents', 'a: 1\na: 2\n---\nb: 1\nb: 2\n', 2],
  ['a big map with one repeat at the end', `${Array.from({ length: 2000 }, (_, i) => `k${i}: v`).join('\n')}\nk7: again\n`, 1],
];

const dupPositions = (docs: ReturnType<typeof parseAllDocuments>): number[][] =>
  (Array.isArray(docs) ? docs : [docs]).flatMap((d) => d.errors.filter((e) => e.code === 'DUPLICATE_KEY').map((e) => [...e.pos]));

for (const [name, text, count] of CASES) {
  test(`duplicate keys, ${name}: the same errors as the yaml library's uniqueKeys (${count})`, () => {
    const theirs = dupPositions(parseAllDocuments(text, { ...PARSE_OPTIONS, uniqueKeys: true }));
    const docs = parseAllDocuments(text, PARSE_OPTIONS);
    assert.is(dupPositions(docs).length, 0, 'PARSE_OPTIONS leaves the check to addDuplicateKeyErrors');
    for (const d of Array.isArray(docs) ? docs : [docs]) addDuplicateKeyErrors(d);
    const ours = dupPositions(docs);
    assert.is(theirs.length, count, 'the library finds the expected number');
    assert.equal(ours, theirs);
  });
}


// The nesting limit: 256 nested collections are composed, 257 are refused before the yaml library recurses,
// in flow and in block form, and a parser that runs out of stack gives the very same error.
const nested = (levels: number, form: 'flow' | 'block'): string => (form === 'flow' ? `${'['.repeat(levels)}${']'.repeat(levels)}\n` : `${'- '.repeat(levels)}x\n`);
for (const form of ['flow', 'block'] as const) {
  test(`${form} nesting: ${MAX_YAML_NESTING} levels are read, one more is refused`, () => {
    assert.equal(parseYamlDocument(nested(MAX_YAML_NESTING, form)).errors, []);
    const errors = parseYamlDocument(nested(MAX_YAML_NESTING + 1, form)).errors;
    assert.equal(errors.map((e) => e.code), ['RESOURCE_EXHAUSTION']);
    const read = parseTokens(nested(MAX_YAML_NESTING + 1, form));
    assert.ok('tokens' in read && tooDeepError(read.tokens) !== undefined);
  });
}

test('a parser stack overflow and the depth check print one message, without a position', () => {
  const lines = new LineCounter();
  const overflow = parseTokens(`${'- '.repeat(50_000)}x\n---\na: 1\n`, lines);
  assert.ok('error' in overflow, 'the parser recursed past the stack');
  const checked = parseTokens(nested(MAX_YAML_NESTING + 1, 'flow'), lines);
  const fromCheck = 'tokens' in checked ? tooDeepError(checked.tokens) : undefined;
  const message = (err: Parameters<typeof yamlErrorResult>[0]): string => yamlErrorResult(err, lines, undefined).message;
  assert.is(message(overflow.error), `invalid YAML in input: nesting too deep (the limit is ${MAX_YAML_NESTING} levels)`);
  assert.is(message(fromCheck!), message(overflow.error));
});

test.run();
