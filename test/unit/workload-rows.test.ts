// The workload kind table (#24): every built-in row stamps where it says, finds the references in every field
// it names and says how its stamp rolls; the fields that change how a kind rolls do; docs/kinds.md lists
// every row with its citation.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { WORKLOAD_ROWS } from '../../function/kinds/workload-rows.ts';
import type { WorkloadRow } from '../../function/model/workload-row.ts';
import { ROOT, runInProcess } from '../support/run-cli.ts';
import { objectOf, sourcesOf, streamOf } from '../support/workload-rows.ts';

interface Explained {
  targets: Array<{ resourceRef: { kind: string; name: string }; field: string; hash: string; rollout?: { how: string; why: string }; sources: Array<{ kind: string; name: string }> }>;
  results: Array<{ severity: string; message: string; tags: { code: string }; field?: { path: string }; resourceRef?: { kind: string } }>;
}

async function explain(objects: readonly unknown[], args: string[] = []): Promise<Explained> {
  const run = await runInProcess(['explain', '-o', 'json', ...args, '-'], { stdin: streamOf(objects) });
  assert.is(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Explained;
}

const stampable = WORKLOAD_ROWS.filter((r) => r.rolls !== 'immutable');

test('every built-in row cites where its facts come from, and no two rows read the same kind (or the same component of it)', () => {
  const ids = WORKLOAD_ROWS.map((r) => `${r.group}/${r.kind}${r.component ? `#${r.component}` : ''}`);
  assert.equal(new Set(ids).size, ids.length);
  // A kind is one row, or rows that each name a component: never both.
  for (const row of WORKLOAD_ROWS) {
    const same = WORKLOAD_ROWS.filter((r) => r.group === row.group && r.kind === row.kind);
    assert.ok(same.length === 1 || same.every((r) => r.component !== undefined), `${row.kind}: components`);
  }
  for (const row of WORKLOAD_ROWS) assert.ok(row.source.length > 10 && row.why.length > 5, `${row.kind}: source and why`);
});

for (const row of stampable) {
  test(`${row.group || 'core'}/${row.kind}${row.component ? ` (${row.component})` : ''}: stamps ${row.stamp.path.join('.')} over every field the row names, and says it rolls ${row.rolls}`, async () => {
    const o = objectOf(row, 'app');
    const doc = await explain([o.object, ...sourcesOf(o)]);
    const t = doc.targets.find((x) => x.resourceRef.kind === row.kind);
    assert.ok(t, `no target: ${JSON.stringify(doc.results)}`);
    assert.is(t.field, `${row.stamp.path.join('.')}["rollstamp.dev/hash"]`);
    assert.equal(t.sources.map((s) => `${s.kind}/${s.name}`).sort(), [...o.secrets.map((n) => `Secret/${n}`), ...o.configMaps.map((n) => `ConfigMap/${n}`)].sort());
    assert.equal(t.rollout, { how: row.rolls, why: row.why });
    assert.not.ok(doc.results.some((r) => r.severity === 'error'));
    // The stamp is written where the row says, and only there.
    const run = await runInProcess(['stamp', '-'], { stdin: streamOf([o.object, ...sourcesOf(o)]) });
    assert.is(run.code, 0, run.stderr);
    const stamped = parseAllDocuments(run.stdout)[0]!.toJS() as Record<string, unknown>;
    const site = row.stamp.path.reduce<unknown>((m, k) => (m as Record<string, unknown> | undefined)?.[k], stamped) as Record<string, string>;
    assert.is(site['rollstamp.dev/hash'], t.hash);
    assert.is(run.stdout.split('rollstamp.dev/hash').length, 2);
  });
}

test('each consumed source of each row changes that row\'s hash, and nothing else does', async () => {
  for (const row of stampable) {
    const o = objectOf(row, 'app');
    const base = (await explain([o.object, ...sourcesOf(o)])).targets[0]!.hash;
    const unrelated = (await explain([o.object, ...sourcesOf(o), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'other', namespace: 'shop' }, stringData: { k: 'x' } }])).targets[0]!.hash;
    assert.is(unrelated, base, `${row.kind}: an unused Secret`);
    for (const [i, source] of sourcesOf(o).entries()) {
      const changed = sourcesOf(o).map((s, j) => (j === i ? sourcesOf(o, 'two')[j] : s));
      const hash = (await explain([o.object, ...changed])).targets[0]!.hash;
      assert.is.not(hash, base, `${row.kind}: ${JSON.stringify((source as { metadata: unknown }).metadata)}`);
    }
  }
});

const ROWS = new Map(WORKLOAD_ROWS.map((r) => [r.kind + (r.group === 'apps.kruise.io' ? '@kruise' : ''), r]));
const rowOf = (key: string): WorkloadRow => ROWS.get(key)!;

