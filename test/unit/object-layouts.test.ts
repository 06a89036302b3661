// The planner's objects are written in one layout whatever made them (#37): a KObject read into a tree and one
// scanned without a tree, a target of each kind, and selectTarget's answers. V8 optimizes the planner's code for
// the objects it sees first (a large render's Secrets); an object with other fields, or the same fields in another
// order, at the same site throws that code away. Their own keys, in order, are what decides the layout here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseStream, streamItems } from '../../function/read/stream.ts';
import { scanSource } from '../../function/read/scan-source.ts';
import { emptyIndex, indexObject, indexScanned } from '../../function/plan/inventory.ts';
import { selectTarget } from '../../function/plan/targets.ts';
import { newTarget } from '../../function/model/target.ts';
import type { KObject } from '../../function/model/object.ts';
import type { Config } from '../../function/model/config.ts';
import type { Result } from '../../function/model/results.ts';
import { configOf } from '../support/config.ts';
import { deployment } from '../support/objects.ts';

const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n  uid: 5eed\nstringData:\n  password: CANARY-5eed\n';
const DEPLOYMENT = deployment('web', { namespace: 'shop', secret: 'db' });
const RELOADED = deployment('api', { namespace: 'shop', secret: 'db' }).replace('  annotations:\n', '  annotations:\n    reloader.stakater.com/auto: "true"\n');
const ROLLOUT = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
  namespace: shop
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
`;
const AGENT = `apiVersion: kagent.dev/v1alpha2
kind: Agent
metadata:
  name: helper
  namespace: shop
spec:
  type: Declarative
  declarative:
    modelConfig: default
    systemMessage: hi
`;
const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n';

function objectsOf(text: string, config: Config): KObject[] {
  const parsed = parseStream(text, 'in.yaml');
  if (!('docs' in parsed)) throw new Error('parse failed');
  const results: Result[] = [];
  return streamItems(parsed.docs).items.map((item, i) => indexObject(emptyIndex(), item, i, config, results)!);
}

const keys = (o: object | undefined): string[] => Object.keys(o ?? {});

test('a KObject read into a tree and one scanned have the same fields in the same order, a uid or not', () => {
  const config = configOf();
  const scanned = scanSource(SECRET);
  assert.ok(scanned, 'the Secret is scanned');
  const fromScan = indexScanned(emptyIndex(), scanned, { path: 'in.yaml' }, 0, config);
  const [fromTree, workload] = objectsOf(`${SECRET}---\n${DEPLOYMENT}`, config);
  assert.is(fromScan.uid, '5eed');
  assert.is(fromTree!.uid, '5eed');
  assert.is(workload!.uid, undefined);
  assert.equal(keys(fromTree), keys(fromScan));
  assert.equal(keys(workload), keys(fromScan));
});

test("an object's API group is its apiVersion's part before the slash (kept one copy per group), '' for v1", () => {
  const config = configOf();
  const groupsOf = (...apiVersions: string[]) => objectsOf(apiVersions.map((v) => `apiVersion: ${v}\nkind: Thing\nmetadata: {name: a}\n`).join('---\n'), config).map((o) => o.group);
  assert.equal(groupsOf('apps/v1', 'apps/v1beta1', 'v1', 'batch/v1', 'apps/v1'), ['apps', 'apps', '', 'batch', 'apps']);
  // A group is looked up by name: names an object keeps specially are ordinary groups here.
  assert.equal(groupsOf('__proto__/v1', 'constructor/v1', '123/v1', '/v1'), ['__proto__', 'constructor', '123', '']);
});

test("selectTarget's answers have one layout, with targets or without", () => {
  const config = configOf({ kagent: 'enabled' });
  const answers = objectsOf([SECRET, DEPLOYMENT, SERVICE].join('---\n'), config).map((obj) => selectTarget(obj, config, [], new Set()));
  assert.is(answers[0]!.selectable, false);
  assert.is(answers[1]!.targets?.length, 1);
  for (const answer of answers) assert.equal(keys(answer), ['targets', 'selectable']);
});

test('targets of every kind have one layout', () => {
  const config = configOf({ kagent: 'enabled', reloader: 'enabled' });
  const objs = objectsOf([DEPLOYMENT, RELOADED, ROLLOUT, AGENT].join('---\n'), config);
  const targets = objs.flatMap((obj) => selectTarget(obj, config, [], new Set()).targets ?? []);
  assert.equal(
    targets.map((t) => t.mode),
    ['workload', 'workload', 'workload-ref', 'agent'],
  );
  assert.is(targets[1]!.alsoRolledBy, 'Reloader');
  assert.ok(targets[2]!.handsTo, 'the Rollout hands its stamp on');
  const bare = keys(newTarget(objs[0]!, 'workload', { kind: 'annotation', path: [] }));
  for (const t of targets) assert.equal(keys(t), bare, t.mode);
});

test.run();
