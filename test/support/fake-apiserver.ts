// Test support: a small Kubernetes API server on loopback, speaking just what live reads use:
// GET /api/v1/namespaces/{ns}/secrets/{name} and /configmaps/{name}, Status objects for errors, bearer-token
// (and optionally client-certificate) auth, 403 per namespace, and per-path scripted misbehaviour (delays,
// status sequences, hanging, trickling, closing). Its TLS material is made at test time with openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

/** Appears in every Status `message` the server sends, so tests can check no message reaches an error. */
export const STATUS_MESSAGE_MARKER = 'STATUS-MESSAGE-MARKER-7f3a';

// ---------------------------------------------------------------------------------------------- TLS material

export interface TestPki {
  dir: string;
  caFile: string;
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  /** A CA that did not sign the server certificate. */
  otherCaFile: string;
  /** A client certificate (CN=cert-user) signed by caFile, for client-certificate auth. */
  clientCertFile: string;
  clientKeyFile: string;
}

let pki: TestPki | { skip: string } | undefined;

/**
 * CA, server certificate for 127.0.0.1/localhost, a second unrelated CA and a client certificate, made once
 * per process with openssl (EC P-256, so it takes milliseconds). Without openssl: `{skip}` with the reason,
 * except under CI=true, where it throws.
 */
