// The constructs real renders use stay on the fast path (#26): a flow collection or block scalar on the line
// below its key, plain values starting `:`, plain and quoted scalars wrapped over lines (also before a line
// starting `-`, a quote, `\` or a backquote), block scalars with no line. Every document of
// fixtures/real-shapes/ is read by the subset reader, and the values it reads are YAML's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMapNode, isScalarNode, isSeqNode, type MapNode, type Node, type SeqNode } from '../../function/model/nodes.ts';
import { streamDocuments } from '../../function/read/stream-documents.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';

const SHAPES = new URL('../../fixtures/real-shapes/', import.meta.url).pathname;

/** The value at `path` (keys, or list indexes) of the only document of `text`, as the subset reader reads it. */
function valueAt(text: string, ...path: (string | number)[]): unknown {
  const docs = readSubsetStream(text);
  assert.ok(docs?.length === 1, `the subset reader read ${JSON.stringify(text)}`);
  let node: Node | null = docs![0]!.contents;
  for (const step of path) {
    const here = node as Node | null;
    if (typeof step === 'number' && here?.kind === 'seq') node = (here as SeqNode).items[step] ?? null;
    else if (typeof step === 'string' && here?.kind === 'map') node = (here as MapNode).items.find((p) => isScalarNode(p.key) && p.key.value === step)?.value ?? null;
    else node = null;
  }
  if (node && isScalarNode(node)) return node.value;
  if (node && isMapNode(node)) return { map: node.items.length, flow: node.flow };
  if (node && isSeqNode(node)) return { seq: node.items.length, flow: node.flow };
  return undefined;
}

test('every document of the real-shape fixtures is read by the fast path (#26)', () => {
  const cases = readdirSync(SHAPES);
  assert.ok(cases.length >= 4, 'real-shape cases found');
  for (const name of cases) {
    const text = readFileSync(join(SHAPES, name, 'input.yaml'), 'utf8');
    const docs = [...streamDocuments(text, 'input.yaml')];
    assert.ok(docs.length >= 2, `${name}: documents read`);
    for (const [i, d] of docs.entries()) assert.is(d.readBy, 'subset', `${name}: document ${i} read by ${d.readBy}`);
  }
});

test('a flow collection on the line below its key is that collection (#26)', () => {
  assert.equal(valueAt('a:\n  {}\nb: 1\n', 'a'), { map: 0, flow: true });
  assert.equal(valueAt('a:\n  [x, y]\n', 'a'), { seq: 2, flow: true });
  assert.equal(valueAt('a:\n-\n  []\n', 'a', 0), { seq: 0, flow: true });
});

test('a plain value may begin with `:` (#26)', () => {
  assert.is(valueAt('args:\n- :9121\n', 'args', 0), ':9121');
  assert.is(valueAt('a: ::1\n', 'a'), '::1');
  assert.is(readSubsetStream(':a: 1\n'), undefined, 'a key starting `:` is left to the yaml library');
});

test('wrapped plain scalars fold: a break is a space, an empty line a line break (#26)', () => {
  assert.is(valueAt('a: one two\n  three\n\n  four\nb: 1\n', 'a'), 'one two three\nfour');
  assert.is(valueAt('a:\n  one\n  two\n', 'a'), 'one two');
  assert.is(valueAt('a: 1\n  2\n', 'a'), '1 2');
  assert.is(readSubsetStream('a: x\n  &y z\n'), undefined, 'a continuation starting with an indicator is left to the library');
  assert.is(readSubsetStream('a: x\n  k: v\n'), undefined);
});

