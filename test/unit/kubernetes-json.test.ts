// JSON output (#12 item 5): ROLLSTAMP_OUTPUT=json carries the values Kubernetes reads from the YAML
// (sigs.k8s.io/yaml over go-yaml v2: YAML 1.1 octals and booleans), converts any accepted input without an
// internal error (aliases included, alias bombs refused by go-yaml's own rule), and rollstamp reads its JSON
// output back — one object per line or concatenated — with the same hashes as the YAML.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toKubernetesJson } from '../../function/write/kubernetes-json.ts';
import { resolveYaml11, type Yaml11Value } from '../../function/write/yaml11.ts';
import { bundleDocs, caseSeed, genBundle, Rng } from '../support/property-generate.ts';
import { randomFormat, renderStream, ymap } from '../support/property-render.ts';
import { runInProcess } from '../support/run-cli.ts';

const int = (n: bigint): Yaml11Value => ({ type: 'int', value: n });
const float = (n: number): Yaml11Value => ({ type: 'float', value: n });
const bool = (b: boolean): Yaml11Value => ({ type: 'bool', value: b });
const STR: Yaml11Value = { type: 'str' };
const NULL: Yaml11Value = { type: 'null' };

const RESOLVE: ReadonlyArray<[string, Yaml11Value]> = [
  ['0440', int(288n)], ['+0440', int(288n)], ['-0440', int(-288n)], ['0', int(0n)], ['00', int(0n)],
  ['0o17', int(15n)], ['0O17', int(15n)], ['0x1F', int(31n)], ['-0x1F', int(-31n)], ['0b101', int(5n)], ['-0b101', int(-5n)],
  ['1_000', int(1000n)], ['440', int(440n)], ['+12', int(12n)],
  ['18446744073709551615', int(18446744073709551615n)], ['-9223372036854775808', int(-9223372036854775808n)],
  ['18446744073709551616', float(18446744073709551616)], ['09', float(9)], ['0448', float(448)],
  ['1e3', float(1000)], ['.5', float(0.5)], ['-1.5e-3', float(-0.0015)], ['1.', float(1)],
  ['.inf', float(Infinity)], ['-.Inf', float(-Infinity)],
  ['y', bool(true)], ['Y', bool(true)], ['yes', bool(true)], ['Yes', bool(true)], ['YES', bool(true)], ['on', bool(true)],
  ['On', bool(true)], ['ON', bool(true)], ['true', bool(true)], ['True', bool(true)], ['TRUE', bool(true)],
  ['n', bool(false)], ['N', bool(false)], ['no', bool(false)], ['NO', bool(false)], ['off', bool(false)], ['OFF', bool(false)],
  ['false', bool(false)], ['False', bool(false)],
  ['', NULL], ['~', NULL], ['null', NULL], ['Null', NULL], ['NULL', NULL],
  ['yES', STR], ['oN', STR], ['nO', STR], ['yes please', STR], ['2001-12-14', STR], ['2001-12-14T21:59:43Z', STR], ['1:20', STR],
  ['0x', STR], ['1e400', STR], ['0b102', STR], ['--1', STR], ['1.2.3', STR], ['0o8', STR], ['hello', STR], ['.', STR], ['+', STR],
];

test('plain scalars resolve as go-yaml v2 (what Kubernetes reads): octal, YAML 1.1 booleans, Go integer syntax', () => {
  for (const [text, expected] of RESOLVE) {
    const got = resolveYaml11(text);
    assert.is(got.type, expected.type, `${JSON.stringify(text)}: type`);
    if ('value' in expected) assert.ok(Object.is((got as { value: unknown }).value, expected.value) || (got as { value: unknown }).value === expected.value, `${JSON.stringify(text)}: value`);
  }
});

const convert = (yaml: string): unknown[] => {
  const out = toKubernetesJson(yaml);
  if ('results' in out) throw new Error(out.results.map((r) => r.message).join('; '));
  assert.ok(out.text.endsWith('\n'));
  return out.text.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
};
const refusal = (yaml: string): string => {
  const out = toKubernetesJson(yaml);
  assert.ok('results' in out, 'expected a refusal');
  return (out as { results: Array<{ message: string; field?: { path: string } }> }).results.map((r) => `${r.field?.path ?? ''}: ${r.message}`).join('\n');
};

