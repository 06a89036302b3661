// Live-read benchmark: 2,000 referenced Secrets across 20 namespaces, read through readLive (real client-node,
// TLS, bearer token) from the loopback fake API server (in a worker thread) answering each request after 5 ms.
// Prints end-to-end time and request count, for the reader alone and for the built CLI stamping one
// Deployment per Secret; target ≤ 3 s and exactly one request per object.
//   node --import tsx bench/live.ts [objects] [namespaces] [delayMs] [concurrency]
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readLive, type LiveNeed } from '../plugin/live/reader.ts';
import { testPki, writeKubeconfig } from '../test/support/fake-apiserver.ts';

const [objects = 2000, namespaces = 20, delayMs = 5, concurrency = 16] = process.argv.slice(2).map(Number);
const pki = testPki();
if ('skip' in pki) {
  console.log(`bench/live: skipped: ${pki.skip}`);
  process.exit(0);
}
const token = 'bench-token';
// Node 20 does not pass --import hooks on to workers: the worker registers tsx itself, then loads the server.
const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(
  new URL('./live-server.ts', import.meta.url).href,
)}); });`;
const worker = new Worker(boot, { eval: true, workerData: { objects, namespaces, delayMs, token, pki } });
const ask = async <T>(msg?: string): Promise<T> => {
  if (msg) worker.postMessage(msg);
  const [reply] = (await once(worker, 'message')) as [T];
  return reply;
};
const { url } = await ask<{ url: string }>();
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-bench-live-'));
try {
  const needs: LiveNeed[] = Array.from({ length: objects }, (_, i) => {
    const namespace = `ns-${i % namespaces}`;
    const name = `secret-${i}`;
    return { id: `Secret/${namespace}/${name}`, cls: 'Secret', namespace, name };
  });
  const kubeconfig = writeKubeconfig(dir, { server: url, caFile: pki.caFile, user: { token } });
  const started = performance.now();
  const out = await readLive(needs, { kubeconfig, env: { PATH: process.env.PATH }, concurrency });
  const ms = performance.now() - started;
  const served = await ask<{ count: number; distinct: number }>('count');
  const ok = out.fetched.size === objects && out.requests === objects && served.count === objects && served.distinct === objects;
  console.log(
    `live read: ${objects} Secrets in ${namespaces} namespaces, ${delayMs} ms per answer, concurrency ${concurrency}: ` +
      `${ms.toFixed(0)} ms end to end, ${out.requests} requests (${(out.requests / objects).toFixed(2)} per object)` +
      `${ms <= 3000 ? '' : ' — over the 3 s target'}${ok ? '' : ' — MISMATCH'}`,
  );
  if (!ok) process.exitCode = 1;

  // The same reads through the whole CLI: the built bundle stamps one Deployment per Secret.
  const stream = needs
    .map((n, i) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-${i}, namespace: ${n.namespace}, annotations: {rollstamp.dev/enabled: "true"}}\n` +
      `spec: {template: {spec: {containers: [{name: app, image: app:1, envFrom: [{secretRef: {name: ${n.name}}}]}]}}}\n`)
    .join('---\n');
  const cliStarted = performance.now();
  const cli = spawnSync(process.execPath, [fileURLToPath(new URL('../dist/rollstamp.js', import.meta.url)), 'stamp', '--live', 'missing', '--kubeconfig', kubeconfig, '-'], {
    input: stream,
    env: { PATH: process.env.PATH ?? '' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const cliMs = performance.now() - cliStarted;
  const after = await ask<{ count: number; distinct: number }>('count');
  const stamped = (cli.stdout.toString().match(/rollstamp\.dev\/hash:/g) ?? []).length;
  const cliOk = cli.status === 0 && stamped === objects && after.count - served.count === objects;
  console.log(
    `rollstamp stamp --live missing (bundle, ${objects} Deployments): ${cliMs.toFixed(0)} ms end to end, ` +
      `${after.count - served.count} requests, ${stamped} stamped${cliMs <= 3000 ? '' : ' — over the 3 s target'}${cliOk ? '' : ` — FAILED: ${cli.stderr.toString().trim()}`}`,
  );
  if (!cliOk) process.exitCode = 1;
} finally {
  worker.postMessage('close');
  await once(worker, 'exit');
  rmSync(dir, { recursive: true, force: true });
}
