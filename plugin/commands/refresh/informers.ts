// `rollstamp refresh`: standard list/watch with @kubernetes/client-node's informer (ListWatch: the cache, re-list on
// 410 Gone, resume from the last resourceVersion), over the refresher's own transport (api.ts) instead of
// client-node's node-fetch Watch and generated API clients, which the bundle leaves out (plugin/live/
// client-node-stubs.mjs). Lists are paged (limit/continue), watches ask for bookmarks and end server-side after a
// few minutes; a failed list or a dropped watch restarts with backoff. Each object is slimmed as it arrives.
import type { ListWatch as ListWatchType } from '@kubernetes/client-node/dist/cache.js';
import type { Watch } from '@kubernetes/client-node/dist/watch.js';
import { Api, ApiError } from './api.ts';
import type { SlimMeta, WatchedType } from './slim.ts';

/** The paths of a resource: all namespaces, or one. */
export function resourcePath(type: WatchedType, namespace?: string): string {
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  return `${base}${namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`}/${type.resource}`;
}

/** What an informer reports to its owner. */
export interface InformerEvents {
  /** An object was added, changed or deleted (after the first list too). */
  changed(): void;
  /** The first list completed. */
  synced(): void;
  /** A watch (re)started after the first: a dropped watch, a server-side timeout, a 410. */
  restarted(): void;
  /**
   * A list or watch failed; `retryMs` until the next attempt, `attempt` counts failures since the last success
   * (a watch cut once is routine: the owner may say nothing of it).
   */
  failed(err: ApiError, retryMs: number, attempt: number): void;
}

const PAGE = 100;
const NOT_SERVED_RETRY_MS = 5 * 60_000;

/**
 * One resource (in one namespace, or all) listed and watched, its objects slimmed by `slim`.
 * - Restarts after a failure with backoff (1 s doubling to 60 s; 5 min for a resource the server does not serve).
 */
export class Informer<T extends { metadata: SlimMeta }> {
  private readonly lw: ListWatchType<T & object>;
  private connects = 0;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  isSynced = false;

  constructor(
    private readonly api: Api,
    readonly type: WatchedType,
    readonly namespace: string | undefined,
    private readonly slim: (raw: Record<string, unknown>) => T,
    private readonly events: InformerEvents,
    ListWatch: typeof ListWatchType,
    private readonly watchSeconds = 240,
  ) {
    const path = resourcePath(type, namespace);
    // client-node types ListWatch's watcher as its own Watch class; it calls only watch() and the abort() of what it returns.
    this.lw = new ListWatch<T & object>(path, this.watcher() as unknown as Watch, () => this.listAll(path), false);
    for (const verb of ['add', 'update', 'delete'] as const) this.lw.on(verb, () => events.changed());
    this.lw.on('connect', () => {
      if (this.connects++ > 0) events.restarted();
    });
    this.lw.on('error', (err: unknown) => this.failed(err));
  }

  start(): void {
    void this.lw.start();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    void this.lw.stop();
  }

  list(): readonly T[] {
    return this.lw.list() as readonly T[];
  }

  private failed(err: unknown): void {
    if (this.stopped) return;
    const e = err instanceof ApiError ? err : new ApiError(`${this.type.resource}: ${(err as Error)?.message ?? 'failed'}`, 'network');
    if (e.failure === 'aborted') return;
    const retryMs = e.failure === 'not-found' ? NOT_SERVED_RETRY_MS : Math.min(1000 * 2 ** this.failures++, 60_000) * (0.8 + Math.random() * 0.4);
    this.events.failed(e, retryMs, this.failures);
    this.retry = setTimeout(() => {
      if (!this.stopped) void this.lw.start();
    }, retryMs);
  }

  /** Every page of the list, slimmed (listAll); the first completed list marks the informer synced. */
  private async listAll(path: string): Promise<{ metadata: { resourceVersion: string }; items: Array<T & object> }> {
    const list = await listPages(this.api, this.type, this.namespace, path, this.slim);
    this.failures = 0;
    if (!this.isSynced) {
      this.isSynced = true;
      this.events.synced();
    }
    return list as { metadata: { resourceVersion: string }; items: Array<T & object> };
  }

  /** client-node's Watch, as ListWatch calls it: the stream's events slimmed, `done` once with why it ended. */
  private watcher(): Pick<Watch, 'watch'> {
    return {
      watch: async (path, queryParams, callback, done) => {
        const query = new URLSearchParams({ watch: 'true', allowWatchBookmarks: 'true', timeoutSeconds: String(this.watchSeconds + Math.floor(Math.random() * 60)) });
        for (const [k, v] of Object.entries(queryParams)) if (v !== undefined && v !== '') query.set(k, String(v));
        let ended = false;
        const finish = (err?: ApiError): void => {
          if (ended) return;
          ended = true;
          done(err ?? null);
        };
        let abortStream: () => void = () => {};
        const onLine = (line: string): void => {
          this.failures = 0; // the watch is up again
          let event: { type?: unknown; object?: Record<string, unknown> & { code?: unknown } };
          try {
            event = JSON.parse(line);
          } catch {
            return finish(new ApiError(`watch ${this.type.resource}: an event is not JSON`, 'http'));
          }
          if (event.type === 'ERROR') {
            // 410 Gone: ListWatch forgets the resourceVersion on this event and lists again when the stream ends.
            callback('ERROR', event.object ?? {});
            finish(event.object?.code === 410 ? undefined : new ApiError(`watch ${this.type.resource}: error event ${String(event.object?.code ?? '')}`, 'http'));
            return abortStream();
          }
          if (event.type === 'BOOKMARK') return callback('BOOKMARK', event.object ?? {});
          if (typeof event.type === 'string' && event.object) {
            if (typeof event.object.kind === 'string') this.type.kind ??= event.object.kind;
            callback(event.type, this.slim(event.object));
          }
        };
        const idleMs = (this.watchSeconds + 120) * 1000;
        const where = `watch ${this.type.resource} ${this.namespace === undefined ? 'in all namespaces' : `in namespace ${this.namespace}`}`;
        try {
          abortStream = await this.api.stream(where, `${path}?${query}`, idleMs, onLine, finish);
        } catch (err) {
          finish(err instanceof ApiError ? err : new ApiError(`watch ${this.type.resource}: ${(err as Error)?.message ?? 'failed'}`, 'network'));
        }
        // ListWatch aborts the watch it replaces: that is no failure to report.
        const abort = (): void => {
          ended = true;
          abortStream();
        };
        return { abort } as AbortController;
      },
    };
  }
}

/** Every object of a resource (in one namespace, or all), slimmed: what `--once` reads. */
export async function listAll<T>(api: Api, type: WatchedType, namespace: string | undefined, slim: (raw: Record<string, unknown>) => T): Promise<T[]> {
  return (await listPages(api, type, namespace, resourcePath(type, namespace), slim)).items;
}

/** Every page of a list, slimmed; the list's resourceVersion is the first page's (a watch resumes from it). */
async function listPages<T>(api: Api, type: WatchedType, namespace: string | undefined, path: string, slim: (raw: Record<string, unknown>) => T): Promise<{ metadata: { resourceVersion: string }; items: T[] }> {
  const where = namespace === undefined ? 'in all namespaces' : `in namespace ${namespace}`;
  const items: T[] = [];
  let resourceVersion = '';
  let token = '';
  let expired = 0;
  do {
    const query = `?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    let page: { kind?: unknown; metadata?: { resourceVersion?: unknown; continue?: unknown }; items?: unknown };
    try {
      page = (await api.json(`list ${type.resource} ${where}`, `${path}${query}`)) as typeof page;
    } catch (err) {
      // 410 on a continue token: the list's snapshot was compacted away mid-list. Start the list again.
      if (!(err instanceof ApiError && err.failure === 'gone' && token && expired++ < 3)) throw err;
      items.length = 0;
      token = '';
      continue;
    }
    if (!Array.isArray(page.items)) throw new ApiError(`list ${type.resource} ${where}: the answer is not a list`, 'http');
    // List items carry no kind: the list's own (`DeploymentList`) names it.
    if (typeof page.kind === 'string' && page.kind.endsWith('List')) type.kind ??= page.kind.slice(0, -4);
    if (!token) resourceVersion = typeof page.metadata?.resourceVersion === 'string' ? page.metadata.resourceVersion : '';
    for (const raw of page.items as Array<Record<string, unknown>>) items.push(slim(raw));
    token = typeof page.metadata?.continue === 'string' ? page.metadata.continue : '';
  } while (token);
  return { metadata: { resourceVersion }, items };
}
