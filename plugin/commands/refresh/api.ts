// `rollstamp refresh`: its connection to the API server. The kubeconfig, credentials and transport rules of live
// reads (plugin/live: TLS always verified, no proxy, exec plugins bounded), one keep-alive agent, every request with
// a timeout, 429, 5xx and resets retried with backoff (Retry-After honoured, capped), credentials applied again
// every few minutes and after a 401 (a projected token expires), and a streamed GET for watches. Errors name the
// verb, the resource and, for 403, the RBAC rule that is missing — never a response body.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { connect, type Connection } from '../../live/connection.ts';
import { getOnce, TransportFailure, type Answer, type Send } from '../../live/http-get.ts';
import { loadKubeConfig, type LoadedKubeConfig } from '../../live/kubeconfig.ts';

/** Why a request failed, for the caller's decision and the metrics (`api_errors_total{kind}`). */
export type ApiFailure = 'forbidden' | 'not-found' | 'conflict' | 'gone' | 'unsupported' | 'http' | 'network' | 'timeout' | 'aborted';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly failure: ApiFailure,
    readonly status = 0,
  ) {
    super(message);
  }
  /** What client-node's informer reads to re-list after 410 Gone. */
  get statusCode(): number {
    return this.status;
  }
}

export interface ApiOptions {
  kubeconfig?: string;
  context?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Stops every request and backoff. */
  signal: AbortSignal;
  /** Per request (not a watch). Default 10 s. */
  requestTimeoutMs?: number;
  /** Retries of 429, 5xx, resets and timeouts. Default 5. */
  maxRetries?: number;
  /** First backoff; each retry doubles it, up to 8 s. Default 250 ms. */
  backoffMs?: number;
}

/** Largest answer accepted: a page of a list (limit 100 objects of at most ~1.5 MiB each). */
const MAX_BODY_BYTES = 192 * 1024 * 1024;
const RENEW_EVERY_MS = 5 * 60_000;
const MAX_SOCKETS = 4096;
const MAX_RETRY_AFTER_MS = 30_000;

export class Api {
  private conn: Connection;
  private renewedAt = Date.now();

  private constructor(
    private readonly loaded: LoadedKubeConfig,
    conn: Connection,
    private readonly options: ApiOptions,
  ) {
    this.conn = conn;
  }

  /** Loads the kubeconfig and connects; a bad kubeconfig or credential fails here, with live reads' one line. */
  static async open(options: ApiOptions): Promise<Api> {
    const loaded = loadKubeConfig(options);
    return new Api(loaded, await Api.connectTo(loaded, options), options);
  }

  private static connectTo(loaded: LoadedKubeConfig, options: ApiOptions, agent?: Connection['agent']): Promise<Connection> {
    // Each watch holds a socket for minutes (HTTP/1.1): nine resources per namespace of --namespaces must never
    // wait for one another, so the agent's socket cap is far above what a refresher opens.
    return connect(loaded, { env: options.env, concurrency: MAX_SOCKETS, remainingMs: () => 30_000, deadlineMs: 30_000, onPhase: () => {}, ...(agent ? { agent } : {}) });
  }

  /** `https://host:port`, for messages. */
  get server(): string {
    return this.conn.label;
  }

