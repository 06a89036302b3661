// Properties of the refresh decision (#34) over random clusters: Applications with workloads that consume keys of
// Secrets and ConfigMaps, rendered (records made as the render makes them), then changed at random — labels only,
// a key nobody or somebody reads, a key added, deleted, re-created with the same bytes. The truth is computed from
// the model, not from rollstamp. With the hash key, or having seen the recorded versions, the decision requests
// exactly the Applications the truth says; cold and without a key it never misses one and marks every extra
// `unverified`; the same state is never requested twice; the order of the input does not matter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideRefreshes } from '../../function/refresh/decide.ts';
import type { RefreshInput, WorkloadView } from '../../function/model/refresh.ts';
import { application, appsMap, deployment, HASH_KEY, OWN_KEY, recordOf, SCOPE, sourcesMap, type Consumed, type SourceState } from '../support/refresh-world.ts';
import { forAll, type Case } from '../support/property-harness.ts';

interface Use {
  source: number;
  keys: string[];
  whole: boolean;
}
interface World {
  before: SourceState[];
  after: Array<SourceState | undefined>;
  workloads: Array<{ app: string; name: string; uses: Use[] }>;
}

const KEYS = ['a', 'b', 'c', 'd'];

function drawWorld({ rng }: Case): World {
  const before: SourceState[] = Array.from({ length: rng.range(1, 8) }, (_, i) => ({
    kind: rng.bool() ? 'Secret' : 'ConfigMap',
    namespace: 'shop',
    name: `s${i}`,
    uid: `uid-${i}`,
    resourceVersion: String(10 + i),
    data: Object.fromEntries(KEYS.slice(0, rng.range(1, 4)).map((k) => [k, `VALUE-${rng.int(3)}`])),
  }));
  const after = before.map((s, i): SourceState | undefined => {
    const next = (data: Record<string, string>, uid = s.uid): SourceState => ({ ...s, uid, data, resourceVersion: String(1000 + i) });
    const key = KEYS[rng.int(KEYS.length)]!;
    switch (rng.int(7)) {
      case 0: return s;
      case 1: return next(s.data);
      case 2: return next({ ...s.data, [key]: `VALUE-new-${rng.int(2)}` });
      case 3: return next(Object.fromEntries(Object.entries(s.data).filter(([k]) => k !== key)));
      case 4: return undefined;
      case 5: return next(s.data, `${s.uid}-again`);
      default: return next({ ...s.data, [key]: s.data[key] ?? `VALUE-${rng.int(3)}` });
    }
  });
  const workloads = Array.from({ length: rng.range(1, 8) }, (_, i) => ({
    app: `app${rng.int(3)}`,
    name: `w${i}`,
    uses: Array.from({ length: rng.range(1, 3) }, (): Use => {
      const whole = rng.bool(0.3);
      return { source: rng.int(before.length), keys: KEYS.filter(() => rng.bool(0.4)), whole };
    }).filter((u, j, all) => all.findIndex((x) => x.source === u.source) === j),
  }));
  return { before, after, workloads };
}

/** The Applications whose workloads consumed something that changed (from the model). */
function truth(w: World): Set<string> {
  const apps = new Set<string>();
  for (const wl of w.workloads) {
    for (const u of wl.uses) {
      const [b, a] = [w.before[u.source]!, w.after[u.source]];
      const keys = new Set([...u.keys, ...(u.whole ? [...Object.keys(b.data), ...Object.keys(a?.data ?? {})] : [])]);
      if (a === undefined || [...keys].some((k) => b.data[k] !== a.data[k])) apps.add(`argocd/${wl.app}`);
    }
  }
  return apps;
}

function input(w: World, keyed: boolean, state: 'before' | 'after', baselines: RefreshInput['baselines'] = new Map()): RefreshInput {
  const workloads: WorkloadView[] = w.workloads.map((wl) => {
    const consumed: Consumed[] = wl.uses.map((u) => ({ source: w.before[u.source]!, keys: u.keys, whole: u.whole }));
    return deployment('shop', wl.name, wl.app, recordOf(consumed, keyed));
  });
  const apps = [...new Set(w.workloads.map((wl) => wl.app))].map((name) => application(name, workloads.filter((_, i) => w.workloads[i]!.app === name)));
  const now = state === 'before' ? w.before : w.after.filter((s): s is SourceState => s !== undefined);
  return { workloads, sources: sourcesMap(now, keyed ? HASH_KEY : OWN_KEY), applications: appsMap(apps), scope: SCOPE, ...(keyed ? { hashKey: HASH_KEY } : {}), baselines };
}

const requested = (d: ReturnType<typeof decideRefreshes>): string[] => d.requests.map((r) => `${r.application.namespace}/${r.application.name}`).sort();

test('with the hash key, or having seen the recorded versions, exactly the Applications whose consumed keys changed are requested', async () => {
  await forAll('refresh-precise', 0x5eed34, async (c) => {
    const w = drawWorld(c);
    const expected = [...truth(w)].sort();
    assert.equal(requested(decideRefreshes(input(w, true, 'after'))), expected, `keyed ${c.label}`);
    const warm = decideRefreshes(input(w, false, 'before'));
    assert.equal(requested(warm), [], 'nothing changed yet');
    assert.equal(requested(decideRefreshes(input(w, false, 'after', warm.baselines))), expected, `baselines ${c.label}`);
  });
});

test('cold and without a key nothing is missed, and every extra request is marked unverified', async () => {
  await forAll('refresh-cold', 0x5eed35, async (c) => {
    const w = drawWorld(c);
    const must = truth(w);
    const d = decideRefreshes(input(w, false, 'after'));
    for (const app of must) assert.ok(requested(d).includes(app), `missed ${app} ${c.label}`);
    for (const r of d.requests) {
      if (must.has(`${r.application.namespace}/${r.application.name}`)) continue;
      assert.ok(r.changes.every((ch) => ch.reason === 'unverified'), `an extra request says why ${c.label}`);
    }
  });
});

test('a requested state is not requested again, and the order of the input changes nothing', async () => {
  await forAll('refresh-once', 0x5eed36, async (c) => {
    const w = drawWorld(c);
    for (const keyed of [true, false]) {
      const first = decideRefreshes(input(w, keyed, 'after'));
      const base = input(w, keyed, 'after');
      const fingerprints = new Map(first.requests.map((r) => [`${r.application.namespace}/${r.application.name}`, r.fingerprint]));
      const marked = new Map([...base.applications].map(([k, a]) => [k, fingerprints.has(k) ? { ...a, requested: fingerprints.get(k)! } : a]));
      const again = decideRefreshes({ ...base, applications: marked, workloads: [...base.workloads].reverse(), sources: new Map([...base.sources].reverse()) });
      assert.equal(again.requests, [], `requested twice ${c.label}`);
      assert.equal(again.alreadyRequested.length, first.requests.length);
      const shuffled = decideRefreshes({ ...base, workloads: [...base.workloads].sort(() => c.rng.int(3) - 1) });
      assert.equal(shuffled.requests, first.requests, `order ${c.label}`);
      for (const p of [...first.problems, ...again.problems]) assert.not.match(p.message, /VALUE-/);
    }
  });
});

test.run();
