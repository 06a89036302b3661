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

test('--check exits 3 when a stamp would change, 0 when stamps are current, and prints nothing', async () => {
  const stale = await runInProcess(['stamp', '--check', '--targets', 'all', '-'], { stdin: APP });
  assert.is(stale.code, 3);
  assert.is(stale.stdout, '');
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

test('a ConfigMap given to --config works like a RollstampConfig', async () => {
  writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {targets: all}\n');
  const run = await runInProcess(['stamp', '--config', 'cm.yaml', '-'], { stdin: APP, cwd: dir });
  assert.match(stampOf(run.stdout) ?? '', /^sha256:/);
});

test.run();
