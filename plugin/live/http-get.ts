// Live reads: one request (a GET, or for `rollstamp refresh` a PATCH or PUT with a body), bounded. The timer covers connect, TLS, headers and the whole body; the body is capped;
// the run's abort signal cancels it. Transport failures come back as a TransportFailure with a kind the
// reader maps to retry-or-fail; nothing here looks at the body.
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import type { Connection } from './connection.ts';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type TransportKind = 'timeout' | 'too-large' | 'aborted' | 'reset' | 'tls' | 'network';

export class TransportFailure extends Error {
  constructor(
    readonly kind: TransportKind,
    /** Node's error code (`ECONNREFUSED`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE` …), when there is one. */
    readonly code: string = '',
  ) {
    super(code ? `${kind} (${code})` : kind);
  }
}

/** A request body and how to send it (`rollstamp refresh`'s PATCH of an Application, its Lease). */
export interface Send {
  method: 'PATCH' | 'PUT' | 'POST';
  body: string;
  contentType: string;
}

export function getOnce(conn: Connection, path: string, timeoutMs: number, maxBodyBytes: number, signal: AbortSignal, send?: Send): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new TransportFailure('aborted'));
      return;
    }
    let done = false;
    let reason: TransportFailure | undefined;
    const url = new URL(conn.server.href.replace(/\/$/, '') + path);
    let req: ClientRequest;
    try {
      req = conn.request(url, {
        method: send?.method ?? 'GET',
        agent: conn.agent,
        headers: send ? { ...conn.headers, 'Content-Type': send.contentType, 'Content-Length': String(Buffer.byteLength(send.body)) } : conn.headers,
        auth: conn.auth,
        rejectUnauthorized: conn.rejectUnauthorized,
      });
    } catch (err) {
      reject(classify(err as Error));
      return;
    }
    const stop = (why: TransportFailure): void => {
      reason ??= why;
      req.destroy(why);
    };
    const finish = (err: Error | undefined, answer?: Answer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (err) reject(reason ?? classify(err));
      else resolve(answer!);
    };
    const timer = setTimeout(() => stop(new TransportFailure('timeout')), timeoutMs);
    const onAbort = (): void => stop(new TransportFailure('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });

    req.on('response', (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        stop(new TransportFailure('too-large'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBodyBytes) stop(new TransportFailure('too-large'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (reason) finish(reason);
        else finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', (err) => finish(err));
      res.on('close', () => {
        if (!res.complete) finish(reason ?? new TransportFailure('reset', 'ECONNRESET'));
      });
    });
    req.on('error', (err) => finish(err));
    req.end(send?.body);
  });
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_|ALTNAME|HOSTNAME|ISSUER|SIGNATURE|CRL/;

function classify(err: Error): TransportFailure {
  if (err instanceof TransportFailure) return err;
  const code = typeof (err as NodeJS.ErrnoException).code === 'string' ? (err as NodeJS.ErrnoException).code! : '';
  if (code === 'ECONNRESET' || code === 'EPIPE') return new TransportFailure('reset', code);
  if (TLS_CODE.test(code)) return new TransportFailure('tls', code);
  return new TransportFailure('network', code);
}
