// `rollstamp refresh` under faults (#34): dropped watches, 410 Gone, 429/500, a slow server, events split across
// chunks, a burst of rotated Secrets, a restart in the middle of one, an Application deleted while its refresh waits
// on the rate limit, two replicas with leader election — and, as someone who controls an app repository would try
// it (#33 item 11), records naming another team's namespace or another Application.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startFakeCluster, type FakeCluster } from '../support/fake-cluster.ts';
import { appPatches, putApplication, putDeployment, putSecret, rotate, startRefresher, type Refresher } from '../support/refresher.ts';
import type { SourceState } from '../support/refresh-world.ts';

/** Burst size: full under CI, small by default (the suite stays fast). */
const BURST = process.env.CI === 'true' ? 1000 : 200;

async function oneApp(): Promise<FakeCluster> {
  const cluster = await startFakeCluster({ bookmarkMs: 200 });
  const db = putSecret(cluster, 'shop', 'db', { password: 'p0' });
  putDeployment(cluster, 'shop', 'web', 'shop', [{ source: db, keys: ['password'] }]);
  putApplication(cluster, 'shop', [{ namespace: 'shop', name: 'web' }]);
  return cluster;
}

const settle = (ms = 500): Promise<void> => new Promise((r) => setTimeout(r, ms));
const started = (r: Refresher): Promise<void> => r.synced();

