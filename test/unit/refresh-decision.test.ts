// The refresh decision (#34, #33 item 11): precise about what changed, once per change, and refusing every record
// or tracking that points where the workload does not belong.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideRefreshes } from '../../function/refresh/decide.ts';
import type { RefreshInput, WorkloadView } from '../../function/model/refresh.ts';
import { application, appsMap, deployment, HASH_KEY, idOf, OWN_KEY, recordOf, SCOPE, sourcesMap, type SourceState } from '../support/refresh-world.ts';

const db: SourceState = { kind: 'Secret', namespace: 'shop', name: 'db', uid: 'u1', resourceVersion: '10', data: { password: 'p1', username: 'shop' } };
const bump = (s: SourceState, data: Record<string, string> = s.data, uid = s.uid): SourceState => ({ ...s, uid, data, resourceVersion: String(Number(s.resourceVersion) + 1) });

function world(opts: { keyed: boolean; now: SourceState[]; workloads?: WorkloadView[]; requested?: string; baselines?: RefreshInput['baselines'] }): RefreshInput {
  const workloads = opts.workloads ?? [deployment('shop', 'web', 'shop', recordOf([{ source: db, keys: ['password'] }], opts.keyed))];
  return {
    workloads,
    sources: sourcesMap(opts.now, opts.keyed ? HASH_KEY : OWN_KEY),
    applications: appsMap([application('shop', workloads, 'argocd', opts.requested)]),
    scope: SCOPE,
    ...(opts.keyed ? { hashKey: HASH_KEY } : {}),
    baselines: opts.baselines ?? new Map(),
  };
}

test('with the hash key: a labels-only change, an unconsumed key or a re-created object with the same bytes requests nothing', () => {
  for (const now of [bump(db), bump(db, { ...db.data, username: 'other' }), bump(db, db.data, 'u2')]) {
    const d = decideRefreshes(world({ keyed: true, now: [now] }));
    assert.equal(d.requests, [], JSON.stringify(now));
    assert.equal(d.problems, []);
  }
});

test('with the hash key: a rotated consumed key requests one hard refresh of the managing Application, naming the key', () => {
  const d = decideRefreshes(world({ keyed: true, now: [bump(db, { ...db.data, password: 'p2' })] }));
  assert.is(d.requests.length, 1);
  const [r] = d.requests;
  assert.equal(r!.application, { namespace: 'argocd', name: 'shop' });
  assert.equal(r!.changes.map((c) => [c.reason, c.kind, c.name, c.keys, c.exact]), [['changed', 'Secret', 'db', ['password'], false]]);
  assert.match(r!.fingerprint, /^sha256:[0-9a-f]{64}$/);
});

test('without the hash key: the version moving is unverified until the refresher has seen the recorded version, then precise', () => {
  const labels = bump(db);
  const cold = decideRefreshes(world({ keyed: false, now: [labels] }));
  assert.equal(cold.requests[0]!.changes.map((c) => [c.reason, c.exact]), [['unverified', false]], 'after a restart it cannot tell: requested, and marked so');
  // Running since the render: the first pass sees the recorded version and keeps its per-key digests.
  const warm = decideRefreshes(world({ keyed: false, now: [db] }));
  assert.equal(warm.requests, []);
  assert.is(warm.baselines.size, 1);
  assert.equal(decideRefreshes(world({ keyed: false, now: [labels], baselines: warm.baselines })).requests, [], 'labels only');
  const rotated = decideRefreshes(world({ keyed: false, now: [bump(labels, { ...db.data, password: 'p2' })], baselines: warm.baselines }));
  assert.equal(rotated.requests[0]!.changes.map((c) => [c.reason, c.keys, c.exact]), [['changed', ['password'], true]]);
});

