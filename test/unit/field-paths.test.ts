// A reference's field path made once per distinct path (#37): the text must be formatPath's for every path, in
// whatever order paths and their prefixes come, and still past the table's size.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fieldPath } from '../../function/discover/field-paths.ts';
import { formatPath, type FieldPath } from '../../function/model/nodes.ts';

const paths: FieldPath[] = [
  [],
  ['spec'],
  ['spec', 'template', 'spec', 'containers', 0, 'env', 1, 'valueFrom', 'secretKeyRef'],
  ['spec', 'template', 'spec', 'containers', 0, 'env', '1', 'valueFrom'],
  ['spec', 'template', 'spec', 'containers', 0],
  ['metadata', 'annotations', 'rollstamp.dev/hash'],
  ['metadata', 'annotations', 'a b', 0, 'x"y'],
  [0, 'spec'],
  ['0', 'spec'],
  ['spec', 'volumes', 12, 'projected', 'sources', 3, 'configMap'],
];

test('fieldPath gives formatPath\'s text, for a path, its prefixes and numbers written as strings alike', () => {
  for (let round = 0; round < 3; round++) for (const path of round === 1 ? [...paths].reverse() : paths) assert.is(fieldPath(path), formatPath(path), JSON.stringify(path));
});

test('fieldPath gives formatPath\'s text past the most paths it keeps', () => {
  for (let i = 0; i < 6000; i++) {
    const path = ['spec', 'containers', i % 7, 'env', i, i % 2 === 0 ? 'valueFrom' : 'not plain'];
    assert.is(fieldPath(path), formatPath(path), JSON.stringify(path));
  }
  for (const path of paths) assert.is(fieldPath(path), formatPath(path), JSON.stringify(path));
});

test.run();
