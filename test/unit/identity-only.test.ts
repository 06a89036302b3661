// The kinds a run skims (function/plan/identity-only.ts, #37): planned from a tree, each of them files nothing in
// the index, is no target and reports nothing, under every way of selecting targets; so planning it from its
// identity alone (Planner.addIdentityOnly) is the same plan.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import { IDENTITY_ONLY_KINDS, isIdentityOnly } from '../../function/plan/identity-only.ts';
import { startPlan } from '../../function/run/apply.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import type { Config } from '../../function/model/config.ts';
import type { MapNode } from '../../function/model/nodes.ts';

const CONFIGS: Array<[string, Config]> = [
  ['the default config', DEFAULT_CONFIG],
  ['targets: all', { ...DEFAULT_CONFIG, targets: 'all' }],
  ['a label selector', { ...DEFAULT_CONFIG, selector: [{ op: 'in', key: 'app', values: ['web'] }] }],
  ['reloader enabled', { ...DEFAULT_CONFIG, reloader: 'enabled' }],
];

function objectOf(groupKind: string): { text: string; identity: { apiVersion: string; kind: string; name: string; namespace: string } } {
  const [group, kind] = groupKind.split('/') as [string, string];
  const apiVersion = group === '' ? 'v1' : `${group}/v1`;
  const text = `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: web\n  namespace: shop\n  labels: {app: web}\n  annotations:\n    reloader.stakater.com/auto: "true"\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          envFrom: [{secretRef: {name: web}}]\n`;
  return { text, identity: { apiVersion, kind, name: 'web', namespace: 'shop' } };
}

test('every identity-only kind, planned from its tree, is no target, files nothing and reports nothing', () => {
  for (const groupKind of IDENTITY_ONLY_KINDS) {
    for (const [what, config] of CONFIGS) {
      const { text, identity } = objectOf(groupKind);
      assert.ok(isIdentityOnly(identity, text, config), `${groupKind} is identity-only`);
      const planner = startPlan(config);
      planner.add([{ node: readSubsetStream(text)![0]!.contents as MapNode, readBy: 'subset' }]);
      const plan = planner.finish();
      const filed = plan.index.sources.size + plan.index.related.size + plan.index.producers.size;
      assert.equal([plan.targets.length, filed, plan.results.length, plan.selectable, plan.items], [0, 0, 0, 0, 1], `${groupKind} under ${what}`);
    }
  }
});

test('a kind the config declares as a workload, or text naming rollstamp or local-config, is read whole', () => {
  const { text, identity } = objectOf('/Service');
  const declared = { ...DEFAULT_CONFIG, kinds: [{ group: '', kind: 'Service' }] } as unknown as Config;
  assert.not.ok(isIdentityOnly(identity, text, declared));
  assert.not.ok(isIdentityOnly(identity, `${text}# rollstamp.dev/enabled\n`, DEFAULT_CONFIG));
  assert.not.ok(isIdentityOnly(identity, text.replace('reloader.stakater.com/auto', 'config.kubernetes.io/local-config'), DEFAULT_CONFIG));
  assert.not.ok(isIdentityOnly({ ...identity, apiVersion: 'apps/v1', kind: 'Deployment' }, text, DEFAULT_CONFIG));
  assert.not.ok(isIdentityOnly({ ...identity, kind: 'Secret' }, text, DEFAULT_CONFIG));
});

test.run();