test('a deleted source, and a source that appeared after the render found none, are changes', () => {
  assert.equal(decideRefreshes(world({ keyed: true, now: [] })).requests[0]!.changes.map((c) => c.reason), ['deleted']);
  const gone = { kind: 'Secret' as const, namespace: 'shop', name: 'extra', missing: true as const };
  const workloads = [deployment('shop', 'web', 'shop', recordOf([{ source: gone, keys: [], whole: true }], true))];
  assert.equal(decideRefreshes(world({ keyed: true, now: [], workloads })).requests, []);
  const appeared: SourceState = { kind: 'Secret', namespace: 'shop', name: 'extra', uid: 'u9', resourceVersion: '3', data: { k: 'v' } };
  assert.equal(decideRefreshes(world({ keyed: true, now: [appeared], workloads })).requests[0]!.changes.map((c) => [c.reason, c.keys]), [['created', ['k']]]);
});

test('many changes of one Application are one request; the same changes are not requested again', () => {
  const cm: SourceState = { kind: 'ConfigMap', namespace: 'shop', name: 'cfg', uid: 'c1', resourceVersion: '5', data: { a: '1' } };
  const workloads = [
    deployment('shop', 'web', 'shop', recordOf([{ source: db, keys: ['password'] }, { source: cm, keys: [], whole: true }], true)),
    deployment('shop', 'worker', 'shop', recordOf([{ source: db, keys: ['password'] }], true)),
  ];
  const now = [bump(db, { password: 'p2' }), bump(cm, { a: '2' })];
  const first = decideRefreshes(world({ keyed: true, now, workloads }));
  assert.is(first.requests.length, 1);
  assert.is(first.requests[0]!.changes.length, 3);
  const again = decideRefreshes(world({ keyed: true, now, workloads: [...workloads].reverse(), requested: first.requests[0]!.fingerprint }));
  assert.equal(again.requests, [], 'its fingerprint is on the Application');
  assert.equal(again.alreadyRequested, [{ namespace: 'argocd', name: 'shop' }]);
  const later = decideRefreshes(world({ keyed: true, now: [bump(now[0]!, { password: 'p3' }), now[1]!], workloads, requested: first.requests[0]!.fingerprint }));
  assert.is(later.requests.length, 1, 'a new rotation is a new change');
  assert.is.not(later.requests[0]!.fingerprint, first.requests[0]!.fingerprint);
});

test('a digest that differs at the recorded version means another hash key: a warning, no request', () => {
  const input = world({ keyed: true, now: [db] });
  const d = decideRefreshes({ ...input, hashKey: new TextEncoder().encode('not the sidecar key'), sources: sourcesMap([db], new TextEncoder().encode('not the sidecar key')) });
  assert.equal(d.requests, []);
  assert.equal(d.problems.map((p) => p.tags.code), ['HASH_KEY_MISMATCH']);
});

const rotated = [bump(db, { password: 'p2' })];

test('a record naming another namespace, or one not watched, is refused (a repository cannot make the refresher an oracle) (#33)', () => {
  const theirs: SourceState = { ...db, namespace: 'payments', name: 'stripe' };
  const workloads = [deployment('shop', 'web', 'shop', recordOf([{ source: theirs, keys: ['key'] }], false))];
  const d = decideRefreshes(world({ keyed: false, now: [bump(theirs)], workloads }));
  assert.equal(d.requests, []);
  assert.equal(d.problems.map((p) => p.tags.code), ['RECORD_OUT_OF_SCOPE']);
  assert.match(d.problems[0]!.message, /Secret payments\/stripe, outside its own namespace and --shared-namespaces/);
  const shared = decideRefreshes({ ...world({ keyed: false, now: [bump(theirs)], workloads }), scope: { ...SCOPE, sharedNamespaces: new Set(['payments']) } });
  assert.is(shared.requests.length, 1, 'a namespace the operator shares is read');
  const unwatched = decideRefreshes({ ...world({ keyed: false, now: rotated }), scope: { ...SCOPE, watched: new Set(['other']) } });
  assert.equal(unwatched.problems.map((p) => p.tags.code), ['RECORD_OUT_OF_SCOPE']);
  assert.equal(unwatched.requests, []);
});

