// explain's JSON written as pieces (plugin/output/json-pieces.ts, #37): joined, the pieces are JSON.stringify's
// text of the same object, byte for byte, whatever its members hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { arrayPieces, jsonPieces } from '../../plugin/output/json-pieces.ts';
import { explanationJson, explanationOf } from '../../plugin/output/explain-document.ts';
import { printableJson, type Result, type TargetReport } from '../../function/index.ts';

/** Members as JSON.stringify reads them, and the same with every array member written element by element. */
function bothWays(members: Record<string, unknown>): { whole: string; pieces: string } {
  const lazy = Object.entries(members).map(([k, v]): [string, unknown] => [k, Array.isArray(v) ? arrayPieces(v.values()) : v]);
  return { whole: JSON.stringify(members, null, 2), pieces: [...jsonPieces(lazy)].join('') };
}

const CASES: Array<{ name: string; members: Record<string, unknown> }> = [
  { name: 'no members', members: {} },
  { name: 'only left-out members', members: { a: undefined, f: () => 1 } },
  { name: 'an empty array between scalars', members: { a: 1, list: [], b: 'x' } },
  { name: 'nested objects and arrays in the elements', members: { list: [{ a: [1, { b: [] }], c: {} }, [[]], 'two'] } },
  { name: 'elements JSON has no text for', members: { list: [undefined, () => 1, Symbol('s'), null] } },
  { name: 'escaped line breaks, quotes and non-ASCII in strings and keys', members: { 'k"\n': ['line\nbreak', 'tab\t', 'é → 中 😀', '\u2028'] } },
  { name: 'a left-out member first and last', members: { a: undefined, list: [1, 2], z: undefined } },
  { name: 'a toJSON inside an element', members: { list: [new Date(0), { toJSON: () => 'x' }] } },
];

for (const { name, members } of CASES) {
  test(`json pieces join to JSON.stringify's text: ${name}`, () => {
    const { whole, pieces } = bothWays(members);
    assert.is(pieces, whole);
  });
}

test('explain -o json as pieces is the Explanation document stringified whole', () => {
  const target = (name: string, changed: boolean): TargetReport => ({
    resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    field: { path: 'spec.template.metadata.annotations' },
    hash: 'sha256:ab',
    ...(changed ? {} : { previous: 'sha256:ab' }),
    changed,
    sources: [],
  }) as unknown as TargetReport;
  const targets = [target('web', true), target('wörker', false), target('api', true)];
  const results = [{ message: 'stamped', severity: 'info', tags: { code: 'STAMPED' } }] as unknown as Result[];
  for (const [t, r] of [[targets, results], [[], []]] as const) {
    const whole = `${printableJson(JSON.stringify(explanationOf(t, r), null, 2))}\n`;
    assert.is([...explanationJson(t, r)].join(''), whole);
  }
});

test('json pieces make each element only when it is asked for', () => {
  let made = 0;
  function* items(): Generator<number> {
    for (let i = 0; i < 3; i++) yield ++made;
  }
  const pieces = jsonPieces([['list', arrayPieces(items())]]);
  assert.is(pieces.next().value, '{\n  "list": [\n    1');
  assert.is(made, 1);
});

test.run();
