// A reference nothing resolves, when the input has an object of that name in another namespace: the
// warning says where it is, and for an object without metadata.namespace (what `helm template --namespace X`
// leaves on a chart's extra objects) suggests `-n X`. Names only: never a value (#14).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const workload = (ns: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
      - name: web
        envFrom: [{secretRef: {name: db}}]
        env: [{name: LEVEL, valueFrom: {configMapKeyRef: {name: settings, key: level}}}]
`;
const secret = (meta: string): string => `apiVersion: v1\nkind: Secret\nmetadata: {name: db${meta}}\nstringData: {password: CANARY-0d15ea5e}\n`;
const SETTINGS = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {level: info}\n';

test('a Secret without metadata.namespace, defaulted elsewhere: the warning names it and suggests -n', async () => {
  const run = await runInProcess(['stamp', '-'], { stdin: `${workload('shop')}---\n${secret('')}---\n${SETTINGS}` });
  assert.is(run.code, 0);
  assert.match(run.stderr, /Secret shop\/db is not in the input; .*; the input has Secret default\/db without metadata\.namespace \(helm template --namespace writes none\): give rollstamp the same namespace, -n shop\n/);
  assert.not.match(run.stderr, /CANARY-0d15ea5e/);
  const fixed = await runInProcess(['stamp', '-n', 'shop', '-'], { stdin: `${workload('shop')}---\n${secret('')}---\n${SETTINGS}` });
  assert.is(fixed.stderr, '', 'with -n shop the reference resolves');
});

test('a Secret in another namespace written explicitly: the warning says references are same-namespace, no -n', async () => {
  const run = await runInProcess(['stamp', '-'], { stdin: `${workload('shop')}---\n${secret(', namespace: billing')}---\n${SETTINGS}` });
  assert.match(run.stderr, /the input has Secret billing\/db, in another namespace \(references are same-namespace\)\n/);
  assert.not.match(run.stderr, / -n /);
});

test('onMissing error carries the same hint; a missing object with no namesake elsewhere has none', async () => {
  const error = await runInProcess(['stamp', '--on-missing', 'error', '-'], { stdin: `${workload('shop')}---\n${secret('')}---\n${SETTINGS}` });
  assert.is(error.code, 1);
  assert.match(error.stderr, /-n shop/);
  const plain = await runInProcess(['stamp', '-'], { stdin: `${workload('shop')}---\n${SETTINGS}` });
  assert.match(plain.stderr, /Secret shop\/db is not in the input; its absence is hashed, so its appearance will change the hash\n/);
});

test('a ConfigMap is matched by class too: a Secret of the same name does not count', async () => {
  const cm = 'apiVersion: v1\nkind: Secret\nmetadata: {name: settings}\nstringData: {level: x}\n';
  const run = await runInProcess(['stamp', '-'], { stdin: `${workload('shop')}---\n${secret(', namespace: shop')}---\n${cm}` });
  assert.match(run.stderr, /ConfigMap shop\/settings is not in the input; its absence is hashed, so its appearance will change the hash\n/);
});

test.run();
