// `rollstamp refresh`: /healthz, /readyz and /metrics over plain HTTP on the address of --listen, for the kubelet's
// probes and Prometheus. GET only, no request body read, nothing from any object in an answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../../process/errors.ts';

export interface Probes {
  /** Why it is not ready (waiting for the first lists …), or undefined when it is. */
  notReady(): string | undefined;
  metrics(): string;
}

/** `[HOST]:PORT` → host and port (host empty: every address). */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]*):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--listen: "${value}" is not [HOST]:PORT (e.g. :8080 or 127.0.0.1:8080) or off`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Starts the server; resolves with it and the address it listens on (`127.0.0.1:8080`). */
export async function serveProbes(listen: { host: string; port: number }, probes: Probes): Promise<{ server: Server; address: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    if (path === '/readyz') {
      const why = probes.notReady();
      return void res.writeHead(why ? 503 : 200, { 'content-type': 'text/plain' }).end(why ? `not ready: ${why}\n` : 'ok\n');
    }
    if (path === '/metrics') return void res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(probes.metrics());
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new UsageError(`--listen: cannot listen on ${listen.host || '*'}:${listen.port} (${err.code ?? err.message})`)));
    server.listen(listen.port, listen.host === '' ? undefined : listen.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  return { server, address: `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` };
}
