// SECURITY.md "Keys are data": `__proto__`, `constructor`, `toString` in Secret/ConfigMap data, labels and
// annotations are hashed and kept like any other key, and nothing leaks into Object.prototype.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { runBundle, runInProcess } from '../support/run-cli.ts';
import { cleanup, requireBundle } from '../support/hostile.ts';
import { stampsIn } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

const KEYS = ['__proto__', 'constructor', 'toString'] as const;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function bundle(values: Record<string, string>): string {
  const data = KEYS.map((k) => `  ${k}: ${b64(Object.hasOwn(values, k) ? values[k]! : `v-${k}`)}`).join('\n');
  const cmData = KEYS.map((k) => `  ${k}: "cm-${values[`cm:${k}`] ?? k}"`).join('\n');
  const meta = KEYS.map((k) => `      ${k}: "m-${k}"`).join('\n');
  return `apiVersion: v1
kind: Secret
metadata:
  name: db
  labels:
${meta.replace(/^ {2}/gm, '')}
  annotations:
${meta.replace(/^ {2}/gm, '')}
data:
${data}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
${cmData}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    rollstamp.dev/enabled: "true"
${meta.replace(/^ {2}/gm, '')}
  labels:
${meta.replace(/^ {2}/gm, '')}
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
        app: web
${meta.replace(/^/gm, '  ')}
      annotations:
${meta.replace(/^/gm, '  ')}
    spec:
      containers:
      - name: c
        image: example/app:1
        envFrom:
        - secretRef: {name: db}
        - configMapRef: {name: cfg}
`;
}

function stampOf(values: Record<string, string>): string {
  const r = runBundle(['stamp', '-'], { stdin: bundle(values) });
  assert.is(r.code, 0, r.stderr);
  const s = stampsIn(r.stdout);
  assert.is(s.length, 1, r.stdout);
  return s[0]!;
}

test('the input is what it claims: these keys parse as own keys', () => {
  const docs = parseAllDocuments(bundle({})).map((d) => d.toJS() as { data?: Record<string, unknown> });
  for (const k of KEYS) assert.ok(Object.hasOwn(docs[0]!.data!, k), k);
});

test('stamped like other keys: changing any of their values (Secret or ConfigMap) changes the hash', () => {
  const base = stampOf({});
  const seen = new Set([base]);
  for (const k of KEYS) {
    const s = stampOf({ [k]: 'changed' });
    assert.not.ok(seen.has(s), `Secret data.${k}: hash changes with its value`);
    seen.add(s);
    const c = stampOf({ [`cm:${k}`]: 'changed' });
    assert.not.ok(seen.has(c), `ConfigMap data.${k}: hash changes with its value`);
    seen.add(c);
  }
  assert.is(stampOf({}), base, 'stable');
});

test('kept in output: every such key in data, labels and annotations is printed', () => {
  const input = bundle({});
  const r = runBundle(['stamp', '-'], { stdin: input });
  assert.is(r.code, 0, r.stderr);
  const inDocs = parseAllDocuments(input).map((d) => d.toJS());
  const outDocs = parseAllDocuments(r.stdout).map((d) => d.toJS());
  // Only the stamp may differ.
  const tpl = (outDocs[2] as { spec: { template: { metadata: { annotations: Record<string, string> } } } }).spec.template.metadata.annotations;
  assert.ok(typeof tpl['rollstamp.dev/hash'] === 'string');
  delete tpl['rollstamp.dev/hash'];
  assert.equal(outDocs, inDocs);
  for (const k of KEYS) assert.ok(Object.hasOwn(tpl, k), `template annotation ${k} kept`);
});

test('Object.prototype gains nothing (in-process, stamp, explain and fn)', async () => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const protoBefore = Object.getPrototypeOf({});
  const input = bundle({});
  const s = await runInProcess(['stamp', '-'], { stdin: input });
  assert.is(s.code, 0, s.stderr);
  const e = await runInProcess(['explain', '-'], { stdin: input });
  assert.is(e.code, 0, e.stderr);
  const rl = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${input
    .split(/^---\n/m)
    .map((d) => d.replace(/\n$/, '').split('\n').map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)).join('\n'))
    .join('\n')}\n`;
  const f = await runInProcess(['fn'], { stdin: rl });
  assert.is(f.code, 0, f.stderr);
  const json = JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: parseAllDocuments(input).map((d) => d.toJS()) });
  const j = await runInProcess(['fn'], { stdin: json });
  assert.is(j.code, 0, j.stderr);
  assert.equal(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  assert.is(Object.getPrototypeOf({}), protoBefore);
  const probe = {} as Record<string, unknown>;
  for (const k of ['m-__proto__', 'v-__proto__', 'cm-__proto__', 'polluted']) assert.is(probe[k], undefined);
  assert.is(typeof probe.toString, 'function');
  assert.is(probe.constructor, Object);
});

test.run();
