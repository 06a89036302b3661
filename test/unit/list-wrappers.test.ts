// List wrappers (#12): any object whose top-level `items` is a list (v1/List, SecretList, …) is applied by
// Argo CD entry by entry, so rollstamp reads its entries as objects in every command: sources inside count,
// workloads inside are stamped in place, and the fast and the full reader agree. The golden cases under
// fixtures/lists and fixtures/errors/list-* hold the exact outputs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { bundleDocs, caseSeed, genBundle, Rng } from '../support/property-generate.ts';
import { randomFormat, renderStream, ymap, type YNode } from '../support/property-render.ts';
import { bothReaders } from '../support/both-readers.ts';
import { runInProcess } from '../support/run-cli.ts';

const secretList = (password: string): string => `apiVersion: v1
kind: SecretList
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: db}
  stringData: {password: ${password}}
`;
const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  template:
    spec:
      containers:
      - name: web
        env:
        - name: P
          valueFrom: {secretKeyRef: {name: db, key: password}}
`;
const bundle = (password: string): string => `${secretList(password)}---\n${WORKLOAD}`;
const stampOf = (out: string): string | undefined => /rollstamp\.dev\/hash: "([^"]+)"/.exec(out)?.[1];

test('a Secret inside a SecretList is a source: changing its value changes the workload hash (#12)', async () => {
  const a = await runInProcess(['stamp', '-'], { stdin: bundle('first-value') });
  const b = await runInProcess(['stamp', '-'], { stdin: bundle('second-value') });
  assert.is(a.code, 0, a.stderr);
  assert.is(a.stderr, '', 'no "missing source" warning: the Secret was found inside the list');
  assert.ok(stampOf(a.stdout) && stampOf(b.stdout));
  assert.is.not(stampOf(a.stdout), stampOf(b.stdout));
  // The same Secret given as a plain document hashes the same: the wrapper changes nothing.
  const plain = await runInProcess(['stamp', '-'], { stdin: `apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: first-value}\n---\n${WORKLOAD}` });
  assert.is(stampOf(plain.stdout), stampOf(a.stdout));
});

test('stamp --check fails on a workload inside a List whose Secret (in a SecretList) changed', async () => {
  const stamped = (await runInProcess(['stamp', '-'], { stdin: bundle('first-value') })).stdout;
  const check = await runInProcess(['stamp', '--check', '-'], { stdin: stamped.replace('first-value', 'rotated-value') });
  assert.is(check.code, 3);
  assert.match(check.stderr, /would change: apps\/v1\/Deployment\/web/);
  assert.is((await runInProcess(['stamp', '--check', '-'], { stdin: stamped })).code, 0);
});

test('fn reads list wrappers among the ResourceList items, with the same hash as stamp', async () => {
  const indent = (t: string): string => t.replace(/\n$/, '').split('\n').map((l, i) => (i === 0 ? '- ' : '  ') + l).join('\n');
  for (const password of ['first-value', 'second-value']) {
    const rl = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${indent(secretList(password))}\n${indent(WORKLOAD)}\n`;
    const fn = await runInProcess(['fn'], { stdin: rl });
    const stamp = await runInProcess(['stamp', '-'], { stdin: bundle(password) });
    assert.is(fn.code, 0, fn.stderr);
    assert.is(stampOf(fn.stdout), stampOf(stamp.stdout));
    assert.not.match(fn.stdout, /MISSING_SOURCE/);
  }
});

