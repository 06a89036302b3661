// The benchmark's real-shape bundle (bench/real-shape-bundle.ts): copies of fixtures/real-shapes/ with names
// made unique per copy. Every document stays on the fast path, no two objects share an identity, and every
// workload of every copy is still stamped from its own copy's ConfigMaps and Secrets, with no warning.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { asResourceList, asStream } from '../../bench/generate-bundle.ts';
import { realShapeDocuments, realShapeUnits, renameDocument } from '../../bench/real-shape-bundle.ts';
import { streamDocuments } from '../../function/read/stream-documents.ts';
import { runInProcess } from '../support/run-cli.ts';

const units = realShapeUnits();
const perCopy = units.reduce((n, u) => n + u.docs.length, 0);
const docs = realShapeDocuments(3 * perCopy);
const stream = asStream(docs);

test('the bundle holds whole fixtures, copy after copy', () => {
  assert.ok(units.length >= 4, 'fixtures read');
  assert.is(docs.length, 3 * perCopy);
  const few = realShapeDocuments(1);
  assert.is(few.length, units[0]!.docs.length, 'a fixture is never cut');
});

test('every document of the bundle is read by the fast path (#26)', () => {
  const reader = streamDocuments(stream, 'real.yaml');
  let n = 0;
  for (let next = reader.next(); ; next = reader.next()) {
    if (next.done) {
      assert.is(next.value, true, 'read document by document');
      break;
    }
    assert.is(next.value.readBy, 'subset', `document ${n}`);
    n++;
  }
  assert.is(n, docs.length);
});

test('names and namespaces are unique per copy, and the yaml library reads what was renamed', () => {
  const ids = parseAllDocuments(stream).map((d) => {
    assert.is(d.errors.length, 0);
    const o = d.toJS() as { kind: string; metadata: { name: string; namespace?: string } };
    return `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`;
  });
  assert.is(new Set(ids).size, ids.length, 'no identity twice');
  // Namespaced objects get their copy's namespace; a cluster-scoped one (a CRD) has none.
  assert.ok(ids.every((id) => /\/real-\d+\/.*-\d+$/.test(id) || /^CustomResourceDefinition\/undefined\/.*-\d+$/.test(id)), ids.join(' '));
  assert.ok(ids.some((id) => id.startsWith('CustomResourceDefinition/undefined/')), 'a cluster-scoped object is among them');
});

test('only whole values are renamed; a namespace already there is kept', () => {
  const names = new Set(['app']);
  const doc = 'kind: ConfigMap\nmetadata:\n  name: app\n  namespace: mine\ndata:\n  k: app\n  app: application\n  l: "app"\n  m: {name: app, key: x}\n  n: app # a comment\n';
  assert.is(renameDocument(doc, names, '-7', 'real-7'), 'kind: ConfigMap\nmetadata:\n  name: app-7\n  namespace: mine\ndata:\n  k: app-7\n  app: application\n  l: "app-7"\n  m: {name: app-7, key: x}\n  n: app-7 # a comment\n');
  assert.is(renameDocument('kind: ClusterRole\nmetadata:\n  name: app\n', names, '-1', 'real-1'), 'kind: ClusterRole\nmetadata:\n  name: app-1\n', 'no namespace on a cluster-scoped kind');
});

test('every workload of every copy is stamped, with no warning, as a stream and as a ResourceList', async () => {
  const workloads = docs.filter((d) => /^kind: (Deployment|StatefulSet|DaemonSet|Job|CronJob)$/m.test(d)).length;
  const explain = await runInProcess(['explain', '-o', 'json', '-'], { stdin: stream });
  assert.is(explain.code, 0, explain.stderr);
  assert.is(explain.stderr, '');
  const out = JSON.parse(explain.stdout) as { wouldChange: unknown[]; results?: { severity: string }[] };
  assert.is(out.wouldChange.length, workloads);
  assert.ok((out.results ?? []).every((r) => r.severity === 'info'), JSON.stringify(out.results?.filter((r) => r.severity !== 'info')));
  const fn = await runInProcess(['fn'], { stdin: asResourceList(docs) });
  assert.is(fn.code, 0, fn.stderr);
  assert.is(fn.stdout.split('rollstamp.dev/hash: ').length - 1, workloads);
});

test.run();
