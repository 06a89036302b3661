// Golden cases that read the cluster (fixtures/live-records/, each with a cluster.yaml a fake cluster serves): the
// live-read record (#34) is tested like the stamp — `stamp` with both readers, again over its own output
// (idempotence), the KRM function, and the built bundle under plain node — and never holds a value.
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { clusterStampArgs, startCaseCluster, type CaseCluster } from '../support/cluster-fixtures.ts';
import { loadCases, resourceListOf, type GoldenCase } from '../support/fixtures.ts';
import { BUNDLE, runInProcess, type CliRun } from '../support/run-cli.ts';
import { FULL_READER } from '../support/both-readers.ts';

const cases = loadCases('cluster');
const RECORD = /rollstamp\.dev\/live-reads: ("(?:[^"\\]|\\.)*"|'[^']*')/g;
const HASH = /"((?:hmac-)?sha256:[0-9a-f]{64})"/g;

/** The records and stamps in a text, in order (a record's quoting aside). */
function written(text: string): { records: unknown[]; hashes: string[] } {
  const records = [...text.matchAll(RECORD)].map((m) => JSON.parse(m[1]!.startsWith("'") ? m[1]!.slice(1, -1) : (JSON.parse(m[1]!) as string)));
  return { records, hashes: [...text.matchAll(HASH)].map((m) => m[1]!) };
}

/** Every value the case's cluster holds, decoded: none may appear in anything rollstamp prints. */
function clusterValues(c: GoldenCase): string[] {
  return parseAllDocuments(c.cluster!).flatMap((d) => {
    const obj = d.toJS() as { kind: string; data?: Record<string, string> };
    return Object.values(obj.data ?? {}).map((v) => (obj.kind === 'Secret' ? Buffer.from(v, 'base64').toString('utf8') : v));
  });
}

function bundleRun(argv: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUNDLE, ...argv], { cwd, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('there are cluster cases, each with an expectation', () => {
  assert.ok(cases.length >= 4, `only ${cases.length} cluster cases`);
  for (const c of cases) assert.ok(c.expected !== undefined, `${c.name}: no expected.yaml`);
});

for (const c of cases) {
  test(`record golden ${c.name}: both readers, idempotence, the KRM function and the bundle agree`, async () => {
    const served: CaseCluster = await startCaseCluster(c);
    try {
      const args = clusterStampArgs(c, served.kubeconfig);
      for (const env of [{}, FULL_READER]) {
        const run = await runInProcess(args, { cwd: c.dir, env });
        assert.is(run.code, 0, run.stderr);
        assert.is(run.stderr, c.warnings);
        assert.fixture(run.stdout, c.expected!);
      }
      const again = await runInProcess(clusterStampArgs(c, served.kubeconfig, '-'), { cwd: c.dir, stdin: c.expected });
      assert.is(again.code, 0, again.stderr);
      assert.fixture(again.stdout, c.expected!);
      assert.not.match(again.stderr, /RECORD|live-read record/, 'nothing replaced on a second run');

      const fn = await runInProcess(['fn'], { cwd: c.dir, stdin: resourceListOf(c), env: { KUBECONFIG: served.kubeconfig } });
      assert.is(fn.code, 0, fn.stderr);
      assert.equal(written(fn.stdout), written(c.expected!), 'the KRM function writes the same records and stamps');

      const bundled = await bundleRun(args, c.dir);
      assert.is(bundled.code, 0, bundled.stderr);
      assert.is(bundled.stdout, c.expected!);

      const { records } = written(c.expected!);
      assert.ok(records.length > 0, 'the case writes records');
      for (const value of clusterValues(c)) assert.not.ok(JSON.stringify(records).includes(value), 'a record holds no value');
    } finally {
      await served.close();
    }
  });
}

test('a record names uid and resourceVersion, and changes with them; the stamp changes only with a consumed key', async () => {
  const c = cases.find((x) => x.name === 'live-records/keyed')!;
  const served = await startCaseCluster(c);
  try {
    const stampOnce = async (): Promise<{ records: Array<{ reads: Array<Record<string, unknown>> }>; hashes: string[] }> => {
      const run = await runInProcess(clusterStampArgs(c, served.kubeconfig), { cwd: c.dir });
      assert.is(run.code, 0, run.stderr);
      return written(run.stdout) as never;
    };
    const before = await stampOnce();
    const db = served.cluster.get('v1', 'Secret', 'shop', 'db')!;
    served.cluster.apply({ ...db, metadata: { ...db.metadata, labels: { rotated: 'no' } } });
    const labels = await stampOnce();
    assert.equal(labels.hashes, before.hashes, 'a labels-only change rolls nothing');
    const dbBefore = before.records[0]!.reads.find((r) => r.name === 'db')!;
    const dbLabels = labels.records[0]!.reads.find((r) => r.name === 'db')!;
    assert.is.not(dbLabels.resourceVersion, dbBefore.resourceVersion, 'the record follows the resourceVersion');
    assert.is(dbLabels.digest, dbBefore.digest, 'the keyed digest does not');
    served.cluster.apply({ ...db, data: { ...db.data, username: Buffer.from('VALUE-other-user').toString('base64') } });
    const unused = await stampOnce();
    assert.equal(unused.hashes, before.hashes, 'a key no workload reads rolls nothing');
    assert.is(unused.records[0]!.reads.find((r) => r.name === 'db')!.digest, dbBefore.digest);
    served.cluster.apply({ ...db, data: { ...db.data, password: Buffer.from('VALUE-rotated-password').toString('base64') } });
    const rotated = await stampOnce();
    assert.is.not(rotated.hashes[0], before.hashes[0], 'a rotated consumed key rolls the workload');
    assert.is.not(rotated.records[0]!.reads.find((r) => r.name === 'db')!.digest, dbBefore.digest);
  } finally {
    await served.close();
  }
});

test.run();
