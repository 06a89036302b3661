// Shared digests (#21): a missing Secret has one digest whatever a target selects of it, but each target's
// report still lists the keys that target names — in either document order (found by the fuzz suite).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../support/run-cli.ts';

const byKey = `apiVersion: apps/v1
kind: Deployment
metadata: {name: by-key, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
        - name: app
          env: [{name: TOKEN, valueFrom: {secretKeyRef: {name: cache, key: token}}}]
`;
const whole = `apiVersion: apps/v1
kind: Deployment
metadata: {name: whole, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
        - name: app
          envFrom: [{secretRef: {name: cache}}]
`;

interface Report {
  targets: Array<{ resourceRef: { name: string }; sources: Array<{ name: string; digest: string; keys: Array<{ key: string; present: boolean }> }> }>;
}

async function keysByTarget(stream: string): Promise<Record<string, unknown>> {
  const r = await runInProcess(['explain', '--json', '-'], { stdin: stream });
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as Report;
  return Object.fromEntries(report.targets.map((t) => [t.resourceRef.name, t.sources.map((s) => ({ digest: s.digest, keys: s.keys }))]));
}

test('a missing Secret read by key and whole: each report lists its own keys, in either document order', async () => {
  const first = await keysByTarget(`${byKey}---\n${whole}`);
  const second = await keysByTarget(`${whole}---\n${byKey}`);
  assert.equal(first, second);
  const [keyed] = first['by-key'] as Array<{ digest: string; keys: unknown }>;
  const [all] = first.whole as Array<{ digest: string; keys: unknown }>;
  assert.equal(keyed!.keys, [{ key: 'token', present: false }]);
  assert.equal(all!.keys, []);
  assert.is(keyed!.digest, all!.digest, 'a missing source contributes one marker whatever is selected');
});

// Key names with a NUL in them: the API server refuses them, a rendered bundle may still carry them.
const nulKeys = `apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: d}
data: {"a\\0b": "1", "c": "2", "a": "3", "b\\0c": "4"}
`;
const readingKeys = (name: string, keys: [string, string]): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: d, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
        - name: x
          env: [{name: A, valueFrom: {configMapKeyRef: {name: cm, key: "${keys[0]}"}}}, {name: B, valueFrom: {configMapKeyRef: {name: cm, key: "${keys[1]}"}}}]
`;

test('two targets reading different keys whose names joined with NUL are equal get different digests (#37)', async () => {
  const stream = [nulKeys, readingKeys('one', ['a\\0b', 'c']), readingKeys('two', ['a', 'b\\0c'])].join('---\n');
  const r = await runInProcess(['stamp', '-'], { stdin: stream });
  assert.is(r.code, 0, r.stderr);
  const stamps = [...r.stdout.matchAll(/rollstamp\.dev\/hash: "([^"]+)"/g)].map((m) => m[1]);
  assert.is(stamps.length, 2);
  assert.is.not(stamps[0], stamps[1]);
  // Changing the key only the second reads changes only the second's stamp.
  const changed = await runInProcess(['stamp', '-'], { stdin: stream.replace('"a": "3"', '"a": "30"') });
  const after = [...changed.stdout.matchAll(/rollstamp\.dev\/hash: "([^"]+)"/g)].map((m) => m[1]);
  assert.is(after[0], stamps[0]);
  assert.is.not(after[1], stamps[1]);
});

// A key's own digest (what diff compares to name the keys that changed) is kept per source and key: joined with
// NUL, Secret "a"'s key "k\0all\0z" and Secret "a\0all\0k"'s key "z" were one entry.
const nulNamed = (z: string): string => `apiVersion: v1
kind: Secret
metadata: {name: "a", namespace: shop}
data: {"k\\0all\\0z": YQ==}
---
apiVersion: v1
kind: Secret
metadata: {name: "a\\0all\\0k", namespace: shop}
data: {"z": ${z}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers: [{name: c, image: x, envFrom: [{secretRef: {name: "a"}}, {secretRef: {name: "a\\0all\\0k"}}]}]
`;

test('diff names the changed key of a source whose name and key, joined with NUL, are another source\'s (#37)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-nul-keys-'));
  try {
    writeFileSync(join(dir, 'old.yaml'), nulNamed('YQ=='));
    writeFileSync(join(dir, 'new.yaml'), nulNamed('Yg=='));
    const r = await runInProcess(['diff', '-o', 'json', join(dir, 'old.yaml'), join(dir, 'new.yaml')]);
    assert.is(r.code, 3, r.stderr);
    const doc = JSON.parse(r.stdout) as { targets: Array<{ sources: Array<{ name: string; keys: Array<{ key: string; change: string }> }> }> };
    const sources = doc.targets[0]!.sources;
    assert.equal(sources.map((s) => s.name), ['a\0all\0k'], 'only the second Secret changed');
    assert.equal(sources[0]!.keys, [{ key: 'z', change: 'changed' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
