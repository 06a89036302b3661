// `rollstamp refresh` against a fake cluster that speaks list/watch (#34): a rotated consumed key hard-refreshes
// exactly the managing Application, once; nothing else is written; what was requested survives a restart; the probes
// and metrics say what happened; the log names objects and keys, never a value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startFakeCluster, type FakeCluster } from '../support/fake-cluster.ts';
import { appPatches, HASH_KEY_ENV, putApplication, putDeployment, putSecret, rotate, startRefresher } from '../support/refresher.ts';

const VALUE = 'VALUE-MARKER-0f1e';

/** shop: web reads db/password; billing: api reads pay/token. */
async function shop(opts: { keyed?: boolean } = {}): Promise<FakeCluster> {
  const cluster = await startFakeCluster({ bookmarkMs: 300 });
  const db = putSecret(cluster, 'shop', 'db', { password: `${VALUE}-1`, username: 'u' });
  const pay = putSecret(cluster, 'billing', 'pay', { token: `${VALUE}-t` });
  putDeployment(cluster, 'shop', 'web', 'shop', [{ source: db, keys: ['password'] }], opts.keyed);
  putDeployment(cluster, 'billing', 'api', 'billing', [{ source: pay, keys: ['token'] }], opts.keyed);
  putApplication(cluster, 'shop', [{ namespace: 'shop', name: 'web' }]);
  putApplication(cluster, 'billing', [{ namespace: 'billing', name: 'api' }]);
  return cluster;
}

const requested = (cluster: FakeCluster, app: string): Record<string, string> => cluster.get('argoproj.io/v1alpha1', 'Application', 'argocd', app)?.metadata.annotations ?? {};