test('wrapped quoted scalars fold, and `\\` before a break joins the lines (#26)', () => {
  assert.is(valueAt('a: "one  \n   two\n\n  three"\n', 'a'), 'one two\nthree');
  assert.is(valueAt('a: "one\\\n  two"\n', 'a'), 'onetwo');
  assert.is(valueAt('a: "one\\ \n  two"\n', 'a'), 'one  two');
  assert.is(valueAt("a: 'it''s\n  wrapped'\n", 'a'), "it's wrapped");
  assert.is(readSubsetStream('a: "one\ntwo"\n'), undefined, 'a continuation not indented past its key is left to the library');
  assert.is(valueAt('a:\n- "one\n  two"\n', 'a', 0), 'one two', 'a list entry');
  assert.is(valueAt('a:\n  "one\n  two"\n', 'a'), 'one two', 'on the line below its key');
});

test('a block scalar header on the line below its key (#26)', () => {
  assert.is(valueAt('a:\n  |-\n    x\n    y\nb: 1\n', 'a'), 'x\ny');
  assert.is(valueAt('a:\n  |\n  x\n', 'a'), 'x\n');
  assert.is(valueAt('a:\n  >\n    x\n    y\n', 'a'), 'x y\n');
});

test('a block scalar with no line under it is empty (#26)', () => {
  assert.is(valueAt('a: |-\nb: 1\n', 'a'), '');
  assert.is(valueAt('a: |\n\n  \nb: 1\n', 'a'), '', 'empty lines are not content, and clip keeps no break of an empty scalar');
  assert.is(valueAt('a: >\n', 'a'), '');
  assert.is(valueAt('a: |-', 'a'), '', 'at the end of the text, without a line break');
  assert.is(valueAt('a:\n- |-\n- x\n', 'a', 0), '', 'a list entry');
  assert.is(valueAt('a:\n  b: |\n  c: 1\n', 'a', 'b'), '', 'in a nested map');
  assert.is(valueAt('a: |\n# c\nb: 1\n', 'a'), '', 'a comment no deeper than the key ends it');
  assert.is(valueAt('a: |\n\n  # c\nb: 1\n', 'a'), '\n# c\n', 'a deeper `#` line is content');
  const docs = readSubsetStream('a: |-\n\nb: 1\n');
  const value = docs?.[0]?.contents?.items[0]?.value;
  assert.ok(value && isScalarNode(value) && value.start === 3 && value.end === 7, 'it ends where the next line starts, past its empty lines');
  assert.is(readSubsetStream('a: |+\n\nb: 1\n'), undefined, 'kept empty lines (`+`) are left to the library');
  assert.is(readSubsetStream('a: |\n# c\n  b: 1\n'), undefined, 'a deeper line after the comment is an error the library reports');
});

test('a wrapped plain scalar goes on over lines starting `-`, a quote, `\\` or a backquote (#26)', () => {
  assert.is(valueAt('a: one\n  - two\nb: 1\n', 'a'), 'one - two');
  assert.is(valueAt('a:\n- one\n  - two\n', 'a', 0), 'one - two', 'a list entry');
  assert.is(valueAt('a: one\n  -two\n', 'a'), 'one -two');
  assert.is(valueAt('a: one\n  "two" three\n', 'a'), 'one "two" three');
  assert.is(valueAt("a: one\n  'two\n", 'a'), "one 'two");
  assert.is(valueAt('a: trims\n  \\n or \\t\n', 'a'), 'trims \\n or \\t', 'no escapes in a plain scalar');
  assert.is(valueAt('a: when\n  `b` is set\n', 'a'), 'when `b` is set');
  assert.is(readSubsetStream('a: one\n  - two: 2\n'), undefined, 'a `: ` in the line is an error the library reports');
  assert.is(readSubsetStream('a:\n  - one\n  - two\n') === undefined, false, 'a list below its key is still a list');
  assert.equal(valueAt('a:\n  - one\n  - two\n', 'a'), { seq: 2, flow: false });
  for (const c of ['&', '*', '!', '|', '>', '[', '{', '?', '%', '@']) {
    assert.is(readSubsetStream(`a: one\n  ${c}two\n`), undefined, `a continuation starting \`${c}\` is left to the library`);
  }
  assert.is(readSubsetStream('a: `one`\n'), undefined, 'a plain scalar may not start with a backquote');
});

test.run();