export function testPki(): TestPki | { skip: string } {
  if (pki) return pki;
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-pki-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const ssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    const reason = 'openssl is not installed: live-read tests need it to make test certificates';
    if (process.env.CI === 'true') throw new Error(reason);
    return (pki = { skip: reason });
  }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ca = (name: string): void =>
    ssl('req', '-x509', ...ec, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=rollstamp test ${name}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const leaf = (name: string, subject: string, ext: string): void => {
    ssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    writeFileSync(join(dir, `${name}.ext`), ext);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', String(Date.now()),
      '-days', '2', '-out', `${name}.crt`, '-extfile', `${name}.ext`);
  };
  ca('ca');
  ca('other-ca');
  leaf('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  leaf('client', '/O=system:masters/CN=cert-user', 'extendedKeyUsage=clientAuth\n');
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  pki = {
    dir,
    caFile: join(dir, 'ca.crt'),
    caPem: read('ca.crt'),
    serverCertPem: read('server.crt'),
    serverKeyPem: read('server.key'),
    otherCaFile: join(dir, 'other-ca.crt'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
  };
  return pki;
}

// -------------------------------------------------------------------------------------------------- server

/** What the server does with one request to a path. */
export type Behaviour =
  | { kind: 'serve'; delayMs?: number } // the stored object, or a NotFound Status
  | { kind: 'status'; code: number; retryAfter?: string; delayMs?: number } // a Status with that code
  | { kind: 'raw'; code: number; body: string; headers?: Record<string, string> } // any answer
  | { kind: 'hang' } // read the request, never answer
  | { kind: 'trickle'; intervalMs: number } // 200 headers, then the body one byte per interval
  | { kind: 'close' }; // destroy the connection without an answer

export interface FakeApiServerOptions {
  /** Bearer tokens that authenticate. */
  tokens?: readonly string[];
  /** Accept client certificates signed by the test CA as authentication. */
  clientCerts?: boolean;
  /** Namespaces where every read is 403. */
  forbiddenNamespaces?: readonly string[];
  /** Delay before every answer (ms). */
  answerDelayMs?: number;
  /** Plain http instead of https. */
  plainHttp?: boolean;
}

export interface FakeApiServer {
  url: string;
  port: number;
  /** Every request's path, in order. */
  paths: string[];
  count(path?: string): number;
  addSecret(namespace: string, name: string, data: Record<string, string | Uint8Array>): void;
  addConfigMap(namespace: string, name: string, data: Record<string, string>, binaryData?: Record<string, Uint8Array>): void;
  /** Behaviours for the next requests to `path`, one each; then `serve` again. */
  script(path: string, ...steps: Behaviour[]): void;
  /** The behaviour of every request to `path` from now on. */
  always(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

export function secretPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${namespace}/secrets/${name}`;
}

export function configMapPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${namespace}/configmaps/${name}`;
}

export async function startFakeApiServer(tls: TestPki, options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  const objects = new Map<string, object>();
  const scripts = new Map<string, Behaviour[]>();
  const fixed = new Map<string, Behaviour>();
  const paths: string[] = [];
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0]!;
    paths.push(path);
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps)\/([^/]+)$/.exec(path);
    if (req.method !== 'GET' || !m) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    const [, namespace, resource, name] = m as unknown as [string, string, string, string];
    const status = (code: number, reason: string, headers: Record<string, string> = {}): void => {
      const body = JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `${resource} "${name}" ${reason.toLowerCase()}: ${STATUS_MESSAGE_MARKER}`,
        reason,
        details: { name, kind: resource },
        code,
      });
      res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(body);
    };

    const auth = req.headers.authorization ?? '';
    const byToken = auth.startsWith('Bearer ') && (options.tokens ?? []).includes(auth.slice(7));
    const byCert = options.clientCerts === true && (req.socket as TLSSocket).authorized === true;
    if (!byToken && !byCert) return status(401, 'Unauthorized');
    if (options.forbiddenNamespaces?.includes(namespace)) return status(403, 'Forbidden');

    const step = scripts.get(path)?.shift() ?? fixed.get(path) ?? { kind: 'serve' };
    const delay = (('delayMs' in step ? step.delayMs : undefined) ?? 0) + (options.answerDelayMs ?? 0);
    const answer = (): void => {
      switch (step.kind) {
        case 'serve': {
          const obj = objects.get(`${resource}/${namespace}/${name}`);
          if (!obj) return status(404, 'NotFound');
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
          return;
        }
        case 'status':
          return status(step.code, step.code === 429 ? 'TooManyRequests' : 'InternalError', step.retryAfter ? { 'retry-after': step.retryAfter } : {});
        case 'raw':
          res.writeHead(step.code, step.headers ?? {}).end(step.body);
          return;
        case 'hang':
          return;
        case 'trickle': {
          const obj = objects.get(`${resource}/${namespace}/${name}`) ?? {};
          const body = Buffer.from(JSON.stringify(obj));
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
          let i = 0;
          const drip = (): void => {
            if (res.destroyed || i >= body.length) return void res.end();
            res.write(body.subarray(i, ++i));
            later(step.intervalMs, drip);
          };
          drip();
          return;
        }
        case 'close':
          req.socket.destroy();
          return;
      }
    };
    if (delay > 0) later(delay, answer);
    else answer();
  };

  const server = options.plainHttp
    ? http.createServer(handler)
    : https.createServer(
        {
          key: tls.serverKeyPem,
          cert: tls.serverCertPem,
          ca: options.clientCerts ? tls.caPem : undefined,
          requestCert: options.clientCerts === true,
          rejectUnauthorized: false, // unauthenticated clients get a 401, as from a real API server
        },
        handler,
      );
  server.keepAliveTimeout = 30_000;
  server.on(options.plainHttp ? 'connection' : 'secureConnection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const b64 = (v: string | Uint8Array): string => Buffer.from(typeof v === 'string' ? Buffer.from(v, 'utf8') : v).toString('base64');
  const meta = (namespace: string, name: string): object => ({ name, namespace, uid: `uid-${namespace}-${name}`, resourceVersion: '1' });
  return {
    url: `${options.plainHttp ? 'http' : 'https'}://127.0.0.1:${port}`,
    port,
    paths,
    count: (path) => (path === undefined ? paths.length : paths.filter((p) => p === path).length),
    addSecret(namespace, name, data) {
      objects.set(`secrets/${namespace}/${name}`, {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: meta(namespace, name),
        type: 'Opaque',
        data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
      });
    },
    addConfigMap(namespace, name, data, binaryData) {
      objects.set(`configmaps/${namespace}/${name}`, {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: meta(namespace, name),
        data,
        ...(binaryData ? { binaryData: Object.fromEntries(Object.entries(binaryData).map(([k, v]) => [k, b64(v)])) } : {}),
      });
    },
    script(path, ...steps) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...steps]);
    },
    always(path, behaviour) {
      fixed.set(path, behaviour);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that accepts connections and never sends a byte (not even a TLS handshake). */
export async function startBlackhole(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------- kubeconfig

export interface KubeconfigSpec {
  server: string;
  caFile?: string;
  insecure?: boolean;
  /** The `user:` map of the one user (token, exec, client-certificate …). */
  user: Record<string, unknown>;
  /** Extra contexts: name → {server, caFile?, user}. The first context is `main` and is current unless `current` says otherwise. */
  more?: Record<string, { server: string; caFile?: string; user: Record<string, unknown> }>;
  /** current-context; null leaves it unset. */
  current?: string | null;
}

/** Writes a kubeconfig (JSON, which is YAML) into `dir` and returns its path. */
export function writeKubeconfig(dir: string, spec: KubeconfigSpec, file = 'kubeconfig'): string {
  const entries = [['main', { server: spec.server, caFile: spec.caFile, insecure: spec.insecure, user: spec.user }] as const, ...Object.entries(spec.more ?? {})];
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: entries.map(([name, e]) => ({
      name,
      cluster: {
        server: e.server,
        ...(e.caFile ? { 'certificate-authority': e.caFile } : {}),
        ...('insecure' in e && e.insecure ? { 'insecure-skip-tls-verify': true } : {}),
      },
    })),
    users: entries.map(([name, e]) => ({ name: `${name}-user`, user: e.user })),
    contexts: entries.map(([name]) => ({ name, context: { cluster: name, user: `${name}-user` } })),
    ...(spec.current === null ? {} : { 'current-context': spec.current ?? 'main' }),
  };
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}
