// The core's plan → apply: `plan` reads each tree once (stamp site, current stamp, dependencies, text edit, live
// needs) and `apply` works from the plan alone — it never reads a target's tree again, so the trees can go.
// Reading a stream one document at a time gives the documents reading it whole gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startStreamRun } from '../../function/index.ts';
import { apply, plan, startPlan } from '../../function/run/apply.ts';
import { parseStream, streamItems, type StreamDoc } from '../../function/read/stream.ts';
import { streamDocuments } from '../../function/read/stream-documents.ts';
import { serializeStream } from '../../function/write/stream.ts';
import { configOf } from '../support/config.ts';

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        envFrom:
        - secretRef: {name: db}
        env:
        - {name: LEVEL, valueFrom: {configMapKeyRef: {name: remote, key: level}}}
`;
const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: shop}\nstringData: {password: CANARY-5eed}\n';
const STREAM = `${WORKLOAD}---\n${SECRET}`;

function docsOf(text: string): StreamDoc[] {
  const r = parseStream(text, 'in.yaml');
  if (!('docs' in r)) throw new Error('parse failed');
  return r.docs;
}

test('apply works from the plan alone: emptying the target tree after planning changes neither hash nor output', () => {
  const config = configOf();
  const expected = (() => {
    const docs = docsOf(STREAM);
    const outcome = apply(plan(streamItems(docs).items, config));
    return { hash: outcome.targets[0]!.hash, text: serializeStream(docs, outcome.changed)?.join('') };
  })();
  const docs = docsOf(STREAM);
  const { items } = streamItems(docs);
  const planned = plan(items, config);
  items[0]!.node.items.length = 0; // the workload's tree, gone after planning
  const outcome = apply(planned);
  assert.is(outcome.targets.length, 1);
  assert.is(outcome.targets[0]!.hash, expected.hash);
  assert.equal([...outcome.changed.keys()], [0], 'stamped items are named by index');
  assert.is(serializeStream(docs, outcome.changed)?.join(''), expected.text);
  assert.match(expected.text ?? '', /rollstamp\.dev\/hash: "/);
  assert.not.match(JSON.stringify(outcome), /CANARY/);
});

test('a plan lists the live needs once, and apply resolves them from what was fetched (no second planning)', () => {
  const config = configOf({ live: 'missing' });
  const planned = plan(streamItems(docsOf(STREAM)).items, config);
  assert.equal(planned.needs, [{ id: 'ConfigMap/shop/remote', cls: 'ConfigMap', namespace: 'shop', name: 'remote' }]);
  assert.equal(planned.results.filter((r) => r.severity === 'error'), []);
  const fetched = new Map([['ConfigMap/shop/remote', new Map([['level', new TextEncoder().encode('info')]])]]);
  const withLive = apply(planned, { fetched, sourceReports: true });
  const remote = withLive.targets[0]!.sources.find((s) => s.name === 'remote');
  assert.is(remote?.from, 'cluster');
  const without = apply(planned, { sourceReports: true });
  assert.is(without.targets[0]!.sources.find((s) => s.name === 'remote')?.from, 'missing');
  assert.is.not(without.targets[0]!.hash, withLive.targets[0]!.hash, 'the same plan applied twice, with and without the live bytes');
});

test('apply builds source reports only when asked (explain and diff print them), with the same hashes, results and edits (#37)', () => {
  const config = configOf({ live: 'missing' });
  const planned = plan(streamItems(docsOf(STREAM)).items, config);
  const plain = apply(planned);
  const reported = apply(planned, { sourceReports: true });
  assert.equal(plain.targets.map((t) => t.sources), [[]]);
  assert.equal(reported.targets[0]!.sources.map((s) => `${s.cls}/${s.name}:${s.from}`).sort(), ['ConfigMap/remote:missing', 'Secret/db:bundle']);
  assert.equal(plain.targets.map(({ sources: _, ...t }) => t), reported.targets.map(({ sources: _, ...t }) => t));
  assert.equal(plain.results, reported.results);
  assert.equal([...plain.changed], [...reported.changed]);
  assert.equal(apply(planned, { keyDetail: true }).targets[0]!.sources.length, reported.targets[0]!.sources.length, 'key rows are reports');
});

test('planning item by item gives the plan of all items at once', () => {
  const config = configOf();
  const wholeDocs = docsOf(STREAM);
  const whole = apply(plan(streamItems(wholeDocs).items, config));
  const planner = startPlan(config);
  const docs: StreamDoc[] = [];
  for (const d of streamDocuments(STREAM, 'in.yaml')) {
    docs.push(d);
    planner.add(streamItems([d], planner.items).items);
  }
  const oneByOne = apply(planner.finish());
  assert.equal(oneByOne.targets, whole.targets);
  assert.equal(oneByOne.results, whole.results);
  assert.is(serializeStream(docs, oneByOne.changed)?.join(''), serializeStream(wholeDocs, whole.changed)?.join(''));
  assert.match(serializeStream(docs, oneByOne.changed)?.join('') ?? '', /rollstamp\.dev\/hash: "/);
});

test('reading one document at a time: the same documents as a whole read, or false when one cannot be read alone', () => {
  const cases = ['# head\n---\nkind: A\n', '\n---\nkind: A\n', 'kind: A\n---\n---\n# x\n', 'kind: A\n# c\n---\nkind: B\n---', '---\nkind: A\n---\nkind: B\n', 'a: |\n  x\n---\nb: 1\n', STREAM];
  for (const text of cases) {
    const reader = streamDocuments(text, 'in.yaml');
    const docs: StreamDoc[] = [];
    let step = reader.next();
    for (; !step.done; step = reader.next()) docs.push(step.value);
    assert.is(step.value, true, JSON.stringify(text));
    assert.equal(docs.map((d) => [d.text, d.file]), docsOf(text).map((d) => [d.text, d.file]), JSON.stringify(text));
  }
  for (const text of ['kind: A\n---\nx: [1\n', 'kind: A\n...\n%YAML 1.2\n---\nkind: B\n', '{"kind": "A"}\n{"kind": "B"}\n']) {
    const reader = streamDocuments(text, 'in.yaml');
    let step = reader.next();
    while (!step.done) step = reader.next();
    assert.is(step.value, false, JSON.stringify(text));
  }
});

test('a document outside the subset is read alone by the yaml library; the documents after it stay with the subset reader', () => {
  const text = `${STREAM}---\nanchor: &a [1]\nalias: *a\n---\nthird: doc\n`;
  const docs = [...streamDocuments(text, 'in.yaml')];
  assert.equal(docs.map((d) => d.readBy), ['subset', 'subset', 'yaml-document', 'subset']);
  assert.equal(docs.map((d) => [d.text, d.file]), docsOf(text).map((d) => [d.text, d.file]));
});

test('a document outside the subset that is most of the stream is not read alone: the stream is read whole, so a YAML error in it is read once', () => {
  const big = ['big: &a 0', ...Array.from({ length: 200 }, (_, i) => `k${i}: v${i}`)].join('\n');
  for (const last of ['', '\nk1: again']) {
    const text = `${STREAM}---\n${big}${last}\n---\nthird: doc\n`;
    const reader = streamDocuments(text, 'in.yaml');
    const docs = [];
    let step = reader.next();
    for (; !step.done; step = reader.next()) docs.push(step.value);
    assert.is(step.value, false, 'the caller reads the whole stream');
    assert.equal(docs.map((d) => d.readBy), ['subset', 'subset'], 'nothing read by the yaml library alone');
  }
});

test('a stream run with one document outside the subset writes what the yaml library reading the whole stream writes', () => {
  const config = configOf({ targets: 'all' });
  const text = `${STREAM}---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: other, labels: &l {a: b}}\ndata: {k: v}\n`;
  const fast = startStreamRun([{ path: 'in.yaml', text }], { config }).finish();
  const full = startStreamRun([{ path: 'in.yaml', text }], { config, reader: 'full' }).finish();
  assert.is(fast.outputPieces.join(''), full.outputPieces.join(''));
  assert.equal(fast.results, full.results);
  assert.match(fast.outputPieces.join(''), /rollstamp\.dev\/hash: "sha256:/);
});

test('a stamp only a new rendering can write, in a document read alone, reads the stream again whole', () => {
  const config = configOf({ targets: 'all' });
  // The flow-mapping template has no text edit; the anchor sends the document to the yaml library.
  const text = `${SECRET}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: shop, labels: &l {a: b}}\nspec: {template: {metadata: {labels: *l}, spec: {containers: [{name: c, envFrom: [{secretRef: {name: db}}]}]}}}\n`;
  const fast = startStreamRun([{ path: 'in.yaml', text }], { config }).finish();
  const full = startStreamRun([{ path: 'in.yaml', text }], { config, reader: 'full' }).finish();
  assert.equal(fast.results, full.results);
  assert.is(fast.outputPieces.join(''), full.outputPieces.join(''));
});

test('a plain Secret is decoded when planned and its tree let go: reading the tree afterwards is an internal error', () => {
  const docs = docsOf(STREAM);
  const planned = plan(streamItems(docs).items, configOf());
  const [secret] = planned.index.sources.get('Secret/shop/db') ?? [];
  assert.ok(secret?.decoded?.entries?.has('password'), 'decoded when planned');
  assert.throws(() => secret!.item.node, /internal: the tree of a decoded Secret or ConfigMap was read/);
  assert.throws(() => secret!.item.readBy, /internal/);
});

test('a run that does not write (explain, diff) gives the results and reports of one that does, and no text', () => {
  const files = [{ path: 'app.yaml', text: STREAM }];
  const written = startStreamRun(files, { config: configOf(), keyDetail: true }).finish();
  const reports = startStreamRun(files, { config: configOf(), keyDetail: true, write: false }).finish();
  assert.ok(written.outputPieces.join('').includes('rollstamp.dev/hash'), 'the written run stamps');
  assert.equal(reports.outputPieces, [], 'nothing is written');
  assert.equal(reports.targets, written.targets);
  assert.equal(reports.results, written.results);
  assert.equal([...reports.changed.keys()], [...written.changed.keys()]);
});

test('a source read by several targets is reported once and hashed alike when its decoded values go after its last reader (#37)', () => {
  const workload = (name: string, secret: string): string => WORKLOAD.replace('name: web\n', `name: ${name}\n`).replace('{name: db}', `{name: ${secret}}`);
  const bad = 'apiVersion: v1\nkind: Secret\nmetadata: {name: bad, namespace: shop}\ndata: {password: "not base64!"}\n';
  const remote = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: remote, namespace: shop}\ndata: {level: info}\n';
  const finish = (text: string) => startStreamRun([{ path: 'in.yaml', text }], { config: configOf() }).finish();
  const broken = finish([workload('a', 'bad'), workload('b', 'bad'), workload('c', 'bad'), bad, remote].join('---\n'));
  assert.equal(broken.results.filter((r) => r.severity === 'error').map((r) => r.tags?.code), ['BAD_BASE64'], 'one error for three readers');
  const fine = finish([workload('a', 'db'), workload('b', 'db'), SECRET, workload('c', 'db'), remote].join('---\n'));
  assert.equal(fine.results.filter((r) => r.severity !== 'info'), []);
  assert.is(new Set(fine.targets.map((t) => t.hash)).size, 1, 'the same sources give the same hash, before and after the last reader');
  assert.is(fine.targets.length, 3);
});

test('the uses of one source share its slot, which counts its planned readers; apply lets its values go after the last and starts afresh on the same plan (#37)', () => {
  const workload = (name: string, secret = 'db'): string => WORKLOAD.replace('name: web\n', `name: ${name}\n`).replace('{name: db}', `{name: ${secret}}`);
  const bad = 'apiVersion: v1\nkind: Secret\nmetadata: {name: bad, namespace: shop}\ndata: {password: "not base64!"}\n';
  const text = [workload('a'), workload('b'), SECRET, workload('c', 'bad'), bad].join('---\n');
  const planned = plan(streamItems(docsOf(text)).items, configOf());
  const [a, b] = planned.targets.map((t) => t.deps!.uses.find((u) => u.cls === 'Secret')!);
  assert.ok(a!.slot !== undefined && a!.slot === b!.slot, 'one slot for both uses');
  assert.is(planned.slots.get('Secret/shop/db'), a!.slot);
  assert.is(a!.slot!.readers, 2);
  const fresh = apply(plan(streamItems(docsOf(text)).items, configOf()));
  const keyed = apply(planned, { hashKey: new Uint8Array(32).fill(7) });
  assert.is.not(keyed.targets[0]!.hash, fresh.targets[0]!.hash);
  const slot = a!.slot!;
  assert.is(slot.left, 0);
  assert.is(slot.resolution, undefined, 'decoded values let go after the last reader');
  assert.is(planned.slots.get('ConfigMap/shop/remote')!.resolution, undefined, 'a missing source too');
  const invalid = planned.slots.get('Secret/shop/bad')!;
  assert.equal([invalid.kept, invalid.resolution], [true, { from: 'invalid' }], 'a source that reported something is kept');
  // The keyed apply's selections and resolutions are not this one's: the same plan hashes as a fresh one.
  const again = apply(planned);
  assert.equal(again.targets.map((t) => t.hash), fresh.targets.map((t) => t.hash));
  assert.equal(again.results, fresh.results);
});

test.run();
