// CLI behaviour in-process: settings from flags, files and the environment; explain output; --check.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {tier: fe}}
spec:
  template:
    spec:
      containers:
      - name: web
        env:
        - name: TOKEN
          valueFrom: {secretKeyRef: {name: api, key: token}}
---
apiVersion: v1
kind: Secret
metadata: {name: api}
stringData: {token: CANARY-7f3a9c}
`;
const stampOf = (out: string): string | undefined => /rollstamp\.dev\/hash: "([^"]+)"/.exec(out)?.[1];
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-cli-'));

test('nothing is stamped without an opt-in, and --selector opts in by label', async () => {
  const none = await runInProcess(['stamp', '-'], { stdin: APP });
  assert.is(none.stdout, APP);
  const sel = await runInProcess(['stamp', '-l', 'tier=fe', '-'], { stdin: APP });
  assert.match(stampOf(sel.stdout) ?? '', /^sha256:/);
});

test('a hash key file keys the digest; its trailing newline does not count', async () => {
  writeFileSync(join(dir, 'k1'), 'topsecret\n');
  writeFileSync(join(dir, 'k2'), 'topsecret');
  const a = await runInProcess(['stamp', '--targets', 'all', '--hash-key-file', 'k1', '-'], { stdin: APP, cwd: dir });
  const b = await runInProcess(['stamp', '--targets', 'all', '--hash-key-file', 'k2', '-'], { stdin: APP, cwd: dir });
  const env = await runInProcess(['stamp', '--targets', 'all', '-'], { stdin: APP, cwd: dir, env: { ROLLSTAMP_HASH_KEY: 'topsecret' } });
  assert.match(stampOf(a.stdout) ?? '', /^hmac-sha256:[0-9a-f]{64}$/);
  assert.is(stampOf(a.stdout), stampOf(b.stdout));
  assert.is(stampOf(a.stdout), stampOf(env.stdout));
});

test('a hash key from both the environment and a file is refused without printing either', async () => {
  writeFileSync(join(dir, 'k3'), 'filekey');
  const run = await runInProcess(['stamp', '--targets', 'all', '--hash-key-file', 'k3', '-'], { stdin: APP, cwd: dir, env: { ROLLSTAMP_HASH_KEY: 'envkey' } });
  assert.is(run.code, 2);
  assert.is(run.stdout, '');
  assert.not.match(run.stderr, /filekey|envkey/);
});

test('input over ROLLSTAMP_MAX_INPUT_BYTES is refused before parsing, naming the limit', async () => {
  const run = await runInProcess(['stamp', '-'], { stdin: APP, env: { ROLLSTAMP_MAX_INPUT_BYTES: '100' } });
  assert.is(run.code, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /<stdin>: input exceeds the limit of 100 bytes/);
});

test('explain lists sources, keys and short digests, and never the value', async () => {
  const text = await runInProcess(['explain', '--targets', 'all', '-'], { stdin: APP });
  assert.is(text.code, 0);
  assert.match(text.stdout, /Secret default\/api {2}\[bundle\] {2}sha256:[0-9a-f]{12}\n {4}keys: token\n/);
  const json = await runInProcess(['explain', '--json', '--targets', 'all', '-'], { stdin: APP });
  const parsed = JSON.parse(json.stdout);
  assert.is(parsed.targets[0].sources[0].name, 'api');
  assert.equal(parsed.targets[0].sources[0].keys, [{ key: 'token', present: true }]);
  for (const out of [text.stdout, json.stdout, text.stderr, json.stderr]) {
    assert.not.match(out, /CANARY-7f3a9c/);
    assert.not.match(out, Buffer.from('CANARY-7f3a9c').toString('base64'));
  }
});

test('--check exits 3 when a stamp would change, 0 when stamps are current, and prints no manifests', async () => {
  const stale = await runInProcess(['stamp', '--check', '--targets', 'all', '-'], { stdin: APP });
  assert.is(stale.code, 3);
  assert.is(stale.stdout, '');
  assert.is(stale.stderr, 'rollstamp: error: 1 workload(s) would change: apps/v1/Deployment/web\n', 'one line names the workloads');
  const stamped = await runInProcess(['stamp', '--targets', 'all', '-'], { stdin: APP });
  const fresh = await runInProcess(['stamp', '--check', '--targets', 'all', '-'], { stdin: stamped.stdout });
  assert.is(fresh.code, 0);
  assert.is(fresh.stdout, '');
});

test('usage errors exit 2; help and version exit 0', async () => {
  assert.is((await runInProcess(['frobnicate'])).code, 2);
  // A bad flag value is a usage error too, as the README's exit codes say (#14).
  assert.is((await runInProcess(['stamp', '--targets', 'some', '-'], { stdin: APP })).code, 2);
  const help = await runInProcess(['stamp', '--help']);
  assert.is(help.code, 0);
  assert.match(help.stdout, /Usage: rollstamp stamp/);
  assert.match((await runInProcess(['--version'])).stdout, /^rollstamp \d+\.\d+\.\d+\n$/);
});

test('stamp -o json: one JSON object per line with the values Kubernetes reads, the same stamp as YAML (#38)', async () => {
  const withMode = `${APP}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {mode: "0440"}\nbinaryData: {}\n`.replace('containers:', 'volumes: [{name: v, secret: {secretName: api, defaultMode: 0440}}]\n      containers:');
  const yaml = await runInProcess(['stamp', '--targets', 'all', '-'], { stdin: withMode });
  const json = await runInProcess(['stamp', '--targets', 'all', '-o', 'json', '-'], { stdin: withMode });
  assert.is(json.code, 0, json.stderr);
  const objects = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { kind: string; spec?: any; data?: Record<string, string> });
  assert.equal(objects.map((o) => o.kind), ['Deployment', 'Secret', 'ConfigMap']);
  assert.is(objects[0]!.spec.template.metadata.annotations['rollstamp.dev/hash'], stampOf(yaml.stdout));
  assert.is(objects[0]!.spec.template.spec.volumes[0].secret.defaultMode, 288, 'a YAML 1.1 octal, as Kubernetes reads it');
  assert.is(objects[2]!.data!.mode, '0440', 'a quoted string stays a string');
});

test('stamp -o json refuses a document Kubernetes would read differently, with one line and no output; --check -o json is a usage error', async () => {
  const yes = APP.replace('metadata: {name: web, labels: {tier: fe}}', 'metadata: {name: web, labels: {tier: fe}, annotations: {example.com/on: yes}}');
  const refused = await runInProcess(['stamp', '--targets', 'all', '-o', 'json', '-'], { stdin: yes });
  assert.is(refused.code, 1);
  assert.is(refused.stdout, '');
  assert.match(refused.stderr, /^rollstamp: error: .*JSON output: .*\n$/);
  const both = await runInProcess(['stamp', '--check', '-o', 'json', '-'], { stdin: APP });
  assert.is(both.code, 2);
  assert.is(both.stderr, 'rollstamp: error: --check prints no manifests, so -o json has nothing to format; give one\n');
});

test('fn: a mistyped functionConfig key, as `kpt fn eval -- onMising=warn` sends it, names the setting meant (#38)', async () => {
  const list = (key: string): string => `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn-config}\n  data: {${key}: warn}\n`;
  const typo = await runInProcess(['fn'], { stdin: list('onMising') });
  assert.is(typo.code, 1);
  assert.is(typo.stdout, '');
  assert.is(typo.stderr, 'rollstamp: error: functionConfig: data.onMising: unknown setting; did you mean onMissing?\n');
  const far = await runInProcess(['fn'], { stdin: list('colour') });
  assert.is(far.stderr, 'rollstamp: error: functionConfig: data.colour: unknown setting\n', 'no guess when nothing is near');
});

test('explain names the document of a file a target is in, counted from 1, and not with an unexplained #N (#38)', async () => {
  const secretFirst = APP.split('---\n').reverse().join('---\n');
  writeFileSync(join(dir, 'two.yaml'), secretFirst.endsWith('\n') ? secretFirst : `${secretFirst}\n`);
  const r = await runInProcess(['explain', '--targets', 'all', 'two.yaml'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^apps\/v1\/Deployment\/web {2}\(two\.yaml, document 2\)$/m);
  assert.not.match(r.stdout, /#\d/);
  writeFileSync(join(dir, 'one.yaml'), APP);
  assert.match((await runInProcess(['explain', '--targets', 'all', 'one.yaml'], { cwd: dir })).stdout, /^apps\/v1\/Deployment\/web {2}\(one\.yaml\)$/m);
});

test('a ConfigMap given to --config works like a RollstampConfig', async () => {
  writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {targets: all}\n');
  const run = await runInProcess(['stamp', '--config', 'cm.yaml', '-'], { stdin: APP, cwd: dir });
  assert.match(stampOf(run.stdout) ?? '', /^sha256:/);
});

test.run();
