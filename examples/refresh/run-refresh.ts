// `npm run start:refresh`: `rollstamp refresh` on examples/refresh against the project's fake API server
// (test/support/fake-cluster.ts, on loopback), in a few seconds. The bundle renders the Applications as Argo CD's
// `rollstamp generate --live` would, the render is "synced" into the cluster as Argo CD would apply it (with its
// tracking annotation), then the refresher watches: a labels-only change requests nothing, a rotated password
// hard-refreshes the one Application whose workload reads it, and the render that refresh causes rolls only that
// workload. SIGTERM stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { writeKubeconfig } from '../../test/support/fake-apiserver.ts';
import { startFakeCluster } from '../../test/support/fake-cluster.ts';

type Obj = Record<string, any>;
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
const bundle = here('../../dist/rollstamp.js');
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-refresh-example-'));
// The sidecar and the refresher share the operator's hash key: every decision is then exact.
const env = { PATH: process.env.PATH ?? '', HOME: dir, ROLLSTAMP_HASH_KEY: 'example-hash-key-never-use-this-one' };
const cluster = await startFakeCluster({ bookmarkMs: 500 });
const kubeconfig = writeKubeconfig(dir, { server: cluster.url, insecure: true, user: { token: 'example' } });
const docs = (text: string): Obj[] => parseAllDocuments(text).map((d) => d.toJS() as Obj).filter((o) => o);
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const annotations = (app: string): Obj => cluster.get('argoproj.io/v1alpha1', 'Application', 'argocd', app)?.metadata.annotations ?? {};

for (const obj of docs(readFileSync(here('cluster.yaml'), 'utf8'))) cluster.apply(obj);

/** The bundle run to completion (not spawnSync: the fake cluster answers from this process). */
function rollstamp(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/** What Argo CD does for each Application: render with `rollstamp stamp --live missing`, apply what it printed. */
async function renderAndSync(): Promise<Map<string, string>> {
  const r = await rollstamp(['stamp', '--live', 'missing', '--kubeconfig', kubeconfig, here('app/app.yaml')]);
  if (r.status !== 0) throw new Error(`render failed: ${r.stderr}`);
  const stamps = new Map<string, string>();
  for (const app of ['shop', 'billing']) {
    const objects = docs(r.stdout).filter((o) => o.metadata.namespace === app);
    for (const o of objects) {
      o.metadata.annotations['argocd.argoproj.io/tracking-id'] = `${app}:apps/${o.kind}:${app}/${o.metadata.name}`;
      cluster.apply(o);
      stamps.set(`${o.metadata.namespace}/${o.metadata.name}`, o.spec.template.metadata.annotations['rollstamp.dev/hash']);
    }
    const application = cluster.get('argoproj.io/v1alpha1', 'Application', 'argocd', app)!;
    const resources = objects.map((o) => ({ group: 'apps', version: 'v1', kind: o.kind, namespace: app, name: o.metadata.name }));
    cluster.apply({ ...application, status: { sync: { status: 'Synced' }, resources } });
  }
  return stamps;
}

console.log('$ rollstamp stamp --live missing ... examples/refresh/app/   # as Argo CD renders each Application');
const before = await renderAndSync();
const web = cluster.get('apps/v1', 'Deployment', 'shop', 'web')!;
console.log(`shop/web carries its live-read record (names, keys, versions, a keyed digest; no value):\n  rollstamp.dev/live-reads: ${web.metadata.annotations['rollstamp.dev/live-reads']}`);

console.log('\n$ rollstamp refresh --listen 127.0.0.1:0 --debounce 0.5');
const refresher = spawn(process.execPath, [bundle, 'refresh', '--kubeconfig', kubeconfig, '--listen', '127.0.0.1:0', '--debounce', '0.5'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let said = '';
refresher.stderr.on('data', (c: Buffer) => {
  said += c.toString('utf8');
  for (const line of c.toString('utf8').trimEnd().split('\n')) console.log(`  | ${line.replace(/ on http:\/\/127\.0\.0\.1:\d+/, '').replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT')}`);
});
while (!said.includes('watching')) await wait(50);
await wait(1500);

console.log('\nLabelling shop/db (kubectl label secret db -n shop rotated-by=nobody): no consumed key changed.');
const db = cluster.get('v1', 'Secret', 'shop', 'db')!;
cluster.apply({ ...db, metadata: { ...db.metadata, labels: { 'rotated-by': 'nobody' } } });
await wait(1500);
console.log(`  Applications refreshed: ${cluster.patches.length}`);

console.log('\nRotating shop/db password (kubectl patch secret db -n shop ...), as a provider or an operator would:');
cluster.apply({ ...cluster.get('v1', 'Secret', 'shop', 'db')!, data: { ...db.data, password: Buffer.from('example-password-2').toString('base64') } });
const start = Date.now();
while (cluster.patches.length === 0 && Date.now() - start < 15_000) await wait(20);
await wait(200);
console.log(`  Application argocd/shop: argocd.argoproj.io/refresh=${annotations('shop')['argocd.argoproj.io/refresh']}  (billing: ${annotations('billing')['argocd.argoproj.io/refresh'] ?? 'untouched'})`);

console.log('\nArgo CD hard-refreshes shop: the plugin renders again, and the sync rolls what changed:');
const after = await renderAndSync();
for (const [name, hash] of after) console.log(`  ${name.padEnd(14)} ${hash === before.get(name) ? 'unchanged' : 'new hash: rolls'}`);

refresher.kill('SIGTERM');
const code = await new Promise<number | null>((r) => refresher.on('exit', (c) => r(c)));
console.log(`\nSIGTERM: rollstamp refresh exited ${code}.`);
await cluster.close();
rmSync(dir, { recursive: true, force: true });