test('fn stamps a workload inside a List item in place: fast and full readers agree, and a second run changes nothing', async () => {
  const indent = (t: string): string => t.replace(/\n$/, '').split('\n').map((l, i) => (i === 0 ? '- ' : '  ') + l).join('\n');
  const list = `apiVersion: v1\nkind: List\nitems:\n${indent(WORKLOAD)}\n`;
  const rl = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${indent(secretList('first-value'))}\n${indent(list)}\n`;
  const fast = await bothReaders(['fn'], { stdin: rl }, 'fn over a List');
  assert.is(fast.code, 0, fast.stderr);
  assert.is(stampOf(fast.stdout), stampOf((await runInProcess(['stamp', '-'], { stdin: bundle('first-value') })).stdout));
  const again = await runInProcess(['fn'], { stdin: fast.stdout });
  assert.is(stampOf(again.stdout), stampOf(fast.stdout));
  assert.is(again.stdout.split('rollstamp.dev/hash').length, 2, 'one stamp, not two');
});

test('explain shows a source found inside a list as from the bundle, in text and JSON, without its value', async () => {
  const text = await runInProcess(['explain', '-'], { stdin: bundle('canary-value-91f') });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /Secret default\/db {2}\[bundle\]/);
  const json = await runInProcess(['explain', '--json', '-'], { stdin: bundle('canary-value-91f') });
  const doc = JSON.parse(json.stdout) as { targets: Array<{ hash: string; sources: Array<{ name: string; from: string }> }> };
  assert.equal(doc.targets[0]!.sources.map((s) => [s.name, s.from]), [['db', 'bundle']]);
  assert.is(doc.targets[0]!.hash, stampOf((await runInProcess(['stamp', '-'], { stdin: bundle('canary-value-91f') })).stdout));
  for (const out of [text.stdout, json.stdout]) assert.not.match(out, /canary-value-91f/);
});

test('generate (plain directory) stamps a workload inside a List in place and reads a SecretList', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-list-app-'));
  const list = `apiVersion: v1\nkind: List\nitems:\n${WORKLOAD.replace(/\n$/, '').split('\n').map((l, i) => (i === 0 ? '- ' : '  ') + l).join('\n')}\n`;
  writeFileSync(join(app, 'secrets.yaml'), secretList('first-value'));
  writeFileSync(join(app, 'workloads.yaml'), list);
  const r = await runInProcess(['generate'], { cwd: app, env: { ARGOCD_APP_NAMESPACE: 'default' } });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, '');
  assert.is(stampOf(r.stdout), stampOf((await runInProcess(['stamp', '-'], { stdin: bundle('first-value') })).stdout));
  assert.match(r.stdout, /kind: List\nitems:\n- apiVersion: apps\/v1/);
});

test('generate refuses a render that is only empty lists (Argo CD would apply nothing)', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-list-empty-'));
  writeFileSync(join(app, 'list.yaml'), 'apiVersion: v1\nkind: List\nitems: []\n');
  const r = await runInProcess(['generate'], { cwd: app, env: { ARGOCD_APP_NAMESPACE: 'default' } });
  assert.is(r.code, 1);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /produced no objects/);
});

test('an object that is not a list wrapper keeps a non-list items field (a CRD may have one)', async () => {
  const stdin = 'apiVersion: example.dev/v1\nkind: Basket\nmetadata: {name: b}\nitems: {apples: 3}\n';
  const r = await runInProcess(['stamp', '-'], { stdin });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, stdin);
});

test('random bundles wrapped in lists: the same hashes as unwrapped, and the fast and full readers agree', async () => {
  let fast = 0;
  for (let i = 0; i < 60; i++) {
    const rng = new Rng(caseSeed(0x1157_0001, i));
    const docs = bundleDocs(genBundle(rng).bundle);
    if (docs.length === 0) continue;
    // Split the documents: some stay plain, the rest go into one List and one SecretList-style wrapper.
    const cut = rng.range(0, docs.length);
    const wrapped: YNode[] = [
      ...docs.slice(0, cut),
      ymap(['apiVersion', 'v1'], ['kind', 'List'], ['items', docs.slice(cut)]),
      ymap(['apiVersion', 'v1'], ['kind', 'ConfigMapList'], ['items', []]),
    ];
    const style = { ...randomFormat(rng), shuffleDocs: false };
    const plainText = renderStream(docs, style, rng.fork());
    const wrappedText = renderStream(wrapped, style, rng.fork());
    const args = ['explain', '--json', '--targets', 'all', '-'];
    const plain = await runInProcess(args, { stdin: plainText });
    const inList = await runInProcess(args, { stdin: wrappedText });
    assert.is(inList.code, plain.code, `case ${i}: exit code`);
    if (plain.code === 0) {
      const hashes = (out: string): string[] => (JSON.parse(out) as { targets: Array<{ hash: string }> }).targets.map((t) => t.hash).sort();
      assert.equal(hashes(inList.stdout), hashes(plain.stdout), `case ${i}: the wrapper changed a hash`);
    }
    const stampArgs = ['stamp', '--targets', 'all', '-'];
    await bothReaders(stampArgs, { stdin: wrappedText }, `case ${i}`);
    if (readSubsetStream(wrappedText)) fast++;
  }
  assert.ok(fast > 5, `only ${fast} wrapped bundles took the fast path`);
});

test.run();
