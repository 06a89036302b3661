// `rollstamp refresh` as the image runs it (#34): the bundle under plain node, stopped by SIGTERM (a Deployment's pod
// being replaced) or SIGINT. It must exit 0 within 5 s — the contract — with its Lease released and nothing on
// stdout. The bound is the contract itself: the refresher's own stop budget is 4 s, the rest is the margin.
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startFakeCluster } from '../support/fake-cluster.ts';
import { kubeconfigFor, putApplication, putDeployment, putSecret } from '../support/refresher.ts';
import { BUNDLE } from '../support/run-cli.ts';

const CONTRACT_MS = 5000;

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal}: the bundled refresher exits 0 within 5 s, its Lease released`, async () => {
    const cluster = await startFakeCluster({ bookmarkMs: 500 });
    const db = putSecret(cluster, 'shop', 'db', { password: 'p' });
    putDeployment(cluster, 'shop', 'web', 'shop', [{ source: db, keys: ['password'] }]);
    putApplication(cluster, 'shop', [{ namespace: 'shop', name: 'web' }]);
    const child = spawn(process.execPath, [BUNDLE, 'refresh', '--kubeconfig', kubeconfigFor(cluster), '--listen', '127.0.0.1:0', '--leader-elect'], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent-home-for-tests' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
    try {
      const start = Date.now();
      while (!stderr.includes('leading (Lease argocd/rollstamp-refresh)')) {
        assert.ok(Date.now() - start < 30_000 && child.exitCode === null, `never led; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const sent = Date.now();
      child.kill(signal);
      const { code, at } = await exited;
      assert.is(code, 0, stderr);
      assert.ok(at - sent < CONTRACT_MS, `exited ${at - sent} ms after ${signal}`);
      assert.is(stdout, '');
      assert.match(stderr, /rollstamp refresh: stopped\n$/);
      assert.is(cluster.get('coordination.k8s.io/v1', 'Lease', 'argocd', 'rollstamp-refresh')!.spec.holderIdentity, null, 'the Lease is released');
    } finally {
      child.kill('SIGKILL');
      await cluster.close();
    }
  });
}

test.run();