async function metric(r: Refresher, name: string): Promise<number> {
  const text = await (await fetch(`http://${await r.probes()}/metrics`)).text();
  return [...text.matchAll(new RegExp(`^rollstamp_refresh_${name}(?:\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

test('dropped watches, 410 Gone and events split across chunks: it lists again, watches again, and still sees the rotation', async () => {
  const cluster = await oneApp();
  const r = startRefresher(cluster);
  try {
    await started(r);
    cluster.splitEvents(true);
    cluster.dropWatches();
    await settle(300);
    // The watches are cut, the Secret changes and history is compacted before they reconnect: a watch from the old
    // resourceVersion is 410 Gone, and only a new list sees the change.
    const lists = cluster.requests.filter((q) => /^GET \/api\/v1\/secrets\?limit=/.test(q)).length;
    cluster.dropWatches();
    rotate(cluster, 'shop', 'db', 'password', 'p1');
    cluster.compact();
    await r.until(() => appPatches(cluster).length === 1);
    assert.ok((await metric(r, 'watch_restarts_total')) >= 2, 'the restarts are counted');
    assert.ok(cluster.requests.filter((q) => /^GET \/api\/v1\/secrets\?limit=/.test(q)).length > lists, 'a 410 lists again');
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('bookmarks keep the watched resourceVersion fresh: a watch resumed after compaction needs no new list', async () => {
  const cluster = await oneApp();
  const r = startRefresher(cluster);
  try {
    await started(r);
    // Other objects move the resourceVersion on; the refresher learns it only from bookmarks.
    for (let i = 0; i < 5; i++) putSecret(cluster, 'elsewhere', `noise-${i}`, { k: 'v' });
    await settle(700);
    const lists = cluster.requests.filter((q) => /^GET \/api\/v1\/configmaps\?limit=/.test(q)).length;
    cluster.compact();
    cluster.dropWatches();
    await r.until(() => cluster.openWatches() >= 10, 10_000);
    await settle(300);
    assert.is(cluster.requests.filter((q) => /^GET \/api\/v1\/configmaps\?limit=/.test(q)).length, lists, 'configmaps resumed from a bookmark, no 410');
    assert.ok(cluster.requests.some((q) => /^GET \/api\/v1\/configmaps\?watch=true&allowWatchBookmarks=true/.test(q)));
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('the fake server refuses a strategic merge patch of an Application (a custom resource) with 415, as the API server does; the refresher sends a merge patch', async () => {
  const cluster = await oneApp();
  try {
    const patch = (type: string): Promise<number> =>
      fetch(`${cluster.url}/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/shop`, { method: 'PATCH', headers: { 'content-type': type }, body: '{"metadata":{"annotations":{"a":"b"}}}' }).then((res) => res.status);
    assert.is(await patch('application/strategic-merge-patch+json'), 415);
    assert.is(await patch('application/merge-patch+json'), 200);
    assert.is(await patch('text/plain'), 415);
  } finally {
    await cluster.close();
  }
});

test('429 and 500 on lists and watches, and a slow server, are waited out', async () => {
  const cluster = await oneApp();
  cluster.slow(150);
  cluster.fail({ path: '/api/v1/secrets', status: 429, retryAfter: '1' }, { path: '/apis/apps/v1/deployments', status: 500 }, { path: '/apis/argoproj.io', status: 500 });
  const r = startRefresher(cluster, ['--min-interval', '0']);
  try {
    await started(r);
    rotate(cluster, 'shop', 'db', 'password', 'p1');
    await r.until(() => appPatches(cluster).length === 1, 20_000);
    cluster.fail({ path: '/api/v1/secrets', status: 500 }, { path: '/api/v1/secrets', status: 500 });
    cluster.dropWatches();
    await settle(300);
    rotate(cluster, 'shop', 'db', 'password', 'p2');
    await r.until(() => appPatches(cluster).length === 2, 20_000);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

/** Three Applications of `per` Deployments each, every Deployment reading its own Secret. */
async function fleet(per: number): Promise<{ cluster: FakeCluster; secrets: Array<SourceState & { app: string }> }> {
  const cluster = await startFakeCluster({ bookmarkMs: 500 });
  const secrets: Array<SourceState & { app: string }> = [];
  for (const app of ['a', 'b', 'c']) {
    const workloads = [];
    for (let i = 0; i < per; i++) {
      const s = putSecret(cluster, 'fleet', `${app}-${i}`, { key: 'v0', other: 'o' });
      secrets.push({ ...s, app });
      putDeployment(cluster, 'fleet', `${app}-w${i}`, app, [{ source: s, keys: ['key'] }]);
      workloads.push({ namespace: 'fleet', name: `${app}-w${i}` });
    }
    putApplication(cluster, app, workloads);
  }
  return { cluster, secrets };
}

test(`a burst of ${BURST} rotated Secrets is one hard refresh per Application`, async () => {
  const { cluster, secrets } = await fleet(Math.ceil(BURST / 3));
  const r = startRefresher(cluster, ['--debounce', '0.5']);
  try {
    await started(r);
    for (const s of secrets) rotate(cluster, s.namespace, s.name, 'key', 'v1');
    await r.until(() => appPatches(cluster).length === 3, 30_000);
    await settle(1500);
    assert.equal(appPatches(cluster).sort(), ['argocd/a', 'argocd/b', 'argocd/c']);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('a restart in the middle of a burst: the rest is requested by the next run, nothing twice, nothing lost', async () => {
  const { cluster, secrets } = await fleet(Math.ceil(BURST / 6));
  const half = secrets.filter((_, i) => i % 2 === 0 && secrets[i]!.app !== 'c');
  const rest = secrets.filter((s) => !half.includes(s) && s.app !== 'b');
  for (const s of half) rotate(cluster, s.namespace, s.name, 'key', 'v1');
  const first = startRefresher(cluster, ['--debounce', '0.3']);
  await first.until(() => appPatches(cluster).length === 2, 30_000);
  assert.is(await first.stop(), 0);
  assert.equal(appPatches(cluster).sort(), ['argocd/a', 'argocd/b']);
  for (const s of rest) rotate(cluster, s.namespace, s.name, 'key', 'v1');
  const second = startRefresher(cluster, ['--debounce', '0.3']);
  try {
    await second.until(() => appPatches(cluster).length === 4, 30_000);
    await settle(1000);
    // a had changes in both halves: asked again for the new state; b's state is unchanged; c is new.
    assert.equal(appPatches(cluster).slice(2).sort(), ['argocd/a', 'argocd/c']);
  } finally {
    await second.stop();
  }
  const third = startRefresher(cluster);
  await started(third);
  await settle(800);
  await third.stop();
  await cluster.close();
  assert.is(appPatches(cluster).length, 4, 'a third run finds everything requested');
});

test('an Application deleted while its refresh waits on the rate limit: dropped, said, counted', async () => {
  const cluster = await oneApp();
  const r = startRefresher(cluster, ['--min-interval', '60']);
  try {
    await started(r);
    rotate(cluster, 'shop', 'db', 'password', 'p1');
    await r.until(() => appPatches(cluster).length === 1);
    rotate(cluster, 'shop', 'db', 'password', 'p2');
    await settle(600);
    assert.ok((await metric(r, 'deferred_total')) >= 1, 'held back by the per-Application limit');
    cluster.remove('argoproj.io/v1alpha1', 'Application', 'argocd', 'shop');
    await r.until(() => r.lines.some((l) => l.includes('Application argocd/shop was deleted before its refresh was requested: dropped')));
    assert.is(appPatches(cluster).length, 1);
    assert.is(await metric(r, 'dropped_total'), 1);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('two replicas with --leader-elect: one acts; when it stops, the other takes over', async () => {
  const cluster = await oneApp();
  const a = startRefresher(cluster, ['--leader-elect']);
  await a.until(() => a.lines.some((l) => l.includes('leading')));
  const b = startRefresher(cluster, ['--leader-elect']);
  try {
    await started(b);
    rotate(cluster, 'shop', 'db', 'password', 'p1');
    await a.until(() => appPatches(cluster).length === 1);
    await settle(800);
    assert.is(appPatches(cluster).length, 1, 'the standby requests nothing');
    assert.not.ok(b.lines.some((l) => l.includes('requested a hard refresh')));
    assert.is(await a.stop(), 0);
    assert.is(cluster.get('coordination.k8s.io/v1', 'Lease', 'argocd', 'rollstamp-refresh')!.spec.holderIdentity, null, 'released on stop');
    await b.until(() => b.lines.some((l) => l.includes('leading')), 10_000);
    rotate(cluster, 'shop', 'db', 'password', 'p2');
    await b.until(() => appPatches(cluster).length === 2);
  } finally {
    await b.stop();
    await cluster.close();
  }
});

test('--namespaces with many namespaces: every watch gets a connection (nine resources each, over HTTP/1.1)', async () => {
  const cluster = await startFakeCluster({ bookmarkMs: 500 });
  const namespaces = Array.from({ length: 6 }, (_, i) => `team-${i}`);
  const db = putSecret(cluster, 'team-5', 'db', { password: 'p0' });
  putDeployment(cluster, 'team-5', 'web', 'team', [{ source: db, keys: ['password'] }]);
  putApplication(cluster, 'team', [{ namespace: 'team-5', name: 'web' }]);
  const r = startRefresher(cluster, ['--namespaces', namespaces.join(',')]);
  try {
    await started(r);
    await r.until(() => cluster.openWatches() === namespaces.length * 9 + 1);
    rotate(cluster, 'team-5', 'db', 'password', 'p1');
    await r.until(() => appPatches(cluster).length === 1);
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test('a repository that forges records cannot reach another team: entries outside the namespace, and other Applications, are refused (#33)', async () => {
  const cluster = await startFakeCluster({ bookmarkMs: 200 });
  const theirs = putSecret(cluster, 'payments', 'stripe', { key: 'k0' });
  const mine = putSecret(cluster, 'shop', 'db', { password: 'p0' });
  // The shop repository writes a record naming payments' Secret, and a Deployment whose tracking names billing's Application.
  putDeployment(cluster, 'shop', 'web', 'shop', [{ source: theirs, keys: ['key'] }, { source: mine, keys: ['password'] }]);
  putDeployment(cluster, 'shop', 'spoof', 'billing', [{ source: mine, keys: ['password'] }]);
  putApplication(cluster, 'shop', [{ namespace: 'shop', name: 'web' }, { namespace: 'shop', name: 'spoof' }]);
  putApplication(cluster, 'billing', [{ namespace: 'payments', name: 'api' }]);
  const r = startRefresher(cluster, ['--namespaces', 'shop']);
  try {
    await started(r);
    rotate(cluster, 'payments', 'stripe', 'key', 'k1');
    await r.until(() => r.lines.some((l) => l.includes('outside its own namespace')) && r.lines.some((l) => l.includes('Application argocd/billing, which does not list it')));
    await settle(400);
    assert.equal(appPatches(cluster), [], 'another team\'s rotation reaches nothing');
    rotate(cluster, 'shop', 'db', 'password', 'p1');
    await r.until(() => appPatches(cluster).length === 1);
    assert.equal(appPatches(cluster), ['argocd/shop'], 'only the Application that manages the workload');
    const outside = cluster.requests.filter((q) => /\/namespaces\/(?!shop\/|argocd\/)/.test(q) || /^GET \/api\/v1\/(secrets|configmaps)\?/.test(q));
    assert.equal(outside, [], 'with --namespaces shop, no request reaches another namespace');
  } finally {
    await r.stop();
    await cluster.close();
  }
});

test.run();