  /** One JSON request, retried while the failure is transient. Throws ApiError. */
  async json(what: string, path: string, send?: Send): Promise<unknown> {
    const maxRetries = this.options.maxRetries ?? 5;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      await this.renewIfDue();
      let answer: Answer | undefined;
      let retryAfter = 0;
      let transient: string;
      try {
        answer = await getOnce(this.conn, path, this.options.requestTimeoutMs ?? 10_000, MAX_BODY_BYTES, this.options.signal, send);
      } catch (err) {
        if (!(err instanceof TransportFailure)) throw err;
        if (err.kind === 'aborted') throw new ApiError(`${what}: stopped`, 'aborted');
        if (err.kind === 'tls') throw new ApiError(`${what}: TLS verification of ${this.conn.label} failed (${err.code})`, 'network');
        if (err.kind === 'too-large') throw new ApiError(`${what}: the answer is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, 'http');
        transient = err.kind === 'timeout' ? 'timed out' : `cannot reach ${this.conn.label} (${err.code || err.kind})`;
      }
      if (answer) {
        const { status } = answer;
        if (status >= 200 && status < 300) return parseJson(answer.body, what);
        if (status === 401 && !renewed) {
          renewed = true;
          await this.renew();
          continue;
        }
        if (status !== 429 && status < 500) throw statusError(what, status);
        transient = `HTTP ${status}`;
        retryAfter = retryAfterMs(answer.headers['retry-after']);
      }
      if (attempt >= maxRetries) throw new ApiError(`${what}: ${transient!} after ${attempt + 1} attempts`, answer ? 'http' : transient!.startsWith('timed') ? 'timeout' : 'network', answer?.status ?? 0);
      await sleep(Math.max(Math.min((this.options.backoffMs ?? 250) * 2 ** attempt, 8000), Math.min(retryAfter, MAX_RETRY_AFTER_MS)), this.options.signal);
    }
  }

  /**
   * A streamed GET (a watch): `onLine` for each line of the body, then `onEnd` once — with undefined when the
   * server ended it, else the error. `idleMs` without a byte ends it as a timeout. Returns the request's abort.
   */
  async stream(what: string, path: string, idleMs: number, onLine: (line: string) => void, onEnd: (err?: ApiError) => void): Promise<() => void> {
    await this.renewIfDue();
    const conn = this.conn;
    let ended = false;
    let req: ClientRequest | undefined;
    const end = (err?: ApiError): void => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      this.options.signal.removeEventListener('abort', abort);
      req?.destroy();
      onEnd(err);
    };
    const abort = (): void => end(new ApiError(`${what}: stopped`, 'aborted'));
    let idle = setTimeout(() => end(new ApiError(`${what}: nothing received for ${idleMs / 1000} s`, 'timeout')), idleMs);
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => end(new ApiError(`${what}: nothing received for ${idleMs / 1000} s`, 'timeout')), idleMs);
    };
    this.options.signal.addEventListener('abort', abort, { once: true });
    req = conn.request(new URL(conn.server.href.replace(/\/$/, '') + path), { method: 'GET', agent: conn.agent, headers: conn.headers, auth: conn.auth, rejectUnauthorized: conn.rejectUnauthorized });
    req.on('error', (err: NodeJS.ErrnoException) => end(new ApiError(`${what}: ${err.code ?? 'connection error'}`, 'network')));
    req.on('response', (res: IncomingMessage) => {
      touch();
      if (res.statusCode !== 200) {
        res.resume();
        if (res.statusCode === 401) void this.renew().catch(() => {});
        return end(statusError(what, res.statusCode ?? 0));
      }
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        touch();
        pending += chunk;
        if (pending.length > 16 * 1024 * 1024) return end(new ApiError(`${what}: an event longer than 16 MiB`, 'http'));
        let nl: number;
        while (!ended && (nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() !== '') onLine(line);
        }
      });
      res.on('end', () => end());
      res.on('close', () => end(res.complete ? undefined : new ApiError(`${what}: the stream was cut`, 'network')));
    });
    req.end();
    return () => end(new ApiError(`${what}: stopped`, 'aborted'));
  }

  /** Releases the sockets. */
  close(): void {
    this.conn.agent.destroy();
  }

  private async renewIfDue(): Promise<void> {
    if (Date.now() - this.renewedAt > RENEW_EVERY_MS) await this.renew();
  }

  /** Applies the credentials again (a token file re-read, an exec plugin run again), keeping the agent. */
  private async renew(): Promise<void> {
    this.renewedAt = Date.now();
    this.conn = await Api.connectTo(this.loaded, this.options, this.conn.agent);
  }
}

function parseJson(body: Buffer, what: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(`${what}: the answer is not JSON`, 'http');
  }
}

/** A non-transient status as one line; 403 names the verb and resource from `what` (`list secrets in shop`). */
function statusError(what: string, status: number): ApiError {
  if (status === 403) return new ApiError(`${what}: forbidden (HTTP 403): the refresher's ServiceAccount needs this RBAC rule (see argocd/README.md#rollstamp-refresh)`, 'forbidden', 403);
  if (status === 404) return new ApiError(`${what}: not found (HTTP 404)`, 'not-found', 404);
  if (status === 409) return new ApiError(`${what}: conflict (HTTP 409)`, 'conflict', 409);
  if (status === 410) return new ApiError(`${what}: gone (HTTP 410)`, 'gone', 410);
  if (status === 415) return new ApiError(`${what}: unsupported media type (HTTP 415)`, 'unsupported', 415);
  if (status === 401) return new ApiError(`${what}: the API server refused the credentials (HTTP 401)`, 'forbidden', 401);
  return new ApiError(`${what}: HTTP ${status}`, 'http', status);
}

function retryAfterMs(header: string | undefined): number {
  if (header === undefined) return 0;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

/** Waits, or rejects with an `aborted` ApiError when `signal` fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ApiError('stopped', 'aborted'));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new ApiError('stopped', 'aborted'));
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
