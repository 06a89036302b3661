// A Secret or ConfigMap read without a tree (read/scan-source.ts) is indexed and not placed (Planner.addScanned,
// #37): placing a plain one that the run may scan selects nothing, links nothing and reports nothing, under every
// way of selecting targets. Planned from its tree (which places it), the plan is the one it makes scanned.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import { startPlan } from '../../function/run/apply.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { scanIdentity } from '../../function/read/scan-identity.ts';
import { scanSource } from '../../function/read/scan-source.ts';
import type { Config } from '../../function/model/config.ts';
import type { MapNode } from '../../function/model/nodes.ts';
import type { Plan } from '../../function/model/plan.ts';

const CONFIGS: Array<[string, Config]> = [
  ['the default config', DEFAULT_CONFIG],
  ['targets: all', { ...DEFAULT_CONFIG, targets: 'all' }],
  ['a label selector it matches', { ...DEFAULT_CONFIG, selector: [{ op: 'in', key: 'app', values: ['web'] }] }],
  ['reloader enabled', { ...DEFAULT_CONFIG, reloader: 'enabled' }],
  ['kagent enabled', { ...DEFAULT_CONFIG, kagent: 'enabled' }],
  ['live reads never', { ...DEFAULT_CONFIG, live: 'never' }],
];

/** A Secret and a ConfigMap with labels, annotations (another tool's), a uid and entries of both fields. */
const SOURCES = [
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: web\n  namespace: shop\n  uid: 5eed\n  labels: {app: web}\n  annotations:\n    reloader.stakater.com/match: "true"\n    kagent.dev/agent: web\ntype: Opaque\ndata:\n  token: Q0FOQVJZ\nstringData:\n  password: CANARY-5eed\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    app: web\n    app.kubernetes.io/name: web\n  annotations:\n    argocd.argoproj.io/sync-wave: "1"\ndata:\n  level: debug\nbinaryData:\n  blob: AAE=\n',
];

/** What a plan holds of one object: targets, what it filed, results, selectable, items, the sources' ids. */
function summary(plan: Plan): unknown {
  return { targets: plan.targets.length, results: plan.results, selectable: plan.selectable, items: plan.items, sources: [...plan.index.sources.keys()], related: plan.index.related.size, producers: plan.index.producers.size, stray: plan.strayRecords.length };
}

test('a scannable Secret or ConfigMap planned from its tree selects nothing, reports nothing and files only itself', () => {
  for (const text of SOURCES) {
    for (const [what, config] of CONFIGS) {
      const planner = startPlan(config);
      const identity = scanIdentity(text)!;
      assert.ok(planner.scansSource(identity, text), `scannable under ${what}`);
      planner.add([{ node: readSubsetStream(text)![0]!.contents as MapNode, readBy: 'subset' }]);
      const fromTree = planner.finish();
      const scanner = startPlan(config);
      scanner.addScanned(scanSource(text)!, { path: 'in.yaml' });
      const scanned = scanner.finish();
      assert.equal(summary(scanned), summary(fromTree), `${identity.kind} under ${what}`);
      assert.equal([fromTree.targets.length, fromTree.results.length, fromTree.selectable], [0, 0, 0], `${identity.kind} under ${what}`);
    }
  }
});

test('a Secret or ConfigMap naming rollstamp is read whole, so placing it can warn', () => {
  const text = SOURCES[0]!.replace('kagent.dev/agent: web', 'rollstamp.dev/enabled: "true"');
  const planner = startPlan(DEFAULT_CONFIG);
  assert.not.ok(planner.scansSource(scanIdentity(text)!, text));
  planner.add([{ node: readSubsetStream(text)![0]!.contents as MapNode, readBy: 'subset' }]);
  assert.equal(
    planner.finish().results.map((r) => r.tags.code),
    ['NO_TEMPLATE'],
  );
});

test.run();
