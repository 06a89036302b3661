// `rollstamp refresh`: the controller. Informers keep slim caches of the workloads, Secrets, ConfigMaps and
// Applications; any change schedules a pass once the burst is quiet (--debounce); a pass hands the caches to the
// core's decision (function/refresh/) and, while this replica leads, PATCHes the Applications it names — its own
// annotation and Argo CD's refresh annotation, nothing else — within the rate limits. The same pass runs every few
// minutes anyway: the decision is level-triggered, so nothing depends on seeing every event.
import { ListWatch } from '@kubernetes/client-node/dist/cache.js';
import { ARGOCD_REFRESH_ANNOTATION, decideRefreshes, REFRESH_REQUESTED_ANNOTATION, type ApplicationView, type Baselines, type LiveSource, type RefreshRequest, type WorkloadView } from '../../../function/index.ts';
import { Api, ApiError } from './api.ts';
import { Informer, type InformerEvents } from './informers.ts';
import { Metrics } from './metrics.ts';
import type { RefreshOptions } from './options.ts';
import { RateLimiter } from './rate-limit.ts';
import { line, ProblemLog, requestLine } from './report.ts';
import { slimApplication, slimSource, slimWorkload, type SlimApplication, type SlimMeta, type SlimSource, type SlimWorkload, type WatchedType } from './slim.ts';

/** A pass runs at least this often, changes or not. */
export const RESYNC_MS = 5 * 60_000;
const SOURCES: ReadonlyArray<WatchedType & { kind: 'Secret' | 'ConfigMap' }> = [
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
];
const APPLICATIONS: WatchedType = { group: 'argoproj.io', version: 'v1alpha1', resource: 'applications', kind: 'Application' };

/** The caches a pass reads: everything the decision needs, from the informers or (--once) from one list each. */
export interface Caches {
  workloads(): readonly SlimWorkload[];
  sources(): ReadonlyArray<{ kind: 'Secret' | 'ConfigMap'; slim: SlimSource }>;
  applications(): readonly SlimApplication[];
}

/** What one pass did. */
export interface PassOutcome {
  requested: number;
  /** Applications whose changes were requested before (nothing to do). */
  already: number;
  /** When a request held back by a rate limit may go. */
  nextAt?: number;
}

/** Decides and acts on the caches; one instance per run. */
export class Passes {
  private baselines: Baselines = new Map();
  private readonly pending = new Map<string, string>();
  private readonly deferred = new Set<string>();
  private readonly limiter: RateLimiter;
  private readonly problems: ProblemLog;

  constructor(
    private readonly api: Api,
    private readonly options: RefreshOptions,
    private readonly metrics: Metrics,
    private readonly write: (text: string) => void,
  ) {
    this.limiter = new RateLimiter({ perApplicationMs: options.minIntervalMs, perMinute: options.perMinute }, Date.now());
    this.problems = new ProblemLog((text) => write(`${text}\n`));
  }

  /**
   * One pass: decide, and (when `act`) request what the limits allow. Returns when the next pass is due for a
   * request held back, if any. An API failure of one request is counted and said; the pass goes on.
   */
  async run(caches: Caches, act: boolean): Promise<PassOutcome> {
    const apps = new Map<string, ApplicationView>();
    for (const a of caches.applications()) {
      const key = `${a.metadata.namespace}/${a.metadata.name}`;
      if (this.pending.get(key) === a.requested) this.pending.delete(key); // the informer has caught up
      const requested = this.pending.get(key) ?? a.requested;
      apps.set(key, { namespace: a.metadata.namespace, name: a.metadata.name, resources: a.resources, ...(requested !== undefined ? { requested } : {}) });
    }
    const sources = new Map<string, LiveSource>();
    for (const { kind, slim } of caches.sources()) if (slim.live) sources.set(`${kind}/${slim.metadata.namespace}/${slim.metadata.name}`, slim.live);
    const workloads: WorkloadView[] = caches.workloads().filter((w) => w.record !== undefined).map((w) => ({
      ref: { apiVersion: w.apiVersion, kind: w.kind, namespace: w.metadata.namespace, name: w.metadata.name },
      group: w.apiVersion.includes('/') ? w.apiVersion.slice(0, w.apiVersion.indexOf('/')) : '',
      ...(w.record !== undefined ? { record: w.record } : {}),
      ...(w.trackingId !== undefined ? { trackingId: w.trackingId } : {}),
      ...(w.instance !== undefined ? { instance: w.instance } : {}),
    }));
    const o = this.options;
    const scope = { argocdNamespace: o.argocdNamespace, applicationNamespaces: new Set(o.applicationNamespaces), sharedNamespaces: new Set(o.sharedNamespaces), ...(o.namespaces ? { watched: new Set(o.namespaces) } : {}) };
    const decision = decideRefreshes({ workloads, sources, applications: apps, scope, ...(o.hashKey ? { hashKey: o.hashKey } : {}), baselines: this.baselines });
    this.baselines = decision.baselines;
    for (const gone of [...this.deferred].filter((k) => !apps.has(k))) {
      this.deferred.delete(gone);
      this.metrics.droppedGone++;
      this.write(line(`Application ${gone} was deleted before its refresh was requested: dropped`));
    }
    const outcome: PassOutcome = { requested: 0, already: decision.alreadyRequested.length };
    if (!act) return outcome;
    const now = Date.now();
    for (const code of this.problems.report(decision.problems, now)) this.metrics.count(this.metrics.refused, code);
    for (const r of decision.requests) {
      const key = `${r.application.namespace}/${r.application.name}`;
      const held = this.limiter.take(key, Date.now());
      if (held) {
        if (!this.deferred.has(key)) this.metrics.count(this.metrics.deferred, held);
        this.deferred.add(key);
        const at = this.limiter.nextAt(key, Date.now());
        outcome.nextAt = outcome.nextAt === undefined ? at : Math.min(outcome.nextAt, at);
        continue;
      }
      this.deferred.delete(key);
      if (await this.request(r, key)) outcome.requested++;
    }
    return outcome;
  }

