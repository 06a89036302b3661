// `diff` over renders that hide values (#38), on target reports: a masked Secret or a source neither render
// holds leaves the decision to the stamps the renders carry; unchanged stamps clear what they cover; without a
// stamp to compare, a target using masked values may roll; a visible change still rolls as before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffStamps } from '../../function/compare/stamp-diff.ts';
import type { SourceReport, TargetReport } from '../../function/model/reports.ts';

const H = (c: string): string => `sha256:${c.repeat(64)}`;

function secret(name: string, opts: { masked?: boolean; from?: SourceReport['from']; keys?: string[]; whole?: boolean; digest?: string } = {}): SourceReport {
  const keys = opts.keys ?? ['password'];
  return {
    cls: 'Secret',
    namespace: 'shop',
    name,
    from: opts.from ?? 'bundle',
    whole: opts.whole ?? false,
    optional: false,
    keys: keys.map((key) => ({ key, present: opts.from !== 'missing', digest: H('d') })),
    fields: [],
    ...(opts.masked ? { masked: true as const } : {}),
    digest: opts.digest ?? H('a'),
  };
}

function target(name: string, hash: string, previous: string | undefined, sources: SourceReport[]): TargetReport {
  return { resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name }, field: 'f', hash, ...(previous ? { previous } : {}), changed: false, sources };
}

const lines = (olds: TargetReport[], news: TargetReport[]): string[] =>
  diffStamps(olds, news).targets.map((t) => `${t.resourceRef.name} ${t.change}${t.basis ? ` by ${t.basis}` : ''}: ${t.sources.map((s) => `${s.name}${s.unknown ? `(${s.unknown})` : ''}`).join(' ')}`);

const CASES: Array<{ name: string; old: TargetReport[]; new: TargetReport[]; expected: string[] }> = [
  {
    name: 'masked in both, stamps differ: rolls by the stamps, the masked Secret listed',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true })])],
    expected: ['web rolls by stamps: db(masked)'],
  },
  {
    name: 'masked in both, stamps equal: nothing rolls',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true })])],
    new: [target('web', H('1'), H('2'), [secret('db', { masked: true })])],
    expected: [],
  },
  {
    name: 'another target whose stamp did not change clears the Secret it reads whole: only the other is the cause',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true }), secret('tls', { masked: true, whole: true, keys: ['tls.crt'] })]), target('proxy', H('4'), H('5'), [secret('tls', { masked: true, whole: true, keys: ['tls.crt'] })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true }), secret('tls', { masked: true, whole: true, keys: ['tls.crt'] })]), target('proxy', H('4'), H('5'), [secret('tls', { masked: true, whole: true, keys: ['tls.crt'] })])],
    expected: ['web rolls by stamps: db(masked)'],
  },
  {
    name: 'an unchanged stamp over another key of the Secret clears only that key',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true, keys: ['password'] })]), target('report', H('4'), H('5'), [secret('db', { masked: true, keys: ['username'] })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true, keys: ['password'] })]), target('report', H('4'), H('5'), [secret('db', { masked: true, keys: ['username'] })])],
    expected: ['web rolls by stamps: db(masked)'],
  },
  {
    name: 'every hidden source cleared: all are listed, since none can be ruled the cause',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true })]), target('twin', H('4'), H('5'), [secret('db', { masked: true })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true })]), target('twin', H('4'), H('5'), [secret('db', { masked: true })])],
    expected: ['web rolls by stamps: db(masked)'],
  },
  {
    name: 'a source in neither render (a live read at render time): the stamps decide',
    old: [target('web', H('1'), H('2'), [secret('db', { from: 'missing' })])],
    new: [target('web', H('1'), H('3'), [secret('db', { from: 'missing' })])],
    expected: ['web rolls by stamps: db(absent)'],
  },
  {
    name: 'a source in neither render and no stamp: nothing can be told, and nothing is claimed',
    old: [target('web', H('1'), undefined, [secret('db', { from: 'missing' })])],
    new: [target('web', H('1'), undefined, [secret('db', { from: 'missing' })])],
    expected: [],
  },
  {
    name: 'masked and no stamp in one render: may roll',
    old: [target('web', H('1'), undefined, [secret('db', { masked: true })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true })])],
    expected: ['web may-roll: db(masked)'],
  },
  {
    name: 'a stamp rollstamp does not write is not compared: may roll',
    old: [target('web', H('1'), 'sha256:short', [secret('db', { masked: true })])],
    new: [target('web', H('1'), H('3'), [secret('db', { masked: true })])],
    expected: ['web may-roll: db(masked)'],
  },
  {
    name: 'a visible change rolls by the hashes; the masked Secret is added when the stamps differ too',
    old: [target('web', H('1'), H('2'), [secret('db', { masked: true }), { ...secret('settings', { digest: H('b') }), cls: 'ConfigMap' }])],
    new: [target('web', H('7'), H('3'), [secret('db', { masked: true }), { ...secret('settings', { digest: H('c') }), cls: 'ConfigMap' }])],
    expected: ['web rolls: settings db(masked)'],
  },
  {
    name: 'no hidden source: the stamps carried are not read (an unstamped NEW still shows what stamping rolls)',
    old: [target('web', H('1'), H('2'), [secret('db', { digest: H('b') })])],
    new: [target('web', H('1'), H('3'), [secret('db', { digest: H('b') })])],
    expected: [],
  },
];

for (const c of CASES) {
  test(c.name, () => {
    assert.equal(lines(c.old, c.new), c.expected);
  });
}

test('the summary counts targets that may roll apart from those that roll', () => {
  const summary = diffStamps([target('web', H('1'), undefined, [secret('db', { masked: true })])], [target('web', H('1'), H('3'), [secret('db', { masked: true })])]).summary;
  assert.equal(summary, { rolls: 0, appears: 0, disappears: 0, 'may-roll': 1 });
});

test.run();
