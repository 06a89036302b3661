// `rollstamp refresh`: the informers of a long-running refresher — Secrets and ConfigMaps (as digests), the workload
// kinds (for their records) in every namespace or each of --namespaces, and Applications in the Argo CD namespaces —
// what they hold, and what they say about readiness (a resource the server does not serve counts as listed).
import { ListWatch } from '@kubernetes/client-node/dist/cache.js';
import type { Api } from './api.ts';
import type { Caches } from './passes.ts';
import { Informer, type InformerEvents } from './informers.ts';
import type { Metrics } from './metrics.ts';
import type { RefreshOptions } from './options.ts';
import { slimApplication, slimSource, slimWorkload, type SlimApplication, type SlimMeta, type SlimSource, type SlimWorkload, type WatchedType } from './slim.ts';

const SOURCES: ReadonlyArray<WatchedType & { kind: 'Secret' | 'ConfigMap' }> = [
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
];
const APPLICATIONS: WatchedType = { group: 'argoproj.io', version: 'v1alpha1', resource: 'applications', kind: 'Application' };

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