/** An object of a row with extra fields merged into its spec. */
function withSpec(key: string, spec: Record<string, unknown>): Record<string, unknown> {
  const o = objectOf(rowOf(key), 'app').object;
  return { ...o, spec: { ...(o.spec as object), ...spec } };
}

const RULES: Array<{ name: string; object: Record<string, unknown>; how?: string; code?: string }> = [
  { name: 'a Deployment with strategy Recreate recreates', object: withSpec('Deployment', { strategy: { type: 'Recreate' } }), how: 'recreate' },
  { name: 'an OnDelete StatefulSet rolls on delete, with a warning', object: withSpec('StatefulSet', { updateStrategy: { type: 'OnDelete' } }), how: 'on-delete', code: 'ON_DELETE_STRATEGY' },
  { name: 'a CloneSet updated in place never restarts a container for a stamp', object: withSpec('CloneSet@kruise', { updateStrategy: { type: 'InPlaceIfPossible' } }), how: 'never', code: 'NO_AUTOMATIC_ROLLOUT' },
  { name: 'an Advanced StatefulSet with podUpdatePolicy InPlaceOnly never restarts', object: withSpec('StatefulSet@kruise', { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } } }), how: 'never', code: 'NO_AUTOMATIC_ROLLOUT' },
  { name: 'a VMSingle recreates its one pod', object: withSpec('VMSingle', {}), how: 'recreate' },
  { name: 'a gradual ScaledJob leaves running Jobs to finish', object: withSpec('ScaledJob', { rollout: { strategy: 'gradual' } }), how: 'next-job' },
  { name: 'a default ScaledJob deletes the Jobs of the previous generation', object: withSpec('ScaledJob', {}), how: 'recreate' },
  { name: 'a Prometheus with updateStrategy OnDelete rolls on delete', object: withSpec('Prometheus', { updateStrategy: { type: 'OnDelete' } }), how: 'on-delete', code: 'ON_DELETE_STRATEGY' },
];

for (const c of RULES) {
  test(`${c.name} (#24)`, async () => {
    const doc = await explain([c.object]);
    assert.is(doc.targets[0]?.rollout?.how, c.how);
    if (c.code) assert.ok(doc.results.some((r) => r.tags.code === c.code && r.severity === 'warning'), JSON.stringify(doc.results));
  });
}

test('a Knative Service that names its Revision is not stamped: Knative refuses a changed template under the same name (#24)', async () => {
  const o = objectOf(rowOf('Service'), 'app').object as { spec: { template: { metadata?: object } } };
  o.spec.template.metadata = { name: 'app-v1' };
  const doc = await explain([o]);
  assert.is(doc.targets.length, 0);
  const r = doc.results.find((x) => x.tags.code === 'IMMUTABLE_TEMPLATE');
  assert.is(r?.severity, 'warning');
  assert.is(r?.field?.path, 'spec.template.metadata.name');
});

test('a Rollout with workloadRef is not stamped itself: its stamp goes on the Deployment it names, here not in the input (#24, #38)', async () => {
  const rollout = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name: 'app', namespace: 'shop', annotations: { 'rollstamp.dev/enabled': 'true' } }, spec: { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' } } };
  const doc = await explain([rollout]);
  assert.is(doc.targets.length, 0);
  const r = doc.results.find((x) => x.tags.code === 'MISSING_OBJECT');
  assert.is(r?.severity, 'warning');
  assert.match(r!.message, /^names Deployment shop\/app, which is not in the input/);
});

test('explain says how a stamp rolls, in text too (#24)', async () => {
  const run = await runInProcess(['explain', '-'], { stdin: streamOf([withSpec('VMSingle', {})]) });
  assert.match(run.stdout, /\n {2}rolls: recreate \(the operator's Deployment has strategy Recreate/);
});

test('docs/kinds.md lists every row with its citation and how it rolls', () => {
  const page = readFileSync(`${ROOT}docs/kinds.md`, 'utf8');
  for (const row of WORKLOAD_ROWS) {
    const kind = row.component ? `${row.kind} (${row.component})` : row.kind;
    const line = page.split('\n').find((l) => l.startsWith(`| \`${row.group === '' ? 'v1' : row.group}\` | ${kind} |`));
    assert.ok(line, `docs/kinds.md has no row for ${row.group}/${kind}`);
    assert.ok(line.includes(row.source), `${row.kind}: citation`);
    assert.ok(line.includes(`**${row.rolls}**`), `${row.kind}: how it rolls`);
  }
  assert.ok(readFileSync(`${ROOT}README.md`, 'utf8').includes('docs/kinds.md'), 'README.md links the kinds page');
});

test.run();
