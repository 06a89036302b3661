// The light node model (function/model/nodes.ts) as both front-ends build it: the yaml library's trees through
// read/from-yaml.ts (aliases, explicit keys, comments, CRLF) and the subset reader's; the safety walk, the one
// depth limit both share, and plain-data conversion that never touches a prototype.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { fromYaml } from '../../function/read/from-yaml.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { blockIndent, child, childIn, findUnsafeNode, flowStart, isAlias, isMapNode, isScalarNode, isSeqNode, keyOffset, leadingCommentOffset, scalarRange, stringValue, toPlain, type MapNode } from '../../function/model/nodes.ts';
import { MAX_DEPTH } from '../../function/model/target.ts';

const viaYaml = (text: string): MapNode => {
  const node = fromYaml(parseDocument(text, PARSE_OPTIONS).contents);
  assert.ok(isMapNode(node), 'the document is a map');
  return node as MapNode;
};

test('from-yaml: aliases become alias nodes, and the safety walk names where', () => {
  const root = viaYaml('a: &x {b: 1}\nc:\n  d: *x\n');
  assert.ok(isAlias(childIn(root, ['c', 'd'])));
  assert.equal(findUnsafeNode(root, MAX_DEPTH), { problem: 'alias', path: ['c', 'd'] });
});

test('from-yaml: a plain merge key is found, a quoted one is an ordinary key', () => {
  assert.equal(findUnsafeNode(viaYaml('a:\n  <<: {b: 1}\n'), MAX_DEPTH)?.problem, 'merge');
  assert.is(findUnsafeNode(viaYaml('a:\n  "<<": {b: 1}\n'), MAX_DEPTH), undefined);
});

test('from-yaml: layout facts — key column, explicit first key, flow `{`, comment above a block value', () => {
  const root = viaYaml('top:\n    # note\n    k: v\nflow: { a: b }\n');
  assert.is(blockIndent(root), 0);
  assert.is(keyOffset(root), 0);
  assert.is(blockIndent(child(root, 'top')), 4);
  assert.is(leadingCommentOffset(root, 0, 4), 9);
  assert.is(leadingCommentOffset(root, 0, 2), undefined);
  assert.is(flowStart(child(root, 'flow')), 31);
  const explicit = viaYaml('? a\n: b\nc: d\n');
  assert.is(keyOffset(explicit), undefined);
  assert.is(stringValue(child(explicit, 'c')), 'd');
});

test('from-yaml: CRLF text keeps value ranges and quote styles', () => {
  const text = 'a: "x"\r\nb: 12\r\nc: [1, two]\r\n';
  const root = viaYaml(text);
  const a = child(root, 'a');
  assert.ok(isScalarNode(a) && a.style === 'double');
  assert.equal(scalarRange(a), [3, 6]);
  assert.is(text.slice(...scalarRange(child(root, 'b'))!), '12');
  assert.is((child(root, 'b') as { value: unknown }).value, 12);
  const c = child(root, 'c');
  assert.ok(isSeqNode(c) && c.flow && c.items.length === 2);
});

test('both front-ends build equal trees for a manifest', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels: {app: web}\ndata:\n  # keys\n  a: "1"\n  b: |\n    line\nlist:\n- x\n- k: v\n';
  const fast = readSubsetStream(text)?.[0]?.contents;
  assert.ok(fast, 'the subset reader accepts the manifest');
  assert.equal(toPlain(fast), toPlain(viaYaml(text)));
  assert.is(leadingCommentOffset(fast, 3, 2), leadingCommentOffset(viaYaml(text), 3, 2));
  assert.is((childIn(fast, ['list']) as { start: number }).start, (childIn(viaYaml(text), ['list']) as { start: number }).start);
});

test('one depth limit: the subset reader reads what the safety walk accepts and declines the rest', () => {
  const nested = (levels: number): string => Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' x\n';
  const deepest = readSubsetStream(nested(MAX_DEPTH));
  assert.ok(deepest, `${MAX_DEPTH} levels are read by the subset reader`);
  assert.is(findUnsafeNode(deepest[0]!.contents, MAX_DEPTH), undefined);
  assert.is(readSubsetStream(nested(MAX_DEPTH + 1)), undefined);
  assert.is(findUnsafeNode(viaYaml(nested(MAX_DEPTH + 1)), MAX_DEPTH)?.problem, 'depth');
});

test('the subset reader declines merge keys (the yaml front-end and the safety walk report them)', () => {
  assert.is(readSubsetStream('a:\n  <<: {b: 1}\n'), undefined);
  assert.is(readSubsetStream('a: {<<: b}\n'), undefined);
  assert.ok(readSubsetStream('a:\n  "<<": b\n'));
});

test('toPlain: `__proto__` is an own key, never the prototype', () => {
  const plain = toPlain(viaYaml('__proto__:\n  polluted: true\nb: [1, null, "x"]\n')) as Record<string, unknown>;
  assert.ok(Object.prototype.hasOwnProperty.call(plain, '__proto__'));
  assert.is(Object.getPrototypeOf(plain), Object.prototype);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(plain.b, [1, null, 'x']);
});

test.run();