test('a rotated consumed key hard-refreshes exactly its Application, once, by merge patch; the log names the key, never the value', async () => {
  const cluster = await shop();
  const r = startRefresher(cluster);
  try {
    await r.synced();
    assert.equal(appPatches(cluster), [], 'nothing changed since the render: nothing requested');
    rotate(cluster, 'shop', 'db', 'password', `${VALUE}-2`);
    await r.until(() => appPatches(cluster).length === 1);
    assert.equal(cluster.patches[0]!.contentType, 'application/merge-patch+json');
    assert.is(requested(cluster, 'shop')['argocd.argoproj.io/refresh'], 'hard');
    assert.match(requested(cluster, 'shop')['rollstamp.dev/refresh-requested']!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(requested(cluster, 'billing'), {}, 'the other Application is untouched');
    await r.until(() => r.lines.some((l) => l.includes('requested a hard refresh')));
    const said = r.lines.find((l) => l.includes('requested a hard refresh'))!;
    assert.is(said, 'rollstamp refresh: requested a hard refresh of Application argocd/shop: Secret shop/db changed: key password (read by Deployment shop/web)');
    // Argo CD processes the refresh and removes its annotation; nothing is requested again for the same change.
    const app = cluster.get('argoproj.io/v1alpha1', 'Application', 'argocd', 'shop')!;
    delete app.metadata.annotations['argocd.argoproj.io/refresh'];
    cluster.apply(app);
    await new Promise((res) => setTimeout(res, 500));
    assert.is(appPatches(cluster).length, 1, 'no loop after Argo CD clears its annotation');
  } finally {
    assert.is(await r.stop(), 0);
    await cluster.close();
  }
  assert.not.ok(r.lines.join('\n').includes(VALUE), 'no value in the log');
  const writes = cluster.requests.filter((q) => !q.startsWith('GET '));
  assert.ok(writes.every((q) => q.startsWith('PATCH /apis/argoproj.io/v1alpha1/namespaces/argocd/applications/')), writes.join('\n'));
});

test('with the hash key: a labels-only change and a change of an unconsumed key request nothing; the consumed key does', async () => {
  const cluster = await shop({ keyed: true });
  const r = startRefresher(cluster, [], HASH_KEY_ENV);
  try {
    await r.synced();
    const db = cluster.get('v1', 'Secret', 'shop', 'db')!;
    cluster.apply({ ...db, metadata: { ...db.metadata, labels: { team: 'shop' } } });
    rotate(cluster, 'shop', 'db', 'username', 'other');
    await new Promise((res) => setTimeout(res, 600));
    assert.equal(appPatches(cluster), []);
    rotate(cluster, 'shop', 'db', 'password', `${VALUE}-3`);
    await r.until(() => appPatches(cluster).length === 1);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('a rotation while it was not running is acted on at start; what it requested is remembered across restarts', async () => {
  const cluster = await shop({ keyed: true });
  rotate(cluster, 'shop', 'db', 'password', `${VALUE}-offline`);
  const first = startRefresher(cluster, [], HASH_KEY_ENV);
  await first.until(() => appPatches(cluster).length === 1);
  assert.is(await first.stop(), 0);
  const second = startRefresher(cluster, [], HASH_KEY_ENV);
  try {
    await second.synced();
    await new Promise((res) => setTimeout(res, 300));
    assert.is(appPatches(cluster).length, 1, 'the same change is not requested again after a restart');
  } finally {
    await second.stop();
    await cluster.close();
  }
});

test('without the hash key, a version that moved while it was not watching is refreshed once, marked unverified', async () => {
  const cluster = await shop();
  const db = cluster.get('v1', 'Secret', 'shop', 'db')!;
  cluster.apply({ ...db, metadata: { ...db.metadata, labels: { relabelled: 'yes' } } });
  const r = startRefresher(cluster);
  try {
    await r.until(() => r.lines.some((l) => l.includes('requested a hard refresh')));
    assert.ok(r.lines.some((l) => /Secret shop\/db has a new resourceVersion and, without the hash key, may have changed \(consumed: key password; unverified\)/.test(l)), r.lines.join('\n'));
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('/healthz, /readyz and /metrics say what it does', async () => {
  const cluster = await shop();
  const r = startRefresher(cluster);
  try {
    const base = `http://${await r.probes()}`;
    assert.is((await fetch(`${base}/healthz`)).status, 200);
    await r.until(() => r.lines.some((l) => l.includes('watching')));
    const deadline = Date.now() + 10_000;
    while ((await fetch(`${base}/readyz`)).status !== 200 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    assert.is((await fetch(`${base}/readyz`)).status, 200);
    rotate(cluster, 'shop', 'db', 'password', `${VALUE}-4`);
    await r.until(() => appPatches(cluster).length === 1);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    assert.match(metrics, /^rollstamp_refresh_requests_total\{reason="unverified"\} 1$|^rollstamp_refresh_requests_total\{reason="changed"\} 1$/m);
    assert.match(metrics, /^rollstamp_refresh_objects_watched\{resource="secrets"\} 2$/m);
    assert.match(metrics, /^rollstamp_refresh_last_sync_timestamp_seconds [1-9]\d+$/m);
    assert.match(metrics, /^rollstamp_refresh_leader 1$/m);
    assert.match(metrics, /^# TYPE rollstamp_refresh_watch_restarts_total counter$/m);
    assert.not.ok(metrics.includes(VALUE));
    assert.is((await fetch(`${base}/nope`)).status, 404);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('--once does one pass and exits 0; a kind the cluster does not serve is skipped', async () => {
  const cluster = await startFakeCluster({ notServed: ['rollouts', 'agents'] });
  const db = putSecret(cluster, 'shop', 'db', { password: 'x' });
  putDeployment(cluster, 'shop', 'web', 'shop', [{ source: db, keys: ['password'] }]);
  putApplication(cluster, 'shop', [{ namespace: 'shop', name: 'web' }]);
  rotate(cluster, 'shop', 'db', 'password', 'y');
  try {
    const r = startRefresher(cluster, ['--once']);
    assert.is(await r.done, 0, r.lines.join('\n'));
    assert.equal(appPatches(cluster), ['argocd/shop']);
    assert.match(r.lines.at(-1)!, /one pass over 1 workloads with records: 1 hard refreshes requested, 0 already requested/);
    const again = startRefresher(cluster, ['--once']);
    assert.is(await again.done, 0);
    assert.equal(appPatches(cluster), ['argocd/shop'], 'a second --once requests nothing new');
  } finally {
    await cluster.close();
  }
});

test('--once retries 429 and 500, and exits 1 with one line naming the RBAC it lacks on a 403', async () => {
  const cluster = await shop();
  cluster.fail({ path: '/api/v1/secrets', status: 500 }, { path: '/api/v1/secrets', status: 429, retryAfter: '0' }, { method: 'PATCH', status: 503 });
  rotate(cluster, 'shop', 'db', 'password', `${VALUE}-5`);
  try {
    const ok = startRefresher(cluster, ['--once']);
    assert.is(await ok.done, 0, ok.lines.join('\n'));
    assert.equal(appPatches(cluster), ['argocd/shop']);
    assert.is(cluster.requests.filter((q) => q.startsWith('PATCH ')).length, 2, 'the PATCH answered 503 was made again');
    cluster.fail({ path: '/api/v1/configmaps', status: 403 });
    const denied = startRefresher(cluster, ['--once']);
    assert.is(await denied.done, 1);
    assert.match(denied.lines.at(-1)!, /^rollstamp: error: refresh: list configmaps in all namespaces: forbidden \(HTTP 403\): the refresher's ServiceAccount needs this RBAC rule/);
  } finally {
    await cluster.close();
  }
});

test('flags are checked before anything connects', async () => {
  const cluster = await startFakeCluster();
  try {
    for (const [args, why] of [
      [['--namespaces', 'Bad_NS'], /--namespaces: "Bad_NS" is not a namespace name/],
      [['--workload-kinds', 'deployments'], /--workload-kinds: "deployments" is not group\/version\/resource/],
      [['--listen', 'nowhere'], /--listen: "nowhere" is not \[HOST\]:PORT/],
      [['--debounce', '-1'], /needs a value|--debounce/],
      [['extra'], /refresh takes no arguments/],
    ] as const) {
      const r = startRefresher(cluster, args);
      assert.is(await r.done, 2, args.join(' '));
      assert.match(r.lines.join('\n'), why);
    }
    assert.equal(cluster.requests, []);
  } finally {
    await cluster.close();
  }
});

test.run();
