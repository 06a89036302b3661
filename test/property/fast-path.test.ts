// Issue #6: the fast path (the subset reader, documents passed through as their text) prints what the
// full-parse path prints (ROLLSTAMP_READER=full: every input read by the yaml library) — the same stdout,
// stderr and exit code for rendered bundles and ResourceLists in random formats, and for benchmark bundles;
// and the fast path is really taken for the plain ones. The golden cases are compared in test/golden/differential.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { asResourceList, asStream, bundleDocuments } from '../../bench/generate-bundle.ts';
import { splitResourceList } from '../../function/read/resource-list-items.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { bothReaders } from '../support/both-readers.ts';
import { runInProcess } from '../support/run-cli.ts';
import { bundleDocs, caseSeed, genBundle, resourceListDoc, Rng } from '../support/property-generate.ts';
import { render } from '../support/property-harness.ts';
import { randomFormat, RENDERER_LIKE, renderStream } from '../support/property-render.ts';

test('rendered bundles in random formats (and with every workload a target): the same output either way', async () => {
  let fast = 0;
  let fastRendered = 0;
  for (let i = 0; i < 150; i++) {
    const rng = new Rng(caseSeed(0xfa57_0001, i));
    // Every third case also writes the shapes real renders use (#26): they must stay on the fast path.
    const style = i % 3 === 0 ? { ...randomFormat(rng), ...RENDERER_LIKE } : randomFormat(rng);
    const text = render(genBundle(rng).bundle, style, rng);
    const args = i % 2 === 0 ? ['stamp', '-'] : ['stamp', '--targets', 'all', '-'];
    await bothReaders(args, { stdin: text }, `bundle case ${i}`);
    if (readSubsetStream(text)) {
      fast++;
      if (style.rendered > 0) fastRendered++;
    }
  }
  assert.ok(fast > 15, `only ${fast} of 150 bundles took the fast path`);
  assert.ok(fastRendered > 35, `only ${fastRendered} of 50 renderer-like bundles took the fast path`);
});

test('a benchmark bundle of 1,000 objects: the same output either way, stamps written', async () => {
  const text = asStream(bundleDocuments(1000));
  assert.ok(readSubsetStream(text), 'the benchmark bundle takes the fast path');
  const fast = await bothReaders(['stamp', '-'], { stdin: text }, 'bench bundle');
  assert.is(fast.code, 0);
  assert.ok((fast.stdout.match(/rollstamp\.dev\/hash: "/g) ?? []).length >= 400, 'the targets were stamped');
});

test('fn: ResourceLists in random formats (with results already in some) print the same either way', async () => {
  let fast = 0;
  let fallBack = 0;
  for (let i = 0; i < 150; i++) {
    const rng = new Rng(caseSeed(0xfa57_0002, i));
    const style = { ...randomFormat(rng), shuffleDocs: false, flowDoc: 0 };
    let text = renderStream([resourceListDoc(bundleDocs(genBundle(rng).bundle, { rng: rng.fork() }))], style, rng.fork());
    // An existing `results` cannot be replaced by a text edit: the fast read must give way to the full one.
    if (i % 10 === 0 && !style.json) text += 'results:\n- message: earlier\n  severity: info\n';
    await bothReaders(['fn'], { stdin: text }, `ResourceList case ${i}`);
    if (readSubsetStream(text)) fast++;
    if (readSubsetStream(text) && text.includes('\nresults:')) fallBack++;
  }
  assert.ok(fast > 15, `only ${fast} of 150 ResourceLists took the fast path`);
  assert.ok(fallBack > 0, 'a fast-read list with results had to be read again');
});

test('fn: a benchmark ResourceList of 1,000 objects prints the same either way', async () => {
  const text = asResourceList(bundleDocuments(1000));
  assert.ok(readSubsetStream(text), 'the benchmark ResourceList takes the fast path');
  const fast = await bothReaders(['fn'], { stdin: text }, 'bench ResourceList');
  assert.is(fast.code, 0);
  assert.ok((fast.stdout.match(/rollstamp\.dev\/hash: "/g) ?? []).length >= 400, 'the targets were stamped');
});

test('fn: lists with items outside the subset, read item by item, print the same either way', async () => {
  const docs = bundleDocuments(60);
  const text = asResourceList(docs);
  // An entry the subset reader declines, placed among the others; each list is still read item by item.
  const entry = (yaml: string): string => yaml.replace(/^(?=.)/gm, '  ').replace(/^ {2}/, '- ');
  const cases: Record<string, string> = {
    'an anchored ConfigMap': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchored\ndata: &d\n  k: v\n',
    'a stamped Deployment with an anchor': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: anchored-web\n  namespace: team-0\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n  template:\n    metadata: &meta\n      labels: {app: t}\n    spec:\n      containers:\n      - name: c\n        envFrom:\n        - secretRef: {name: creds-0}\n',
    'an alias inside a Deployment': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: aliased\n  namespace: team-0\n  annotations: {rollstamp.dev/enabled: "true"}\n  labels: &l {app: a}\nspec:\n  selector: {matchLabels: *l}\n  template:\n    spec:\n      containers:\n      - name: c\n        envFrom:\n        - secretRef: {name: creds-0}\n',
    'a tag': 'apiVersion: v1\nkind: !!str ConfigMap\nmetadata:\n  name: tagged\ndata:\n  k: v\n',
    'a duplicate key': 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  name: dup\n  name: again\n',
    'an alias to an earlier entry': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\ndata: *d\n',
  };
  const at = text.indexOf('\n- ', text.length >> 1) + 1;
  for (const [label, yaml] of Object.entries(cases)) {
    // The alias names the anchored ConfigMap's `&d`, in the entry before it.
    const inserted = label === 'an alias to an earlier entry' ? entry(cases['an anchored ConfigMap']!) + entry(yaml) : entry(yaml);
    const mixed = text.slice(0, at) + inserted + text.slice(at);
    assert.ok(splitResourceList(mixed), `${label}: split`);
    const fast = await bothReaders(['fn'], { stdin: mixed }, `fn, ${label}`);
    if (label === 'a stamped Deployment with an anchor') {
      const item = fast.stdout.slice(fast.stdout.indexOf('name: anchored-web'));
      assert.match(item.slice(0, item.indexOf('\n- ')), 'rollstamp.dev/hash: "', 'the anchored Deployment is stamped');
    }
  }
});

test('ROLLSTAMP_READER takes fast or full, nothing else', async () => {
  const r = await runInProcess(['stamp', '-'], { stdin: 'a: 1\n', env: { ROLLSTAMP_READER: 'quick' } });
  assert.is(r.code, 2);
  assert.match(r.stderr, /ROLLSTAMP_READER must be fast or full/);
});

test.run();
