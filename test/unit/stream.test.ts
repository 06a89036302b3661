import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResourceList } from '../../function/read/resource-list.ts';
import { parseStream, streamItems } from '../../function/read/stream.ts';
import { serializeResourceList } from '../../function/write/resource-list.ts';
import { serializeStream } from '../../function/write/stream.ts';

const STREAM = '# head\napiVersion: v1\nkind: A\n---\n# c\nkind: B\nx: {a: 1}\n...\n---\nkind: C\nitems:\n- 0755\n- yes\n';

test('an untouched stream is printed byte for byte', () => {
  const r = parseStream(STREAM, 'f.yaml');
  assert.ok('docs' in r);
  if ('docs' in r) assert.is(serializeStream(r.docs, new Map())?.join(''), STREAM);
});

test('a changed document without a text edit: re-rendered after a full read, refused (undefined) after a fast one', () => {
  const text = 'kind: A\n---\nkind: B # kept\nx: 1\n';
  for (const mode of ['fast', 'full'] as const) {
    const r = parseStream(text, 'f.yaml', mode);
    assert.ok('docs' in r);
    if (!('docs' in r)) continue;
    assert.is(r.docs[1]!.doc === undefined, mode === 'fast', `${mode}: read by the ${mode === 'fast' ? 'subset reader' : 'yaml library'}`);
    const { items } = streamItems(r.docs);
    assert.is(items.length, 2);
    assert.is(r.docs[1]!.contents, undefined, 'the document let its root go: the items hold the tree');
    assert.is(items[1]!.readBy === 'yaml', mode === 'full', `${mode}: a stamp is written into the tree only when the document can be printed again`);
    const out = serializeStream(r.docs, new Map([[1, [undefined]]]))?.join('');
    assert.is(out, mode === 'fast' ? undefined : text);
  }
});

test('YAML errors carry file, document index, line and column, never source text', () => {
  const r = parseStream('a: 1\n---\nsecret: hunter2\nsecret: hunter3\n', 'g.yaml');
  assert.ok('results' in r);
  if ('results' in r) {
    assert.equal(r.results.map((x) => [x.message, x.file]), [['invalid YAML: duplicate key at line 4, column 1', { path: 'g.yaml', index: 1 }]]);
    assert.not.match(JSON.stringify(r.results), /hunter/);
  }
});

test('a ResourceList without items is refused', () => {
  const r = parseResourceList('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n');
  assert.equal('results' in r ? r.results.map((x) => x.message) : [], ['ResourceList has no items']);
});

test('a comment right after "- " stays inside its item (no doubling under kpt)', () => {
  const text = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- # the web app\n  apiVersion: v1\n  kind: ConfigMap\n';
  for (const mode of ['fast', 'full'] as const) {
    const r = parseResourceList(text, mode);
    assert.ok('rl' in r);
    if (!('rl' in r)) continue;
    assert.is(r.rl.doc === undefined, mode === 'fast', `${mode}: read by the ${mode === 'fast' ? 'subset reader' : 'yaml library'}`);
    const out = serializeResourceList(r.rl, [])?.join('') ?? '';
    assert.is(out.split('# the web app').length, 2);
    assert.match(out, /items:\n {2}- # the web app\n|items:\n- # the web app\n|# the web app\n\s+apiVersion/);
    assert.not.match(out, /# the web app\n- /);
  }
});

test('a JSON ResourceList is answered in JSON', () => {
  const r = parseResourceList('{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[]}');
  assert.ok('rl' in r);
  if ('rl' in r) assert.equal(JSON.parse(serializeResourceList(r.rl, [])?.join('') ?? ''), { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [] });
});

test.run();
