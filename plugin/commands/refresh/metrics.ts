// `rollstamp refresh`: its metrics, rendered in the Prometheus text format (version 0.0.4) for /metrics. Counters by
// label and a few gauges; every label value is a fixed word or a resource name, never anything from an object.

type Counter = Map<string, number>;

/** The refresher's counters and gauges. */
export class Metrics {
  /** Refreshes requested, by reason (changed, created, deleted, unverified). */
  readonly requests: Counter = new Map();
  /** Watches restarted (dropped, timed out by the server, 410 Gone), by resource. */
  readonly watchRestarts: Counter = new Map();
  /** API requests that failed after retries, by kind of failure. */
  readonly apiErrors: Counter = new Map();
  /** Records or entries not acted on, by result code. */
  readonly refused: Counter = new Map();
  /** Requests held back by a rate limit, by limit (application, global). */
  readonly deferred: Counter = new Map();
  /** Requests dropped because the Application was deleted before it was refreshed. */
  droppedGone = 0;
  /** When the last pass over a fully synced cache ended (seconds since the epoch); 0 before the first. */
  lastSyncSeconds = 0;
  leader = 0;

  constructor(private readonly watched: () => ReadonlyMap<string, number>) {}

  count(counter: Counter, label: string, by = 1): void {
    counter.set(label, (counter.get(label) ?? 0) + by);
  }

  /** The text /metrics serves. */
  render(): string {
    const out: string[] = [];
    const family = (name: string, type: 'counter' | 'gauge', help: string, label: string, values: ReadonlyMap<string, number> | number): void => {
      out.push(`# HELP rollstamp_refresh_${name} ${help}`, `# TYPE rollstamp_refresh_${name} ${type}`);
      if (typeof values === 'number') out.push(`rollstamp_refresh_${name} ${values}`);
      else for (const [k, v] of [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push(`rollstamp_refresh_${name}{${label}="${k}"} ${v}`);
    };
    family('requests_total', 'counter', 'Hard refreshes requested, by reason.', 'reason', this.requests);
    family('watch_restarts_total', 'counter', 'Watches started again after the first, by resource.', 'resource', this.watchRestarts);
    family('api_errors_total', 'counter', 'API requests that failed after retries, by failure.', 'failure', this.apiErrors);
    family('records_refused_total', 'counter', 'Records or record entries not acted on, by code.', 'code', this.refused);
    family('deferred_total', 'counter', 'Requests held back by a rate limit, by limit.', 'limit', this.deferred);
    family('dropped_total', 'counter', 'Requests dropped because their Application was deleted first.', '', this.droppedGone);
    family('objects_watched', 'gauge', 'Objects in the caches, by resource.', 'resource', this.watched());
    family('last_sync_timestamp_seconds', 'gauge', 'When the last pass over synced caches ended.', '', this.lastSyncSeconds);
    family('leader', 'gauge', '1 while this replica acts (it holds the Lease, or runs without --leader-elect).', '', this.leader);
    return `${out.join('\n')}\n`;
  }
}