test('a workload names only an Application that lists it, in a namespace the refresher may refresh (#33)', () => {
  const record = recordOf([{ source: db, keys: ['password'] }], true);
  const web = deployment('shop', 'web', 'shop', record);
  const cases: Array<[WorkloadView, RegExp]> = [
    [{ ...web, trackingId: 'payments:apps/Deployment:shop/web' }, /names Application argocd\/payments, which does not list it/],
    [{ ...web, trackingId: 'shop:apps/Deployment:shop/other' }, /names another object/],
    [{ ...web, trackingId: 'not a tracking id' }, /does not read as APP:GROUP\/KIND:NAMESPACE\/NAME/],
    [{ ...web, trackingId: 'team_shop:apps/Deployment:shop/web' }, /Application team\/shop, outside the Argo CD namespaces/],
    [{ ...web, trackingId: 'ghost:apps/Deployment:shop/web' }, /Application argocd\/ghost, which does not exist/],
    [{ ref: web.ref, group: 'apps', record }, /no argocd.argoproj.io\/tracking-id annotation or app.kubernetes.io\/instance label/],
  ];
  const apps = appsMap([application('shop', [web]), application('payments', [])]);
  for (const [w, why] of cases) {
    const d = decideRefreshes({ workloads: [w], sources: sourcesMap(rotated), applications: apps, scope: SCOPE, hashKey: HASH_KEY, baselines: new Map() });
    assert.equal(d.requests, [], w.trackingId ?? 'untracked');
    assert.equal(d.problems.map((p) => p.tags.code), ['UNMANAGED_WORKLOAD']);
    assert.match(d.problems[0]!.message, why);
  }
  const label: WorkloadView = { ref: web.ref, group: 'apps', record, instance: 'shop' };
  assert.is(decideRefreshes({ workloads: [label], sources: sourcesMap(rotated), applications: apps, scope: SCOPE, hashKey: HASH_KEY, baselines: new Map() }).requests.length, 1, 'the instance label, else');
  const elsewhere = { ...web, trackingId: 'team_shop:apps/Deployment:shop/web' };
  const inTeam = decideRefreshes({
    workloads: [elsewhere],
    sources: sourcesMap(rotated),
    applications: appsMap([application('shop', [web], 'team')]),
    scope: { ...SCOPE, applicationNamespaces: new Set(['team']) },
    hashKey: HASH_KEY,
    baselines: new Map(),
  });
  assert.equal(inTeam.requests.map((r) => r.application), [{ namespace: 'team', name: 'shop' }], 'NS_NAME in --application-namespaces');
});

test('a record that does not read is refused whole; the empty record and no record are nothing', () => {
  const bad = deployment('shop', 'web', 'shop', '{"v":1,"reads":[{"kind":"Pod"}]}');
  const d = decideRefreshes(world({ keyed: true, now: rotated, workloads: [bad, deployment('shop', 'a', 'shop', '{"v":1,"reads":[]}'), deployment('shop', 'b', 'shop')] }));
  assert.equal(d.requests, []);
  assert.equal(d.problems.map((p) => [p.tags.code, p.resourceRef?.name]), [['BAD_RECORD', 'web']]);
});

test('baselines are kept only for versions some record names', () => {
  const other: SourceState = { ...db, name: 'unused' };
  const d = decideRefreshes(world({ keyed: false, now: [db, other] }));
  assert.equal([...d.baselines.keys()].map((k) => k.split('\0')[0]), [idOf(db)]);
  const next = decideRefreshes(world({ keyed: false, now: [bump(db)], baselines: d.baselines }));
  assert.is(next.baselines.size, 1, 'still named by the record, kept from before');
  const rerendered = [deployment('shop', 'web', 'shop', recordOf([{ source: bump(db), keys: ['password'] }], false))];
  assert.is(decideRefreshes(world({ keyed: false, now: [bump(db)], workloads: rerendered, baselines: d.baselines })).baselines.get(`${idOf(db)}\0u1\0${bump(db).resourceVersion}`)?.resourceVersion, bump(db).resourceVersion, 'the new version replaces it');
});

test.run();
