// Live reads: fetches the Secrets and ConfigMaps the core could not resolve from the input, by name, from the
// API server of the selected kubeconfig context. `get` only, never `list`. All or nothing: any failure after
// bounded retries throws one LiveReadError line naming the object; there is no partial result and no fallback
// (a different hash would roll every workload twice). Load this module lazily: it pulls in client-node.
//
// Flow: kubeconfig (kubeconfig.ts) → credentials, exec plugin included (connection.ts, exec-credential.ts)
// → up to `concurrency` GETs at a time (http-get.ts) with retries → decode (decode-object.ts).
// One deadline covers all of it.
import { setMaxListeners } from 'node:events';
import { InputError } from '../process/errors.ts';
import { connect, type Connection } from './connection.ts';
import { decodeObject, type DecodedObject } from './decode-object.ts';
import { getOnce, TransportFailure, type Answer } from './http-get.ts';
import { loadKubeConfig, SERVICE_ACCOUNT_DIR } from './kubeconfig.ts';
import { LiveReadError, objectLabel, seconds, type LiveFailure } from './live-error.ts';
import { LIVE_DEFAULTS, type LiveNeed, type LiveOptions, type LiveOutcome } from './types.ts';

export type { LiveNeed, LiveOptions, LiveOutcome } from './types.ts';
export { LIVE_DEFAULTS } from './types.ts';
export { LiveReadError, type LiveFailure } from './live-error.ts';

/** Reads every need (deduplicated by id) from the cluster; 404 → null. Throws LiveReadError on any failure. */
export function readLive(needs: readonly LiveNeed[], options: LiveOptions): Promise<LiveOutcome> {
  return readLiveWith(needs, options, {});
}

/** For tests: where the in-cluster service account files are. */
export interface LiveInternals {
  serviceAccountDir?: string;
}

interface Settings {
  requestTimeoutMs: number;
  deadlineMs: number;
  concurrency: number;
  maxRetries: number;
}

export async function readLiveWith(needs: readonly LiveNeed[], options: LiveOptions, internals: LiveInternals): Promise<LiveOutcome> {
  const cfg = settingsOf(options);
  const list = uniqueNeeds(needs);
  const outcome: LiveOutcome = { fetched: new Map(), versions: new Map(), requests: 0 };
  if (list.length === 0) return outcome; // nothing to read: no kubeconfig needed

  const deadlineAt = Date.now() + cfg.deadlineMs;
  const remainingMs = (): number => deadlineAt - Date.now();
  const run = new AbortController();
  setMaxListeners(cfg.concurrency * 2 + 10, run.signal); // one listener per request or backoff in flight
  const inFlight = new Set<LiveNeed>();
  let phase = 'loading the kubeconfig';
  let phaseKind: 'exec' | undefined;
  let deadlineFailure: LiveReadError | undefined;
  let rejectAtDeadline: (err: Error) => void = () => {};
  const atDeadline = new Promise<never>((_, reject) => (rejectAtDeadline = reject));
  atDeadline.catch(() => {});
  const timer = setTimeout(() => {
    deadlineFailure = deadlineError(cfg.deadlineMs, phase, phaseKind, outcome.fetched.size, list.length, inFlight);
    run.abort();
    rejectAtDeadline(deadlineFailure);
  }, cfg.deadlineMs);

  let conn: Connection | undefined;
  try {
    const loaded = loadKubeConfig(options, internals.serviceAccountDir ?? SERVICE_ACCOUNT_DIR);
    conn = await Promise.race([
      connect(loaded, {
        env: options.env,
        concurrency: cfg.concurrency,
        remainingMs,
        deadlineMs: cfg.deadlineMs,
        ...(options.runDeadline !== undefined ? { runDeadline: options.runDeadline } : {}),
        onPhase: (p, kind) => {
          phase = p;
          phaseKind = kind;
        },
      }),
      atDeadline,
    ]);
    phase = 'reading';
    phaseKind = undefined;
    const identity = loaded.source === 'in-cluster service account' ? 'the service account token' : `kubeconfig user ${JSON.stringify(loaded.user.name)}`;
    const reader: ObjectReader = { conn, cfg, signal: run.signal, deadlineAt, identity, count: () => outcome.requests++ };

    let next = 0;
    let failure: unknown;
    const worker = async (): Promise<void> => {
      while (failure === undefined && !run.signal.aborted && next < list.length) {
        const need = list[next++]!;
        inFlight.add(need);
        try {
          const read = await readOne(need, reader);
          outcome.fetched.set(need.id, read && read.entries);
          if (read?.version) outcome.versions.set(need.id, read.version);
        } catch (err) {
          if (failure === undefined) {
            failure = deadlineFailure ?? err;
            run.abort();
          }
        } finally {
          inFlight.delete(need);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(cfg.concurrency, list.length) }, worker));
    if (failure === undefined && deadlineFailure) failure = deadlineFailure;
    if (failure !== undefined) throw failure;
    return outcome;
  } finally {
    clearTimeout(timer);
    conn?.agent.destroy();
  }
}

