// The constructs real renders use stay on the fast path (#26): a flow collection or block scalar on the line
// below its key, plain values starting `:`, plain and quoted scalars wrapped over lines. Every document of
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
  assert.is(readSubsetStream('a: x\n  - y\n'), undefined, 'a continuation starting with an indicator is left to the library');
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

test.run();
