// `rollstamp refresh`: the command. Long-running by default — informers, the passes, leader election and the probe
// endpoints, until SIGTERM or SIGINT (io.signal) asks it to stop, then exit 0 — or one pass over fresh lists with
// --once. Everything it decides comes from the core (function/refresh/); this folder is its I/O.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { InputError } from '../../process/errors.ts';
import { flagsHelp } from '../../cli/flags.ts';
import { LiveReadError } from '../../live/live-error.ts';
import { Api, ApiError } from './api.ts';
import { Passes, type Caches } from './passes.ts';
import { Watchers } from './watchers.ts';
import { serveProbes } from './endpoints.ts';
import { listAll } from './informers.ts';
import { LeaderElector } from './leader.ts';
import { Metrics } from './metrics.ts';
import { REFRESH_FLAGS, refreshOptions, type RefreshOptions } from './options.ts';
import { line } from './report.ts';
import type { RunIo } from '../../settings/run-settings.ts';
import { credentialEnv } from '../../live/live-sources.ts';
import { slimApplication, slimSource, slimWorkload, type SlimApplication, type SlimSource, type SlimWorkload } from './slim.ts';
import type { CommandModule } from '../command.ts';

/** A pass runs at least this often, changes or not. */
const RESYNC_MS = 5 * 60_000;

export const REFRESH_HELP = `Usage: rollstamp refresh [flags]

Argo CD caches each Application's rendered manifests per commit, so a Secret or ConfigMap that changes only in
the cluster (a rotation by External Secrets, cert-manager, Vault, a cloud provider, kubectl) reaches
\`rollstamp generate\` with live reads only at the next hard refresh. rollstamp refresh watches the
workloads' live-read records (rollstamp.dev/live-reads, written by generate and stamp --live) and the live
Secrets and ConfigMaps they name, and sets argocd.argoproj.io/refresh: hard on exactly the Applications whose
workloads consumed a key that changed: once per change, never for a change of another key, of labels or of
annotations. It writes nothing else: its own rollstamp.dev/refresh-requested annotation on those Applications,
and with --leader-elect a Lease.

It connects like the other commands (--kubeconfig, else KUBECONFIG, ~/.kube/config, or the in-cluster service
account; --context). Give it the sidecar's hash key (ROLLSTAMP_HASH_KEY or ROLLSTAMP_HASH_KEY_FILE, or
--hash-key-file): with it every decision is exact; without it, a Secret whose resourceVersion moved while the
refresher was not watching is refreshed once as "unverified". It serves /healthz, /readyz and /metrics
(Prometheus) on --listen and logs one line per refresh naming the Application, the objects and their keys;
never a value. Install: argocd/README.md#rollstamp-refresh. More: docs/refresh.md.

Flags:
${flagsHelp(REFRESH_FLAGS)}

Examples:
  rollstamp refresh                                         # in the cluster, watching every namespace
  rollstamp refresh --namespaces shop,payments --leader-elect
  rollstamp refresh --once --context prod                   # one pass, then exit (a CronJob, CI)
  ROLLSTAMP_HASH_KEY_FILE=/etc/rollstamp/hash.key rollstamp refresh --listen 127.0.0.1:8080

Exit status: 0 stopped by SIGTERM or SIGINT, or --once done; 1 cannot connect, or (--once) an API request
failed after retries; 2 bad usage.`;

export async function runRefresh(args: readonly string[], io: RunIo): Promise<number> {
  const options = await refreshOptions(args, io);
  const stop = new AbortController(); // ends the API's requests, after the Lease is released
  setMaxListeners(0, stop.signal); // one listener per watch and request in flight
  let api: Api;
  try {
    api = await Api.open({ ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}), ...(options.context ? { context: options.context } : {}), env: credentialEnv(io.settings.env), signal: stop.signal });
  } catch (err) {
    if (err instanceof LiveReadError) throw new InputError(err.message.replace(/^live read: /, 'refresh: '));
    throw err;
  }
  try {
    return options.once ? await once(api, options, io) : await controller(api, options, io);
  } finally {
    stop.abort();
    api.close();
  }
}

/** --once: one list of everything, one pass, every request made (no rate limit to wait for). */
async function once(api: Api, options: RefreshOptions, io: RunIo): Promise<number> {
  const key = options.hashKey ?? randomBytes(32);
  const list = async <T>(type: Parameters<typeof listAll>[1], ns: string | undefined, slim: (raw: Record<string, unknown>) => T): Promise<T[]> => {
    try {
      return await listAll(api, type, ns, slim);
    } catch (err) {
      if (err instanceof ApiError && err.failure === 'not-found' && type.resource !== 'applications') return [];
      throw err instanceof ApiError ? new InputError(`refresh: ${err.message}`) : err;
    }
  };
  const namespaces = options.namespaces ?? [undefined];
  const sources: Array<{ kind: 'Secret' | 'ConfigMap'; slim: SlimSource }> = [];
  const workloads: SlimWorkload[] = [];
  const applications: SlimApplication[] = [];
  for (const ns of namespaces) {
    for (const kind of ['Secret', 'ConfigMap'] as const) {
      const type = { group: '', version: 'v1', resource: kind === 'Secret' ? 'secrets' : 'configmaps', kind };
      for (const slim of await list(type, ns, (raw) => slimSource(raw, kind, key))) sources.push({ kind, slim });
    }
    for (const t of options.workloadTypes) {
      const type = { ...t };
      workloads.push(...(await list(type, ns, (raw) => slimWorkload(raw, type))));
    }
  }
  for (const ns of [options.argocdNamespace, ...options.applicationNamespaces]) {
    applications.push(...(await list({ group: 'argoproj.io', version: 'v1alpha1', resource: 'applications', kind: 'Application' }, ns, slimApplication)));
  }
  const caches: Caches = { sources: () => sources, workloads: () => workloads, applications: () => applications };
  const metrics = new Metrics(() => new Map());
  const passes = new Passes(api, { ...options, minIntervalMs: 0, perMinute: Number.MAX_SAFE_INTEGER }, metrics, (t) => io.writeStderr(t));
  const outcome = await passes.run(caches, true);
  const failed = [...metrics.apiErrors.values()].reduce((a, b) => a + b, 0);
  if (failed > 0) throw new InputError(`refresh --once: ${failed} refresh request(s) failed after retries (see the lines above)`);
  const records = workloads.filter((w) => w.record !== undefined).length;
  io.writeStderr(line(`one pass over ${records} workloads with records: ${outcome.requested} hard refreshes requested, ${outcome.already} already requested`));
  return 0;
}

