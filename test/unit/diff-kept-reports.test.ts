// What `rollstamp diff` keeps of its first render while it reads the second (#37, compare/kept-reports.ts): the
// comparison over the kept reports is the comparison over the reports as the run gave them, byte for byte in JSON,
// on renders whose targets roll, appear, disappear, use producers, ModelConfigs and masked Secrets; and only what
// the comparison reads is kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keepForComparison } from '../../function/compare/kept-reports.ts';
import { diffStamps } from '../../function/compare/stamp-diff.ts';
import { readConfig } from '../../function/config/config.ts';
import type { TargetReport } from '../../function/model/reports.ts';
import { startStreamRun } from '../../function/run/stream-run.ts';
import { ROOT } from '../support/run-cli.ts';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const settings = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { targets: 'all' } });
if ('results' in settings) throw new Error('test settings do not read');
const { config } = settings;

/** A render's target reports as `diff` gets them (key digests, kagent preview, nothing written); it has no error. */
function targets(text: string): TargetReport[] {
  const outcome = startStreamRun([{ path: 'in.yaml', text }], { config, keyDigests: true, kagentPreview: true, write: false }).finish();
  assert.not.ok(outcome.results.some((r) => r.severity === 'error'), JSON.stringify(outcome.results));
  return outcome.targets;
}

/** `text` with `from` replaced by `to`; fails when `from` is not there (the example changed). */
function edit(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the input holds ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

const BASIC = read('examples/basic/app.yaml');
const PRODUCERS = read('examples/producers/app.yaml');
const KAGENT = ['modelconfigs.yaml', 'secrets.yaml', 'agents.yaml'].map((f) => read(`examples/kagent/${f}`)).join('---\n');
const [firstDoc, ...otherDocs] = BASIC.split(/^---\n/m);

/** Pairs of renders, OLD and NEW, each compared both ways. */
const PAIRS: Array<{ name: string; old: string; new: string }> = [
  { name: 'the same render', old: BASIC, new: BASIC },
  { name: 'basic: a Secret value changed', old: BASIC, new: edit(BASIC, 'example-password-1', 'example-password-2') },
  { name: 'basic: a document gone (targets disappear, keys removed)', old: BASIC, new: otherDocs.join('---\n') || firstDoc! },
  { name: 'basic: everything renamed (every target appears and disappears)', old: BASIC, new: edit(BASIC, 'name: ', 'name: renamed-') },
  { name: 'producers: a producer spec changed', old: PRODUCERS, new: edit(PRODUCERS, 'version: "4"', 'version: "5"') },
  { name: 'kagent: a ModelConfig Secret changed (nested sources)', old: KAGENT, new: edit(KAGENT, 'sk-example-openai-key-1', 'sk-example-openai-key-2') },
  { name: 'argocd-diff-preview: masked Secrets, stamps differ', old: read('examples/argocd-diff-preview/output/base/shop.yaml'), new: read('examples/argocd-diff-preview/output/target/shop.yaml') },
];

for (const pair of PAIRS) {
  test(`the comparison over kept reports is the same: ${pair.name}`, () => {
    for (const [a, b] of [[pair.old, pair.new], [pair.new, pair.old]] as const) {
      const olds = targets(a);
      const news = targets(b);
      const expected = JSON.stringify(diffStamps(olds, news));
      assert.is(JSON.stringify(diffStamps(keepForComparison(olds, []).targets, news)), expected);
      assert.is(JSON.stringify(diffStamps(keepForComparison(olds, []).targets, keepForComparison(news, []).targets)), expected);
    }
  });
}

test('the pairs cover what the comparison reads: rolls, appears, disappears, producers, nested sources, masked values by stamps', () => {
  const all = PAIRS.map((p) => diffStamps(targets(p.old), targets(p.new)));
  const changes = new Set(all.flatMap((d) => d.targets.map((t) => t.change)));
  for (const change of ['rolls', 'appears', 'disappears']) assert.ok(changes.has(change as 'rolls'), change);
  const sources = all.flatMap((d) => d.targets.flatMap((t) => t.sources));
  assert.ok(sources.some((s) => s.producedBy !== undefined), 'a producer');
  assert.ok(sources.some((s) => (s.sources ?? []).length > 0), 'a ModelConfig source');
  assert.ok(sources.some((s) => s.unknown === 'masked'), 'a masked Secret');
  assert.ok(all.some((d) => d.targets.some((t) => t.basis === 'stamps')), 'decided by stamps');
  assert.ok(sources.some((s) => s.keys.length > 0), 'changed keys');
});

test('only what the comparison reads is kept: no field paths, files or optional flags; resource refs in their own key order', () => {
  for (const pair of PAIRS) {
    const olds = targets(pair.old);
    const kept = keepForComparison(olds, []).targets;
    assert.is(kept.length, olds.length);
    kept.forEach((k, i) => {
      const o = olds[i]!;
      assert.equal(Object.keys(k.resourceRef), Object.keys(o.resourceRef));
      assert.equal(k.resourceRef, o.resourceRef);
      assert.equal([k.field, k.hash, k.previous, k.component, k.rollout], [o.field, o.hash, o.previous, o.component, o.rollout]);
      assert.not.ok('file' in k || 'changed' in k || 'fields' in k);
      for (const s of k.sources) assert.not.ok('fields' in s || 'optional' in s, `${s.name} keeps only what is compared`);
      assert.equal(k.sources.map((s) => [s.cls, s.namespace, s.name, s.from, s.digest, s.keys]), o.sources.map((s) => [s.cls, s.namespace, s.name, s.from, s.digest, s.keys]));
    });
  }
});

test('a key list reports share is kept once; lines are kept as they are, in order', () => {
  const rows = [{ key: 'password', present: true, digest: 'sha256:aa' }];
  const source = { cls: 'Secret', namespace: 'shop', name: 'db', from: 'bundle' as const, whole: false, optional: false, keys: rows, fields: ['a'] };
  const target = (name: string): TargetReport => ({ resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name, namespace: 'shop' }, field: 'f', hash: 'h', changed: false, sources: [{ ...source }] });
  const { targets: kept, lines } = keepForComparison([target('a'), target('b')], ['rollstamp: warning: one\n', 'rollstamp: warning: two\n']);
  assert.ok(kept[0]!.sources[0]!.keys === kept[1]!.sources[0]!.keys);
  assert.not.ok(kept[0]!.sources[0]!.keys === rows);
  assert.equal(kept[0]!.sources[0]!.keys, rows);
  assert.equal(lines, ['rollstamp: warning: one\n', 'rollstamp: warning: two\n']);
});

test.run();
