// Config text is read by one core function (function/config/config-object.ts) wherever settings arrive — a
// --config file, .rollstamp.yaml, a ResourceList's functionConfig — so each source is refused with the same
// line, naming itself (#36).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfigObject } from '../../function/config/config-object.ts';
import { runInProcess } from '../support/run-cli.ts';
import { removeTempDirs, tempDir } from '../support/temp-dirs.ts';

const ALIASED = `apiVersion: rollstamp.dev/v1alpha1
kind: RollstampConfig
spec:
  targets: &t all
  onMissing: *t
`;
const UNSAFE = 'aliases, merge keys and deep nesting are not allowed in the config';

test('text and an already-read node come back as the same plain object', () => {
  assert.equal(readConfigObject({ text: 'apiVersion: v1\nkind: ConfigMap\ndata: {targets: all}\n' }, 'f.yaml'), { object: { apiVersion: 'v1', kind: 'ConfigMap', data: { targets: 'all' } } });
  assert.equal(readConfigObject({ text: '{"kind": "ConfigMap", "data": {"a": "1"}}' }, 'f.json'), { object: { kind: 'ConfigMap', data: { a: '1' } } });
  assert.equal(readConfigObject({ text: '' }, 'f.yaml'), { object: undefined }, 'empty text: the defaults');
  assert.equal(readConfigObject({ node: null }, 'functionConfig'), { object: undefined }, 'no functionConfig: the defaults');
});

test('invalid YAML and aliases are refused with one line naming the source', () => {
  assert.equal(readConfigObject({ text: 'spec: [unclosed\n' }, 'c.yaml'), { error: 'c.yaml: invalid YAML in config file' });
  assert.equal(readConfigObject({ text: ALIASED }, 'c.yaml'), { error: `c.yaml: ${UNSAFE}` });
  assert.equal(readConfigObject({ text: 'a: {<<: {b: 1}}\n' }, 'parameter kinds'), { error: `parameter kinds: ${UNSAFE}` });
});

test('--config, .rollstamp.yaml and a functionConfig refuse the same aliased settings with the same line', async () => {
  const dir = tempDir('rollstamp-config-object-');
  writeFileSync(join(dir, 'config.yaml'), ALIASED);
  writeFileSync(join(dir, '.rollstamp.yaml'), ALIASED);
  writeFileSync(join(dir, 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
  const flag = await runInProcess(['stamp', '--config', 'config.yaml', 'app.yaml'], { cwd: dir });
  const app = await runInProcess(['generate'], { cwd: dir });
  const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n${ALIASED.replace(/^/gm, '  ').trimEnd()}\n`;
  const fn = await runInProcess(['fn'], { stdin: list, cwd: dir });
  assert.equal([flag.code, app.code, fn.code], [1, 1, 1]);
  assert.is(flag.stderr, `rollstamp: error: config.yaml: ${UNSAFE}\n`);
  assert.is(app.stderr, `rollstamp: error: .rollstamp.yaml: ${UNSAFE}\n`);
  assert.is(fn.stderr, `rollstamp: error: functionConfig: ${UNSAFE}\n`);
  assert.equal([flag.stdout, app.stdout, fn.stdout], ['', '', '']);
  removeTempDirs();
});

test.run();