/** The long-running controller: until io.signal aborts, then a clean stop (watches closed, Lease released). */
async function controller(api: Api, options: RefreshOptions, io: RunIo): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  const say = (text: string): void => io.writeStderr(line(text));
  let watchers: Watchers | undefined;
  const metrics = new Metrics(() => watchers?.counts() ?? new Map());
  const passes = new Passes(api, options, metrics, (t) => io.writeStderr(t));
  let leading = !options.leaderElect;
  metrics.leader = leading ? 1 : 0;
  const failures = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let dueAt = 0;
  let burstStart = 0;
  let lastChange = 0;
  let running: Promise<void> | undefined;
  let again = false;

  const pass = async (): Promise<void> => {
    const ready = watchers!.notReady() === undefined;
    const { nextAt } = await passes.run(watchers!, leading && ready);
    if (ready) metrics.lastSyncSeconds = Math.floor(Date.now() / 1000);
    if (nextAt !== undefined) schedule(nextAt - Date.now());
  };
  const fire = (): void => {
    timer = undefined;
    const now = Date.now();
    // A burst is quiet once no change came for --debounce, or after ten times that in all.
    if (lastChange > 0 && now - lastChange < options.debounceMs && now - burstStart < options.debounceMs * 10) return schedule(options.debounceMs - (now - lastChange));
    lastChange = 0;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((err: unknown) => say(`error: ${(err as Error)?.message ?? 'pass failed'}`))
      .finally(() => {
        running = undefined;
        if (again && !signal.aborted) {
          again = false;
          schedule(0);
        }
      });
  };
  const schedule = (delayMs: number): void => {
    if (signal.aborted) return;
    const at = Date.now() + Math.max(0, delayMs);
    if (timer && dueAt <= at) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(fire, Math.max(0, delayMs));
  };
  watchers = new Watchers(api, options, options.hashKey ?? randomBytes(32), metrics, {
    changed: () => {
      const now = Date.now();
      if (lastChange === 0) burstStart = now;
      lastChange = now;
      schedule(options.debounceMs);
    },
    synced: () => schedule(0),
    restarted: () => {},
    failed: (err, retryMs, attempt) => {
      // A watch cut by the network or timed out is routine: it is said only when it keeps happening.
      if ((err.failure === 'network' || err.failure === 'timeout') && err.message.startsWith('watch ') && attempt < 3) return;
      const last = failures.get(err.message);
      if (last !== undefined && Date.now() - last < 5 * 60_000) return;
      failures.set(err.message, Date.now());
      say(`${err.failure === 'not-found' ? 'warning' : 'error'}: ${err.message}; trying again in ${Math.round(retryMs / 1000)} s`);
    },
  });
  const probes = options.listen ? await serveProbes(options.listen, { notReady: () => watchers!.notReady(), metrics: () => metrics.render() }) : undefined;
  const elector = options.leaderElect
    ? new LeaderElector(api, { namespace: options.argocdNamespace, name: options.leaseName, identity: `${io.settings.env.POD_NAME || hostname()}_${randomBytes(4).toString('hex')}` }, (now) => {
        leading = now;
        metrics.leader = now ? 1 : 0;
        say(now ? `leading (Lease ${options.argocdNamespace}/${options.leaseName})` : 'no longer leading: standing by');
        if (now) schedule(0);
      })
    : undefined;
  const electing = elector?.run(signal);
  watchers.start();
  const resync = setInterval(() => schedule(0), RESYNC_MS);
  say(startLine(options, api.server, probes?.address));
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  clearInterval(resync);
  clearTimeout(timer);
  watchers.stop();
  await electing;
  if (elector) await Promise.race([elector.release(api), new Promise((r) => setTimeout(r, 1500))]);
  await running;
  probes?.server.close();
  probes?.server.closeAllConnections();
  say('stopped');
  return 0;
}

function startLine(o: RefreshOptions, server: string, address: string | undefined): string {
  const where = o.namespaces ? `namespaces ${o.namespaces.join(', ')}` : 'every namespace';
  const kinds = o.workloadTypes.map((t) => t.resource).join(', ');
  const key = o.hashKey ? 'hash key set: decisions are exact' : 'no hash key: a version moved while not watching is refreshed as unverified';
  const probes = address ? `; /healthz /readyz /metrics on ${address}` : '';
  return `watching secrets, configmaps, ${kinds} in ${where} and Applications in ${[o.argocdNamespace, ...o.applicationNamespaces].join(', ')} on ${server}; ${key}${o.leaderElect ? '; leader election on' : ''}${probes}`;
}

/** `rollstamp refresh` for the command list (commands/index.ts). */
export const REFRESH_COMMAND: CommandModule = { help: REFRESH_HELP, flags: REFRESH_FLAGS, run: runRefresh };
