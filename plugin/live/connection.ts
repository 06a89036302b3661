// Live reads, step 3: from the selected kubeconfig context to one connection used for every request of the
// run. client-node applies the authentication and TLS material (token, token file, basic auth, client
// certificate, CA, tls-server-name, impersonation) through `applyToHTTPSOptions`, once per run; we keep our
// own keep-alive agent so timeouts, aborts and verification are ours.
//
// Transport rules:
// - https: the server certificate is always verified (`rejectUnauthorized: true`, set explicitly, so
//   NODE_TLS_REJECT_UNAUTHORIZED=0 changes nothing) unless the cluster says `insecure-skip-tls-verify: true`.
// - http: refused, unless the cluster says `insecure-skip-tls-verify: true` (the operator's explicit opt-out
//   of transport security, e.g. `kubectl proxy` on loopback); client-node's own agent has the same rule.
// - proxy-url is refused, and so are auth-providers (gcp, azure, oidc …: gcp/azure run blocking shell commands,
//   oidc refreshes over the network without a timeout); kubectl moved all of them to exec credential plugins.
//   The in-cluster token file (an auth-provider config client-node reads) is the one kept.
import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import type { LoadedKubeConfig } from './kubeconfig.ts';
import type { LiveOptions } from './types.ts';
import { describePlugin, execConfigOf, runExecCredential } from './exec-credential.ts';
import { LiveReadError } from './live-error.ts';

export interface Connection {
  /** Server URL without a trailing slash (may carry a path prefix, e.g. a Rancher proxy). */
  server: URL;
  agent: http.Agent;
  request: (url: URL, options: https.RequestOptions) => http.ClientRequest;
  headers: Record<string, string>;
  /** Basic auth `user:password`, when the kubeconfig user has one. */
  auth: string | undefined;
  rejectUnauthorized: boolean;
  /** `https://host:port` for messages. */
  label: string;
}

/** The reader's options as LiveOptions declares them (`env`; `runDeadline`, for an exec plugin), its limits resolved. */
export interface ConnectOptions extends Pick<LiveOptions, 'env' | 'runDeadline'>, Required<Pick<LiveOptions, 'deadlineMs' | 'concurrency'>> {
  /** Time left before the deadline, for an exec plugin. */
  remainingMs: () => number;
  /**
   * Called before each step that can take long, so a deadline message can say what was going on; `exec` when
   * the step is the exec plugin (the deadline then fails the run as an exec failure naming the plugin).
   */
  onPhase: (phase: string, kind?: 'exec') => void;
  /**
   * Keep this agent (its sockets and TLS settings) and only apply the credentials again: `rollstamp refresh` does
   * so periodically, as a projected token or an exec credential expires. Default: a new agent.
   */
  agent?: http.Agent;
}

export async function connect(loaded: LoadedKubeConfig, options: ConnectOptions): Promise<Connection> {
  const { kc, cluster, context } = loaded;
  let user = loaded.user;
  const where = `cluster ${JSON.stringify(cluster.name)} (context ${JSON.stringify(context.name)})`;
  let server: URL;
  try {
    server = new URL(cluster.server);
  } catch {
    throw refuse(`the server of ${where} is not a URL`);
  }
  const label = server.origin;
  if (server.protocol === 'http:') {
    if (!cluster.skipTLSVerify) {
      throw refuse(
        `the server of ${where} is ${label}: plain http is refused unless the kubeconfig sets insecure-skip-tls-verify: true for that cluster`,
      );
    }
  } else if (server.protocol !== 'https:') {
    throw refuse(`the server of ${where} is not an https URL`);
  }
  if (server.username || server.password || server.search || server.hash) throw refuse(`the server URL of ${where} carries credentials, a query or a fragment`);
  if (cluster.proxyUrl) throw refuse(`${where} sets proxy-url, which live reads do not support`);
  const provider = user.authProvider as { name?: unknown; config?: { tokenFile?: unknown; exec?: unknown } } | undefined;
  if (provider && typeof provider.config?.tokenFile !== 'string' && provider.config?.exec === undefined) {
    const name = typeof provider.name === 'string' ? provider.name : '?';
    throw refuse(`kubeconfig user ${JSON.stringify(user.name)} uses the ${JSON.stringify(name)} auth-provider, which live reads do not support; use an exec credential plugin`);
  }

  if (execConfigOf(user) !== undefined && execConfigOf(user) !== null) {
    options.onPhase(describePlugin(user), 'exec');
    user = await runExecCredential(user, {
      env: options.env,
      baseDir: loaded.baseDir,
      cluster,
      // The run's deadline fires first and fails the run; this timer, just after it, kills the plugin's group.
      timeoutMs: options.remainingMs() + 50,
      deadlineMs: options.deadlineMs,
      ...(options.runDeadline !== undefined ? { runDeadline: options.runDeadline } : {}),
    });
    kc.loadFromOptions({
      clusters: kc.getClusters(),
      contexts: kc.getContexts(),
      users: kc.getUsers().map((u) => (u.name === user.name ? user : u)),
      currentContext: kc.getCurrentContext(),
    });
  }

  options.onPhase(`applying the credentials of kubeconfig user ${JSON.stringify(user.name)}`);
  const opts: https.RequestOptions = {};
  try {
    await kc.applyToHTTPSOptions(opts);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code === 'string' && typeof e.path === 'string') {
      throw refuse(`${where}: the kubeconfig names ${e.path}, which cannot be read (${e.code})`);
    }
    throw refuse(`${where}: client-node could not apply the credentials of kubeconfig user ${JSON.stringify(user.name)}`);
  }

  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'rollstamp' };
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (typeof v === 'string' || typeof v === 'number') headers[k] = String(v).trim(); // token files end in a newline
  }
  const rejectUnauthorized = !cluster.skipTLSVerify;
  if (server.protocol === 'https:') {
    try {
      createSecureContext({ ca: opts.ca, cert: opts.cert, key: opts.key }); // bad PEM fails here, once, by name
    } catch (err) {
      const code = (err as NodeJS.ErrnoException)?.code;
      throw refuse(`${where}: the certificate authority or client certificate/key of kubeconfig user ${JSON.stringify(user.name)} is not valid${code ? ` (${code})` : ''}`);
    }
  }
  const agent =
    options.agent ??
    (server.protocol === 'https:'
      ? new https.Agent({
          keepAlive: true,
          maxSockets: options.concurrency,
          ca: opts.ca,
          cert: opts.cert,
          key: opts.key,
          servername: opts.servername,
          rejectUnauthorized,
        })
      : new http.Agent({ keepAlive: true, maxSockets: options.concurrency }));
  return {
    server,
    agent,
    request: server.protocol === 'https:' ? https.request : http.request,
    headers,
    auth: typeof opts.auth === 'string' ? opts.auth : undefined,
    rejectUnauthorized,
    label,
  };
}

function refuse(message: string): LiveReadError {
  return new LiveReadError(`live read: ${message}`, 'kubeconfig');
}