interface ObjectReader {
  conn: Connection;
  cfg: Settings;
  signal: AbortSignal;
  deadlineAt: number;
  identity: string;
  count: () => void;
}

async function readOne(need: LiveNeed, r: ObjectReader): Promise<DecodedObject | null> {
  const resource = need.cls === 'Secret' ? 'secrets' : 'configmaps';
  const path = `/api/v1/namespaces/${encodeURIComponent(need.namespace)}/${resource}/${encodeURIComponent(need.name)}`;
  const fail = (why: string, kind: LiveFailure): LiveReadError =>
    new LiveReadError(`live read of ${objectLabel(need)}: ${why}`, kind, need.id);

  for (let attempt = 1; ; attempt++) {
    r.count();
    let answer: Answer | undefined;
    let transient: { what: string; kind: LiveFailure; retryAfterMs: number };
    try {
      answer = await getOnce(r.conn, path, r.cfg.requestTimeoutMs, LIVE_DEFAULTS.maxBodyBytes, r.signal);
    } catch (err) {
      if (!(err instanceof TransportFailure)) throw err;
      switch (err.kind) {
        case 'aborted':
          throw err; // the run is over (deadline or another object's failure); the pool reports why
        case 'timeout':
          throw fail(`timed out after ${seconds(r.cfg.requestTimeoutMs)} (no complete answer from ${r.conn.label})`, 'timeout');
        case 'too-large':
          throw fail(`the answer is larger than ${LIVE_DEFAULTS.maxBodyBytes / 1024 / 1024} MiB`, 'response');
        case 'tls':
          throw fail(`TLS verification of ${r.conn.label} failed (${err.code}); check certificate-authority in the kubeconfig`, 'tls');
        case 'network':
          throw fail(`cannot reach ${r.conn.label} (${err.code || 'network error'})`, 'network');
        case 'reset':
          transient = { what: 'connection reset', kind: 'network', retryAfterMs: 0 };
      }
    }
    if (answer !== undefined) {
      const status = answer.status;
      if (status === 200) return decodeObject(need, answer.body);
      if (status === 404) {
        if (isNotFoundStatus(answer.body)) return null;
        throw fail(`HTTP 404 from ${r.conn.label} without a Kubernetes NotFound status (is the server URL right?)`, 'http');
      }
      if (status === 401) {
        throw fail(`the API server ${r.conn.label} refused the credentials of ${r.identity} (HTTP 401 Unauthorized)`, 'unauthorized');
      }
      if (status === 403) {
        throw new LiveReadError(
          `live read: forbidden: needs "get" on ${resource} in namespace ${need.namespace} (${objectLabel(need)}; credentials of ${r.identity})`,
          'forbidden',
          need.id,
        );
      }
      // A redirect is never followed (node's http does not, and the bearer token must not go to another host):
      // the API server does not redirect these GETs, so one that does is not the cluster asked for (#21).
      if (status >= 300 && status < 400) throw fail(`HTTP ${status} from ${r.conn.label}: a redirect, not followed (live reads go only to the kubeconfig's server)`, 'http');
      if (status !== 429 && status < 500) throw fail(`HTTP ${status} from ${r.conn.label}`, 'http');
      transient = { what: `HTTP ${status}`, kind: 'http', retryAfterMs: retryAfterMs(answer.headers['retry-after']) };
    }
    const t = transient!;
    const attempts = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
    if (attempt > r.cfg.maxRetries) throw fail(`${t.what} after ${attempts}`, t.kind);
    const delay = Math.max(LIVE_DEFAULTS.baseBackoffMs * 2 ** (attempt - 1), Math.min(t.retryAfterMs, LIVE_DEFAULTS.maxRetryAfterMs));
    if (Date.now() + delay >= r.deadlineAt) {
      throw fail(`${t.what} after ${attempts}; a retry in ${seconds(delay)} would pass the deadline`, t.kind);
    }
    await sleep(delay, r.signal);
  }
}

