// Stakater Reloader's annotations (#38), read as Reloader reads them (stakater/Reloader pkg/common/common.go
// ShouldReload): `auto` and the typed autos opt a workload in, `…/reload` lists name whole sources (exact names),
// a workload's own annotations win over its pod template's per kind of source, `ignore` on a source leaves it
// out; `reloader: disabled` reads none; one warning per run names the stamped workloads Reloader reloads too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { runInProcess } from '../support/run-cli.ts';

type Obj = Record<string, unknown>;
interface Explained {
  targets: Array<{ resourceRef: { kind: string; name: string }; sources: Array<{ kind: string; name: string; from: string; fields: string[] }> }>;
  results: Array<{ severity: string; message: string; tags: { code: string }; field?: { path: string } }>;
}

const stream = (objects: readonly Obj[]): string => objects.map((o) => stringify(o)).join('---\n');

function workload(name: string, opts: { kind?: string; apiVersion?: string; annotations?: Obj; podAnnotations?: Obj; envFrom?: string } = {}): Obj {
  const template = { metadata: { labels: { app: name }, ...(opts.podAnnotations ? { annotations: opts.podAnnotations } : {}) }, spec: { containers: [{ name, image: 'x', envFrom: [{ secretRef: { name: opts.envFrom ?? 'db' } }] }] } };
  const kind = opts.kind ?? 'Deployment';
  const spec = kind === 'CronJob' ? { schedule: '* * * * *', jobTemplate: { spec: { template } } } : kind === 'CloneSet' ? { selector: {}, template } : { selector: { matchLabels: { app: name } }, template };
  return { apiVersion: opts.apiVersion ?? (kind === 'CronJob' || kind === 'Job' ? 'batch/v1' : kind === 'CloneSet' ? 'apps.kruise.io/v1alpha1' : 'apps/v1'), kind, metadata: { name, namespace: 'shop', ...(opts.annotations ? { annotations: opts.annotations } : {}) }, spec };
}

const secret = (name: string, annotations?: Obj): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'shop', ...(annotations ? { annotations } : {}) }, stringData: { k: 'v' } });
const configMap = (name: string, annotations?: Obj): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop', ...(annotations ? { annotations } : {}) }, data: { k: 'v' } });
const BASE = [secret('db'), secret('extra'), configMap('settings')];

async function explain(objects: readonly Obj[], args: string[] = []): Promise<{ code: number; doc: Explained; stderr: string }> {
  const r = await runInProcess(['explain', '-o', 'json', ...args, '-'], { stdin: stream(objects) });
  return { code: r.code, doc: JSON.parse(r.stdout) as Explained, stderr: r.stderr };
}

/** `Kind/name: Secret/db(bundle) …` per target. */
const targetsOf = (doc: Explained): string[] => doc.targets.map((t) => `${t.resourceRef.kind}/${t.resourceRef.name}: ${t.sources.map((s) => `${s.kind}/${s.name}(${s.from})`).join(' ')}`);

const CASES: Array<{ name: string; objects: Obj[]; args?: string[]; expected: string[] }> = [
  { name: 'reloader.stakater.com/auto "true" opts a workload in, with what its pod spec uses', objects: [workload('web', { annotations: { 'reloader.stakater.com/auto': 'true' } })], expected: ['Deployment/web: Secret/db(bundle)'] },
  { name: 'auto takes Go\'s true spellings ("True", "1"), as Reloader\'s strconv.ParseBool does', objects: [workload('a', { annotations: { 'reloader.stakater.com/auto': 'True' } }), workload('b', { annotations: { 'reloader.stakater.com/auto': '1' } })], expected: ['Deployment/a: Secret/db(bundle)', 'Deployment/b: Secret/db(bundle)'] },
  { name: 'auto "false" opts nothing in', objects: [workload('web', { annotations: { 'reloader.stakater.com/auto': 'false' } })], expected: [] },
  { name: 'a typed auto opts in too, covering both kinds of source', objects: [workload('web', { annotations: { 'configmap.reloader.stakater.com/auto': 'true' } })], expected: ['Deployment/web: Secret/db(bundle)'] },
  {
    name: 'a reload list opts in and names whole sources the pod spec does not use, in the workload\'s namespace',
    objects: [workload('web', { annotations: { 'secret.reloader.stakater.com/reload': 'extra, ', 'configmap.reloader.stakater.com/reload': 'settings' } })],
    expected: ['Deployment/web: ConfigMap/settings(bundle) Secret/db(bundle) Secret/extra(bundle)'],
  },
  { name: 'the pod template\'s annotations are read when the workload has none of Reloader\'s keys', objects: [workload('web', { podAnnotations: { 'secret.reloader.stakater.com/reload': 'extra' } })], expected: ['Deployment/web: Secret/db(bundle) Secret/extra(bundle)'] },
  {
    name: 'the workload\'s own keys for a kind of source win over its pod template\'s for that kind only',
    objects: [workload('web', { annotations: { 'secret.reloader.stakater.com/reload': 'extra' }, podAnnotations: { 'secret.reloader.stakater.com/reload': 'db2', 'configmap.reloader.stakater.com/reload': 'settings' } })],
    expected: ['Deployment/web: ConfigMap/settings(bundle) Secret/db(bundle) Secret/extra(bundle)'],
  },
  { name: 'a CronJob is read at its job template', objects: [workload('nightly', { kind: 'CronJob', podAnnotations: { 'reloader.stakater.com/auto': 'true' } })], expected: ['CronJob/nightly: Secret/db(bundle)'] },
  { name: 'a kind Reloader does not reload is not opted in by its annotations', objects: [workload('web', { kind: 'CloneSet', annotations: { 'reloader.stakater.com/auto': 'true' } })], expected: [] },
  { name: 'reloader.stakater.com/search alone opts nothing in', objects: [workload('web', { annotations: { 'reloader.stakater.com/search': 'true' } })], expected: [] },
  { name: 'reloader.stakater.com/ignore "true" on a source leaves it out of every hash', objects: [workload('web', { annotations: { 'reloader.stakater.com/auto': 'true' } }), workload('api', { annotations: { 'rollstamp.dev/enabled': 'true' } })], expected: ['Deployment/api: Secret/db(ignored)', 'Deployment/web: Secret/db(ignored)'] },
  { name: 'reloader disabled: no opt-in, no named source, no ignore', args: ['--reloader', 'disabled'], objects: [workload('web', { annotations: { 'reloader.stakater.com/auto': 'true' } }), workload('api', { annotations: { 'rollstamp.dev/enabled': 'true', 'secret.reloader.stakater.com/reload': 'extra' } })], expected: ['Deployment/api: Secret/db(bundle)'] },
];

