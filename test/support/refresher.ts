// Test support for `rollstamp refresh` (#34): a cluster seeded as Argo CD and the render leave it — Secrets,
// Deployments carrying live-read records and tracking ids, Applications listing them in status.resources — and the
// refresher run in-process against it (stopped through io.signal, as SIGTERM stops it), its stderr kept as lines.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../plugin/cli/run-cli.ts';
import { errorLine, RollstampError } from '../../plugin/process/errors.ts';
import type { Io } from '../../plugin/process/io.ts';
import { writeKubeconfig } from './fake-apiserver.ts';
import type { FakeCluster } from './fake-cluster.ts';
import { HASH_KEY, recordOf, type Consumed, type SourceState } from './refresh-world.ts';

type Obj = Record<string, any>;

export interface Refresher {
  /** Every line it wrote to stderr so far. */
  lines: string[];
  /** `127.0.0.1:PORT` of /healthz, /readyz and /metrics. */
  probes(): Promise<string>;
  /** Resolves once `pred` holds (checked every 20 ms); rejects after `ms`, with the lines so far. */
  until(pred: () => boolean, ms?: number): Promise<void>;
  /** Resolves once it has made a pass over fully listed caches (its metrics show a last sync). */
  synced(ms?: number): Promise<void>;
  /** Asks it to stop, as SIGTERM does; resolves with its exit code. */
  stop(): Promise<number>;
  /** Resolves with its exit code when it ends by itself (--once, an error). */
  done: Promise<number>;
}

/** A kubeconfig that reaches the fake cluster over plain http. */
export function kubeconfigFor(cluster: FakeCluster): string {
  return writeKubeconfig(mkdtempSync(join(tmpdir(), 'rollstamp-refresh-kc-')), { server: cluster.url, insecure: true, user: { token: 'refresher-token' } });
}

/** Runs `rollstamp refresh ARGS` in-process against `cluster` (probes on a free port, a 0.1 s debounce unless ARGS say). */
export function startRefresher(cluster: FakeCluster, args: readonly string[] = [], env: Record<string, string> = {}): Refresher {
  const lines: string[] = [];
  const stop = new AbortController();
  let partial = '';
  const io: Io = {
    readStdin: async () => new Uint8Array(),
    writeStdout: async () => {},
    writeStderr: (t) => {
      const all = partial + t;
      const parts = all.split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
    },
    env: { PATH: process.env.PATH, HOME: '/nonexistent-home-for-tests', ...env },
    cwd: process.cwd(),
    signal: stop.signal,
  };
  const argv = ['refresh', '--kubeconfig', kubeconfigFor(cluster), '--listen', '127.0.0.1:0', '--debounce', '0.1', ...args];
  const done = runCli(argv, io).catch((err: unknown) => {
    if (!(err instanceof RollstampError)) throw err;
    io.writeStderr(errorLine(err.message));
    return err.exitCode;
  });
  const until = async (pred: () => boolean, ms = 15_000): Promise<void> => {
    const start = Date.now();
    while (!pred()) {
      if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms; refresher said:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const probes = async (): Promise<string> => {
    await until(() => lines.some((l) => / on 127\.0\.0\.1:\d+$/.test(l)));
    return /on (127\.0\.0\.1:\d+)$/.exec(lines.find((l) => / on 127\.0\.0\.1:\d+$/.test(l))!)![1]!;
  };
  return {
    lines,
    done,
    until,
    probes,
    synced: async (ms = 15_000) => {
      const url = `http://${await probes()}/metrics`;
      const start = Date.now();
      while (!/^rollstamp_refresh_last_sync_timestamp_seconds [1-9]/m.test(await (await fetch(url)).text())) {
        if (Date.now() - start > ms) throw new Error(`no pass over synced caches within ${ms} ms; refresher said:\n${lines.join('\n')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stop: async () => {
      stop.abort();
      return done;
    },
  };
}

/** A Secret in the cluster; returns its state as the render would see it. */
export function putSecret(cluster: FakeCluster, namespace: string, name: string, data: Record<string, string>, labels?: Record<string, string>): SourceState {
  const stored = cluster.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) });
  return { kind: 'Secret', namespace, name, uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion, data };
}

/** A Deployment as Argo CD applied it from a render that read `consumed`: its record, and its tracking id naming `app`. */
export function putDeployment(cluster: FakeCluster, namespace: string, name: string, app: string, consumed: readonly Consumed[], keyed = false): Obj {
  const annotations = { 'rollstamp.dev/live-reads': recordOf(consumed, keyed), 'argocd.argoproj.io/tracking-id': `${app}:apps/Deployment:${namespace}/${name}` };
  return cluster.apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace, annotations }, spec: { template: { spec: { containers: [] } } } });
}

/** An Application in `argocd` that manages `workloads` (status.resources). */
export function putApplication(cluster: FakeCluster, name: string, workloads: ReadonlyArray<{ namespace: string; name: string }>, namespace = 'argocd'): Obj {
  const resources = workloads.map((w) => ({ group: 'apps', version: 'v1', kind: 'Deployment', namespace: w.namespace, name: w.name }));
  return cluster.apply({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name, namespace }, spec: { project: 'default' }, status: { resources } });
}

/** Rotates one key of a Secret in the cluster (a new value, a new resourceVersion). */
export function rotate(cluster: FakeCluster, namespace: string, name: string, key: string, value: string): void {
  const s = cluster.get('v1', 'Secret', namespace, name)!;
  cluster.apply({ ...s, data: { ...s.data, [key]: Buffer.from(value).toString('base64') } });
}

/** The PATCHes of Applications made so far, by `namespace/name`. */
export const appPatches = (cluster: FakeCluster): string[] => cluster.patches.map((p) => p.path);

/** The hash key the records of keyed tests are made with, as the env a refresher is given it by. */
export const HASH_KEY_ENV = { ROLLSTAMP_HASH_KEY: new TextDecoder().decode(HASH_KEY) };