test('defaultMode: 0440 becomes 288 (octal, as kubectl and Argo CD read it), and other Kubernetes values follow YAML 1.1', () => {
  const [pod] = convert(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  enableServiceLinks: no
  hostNetwork: off
  volumes:
  - name: v
    secret: {secretName: s, defaultMode: 0440, items: [{key: k, path: k, mode: 0400}], optional: yes}
  containers:
  - name: c
    args: ["0440", '0440', !!str 0440, 0440]
    command:
    - |
      0440
`);
  const spec = (pod as { spec: Record<string, unknown> }).spec;
  assert.is(spec.enableServiceLinks, false);
  assert.is(spec.hostNetwork, false);
  assert.equal((spec.volumes as unknown[])[0], { name: 'v', secret: { secretName: 's', defaultMode: 288, items: [{ key: 'k', path: 'k', mode: 256 }], optional: true } });
  assert.equal((spec.containers as Array<{ args: unknown[]; command: unknown[] }>)[0]!.args, ['0440', '0440', '0440', 288]);
  assert.equal((spec.containers as Array<{ args: unknown[]; command: unknown[] }>)[0]!.command, ['0440\n']);
});

test('integers beyond 2^53 are written exactly; floats and nulls as JSON numbers and null', () => {
  const [obj] = convert('apiVersion: example.dev/v1\nkind: Big\nmetadata: {name: b}\nspec: {u: 18446744073709551615, neg: -9223372036854775808, f: 1e3, h: .5, z: ~, e:}\n');
  const line = toKubernetesJson('apiVersion: example.dev/v1\nkind: Big\nmetadata: {name: b}\nspec: {u: 18446744073709551615}\n');
  assert.match((line as { text: string }).text, /"u":18446744073709551615\}/);
  assert.equal((obj as { spec: unknown }).spec, { u: 18446744073709552000, neg: -9223372036854775808, f: 1000, h: 0.5, z: null, e: null });
});

test('aliases are expanded (an input with 120 aliases converted with an internal error before, #12)', () => {
  const lines = ['apiVersion: v1', 'kind: Service', 'metadata: {name: s}', 'spec:', '  a: &x {c: d}'];
  for (let i = 0; i < 120; i++) lines.push(`  b${i}: *x`);
  const [svc] = convert(`${lines.join('\n')}\n`);
  const spec = (svc as { spec: Record<string, unknown> }).spec;
  assert.is(Object.keys(spec).length, 121);
  assert.equal(spec.b119, { c: 'd' });
});

test('an alias bomb is refused by go-yaml v2\'s own rule, fast, naming the object and field', () => {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: bomb}', 'x:', '  l0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) lines.push(`  l${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
  const started = performance.now();
  const out = toKubernetesJson(`${lines.join('\n')}\n`);
  const ms = performance.now() - started;
  assert.ok('results' in out);
  const r = (out as { results: Array<{ message: string; resourceRef?: { name: string } }> }).results[0]!;
  assert.match(r.message, /excessive aliasing/);
  assert.is(r.resourceRef?.name, 'bomb');
  // The rule stops after about 100,000 expanded nodes; 10^9 would never end. (A wide margin for a loaded machine.)
  assert.ok(ms < 20_000, `took ${ms} ms`);
});

test('refused with the field named: a value Kubernetes reads as a boolean or number where it needs a string', () => {
  assert.match(refusal('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {flag: on}\n'), /^data\.flag: JSON output: Kubernetes reads this plain value as a boolean \(YAML 1\.1\) where it needs a string; quote it$/);
  assert.match(refusal('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {port: 0440}\n'), /^stringData\.port: .*as a number/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {canary: yes}}\n'), /^metadata\.labels\.canary: .*a boolean/);
  assert.match(refusal('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, annotations: {replicas: 1_000}}\n'), /^metadata\.annotations\.replicas: .*a number/);
  assert.match(refusal('apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {enabled: Y}\n'), /^items\[0\]\.data\.enabled: .*a boolean/);
  // Quoted, the same values are strings and convert.
  assert.equal(convert('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {flag: "on", port: \'0440\'}\n'), [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { flag: 'on', port: '0440' } }]);
});

test('refused: keys Kubernetes would rename, merge keys, non-core tags, .inf', () => {
  assert.match(refusal('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {y: "1"}\n'), /^data: .*a key Kubernetes reads as a boolean/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {0440: a}\n'), /^spec: .*a key Kubernetes reads as a number/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {"1": a, 1: b}\n'), /two keys of this map are the same key/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  <<: {a: b}\n'), /merge key/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {a: !!int 12}\n'), /^spec\.a: .*explicit YAML tag/);
  assert.match(refusal('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {a: .inf}\n'), /JSON cannot hold/);
  // Keys that read the same either way pass: numbers written canonically, true/false.
  assert.equal(convert('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {80: http, true: x}\n'), [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { '80': 'http', true: 'x' } }]);
});