for (const c of CASES) {
  test(c.name, async () => {
    // The ignore case marks `db` for Reloader to ignore; the disabled case marks it too, and it must count.
    const ignored = /ignore|disabled/.test(c.name);
    const sources = ignored ? [secret('db', { 'reloader.stakater.com/ignore': 'true' }), secret('extra'), configMap('settings')] : BASE;
    const { code, doc, stderr } = await explain([...c.objects, ...sources], c.args);
    assert.is(code, 0, stderr);
    assert.equal(targetsOf(doc).sort(), c.expected);
  });
}

test('a reload entry that is a pattern, not a name, fails the run and says why (Reloader reads patterns, rollstamp names)', async () => {
  const { code, doc } = await explain([workload('web', { annotations: { 'secret.reloader.stakater.com/reload': 'db,db-.*' } }), ...BASE]);
  assert.is(code, 1);
  const error = doc.results.find((r) => r.severity === 'error')!;
  assert.is(error.tags.code, 'BAD_ANNOTATION');
  assert.is(error.field?.path, 'metadata.annotations["secret.reloader.stakater.com/reload"]');
  assert.match(error.message, /entry 2 is not a Secret name: Reloader reads it as a pattern/);
});

test('a named source the input lacks is hashed as missing and warned, as any reference', async () => {
  const { doc } = await explain([workload('web', { annotations: { 'secret.reloader.stakater.com/reload': 'elsewhere' } }), ...BASE]);
  assert.ok(doc.results.some((r) => r.tags.code === 'MISSING_SOURCE' && r.message.startsWith('Secret shop/elsewhere is not in the input')));
});

test('one warning per run names every stamped workload Reloader reloads too, with rollstamp\'s own opt-in or without', async () => {
  const objects = [
    workload('a', { annotations: { 'reloader.stakater.com/auto': 'true' } }),
    workload('b', { annotations: { 'rollstamp.dev/enabled': 'true', 'reloader.stakater.com/search': 'true' } }),
    workload('c', { annotations: { 'rollstamp.dev/enabled': 'true' } }),
    ...BASE,
  ];
  const { doc } = await explain(objects);
  const warnings = doc.results.filter((r) => r.tags.code === 'ALSO_RELOADED');
  assert.is(warnings.length, 1);
  assert.match(warnings[0]!.message, /^2 stamped workloads carry Reloader's annotations \(Deployment shop\/a, Deployment shop\/b\): while Reloader runs/);
  const disabled = await explain(objects, ['--reloader', 'disabled']);
  assert.match(disabled.doc.results.find((r) => r.tags.code === 'ALSO_RELOADED')!.message, /^1 stamped workload carries Reloader's annotations \(Deployment shop\/b\)/);
  const none = await explain([workload('c', { annotations: { 'rollstamp.dev/enabled': 'true' } }), ...BASE]);
  assert.not.ok(none.doc.results.some((r) => r.tags.code === 'ALSO_RELOADED'));
});

test('the warning names ten workloads and counts the rest', async () => {
  const many = Array.from({ length: 12 }, (_, i) => workload(`w${String(i).padStart(2, '0')}`, { annotations: { 'reloader.stakater.com/auto': 'true' } }));
  const { doc } = await explain([...many, ...BASE]);
  assert.match(doc.results.find((r) => r.tags.code === 'ALSO_RELOADED')!.message, /Deployment shop\/w09 and 2 more\)/);
});

test('the setting: a ConfigMap functionConfig may say reloader: disabled; another value names the field', async () => {
  const fc = (value: string): string => `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {reloader: ${value}}\nitems:\n${stream([workload('web', { annotations: { 'reloader.stakater.com/auto': 'true' } })]).replace(/^/gm, '  ').replace(/^  apiVersion/, '- apiVersion')}`;
  const off = await runInProcess(['fn'], { stdin: fc('disabled') });
  assert.is(off.code, 0, off.stderr);
  assert.not.match(off.stdout, /rollstamp\.dev\/hash/);
  const bad = await runInProcess(['fn'], { stdin: fc('maybe') });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /functionConfig: data\.reloader: must be one of enabled, disabled/);
});

test.run();
