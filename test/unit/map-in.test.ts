// NodeReader.mapIn walks keys without copying the path, and walks again with it only to name a wrong step (#37): for
// every shape on the way (maps, absent keys, null, scalars, lists, aliases) it must find the same map and report the
// same results, in order, as the walk that carries the path at every step, written here plainly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { fromYaml } from '../../function/read/from-yaml.ts';
import { child, NodeReader, ROOT_PATH, type FieldPath, type MapNode } from '../../function/model/nodes.ts';
import type { Result } from '../../function/model/results.ts';

const subject = { ref: { apiVersion: 'v1', kind: 'Pod', name: 'p' } };

const documents = [
  'spec:\n  template:\n    metadata:\n      annotations: {a: b}\n',
  'spec:\n  template:\n    metadata:\n      annotations:\n',
  'spec:\n  template:\n    metadata: null\n',
  'spec:\n  template:\n    metadata: 3\n',
  'spec:\n  template: [1, 2]\n',
  'spec: text\n',
  'other: {}\n',
  'spec:\n  template:\n    metadata:\n      annotations: plain\n',
  'x: &m {k: v}\nspec:\n  template: *m\n',
  '{}\n',
];
const paths: string[][] = [[], ['spec'], ['spec', 'template'], ['spec', 'template', 'metadata', 'annotations'], ['spec', 'missing', 'metadata']];
const bases: FieldPath[] = [ROOT_PATH, ['items', 3]];

/** The walk mapIn stands for: every step asked of reader.map with the path so far. */
function walkNaming(reader: NodeReader, node: unknown, base: FieldPath, keys: readonly string[]): MapNode | undefined {
  let cur = node;
  const path = [...base];
  for (const key of keys) {
    const m = reader.map(cur, path);
    if (!m) return undefined;
    path.push(key);
    cur = child(m, key);
  }
  return reader.map(cur, path);
}

test('mapIn finds what the naming walk finds and reports what it reports, for every shape on the way', () => {
  let reported = 0;
  for (const text of documents) {
    const root = fromYaml(parseDocument(text, PARSE_OPTIONS).contents);
    for (const keys of paths) for (const base of bases) {
      const wanted: Result[] = [];
      const got: Result[] = [];
      const want = walkNaming(new NodeReader(subject, wanted), root, base, keys);
      const found = new NodeReader(subject, got).mapIn(root, base, keys);
      assert.is(found, want, `${JSON.stringify(text)} ${keys.join('.')}`);
      assert.equal(got, wanted, `${JSON.stringify(text)} ${keys.join('.')}`);
      reported += wanted.length;
    }
  }
  assert.ok(reported > 0, 'some walks report a wrong type');
});

test('mapIn leaves the path it is given as it was', () => {
  const root = fromYaml(parseDocument('spec: {a: 1}\n', PARSE_OPTIONS).contents);
  const base = ['items', 0];
  new NodeReader(subject, []).mapIn(root, base, ['spec', 'a']);
  assert.equal(base, ['items', 0]);
});

test.run();
