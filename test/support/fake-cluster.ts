// Test support: a small Kubernetes API server on loopback that speaks what `rollstamp refresh` and live reads use —
// GET of one object; LIST with resourceVersion, limit and continue tokens; WATCH as a chunked stream of JSON lines
// from a resourceVersion, with bookmarks, `timeoutSeconds`, and 410 Gone (an ERROR event, or a 410 answer) once
// history is compacted; PATCH by merge patch and JSON patch (415 for strategic merge on custom resources and for
// anything else); Lease create and update with 409 on a stale resourceVersion. One resourceVersion counter for all,
// as etcd has. Faults: dropped watches, scripted 429/500 answers, a slow server, events split across chunks, and
// kinds that are not served. Objects in a list carry no kind, as the API server sends them.
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { TestPki } from './fake-apiserver.ts';

type Obj = Record<string, any>;

/** A resource the server serves: `apps/v1` `deployments` of kind Deployment. */
export interface ResourceType {
  group: string;
  version: string;
  resource: string;
  kind: string;
}

export const RESOURCES: readonly ResourceType[] = [
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet' },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet' },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob' },
  { group: 'argoproj.io', version: 'v1alpha1', resource: 'rollouts', kind: 'Rollout' },
  { group: 'argoproj.io', version: 'v1alpha1', resource: 'applications', kind: 'Application' },
  { group: 'kagent.dev', version: 'v1alpha2', resource: 'agents', kind: 'Agent' },
  { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease' },
];

export interface FakeClusterOptions {
  /** Serve https with this PKI; default plain http (a kubeconfig then needs insecure-skip-tls-verify). */
  tls?: TestPki;
  /** Bearer tokens that authenticate; default: every request is accepted. */
  tokens?: readonly string[];
  /** Resources (by `resource`) answered with 404, as a cluster without the CRD does. */
  notServed?: readonly string[];
  /** Events kept for watches from an older resourceVersion; older ones get 410 Gone. Default 10,000. */
  historyLimit?: number;
  /** Interval of BOOKMARK events on watches that allow them. Default 1000 ms. */
  bookmarkMs?: number;
}

interface Event {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: ResourceType;
  obj: Obj;
}

interface Watcher {
  resource: ResourceType;
  namespace?: string;
  send: (e: Event) => void;
  res: http.ServerResponse;
}

/** A scripted answer for the next request that matches. */
export interface Fault {
  method?: string;
  /** The request path starts with this. */
  path?: string;
  status: number;
  retryAfter?: string;
}

export interface FakeCluster {
  url: string;
  /** Every request as `METHOD path?query`, in order. */
  requests: string[];
  /** Every PATCH: path, Content-Type, body, and when it arrived (performance.now()). */
  patches: Array<{ path: string; contentType: string; body: string; at: number }>;
  /** Creates or replaces an object (a new resourceVersion; ADDED or MODIFIED for watchers); returns what is stored. */
  apply(obj: Obj): Obj;
  /** Deletes an object (DELETED for watchers); false when there was none. */
  remove(apiVersion: string, kind: string, namespace: string, name: string): boolean;
  get(apiVersion: string, kind: string, namespace: string, name: string): Obj | undefined;
  /** The current resourceVersion. */
  resourceVersion(): number;
  /** Ends every open watch abruptly (the client sees its stream cut). */
  dropWatches(): void;
  /** Forgets every event so far: a watch from an older resourceVersion gets 410 Gone. */
  compact(): void;
  /** Answers the next matching requests with these statuses, one each. */
  fail(...faults: Fault[]): void;
  /** Delay before every answer from now on (ms). */
  slow(ms: number): void;
  /** Writes each watch event in several chunks from now on (a line split across TCP segments). */
  splitEvents(on: boolean): void;
  openWatches(): number;
  close(): Promise<void>;
}