/** A 404 counts as "missing" only when the API server says NotFound; any other 404 is a misconfiguration. */
function isNotFoundStatus(body: Buffer): boolean {
  try {
    const status = JSON.parse(body.toString('utf8')) as { kind?: unknown; reason?: unknown };
    return status?.kind === 'Status' && status.reason === 'NotFound';
  } catch {
    return false;
  }
}

/** Retry-After in ms: delta-seconds or an HTTP date; 0 when absent or unreadable. */
function retryAfterMs(header: string | undefined): number {
  if (header === undefined) return 0;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TransportFailure('aborted'));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new TransportFailure('aborted'));
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function deadlineError(
  deadlineMs: number,
  phase: string,
  phaseKind: 'exec' | undefined,
  read: number,
  total: number,
  inFlight: ReadonlySet<LiveNeed>,
): LiveReadError {
  if (phaseKind === 'exec') return new LiveReadError(`live read: ${phase} did not return within the ${seconds(deadlineMs)} deadline`, 'exec');
  const limit = `deadline of ${seconds(deadlineMs)} passed`;
  if (phase !== 'reading') return new LiveReadError(`live read: ${limit} while ${phase}; nothing was read`, 'deadline');
  const first = inFlight.values().next().value;
  const waiting = first ? ` (waiting for ${objectLabel(first)}${inFlight.size > 1 ? ` and ${inFlight.size - 1} more` : ''})` : '';
  return new LiveReadError(`live read: ${limit} with ${read} of ${total} objects read${waiting}`, 'deadline', first?.id);
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Deduplicated by id; a need that cannot name an object (bad class, namespace or name) is refused before any request. */
function uniqueNeeds(needs: readonly LiveNeed[]): LiveNeed[] {
  const byId = new Map<string, LiveNeed>();
  for (const need of needs) {
    const ok =
      (need.cls === 'Secret' || need.cls === 'ConfigMap') &&
      need.namespace.length <= 63 &&
      LABEL.test(need.namespace) &&
      need.name.length <= 253 &&
      SUBDOMAIN.test(need.name) &&
      need.id === `${need.cls}/${need.namespace}/${need.name}`;
    if (!ok) {
      throw new LiveReadError(
        `live read: ${JSON.stringify(need.id).slice(0, 300)} does not name a Secret or ConfigMap (invalid class, namespace or name); nothing was read`,
        'reference',
      );
    }
    byId.set(need.id, need);
  }
  return [...byId.values()];
}

function settingsOf(options: LiveOptions): Settings {
  const pick = (name: keyof Settings, min: number): number => {
    const v = options[name] ?? LIVE_DEFAULTS[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new InputError(`live read: ${name} must be an integer ≥ ${min}`);
    return v;
  };
  return {
    requestTimeoutMs: pick('requestTimeoutMs', 1),
    deadlineMs: pick('deadlineMs', 1),
    concurrency: pick('concurrency', 1),
    maxRetries: pick('maxRetries', 0),
  };
}
