// Argo Rollouts' spec.workloadRef (#38): an opted-in Rollout that takes its pod template from a Deployment,
// ReplicaSet or PodTemplate is stamped on that object's template, the one the Rollouts controller copies
// (argoproj/argo-rollouts rollout/templateref.go), whichever comes first in the input and in both readers;
// with the key precision of any workload, the Rollout's own extra dependencies, and why it rolls.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { runInProcess } from '../support/run-cli.ts';

type Obj = Record<string, unknown>;
interface Explained {
  targets: Array<{ resourceRef: { kind: string; name: string }; field: string; hash: string; rollout?: { how: string; why: string }; sources: Array<{ kind: string; name: string; keys: Array<{ key: string }> }> }>;
  results: Array<{ severity: string; message: string; tags: { code: string }; resourceRef?: { kind: string; name: string } }>;
}

const stream = (objects: readonly Obj[]): string => objects.map((o) => stringify(o)).join('---\n');
const list = (objects: readonly Obj[]): string => stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: objects });

function rollout(name: string, ref: Obj, annotations: Obj = { 'rollstamp.dev/enabled': 'true' }): Obj {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name, namespace: 'shop', annotations }, spec: { replicas: 3, workloadRef: ref, strategy: { canary: { steps: [{ setWeight: 20 }] } } } };
}

const podSpec = { containers: [{ name: 'web', image: 'x', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }] };

function deployment(opts: { replicas?: number; annotations?: Obj; kind?: 'Deployment' | 'ReplicaSet' } = {}): Obj {
  const template = { metadata: { labels: { app: 'web' } }, spec: podSpec };
  return { apiVersion: 'apps/v1', kind: opts.kind ?? 'Deployment', metadata: { name: 'web', namespace: 'shop', ...(opts.annotations ? { annotations: opts.annotations } : {}) }, spec: { replicas: opts.replicas ?? 0, selector: { matchLabels: { app: 'web' } }, template } };
}

const podTemplate: Obj = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'web', namespace: 'shop' }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } };
const toDeployment = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const secrets = (password = 'one', username = 'u'): Obj[] => [
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' }, stringData: { password, username } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'extra', namespace: 'shop' }, stringData: { k: 'v' } },
];

async function explain(objects: readonly Obj[], args: string[] = []): Promise<{ code: number; doc: Explained }> {
  const r = await runInProcess(['explain', '-o', 'json', ...args, '-'], { stdin: stream(objects) });
  return { code: r.code, doc: JSON.parse(r.stdout) as Explained };
}

const stampLines = (text: string): string[] => text.split('\n').filter((l) => l.includes('rollstamp.dev/hash'));

test('an opted-in Rollout is stamped on the Deployment it names, whose template Argo Rollouts copies; the Rollout says where', async () => {
  const { code, doc } = await explain([rollout('web', toDeployment), deployment(), ...secrets()]);
  assert.is(code, 0);
  assert.equal(doc.targets.map((t) => `${t.resourceRef.kind}/${t.resourceRef.name} ${t.field}`), ['Deployment/web spec.template.metadata.annotations["rollstamp.dev/hash"]']);
  assert.equal(doc.targets[0]!.sources.map((s) => `${s.kind}/${s.name}:${s.keys.map((k) => k.key).join(',')}`), ['Secret/db:password']);
  const info = doc.results.find((r) => r.tags.code === 'WORKLOAD_REF')!;
  assert.equal([info.severity, info.resourceRef?.kind, info.message], ['info', 'Rollout', 'takes its pod template from Deployment shop/web: the stamp goes there']);
  assert.match(doc.targets[0]!.rollout!.why, /^Rollout shop\/web makes a new revision from this template \(spec\.workloadRef\)/);
});

test('the Deployment above the Rollout gets the same stamp, in a stream, in a ResourceList and with the yaml library reading', async () => {
  const after = await runInProcess(['stamp', '-'], { stdin: stream([rollout('web', toDeployment), deployment(), ...secrets()]) });
  const before = await runInProcess(['stamp', '-'], { stdin: stream([deployment(), rollout('web', toDeployment), ...secrets()]) });
  const full = await runInProcess(['stamp', '-'], { stdin: stream([deployment(), rollout('web', toDeployment), ...secrets()]), env: { ROLLSTAMP_READER: 'full' } });
  const fn = await runInProcess(['fn'], { stdin: list([deployment(), rollout('web', toDeployment), ...secrets()]) });
  for (const r of [after, before, full, fn]) assert.is(r.code, 0, r.stderr);
  const stamp = stampLines(after.stdout);
  assert.is(stamp.length, 1);
  for (const r of [before, full]) assert.equal(stampLines(r.stdout), stamp);
  const hash = /sha256:[0-9a-f]{64}/.exec(stamp[0]!)![0];
  assert.ok(fn.stdout.includes(hash), 'fn writes the same stamp');
  const again = await runInProcess(['stamp', '-'], { stdin: before.stdout });
  assert.is(again.stdout, before.stdout, 'stamping its own output changes nothing');
});

test('key precision as for any workload: the key the Deployment\'s pods read rolls it, another key of the Secret does not', async () => {
  const hash = async (password: string, username: string): Promise<string> => (await explain([rollout('web', toDeployment), deployment(), ...secrets(password, username)])).doc.targets[0]!.hash;
  const base = await hash('one', 'u');
  assert.is(await hash('one', 'other'), base);
  assert.is.not(await hash('two', 'u'), base);
});