const APP = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: db}
  stringData: {password: correct-horse, mode: "0440"}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: &labels {app: web}
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  replicas: 0x2
  selector: {matchLabels: {app: web}}
  template:
    spec:
      volumes:
      - name: creds
        secret: {secretName: db, defaultMode: 0440}
      containers:
      - name: web
        image: registry.example/web:1.0
        envFrom: [{secretRef: {name: db}}]
---
apiVersion: v1
kind: Service
metadata: {name: web, labels: &l {app: web}}
spec: {selector: *l, ports: [{port: 0x50}]}
`;

async function hashesOf(args: string[], stdin: string): Promise<string[]> {
  const r = await runInProcess(['explain', '--json', ...args, '-'], { stdin });
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { targets: Array<{ hash: string; resourceRef: { name: string } }> }).targets.map((t) => `${t.resourceRef.name} ${t.hash}`).sort();
}

test('generate with ROLLSTAMP_OUTPUT=json: Kubernetes values, and read back (per line and concatenated) with the YAML\'s hashes', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-json-'));
  writeFileSync(join(app, 'app.yaml'), APP);
  const env = { ARGOCD_APP_NAMESPACE: 'default' };
  const yaml = await runInProcess(['generate'], { cwd: app, env });
  const json = await runInProcess(['generate'], { cwd: app, env: { ...env, ROLLSTAMP_OUTPUT: 'json' } });
  assert.is(json.code, 0, json.stderr);
  assert.is(json.stderr, '');
  const objects = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { kind: string; spec?: Record<string, unknown> });
  assert.equal(objects.map((o) => o.kind), ['List', 'Deployment', 'Service']);
  const deployment = objects[1]!.spec as { replicas: number; template: { spec: { volumes: Array<{ secret: { defaultMode: number } }> } } };
  assert.is(deployment.replicas, 2);
  assert.is(deployment.template.spec.volumes[0]!.secret.defaultMode, 288);
  assert.equal(objects[2]!.spec, { selector: { app: 'web' }, ports: [{ port: 80 }] });
  const expected = await hashesOf([], yaml.stdout);
  assert.is(expected.length, 1);
  assert.equal(await hashesOf([], json.stdout), expected, 'one JSON object per line');
  assert.equal(await hashesOf([], json.stdout.replace(/\n/g, '')), expected, 'concatenated JSON objects');
  assert.equal(await hashesOf([], json.stdout.replace(/\n/g, '\n\n  ')), expected, 'JSON objects with whitespace between');
  // Stamping the JSON again changes nothing; --check agrees.
  const again = await runInProcess(['stamp', '-'], { stdin: json.stdout });
  assert.is(again.stdout, json.stdout);
  assert.is((await runInProcess(['stamp', '--check', '-'], { stdin: json.stdout.replace(/\n/g, '') })).code, 0);
});

test('JSON read back: a changed Secret inside the JSON stream changes the hash, and the stamp is edited in place', async () => {
  const converted = toKubernetesJson((await runInProcess(['stamp', '-'], { stdin: APP })).stdout);
  const text = (converted as { text: string }).text;
  const rotated = text.replace('correct-horse', 'battery-staple');
  const r = await runInProcess(['stamp', '-'], { stdin: rotated });
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.is(lines.length, text.split('\n').length);
  assert.is(lines[0], rotated.split('\n')[0], 'untouched objects keep their bytes');
  assert.is.not(lines[1], text.split('\n')[1]);
  assert.ok(JSON.parse(lines[1]!));
});

test('a JSON stream joined with YAML files reads back as it was read (idempotent), and converts to JSON output (#12)', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-json-mixed-'));
  const converted = toKubernetesJson((await runInProcess(['stamp', '-'], { stdin: APP })).stdout) as { text: string };
  const objects = converted.text.trimEnd().split('\n');
  assert.ok(objects.length >= 2);
  writeFileSync(join(app, 'a.json'), `${objects.join('\n')}\n`);
  writeFileSync(join(app, 'z.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: z}\n');
  const env = { ARGOCD_APP_NAMESPACE: 'default' };
  const out = await runInProcess(['generate'], { cwd: app, env });
  assert.is(out.code, 0, out.stderr);
  assert.ok(!out.stdout.trimStart().startsWith('{'), 'a reader that sees { first would take the whole output as JSON');
  const again = await runInProcess(['stamp', '-'], { stdin: out.stdout });
  assert.is(again.code, 0, again.stderr);
  assert.is(again.stdout, out.stdout, 'rollstamp reads its own output back, unchanged');
  assert.equal(await hashesOf([], out.stdout), await hashesOf([], APP));
  const json = await runInProcess(['generate'], { cwd: app, env: { ...env, ROLLSTAMP_OUTPUT: 'json' } });
  assert.is(json.code, 0, json.stderr);
  assert.equal(json.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { kind: string }).kind), [...objects.map((l) => (JSON.parse(l) as { kind: string }).kind), 'ConfigMap']);
  const only = mkdtempSync(join(tmpdir(), 'rollstamp-json-only-'));
  writeFileSync(join(only, 'a.json'), `${objects.join('\n')}\n`);
  const alone = await runInProcess(['generate'], { cwd: only, env: { ...env, ROLLSTAMP_OUTPUT: 'json' } });
  assert.is(alone.code, 0, alone.stderr);
  assert.is(alone.stdout.trimEnd().split('\n').length, objects.length, 'a JSON stream alone converts too');
});

test('random bundles: stamp → JSON → explain gives the YAML\'s hashes (per line and concatenated)', async () => {
  let compared = 0;
  for (let i = 0; i < 40; i++) {
    const rng = new Rng(caseSeed(0x750_0001, i));
    const docs = bundleDocs(genBundle(rng).bundle);
    const wrapped = i % 3 === 0 && docs.length > 1 ? [ymap(['apiVersion', 'v1'], ['kind', 'List'], ['items', docs.slice(1)]), docs[0]!] : docs;
    const text = renderStream(wrapped, { ...randomFormat(rng), shuffleDocs: false }, rng.fork());
    const stamped = await runInProcess(['stamp', '--targets', 'all', '--allow-empty', '-'], { stdin: text });
    if (stamped.code !== 0) continue;
    const converted = toKubernetesJson(stamped.stdout);
    if ('results' in converted) continue; // a value Kubernetes could not read as written: refused, not guessed
    const expected = await hashesOf(['--targets', 'all', '--allow-empty'], stamped.stdout);
    assert.equal(await hashesOf(['--targets', 'all', '--allow-empty'], converted.text), expected, `case ${i}: per line`);
    assert.equal(await hashesOf(['--targets', 'all', '--allow-empty'], converted.text.replace(/\n/g, '')), expected, `case ${i}: concatenated`);
    compared++;
  }
  assert.ok(compared > 25, `only ${compared} of 40 bundles were compared`);
});

test.run();
