// `rollstamp refresh` benchmark (#34), the built bundle against the project's fake API server on loopback (plain
// http, test/support/fake-cluster.ts, in this process):
// - latency: WORKLOADS Deployments each reading one of SECRETS Secrets, one Application per ten Deployments; one
//   Secret's consumed key rotated at a time, SAMPLES times, and the time from the write to the PATCH of the right
//   Application measured at the server (p50, p99) — with --debounce 0 (the refresher's own work: the watch event,
//   a pass over every record, the PATCH) and with the default 1 s debounce (a tenth of the samples);
// - memory: peak RSS (VmHWM) of the refresher process watching RSS_SECRETS Secrets (three keys each, 64 B to 2 KiB),
//   against the same refresher watching none.
//   npm run bench:refresh [-- WORKLOADS SECRETS SAMPLES RSS_SECRETS]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKubeconfig } from '../test/support/fake-apiserver.ts';
import { startFakeCluster, type FakeCluster } from '../test/support/fake-cluster.ts';
import { putApplication, putDeployment, putSecret } from '../test/support/refresher.ts';

const [WORKLOADS = 1000, SECRETS = 1000, SAMPLES = 100, RSS_SECRETS = 10_000] = process.argv.slice(2).map(Number);
const bundle = fileURLToPath(new URL('../dist/rollstamp.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-bench-refresh-'));
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function refresher(cluster: FakeCluster, args: string[]): { child: ChildProcess; ready: Promise<void> } {
  const kubeconfig = writeKubeconfig(mkdtempSync(join(dir, 'kc-')), { server: cluster.url, insecure: true, user: { token: 'bench' } });
  const child = spawn(process.execPath, [bundle, 'refresh', '--kubeconfig', kubeconfig, '--listen', '127.0.0.1:0', '--min-interval', '0', '--max-per-minute', '100000', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  child.stderr!.on('data', (c: Buffer) => (said += c.toString('utf8')));
  let exited = false;
  child.once('exit', () => (exited = true));
  const ready = (async () => {
    while (!/on (127\.0\.0\.1:\d+)\n/.test(said)) {
      if (exited) throw new Error(`the refresher exited: ${said}`);
      await wait(20);
    }
    const metrics = `http://${/on (127\.0\.0\.1:\d+)\n/.exec(said)![1]}/metrics`;
    while (!/^rollstamp_refresh_last_sync_timestamp_seconds [1-9]/m.test(await (await fetch(metrics)).text())) await wait(50);
  })();
  return { child, ready };
}

const stop = (child: ChildProcess): Promise<void> => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGTERM')));
const peakRssMib = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function latency(debounce: string, samples: number): Promise<{ p50: number; p99: number; n: number }> {
  const cluster = await startFakeCluster({ bookmarkMs: 5000 });
  const secrets = Array.from({ length: SECRETS }, (_, i) => putSecret(cluster, `ns-${i % 10}`, `s-${i}`, { key: 'v0', other: 'o' }));
  const byApp = new Map<string, Array<{ namespace: string; name: string }>>();
  for (let i = 0; i < WORKLOADS; i++) {
    const s = secrets[i % SECRETS]!;
    const app = `app-${Math.floor(i / 10)}`;
    putDeployment(cluster, s.namespace, `w-${i}`, app, [{ source: s, keys: ['key'] }]);
    byApp.set(app, [...(byApp.get(app) ?? []), { namespace: s.namespace, name: `w-${i}` }]);
  }
  for (const [app, workloads] of byApp) putApplication(cluster, app, workloads);
  const { child, ready } = refresher(cluster, ['--debounce', debounce]);
  await ready;
  const times: number[] = [];
  for (let n = 0; n < samples; n++) {
    const i = (n * 10) % WORKLOADS; // one workload of a different Application each time
    const s = secrets[i % SECRETS]!;
    const before = cluster.patches.length;
    const current = cluster.get('v1', 'Secret', s.namespace, s.name)!;
    const t0 = performance.now();
    cluster.apply({ ...current, data: { ...current.data, key: Buffer.from(`v${n + 1}`).toString('base64') } });
    while (cluster.patches.length === before) await wait(1);
    const patch = cluster.patches[before]!;
    if (patch.path !== `argocd/app-${Math.floor(i / 10)}`) throw new Error(`the wrong Application was refreshed: ${patch.path}`);
    times.push(patch.at - t0);
  }
  await stop(child);
  await cluster.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
}

async function peakRss(secrets: number): Promise<number> {
  const cluster = await startFakeCluster({ bookmarkMs: 5000 });
  for (let i = 0; i < secrets; i++) {
    const value = (): string => randomBytes(32 + Math.floor(Math.random() * 992)).toString('hex');
    putSecret(cluster, `ns-${i % 50}`, `s-${i}`, { 'tls.crt': value(), 'tls.key': value(), 'ca.crt': value() });
  }
  const { child, ready } = refresher(cluster, []);
  await ready;
  await wait(1000);
  const mib = peakRssMib(child.pid!);
  await stop(child);
  await cluster.close();
  return mib;
}

try {
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.versions.node}`;
  console.log(`bench/refresh on ${machine}`);
  const fast = await latency('0', SAMPLES);
  console.log(`latency, --debounce 0: ${WORKLOADS} workloads, ${SECRETS} Secrets, ${fast.n} rotations: p50 ${fast.p50.toFixed(0)} ms, p99 ${fast.p99.toFixed(0)} ms (rotated key to PATCH)`);
  const slow = await latency('1', Math.max(5, Math.round(SAMPLES / 10)));
  console.log(`latency, default --debounce 1: ${slow.n} rotations: p50 ${slow.p50.toFixed(0)} ms, p99 ${slow.p99.toFixed(0)} ms`);
  const idle = await peakRss(0);
  const loaded = await peakRss(RSS_SECRETS);
  console.log(`peak RSS: ${loaded.toFixed(0)} MiB watching ${RSS_SECRETS} Secrets (${idle.toFixed(0)} MiB watching none)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