  /** PATCHes one Application: Argo CD's refresh annotation and the refresher's own, by JSON merge patch. */
  private async request(r: RefreshRequest, key: string): Promise<boolean> {
    const { namespace, name } = r.application;
    const body = JSON.stringify({ metadata: { annotations: { [ARGOCD_REFRESH_ANNOTATION]: 'hard', [REFRESH_REQUESTED_ANNOTATION]: r.fingerprint } } });
    const path = `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/applications/${encodeURIComponent(name)}`;
    try {
      await this.api.json(`patch application ${key}`, path, { method: 'PATCH', body, contentType: 'application/merge-patch+json' });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.failure === 'aborted') return false;
      if (err.failure === 'not-found') {
        this.metrics.droppedGone++;
        this.write(line(`Application ${key} was deleted before its refresh was requested: dropped`));
        return false;
      }
      this.metrics.count(this.metrics.apiErrors, err.failure);
      this.write(line(`error: ${err.message}; it is asked again on the next pass`));
      return false;
    }
    this.pending.set(key, r.fingerprint);
    for (const reason of new Set(r.changes.map((c) => c.reason))) this.metrics.count(this.metrics.requests, reason);
    this.write(`${requestLine(r)}\n`);
    return true;
  }
}

type AnyInformer = Informer<{ metadata: SlimMeta }>;

/** The informers of a long-running refresher, and what they say about readiness. */
export class Watchers implements Caches {
  private readonly sourceInformers: Array<{ kind: 'Secret' | 'ConfigMap'; informer: Informer<SlimSource> }> = [];
  private readonly workloadInformers: Array<Informer<SlimWorkload>> = [];
  private readonly appInformers: Array<Informer<SlimApplication>> = [];
  private readonly notServed = new Set<AnyInformer>();

  constructor(
    private readonly api: Api,
    options: RefreshOptions,
    digestKey: Uint8Array,
    private readonly metrics: Metrics,
    private readonly events: InformerEvents,
  ) {
    for (const ns of options.namespaces ?? [undefined]) {
      for (const t of SOURCES) this.sourceInformers.push({ kind: t.kind, informer: this.make(t, ns, (raw) => slimSource(raw, t.kind, digestKey)) });
      for (const t of options.workloadTypes) {
        const type = { ...t };
        this.workloadInformers.push(this.make(type, ns, (raw) => slimWorkload(raw, type)));
      }
    }
    for (const ns of [options.argocdNamespace, ...options.applicationNamespaces]) this.appInformers.push(this.make(APPLICATIONS, ns, (raw) => slimApplication(raw)));
  }

  /** An informer whose failures, first list and restarts also feed the metrics and the readiness. */
  private make<T extends { metadata: SlimMeta }>(type: WatchedType, ns: string | undefined, slim: (raw: Record<string, unknown>) => T): Informer<T> {
    const { events, metrics } = this;
    let informer: Informer<T> | undefined;
    const own: InformerEvents = {
      changed: () => events.changed(),
      failed: (err, retryMs, attempt) => {
        if (err.failure === 'not-found') this.notServed.add(informer!);
        else metrics.count(metrics.apiErrors, err.failure);
        events.failed(err, retryMs, attempt);
      },
      synced: () => {
        this.notServed.delete(informer!);
        events.synced();
      },
      restarted: () => {
        metrics.count(metrics.watchRestarts, type.resource);
        events.restarted();
      },
    };
    informer = new Informer<T>(this.api, type, ns, slim, own, ListWatch);
    return informer;
  }

  private all(): AnyInformer[] {
    return [...this.sourceInformers.map((s) => s.informer), ...this.workloadInformers, ...this.appInformers];
  }

  start(): void {
    for (const i of this.all()) i.start();
  }

  stop(): void {
    for (const i of this.all()) i.stop();
  }

  /** Why not ready: the resources whose first list has not completed (a resource the server does not serve counts as done). */
  notReady(): string | undefined {
    const waiting = [...new Set(this.all().filter((i) => !i.isSynced && !this.notServed.has(i)).map((i) => i.type.resource))];
    return waiting.length === 0 ? undefined : `waiting for the first list of ${waiting.join(', ')}`;
  }

  /** Objects cached, by resource. */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const i of this.all()) out.set(i.type.resource, (out.get(i.type.resource) ?? 0) + i.list().length);
    return out;
  }

  workloads = (): readonly SlimWorkload[] => this.workloadInformers.flatMap((i) => i.list());
  sources = (): ReadonlyArray<{ kind: 'Secret' | 'ConfigMap'; slim: SlimSource }> => this.sourceInformers.flatMap((s) => s.informer.list().map((slim) => ({ kind: s.kind, slim })));
  applications = (): readonly SlimApplication[] => this.appInformers.flatMap((i) => i.list());
}