export async function startFakeCluster(options: FakeClusterOptions = {}): Promise<FakeCluster> {
  const store = new Map<string, Obj>();
  let history: Event[] = [];
  let compactedTo = 0;
  let rv = 100;
  let uidCounter = 0;
  let delayMs = 0;
  let split = false;
  const faults: Fault[] = [];
  const watchers = new Set<Watcher>();
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const patches: FakeCluster['patches'] = [];
  const limit = options.historyLimit ?? 10_000;

  const typeOf = (apiVersion: string, kind: string): ResourceType => {
    const t = RESOURCES.find((r) => (r.group === '' ? r.version : `${r.group}/${r.version}`) === apiVersion && r.kind === kind);
    if (!t) throw new Error(`fake cluster: no resource for ${apiVersion} ${kind}`);
    return t;
  };
  const keyOf = (t: ResourceType, ns: string, name: string): string => `${t.group}/${t.resource}/${ns}/${name}`;
  const emit = (type: Event['type'], resource: ResourceType, obj: Obj): void => {
    const e: Event = { rv, type, resource, obj: structuredClone(obj) };
    history.push(e);
    if (history.length > limit) compactedTo = history.splice(0, history.length - limit).at(-1)!.rv;
    for (const w of watchers) if (w.resource === resource && (w.namespace === undefined || w.namespace === obj.metadata.namespace)) w.send(e);
  };
  const store1 = (t: ResourceType, obj: Obj, type?: Event['type']): Obj => {
    const ns = obj.metadata.namespace ?? '';
    const key = keyOf(t, ns, obj.metadata.name);
    const old = store.get(key);
    rv++;
    const stored: Obj = structuredClone(obj);
    stored.apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
    stored.kind = t.kind;
    stored.metadata = { ...stored.metadata, uid: stored.metadata.uid ?? old?.metadata.uid ?? `uid-${++uidCounter}`, resourceVersion: String(rv) };
    store.set(key, stored);
    emit(type ?? (old ? 'MODIFIED' : 'ADDED'), t, stored);
    return stored;
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const status = (code: number, reason: string, headers: Record<string, string> = {}): void => {
      res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message: reason }));
    };
    const auth = req.headers.authorization ?? '';
    if (options.tokens && !(auth.startsWith('Bearer ') && options.tokens.includes(auth.slice(7)))) return status(401, 'Unauthorized');
    const fault = faults.findIndex((f) => (f.method === undefined || f.method === req.method) && (f.path === undefined || url.pathname.startsWith(f.path)));
    if (fault >= 0) {
      const f = faults.splice(fault, 1)[0]!;
      return status(f.status, f.status === 429 ? 'TooManyRequests' : 'InternalError', f.retryAfter ? { 'retry-after': f.retryAfter } : {});
    }
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?\/([^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
    const t = m && RESOURCES.find((r) => r.resource === m[5] && r.group === (m[2] ?? '') && r.version === (m[1] ?? m[3]));
    if (!m || !t || options.notServed?.includes(t.resource)) return status(404, 'NotFound');
    const [namespace, name] = [m[4], m[6]];
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const answer = (): void => route(req.method ?? 'GET', t, namespace, name, url.searchParams, req.headers['content-type'] ?? '', body, res, status);
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  };

  type StatusFn = (code: number, reason: string) => void;
  const route = (method: string, t: ResourceType, namespace: string | undefined, name: string | undefined, q: URLSearchParams, contentType: string, body: string, res: http.ServerResponse, status: StatusFn): void => {
    const json = (code: number, obj: unknown): void => void res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
    const key = name !== undefined ? keyOf(t, namespace ?? '', name) : '';
    if (method === 'GET' && name !== undefined) return store.has(key) ? json(200, store.get(key)) : status(404, 'NotFound');
    if (method === 'GET' && q.get('watch') === 'true') return watch(t, namespace, q, res);
    if (method === 'GET') return list(t, namespace, q, json, status);
    if (method === 'POST' && name === undefined) {
      const obj = JSON.parse(body) as Obj;
      if (store.has(keyOf(t, namespace ?? '', obj.metadata?.name))) return status(409, 'AlreadyExists');
      return json(201, store1(t, { ...obj, metadata: { ...obj.metadata, namespace } }));
    }
    const current = store.get(key);
    if (!current) return status(404, 'NotFound');
    if (method === 'PUT') {
      const obj = JSON.parse(body) as Obj;
      if (obj.metadata?.resourceVersion !== current.metadata.resourceVersion) return status(409, 'Conflict');
      return json(200, store1(t, { ...obj, metadata: { ...obj.metadata, uid: current.metadata.uid } }));
    }
    if (method === 'PATCH') {
      patches.push({ path: `${namespace}/${name}`, contentType, body, at: performance.now() });
      const patched = applyPatch(t, current, contentType.split(';')[0]!.trim(), body);
      if (typeof patched === 'number') return status(patched, patched === 415 ? 'UnsupportedMediaType' : 'UnprocessableEntity');
      return json(200, store1(t, patched));
    }
    if (method === 'DELETE') {
      store.delete(key);
      rv++;
      emit('DELETED', t, { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } });
      return json(200, current);
    }
    status(405, 'MethodNotAllowed');
  };

  const list = (t: ResourceType, namespace: string | undefined, q: URLSearchParams, json: (c: number, o: unknown) => void, status: StatusFn): void => {
    const pageSize = Number(q.get('limit') ?? '0');
    let after = '';
    let listRv = rv;
    const token = q.get('continue');
    if (token) {
      const [tokenRv, last] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [number, string];
      if (tokenRv < compactedTo) return status(410, 'Expired');
      [listRv, after] = [tokenRv, last];
    }
    const prefix = `${t.group}/${t.resource}/${namespace === undefined ? '' : `${namespace}/`}`;
    const keys = [...store.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = pageSize > 0 ? keys.slice(0, pageSize) : keys;
    const items = page.map((k) => {
      const { apiVersion: _a, kind: _k, ...item } = store.get(k)!;
      return item;
    });
    const more = page.length < keys.length;
    const metadata: Obj = { resourceVersion: String(listRv) };
    if (more) metadata.continue = Buffer.from(JSON.stringify([listRv, page.at(-1)])).toString('base64url');
    json(200, { kind: `${t.kind}List`, apiVersion: t.group === '' ? t.version : `${t.group}/${t.version}`, metadata, items });
  };

  const watch = (t: ResourceType, namespace: string | undefined, q: URLSearchParams, res: http.ServerResponse): void => {
    const from = Number(q.get('resourceVersion') || '0');
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const write = (line: unknown): void => {
      const text = `${JSON.stringify(line)}\n`;
      if (!split) return void res.write(text);
      const cut = Math.max(1, Math.floor(text.length / 3));
      res.write(text.slice(0, cut));
      res.write(text.slice(cut, cut * 2));
      res.write(text.slice(cut * 2));
    };
    if (from !== 0 && from < compactedTo) {
      write({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } });
      return void res.end();
    }
    const matches = (e: Event): boolean => e.resource === t && (namespace === undefined || e.obj.metadata.namespace === namespace);
    let last = from;
    const w: Watcher = {
      resource: t,
      ...(namespace !== undefined ? { namespace } : {}),
      res,
      send: (e) => {
        last = e.rv;
        write({ type: e.type, object: e.obj });
      },
    };
    if (from === 0) {
      for (const obj of store.values()) if (obj.kind === t.kind && (namespace === undefined || obj.metadata.namespace === namespace)) write({ type: 'ADDED', object: obj });
    } else {
      for (const e of history) if (e.rv > from && matches(e)) w.send(e);
    }
    watchers.add(w);
    const timers: NodeJS.Timeout[] = [];
    if (q.get('allowWatchBookmarks') === 'true') {
      const apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
      timers.push(setInterval(() => write({ type: 'BOOKMARK', object: { kind: t.kind, apiVersion, metadata: { resourceVersion: String(Math.max(last, rv)) } } }), options.bookmarkMs ?? 1000));
    }
    const seconds = Number(q.get('timeoutSeconds') ?? '0');
    if (seconds > 0) timers.push(setTimeout(() => res.end(), seconds * 1000));
    res.on('close', () => {
      watchers.delete(w);
      for (const timer of timers) clearTimeout(timer);
    });
  };

  const server = options.tls
    ? https.createServer({ key: options.tls.serverKeyPem, cert: options.tls.serverCertPem }, handler)
    : http.createServer(handler);
  server.on(options.tls ? 'secureConnection' : 'connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const find = (apiVersion: string, kind: string, namespace: string, name: string): [ResourceType, string] => {
    const t = typeOf(apiVersion, kind);
    return [t, keyOf(t, namespace, name)];
  };
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    patches,
    apply: (obj) => store1(typeOf(obj.apiVersion, obj.kind), obj),
    remove(apiVersion, kind, namespace, name) {
      const [t, key] = find(apiVersion, kind, namespace, name);
      const current = store.get(key);
      if (!current) return false;
      store.delete(key);
      rv++;
      emit('DELETED', t, { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } });
      return true;
    },
    get: (apiVersion, kind, namespace, name) => structuredClone(store.get(find(apiVersion, kind, namespace, name)[1])),
    resourceVersion: () => rv,
    dropWatches() {
      for (const w of watchers) w.res.socket?.destroy();
    },
    compact() {
      compactedTo = rv;
      history = [];
    },
    fail: (...f) => void faults.push(...f),
    slow: (ms) => void (delayMs = ms),
    splitEvents: (on) => void (split = on),
    openWatches: () => watchers.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of watchers) w.res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A merge patch (RFC 7386), a JSON patch (RFC 6902), or a status: 415 for other types and for strategic merge on custom resources. */
function applyPatch(t: ResourceType, current: Obj, type: string, body: string): Obj | number {
  const builtIn = t.group === '' || t.group === 'apps' || t.group === 'batch' || t.group === 'coordination.k8s.io';
  let patch: unknown;
  try {
    patch = JSON.parse(body);
  } catch {
    return 422;
  }
  if (type === 'application/merge-patch+json' || (type === 'application/strategic-merge-patch+json' && builtIn)) return mergePatch(current, patch) as Obj;
  if (type !== 'application/json-patch+json' || !Array.isArray(patch)) return 415;
  const out = structuredClone(current);
  for (const op of patch as Array<{ op: string; path: string; value?: unknown }>) {
    const parts = op.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let at: Obj = out;
    for (const p of parts) {
      if (typeof at[p] !== 'object' || at[p] === null) {
        if (op.op !== 'add') return 422;
        at[p] = {};
      }
      at = at[p];
    }
    if (op.op === 'test' && JSON.stringify(at[last]) !== JSON.stringify(op.value)) return 422;
    if (op.op === 'add' || op.op === 'replace') at[last] = op.value;
    if (op.op === 'remove') delete at[last];
  }
  return out;
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Obj = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Obj) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
