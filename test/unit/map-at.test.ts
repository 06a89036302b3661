// mapAt (function/model/map-at.ts) walks keys as NodeReader.mapIn does, without copying the path (#37): for every
// shape on the way (maps, absent keys, null, scalars, lists, aliases) it must find the same map and report the same
// results, in order.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { fromYaml } from '../../function/read/from-yaml.ts';
import { mapAt, ROOT_PATH } from '../../function/model/map-at.ts';
import { NodeReader, type FieldPath } from '../../function/model/nodes.ts';
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

test('mapAt finds what mapIn finds and reports what it reports, for every shape on the way', () => {
  let reported = 0;
  for (const text of documents) {
    const root = fromYaml(parseDocument(text, PARSE_OPTIONS).contents);
    for (const keys of paths) for (const base of bases) {
      const wanted: Result[] = [];
      const got: Result[] = [];
      const want = new NodeReader(subject, wanted).mapIn(root, base, keys);
      const found = mapAt(root, base, keys, new NodeReader(subject, got));
      assert.is(found, want, `${JSON.stringify(text)} ${keys.join('.')}`);
      assert.equal(got, wanted, `${JSON.stringify(text)} ${keys.join('.')}`);
      reported += wanted.length;
    }
  }
  assert.ok(reported > 0, 'some walks report a wrong type');
});

test('mapAt leaves the path it is given as it was', () => {
  const root = fromYaml(parseDocument('spec: {a: 1}\n', PARSE_OPTIONS).contents);
  const base = ['items', 0];
  mapAt(root, base, ['spec', 'a'], new NodeReader(subject, []));
  assert.equal(base, ['items', 0]);
});

test.run();