test('a Deployment opted in itself and named by two Rollouts is one target, covering the Rollouts\' extra dependencies', async () => {
  const objects = [deployment({ annotations: { 'rollstamp.dev/enabled': 'true' } }), rollout('web', toDeployment, { 'rollstamp.dev/enabled': 'true', 'rollstamp.dev/secrets': 'extra' }), rollout('web-b', { ...toDeployment, scaleDown: 'onsuccess' }), ...secrets()];
  const { doc } = await explain(objects);
  assert.is(doc.targets.length, 1);
  assert.equal(doc.targets[0]!.sources.map((s) => s.name).sort(), ['db', 'extra']);
  assert.match(doc.targets[0]!.rollout!.why, /^Rollout shop\/web, Rollout shop\/web-b each make a new revision/);
  const stamped = await runInProcess(['stamp', '-'], { stdin: stream(objects) });
  assert.is(stampLines(stamped.stdout).length, 1);
});

test('a Deployment that keeps replicas and that no Rollout scales down rolls its own pods too, and the report says so', async () => {
  const why = async (replicas: number, scaleDown?: string): Promise<string> =>
    (await explain([rollout('web', { ...toDeployment, ...(scaleDown ? { scaleDown } : {}) }), deployment({ replicas }), ...secrets()])).doc.targets[0]!.rollout!.why;
  assert.match(await why(2), /; the Deployment's own pods roll too \(replicas not 0, no workloadRef\.scaleDown\)$/);
  assert.match(await why(2, 'never'), /own pods roll too/);
  assert.not.match(await why(2, 'progressively'), /own pods/);
  assert.not.match(await why(0), /own pods/);
});

test('a ReplicaSet or a PodTemplate named by workloadRef is stamped on its template', async () => {
  const rs = await explain([rollout('web', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web' }), deployment({ kind: 'ReplicaSet' }), ...secrets()]);
  assert.equal(rs.doc.targets.map((t) => `${t.resourceRef.kind} ${t.field}`), ['ReplicaSet spec.template.metadata.annotations["rollstamp.dev/hash"]']);
  const pt = await explain([podTemplate, rollout('web', { apiVersion: 'v1', kind: 'PodTemplate', name: 'web' }), ...secrets()]);
  assert.equal(pt.doc.targets.map((t) => `${t.resourceRef.kind} ${t.field}`), ['PodTemplate template.metadata.annotations["rollstamp.dev/hash"]']);
});

test('what is not stamped says why: the Deployment not in the input (onMissing), opted out, or a kind Rollouts cannot read', async () => {
  const missing = await explain([rollout('web', toDeployment), ...secrets()]);
  assert.is(missing.doc.targets.length, 0);
  assert.match(missing.doc.results.find((r) => r.tags.code === 'MISSING_OBJECT')!.message, /^names Deployment shop\/web, which is not in the input: nothing is stamped for this Rollout/);
  assert.is((await explain([rollout('web', toDeployment), ...secrets()], ['--on-missing', 'error'])).code, 1);
  assert.not.ok((await explain([rollout('web', toDeployment), ...secrets()], ['--on-missing', 'ignore'])).doc.results.some((r) => r.tags.code === 'MISSING_OBJECT'));
  const out = await explain([rollout('web', toDeployment), deployment({ annotations: { 'rollstamp.dev/enabled': 'false' } }), ...secrets()]);
  assert.is(out.doc.targets.length, 0);
  assert.match(out.doc.results.find((r) => r.tags.code === 'WORKLOAD_REF')!.message, /says rollstamp\.dev\/enabled: "false"; not stamped/);
  const sts = await explain([rollout('web', { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' }), ...secrets()]);
  assert.match(sts.doc.results.find((r) => r.tags.code === 'NO_TEMPLATE')!.message, /names apps\/v1 StatefulSet web, which Argo Rollouts takes no pod template from/);
});

test('a Rollout that is not opted in stamps nothing on the Deployment it names', async () => {
  const { doc } = await explain([rollout('web', toDeployment, {}), deployment(), ...secrets()]);
  assert.is(doc.targets.length, 0);
});

test('diff names the Deployment as rolling, and why: the Rollout\'s new revision', async () => {
  const render = (password: string): string => stream([rollout('web', toDeployment), deployment(), ...secrets(password)]);
  const d = mkdtempSync(join(tmpdir(), 'rollstamp-ref-'));
  writeFileSync(join(d, 'old.yaml'), render('one'));
  writeFileSync(join(d, 'new.yaml'), render('two'));
  const r = await runInProcess(['diff', '-o', 'json', join(d, 'old.yaml'), join(d, 'new.yaml')]);
  assert.is(r.code, 3, r.stderr);
  const doc = JSON.parse(r.stdout) as { targets: Array<{ resourceRef: { kind: string }; rollout: { why: string }; sources: Array<{ keys: Array<{ key: string }> }> }> };
  assert.equal(doc.targets.map((t) => t.resourceRef.kind), ['Deployment']);
  assert.equal(doc.targets[0]!.sources[0]!.keys.map((k) => k.key), ['password']);
  assert.match(doc.targets[0]!.rollout.why, /^Rollout shop\/web makes a new revision/);
});

test.run();
