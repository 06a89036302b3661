// `rollstamp refresh`: one pass. It hands the caches (watchers.ts, or --once's lists) to the core's decision
// (function/refresh/) and, while this replica leads, PATCHes the Applications it names — Argo CD's refresh
// annotation and its own, nothing else — within the rate limits. A request held back is asked again by a later
// pass: the decision is level-triggered, so nothing depends on seeing every event.
import { ARGOCD_REFRESH_ANNOTATION, decideRefreshes, REFRESH_REQUESTED_ANNOTATION, type ApplicationView, type Baselines, type LiveSource, type RefreshRequest, type WorkloadView } from '../../../function/index.ts';
import { Api, ApiError } from './api.ts';
import { Metrics } from './metrics.ts';
import type { RefreshOptions } from './options.ts';
import { RateLimiter } from './rate-limit.ts';
import { line, ProblemLog, requestLine } from './report.ts';
import type { SlimApplication, SlimSource, SlimWorkload } from './slim.ts';

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
    const wanted = new Set(decision.requests.map((r) => `${r.application.namespace}/${r.application.name}`));
    for (const key of this.deferred) {
      if (wanted.has(key)) continue;
      this.deferred.delete(key); // nothing to request any more (the change was rendered meanwhile), or gone:
      if (apps.has(key)) continue;
      this.limiter.forget(key);
      this.metrics.droppedGone++;
      this.write(line(`Application ${key} was deleted before its refresh was requested: dropped`));
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

