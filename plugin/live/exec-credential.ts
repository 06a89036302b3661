// Live reads, step 2 (only for a kubeconfig user with `exec`): runs the credential plugin once per run and
// hands its token or client certificate back to client-node as a plain kubeconfig user.
//
// Why not client-node's ExecAuth (1.4.0)? It spawns asynchronously but with no timeout and no kill, so a plugin
// that never returns hangs the run and outlives it; it leaves stdin open; it caches only credentials that carry
// an expirationTimestamp (without one it re-runs the plugin for every request, even concurrently); and it
// rejects with the plugin's stderr as the message. Here the plugin runs through plugin/process/exec.ts: own process
// group, stdin closed, killed at the deadline (and on our SIGTERM), output capped, its output never quoted.
import { isAbsolute, resolve } from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node/dist/config_types.js';
import { CommandError, runCommand } from '../process/exec.ts';
import type { LiveOptions } from './types.ts';
import { LiveReadError, seconds } from './live-error.ts';

interface ExecConfig {
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  apiVersion: string;
  provideClusterInfo: boolean;
}

/** An exec plugin's run: the reader's `env`, `deadlineMs` and `runDeadline` (the plugin is killed then too), as LiveOptions declares them. */
export interface ExecContext extends Pick<LiveOptions, 'env' | 'runDeadline'>, Required<Pick<LiveOptions, 'deadlineMs'>> {
  /** Relative commands with a slash resolve against the kubeconfig's directory, as kubectl does. */
  baseDir: string | undefined;
  cluster: Cluster;
  /** How long the plugin may run before its process group is killed. */
  timeoutMs: number;
}

/** The user's exec config, or undefined when it has none. */
export function execConfigOf(user: User): unknown {
  return user.exec ?? (user.authProvider?.config?.exec as unknown);
}

/** A short name for messages: `"aws" (kubeconfig user "eks-admin")`. */
export function describePlugin(user: User): string {
  const exec = execConfigOf(user) as { command?: unknown } | undefined;
  const command = typeof exec?.command === 'string' ? exec.command : '?';
  return `exec credential plugin ${JSON.stringify(command)} (kubeconfig user ${JSON.stringify(user.name)})`;
}

/** Runs the plugin; returns the same user with the plugin's token and/or client certificate and no exec. */
export async function runExecCredential(user: User, ctx: ExecContext): Promise<User> {
  const what = `live read: ${describePlugin(user)}`;
  const exec = parseExecConfig(execConfigOf(user), what);
  if (exec.command.includes('/') && !isAbsolute(exec.command) && ctx.baseDir) exec.command = resolve(ctx.baseDir, exec.command);
  const env: Record<string, string | undefined> = { ...ctx.env };
  for (const e of exec.env) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify(execInfo(exec, ctx.cluster));

  const started = Date.now();
  let out: Uint8Array;
  try {
    out = await runCommand([exec.command, ...exec.args], what, {
      cwd: resolve('.'), // where kubectl would run it: the current directory
      env,
      timeoutMs: Math.max(1, ctx.timeoutMs),
      maxOutputBytes: 1024 * 1024,
      ...(ctx.runDeadline !== undefined ? { deadline: ctx.runDeadline } : {}),
    });
  } catch (err) {
    if (Date.now() - started >= ctx.timeoutMs - 5) {
      throw new LiveReadError(`${what} did not return within the ${seconds(ctx.deadlineMs)} deadline`, 'exec');
    }
    // CommandError messages name the command and its exit code or signal, never its output.
    throw new LiveReadError(err instanceof CommandError ? err.message : `${what}: could not run it`, 'exec');
  }
  const status = parseCredential(out);
  if (!status) {
    throw new LiveReadError(`${what}: its output is not an ExecCredential with a status.token or client certificate`, 'exec');
  }
  const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');
  const replaced: User = {
    name: user.name,
    impersonateUser: user.impersonateUser,
    token: status.token ?? user.token,
    certData: status.cert !== undefined ? b64(status.cert) : user.certData,
    certFile: status.cert !== undefined ? undefined : user.certFile,
    keyData: status.key !== undefined ? b64(status.key) : user.keyData,
    keyFile: status.key !== undefined ? undefined : user.keyFile,
  };
  return replaced;
}

function parseExecConfig(raw: unknown, what: string): ExecConfig {
  const bad = (field: string): LiveReadError => new LiveReadError(`${what}: exec.${field} in the kubeconfig is not valid`, 'kubeconfig');
  const exec = raw as Record<string, unknown>;
  if (typeof exec !== 'object' || exec === null) throw bad('command');
  if (typeof exec.command !== 'string' || exec.command === '') throw bad('command');
  const args = exec.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw bad('args');
  const envList = exec.env ?? [];
  if (!Array.isArray(envList) || !envList.every((e) => typeof e?.name === 'string' && typeof e?.value === 'string')) throw bad('env');
  if (exec.interactiveMode === 'Always') {
    throw new LiveReadError(`${what}: interactiveMode is Always, but live reads run without a terminal`, 'kubeconfig');
  }
  return {
    command: exec.command,
    args: args as string[],
    env: envList as ExecConfig['env'],
    apiVersion: typeof exec.apiVersion === 'string' ? exec.apiVersion : 'client.authentication.k8s.io/v1',
    provideClusterInfo: exec.provideClusterInfo === true,
  };
}

/** What kubectl passes in KUBERNETES_EXEC_INFO: never interactive; the cluster when the plugin asks for it. */
function execInfo(exec: ExecConfig, cluster: Cluster): object {
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo) {
    spec.cluster = {
      server: cluster.server,
      'tls-server-name': cluster.tlsServerName,
      'insecure-skip-tls-verify': cluster.skipTLSVerify,
      'certificate-authority-data': cluster.caData,
    };
  }
  return { apiVersion: exec.apiVersion, kind: 'ExecCredential', spec };
}

function parseCredential(out: Uint8Array): { token?: string; cert?: string; key?: string } | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(out));
  } catch {
    return undefined;
  }
  const cred = obj as { kind?: unknown; status?: Record<string, unknown> };
  if (typeof cred !== 'object' || cred === null || cred.kind !== 'ExecCredential') return undefined;
  const s = cred.status;
  if (typeof s !== 'object' || s === null) return undefined;
  const token = typeof s.token === 'string' && s.token !== '' ? s.token : undefined;
  const cert = typeof s.clientCertificateData === 'string' && s.clientCertificateData !== '' ? s.clientCertificateData : undefined;
  const key = typeof s.clientKeyData === 'string' && s.clientKeyData !== '' ? s.clientKeyData : undefined;
  if ((cert === undefined) !== (key === undefined)) return undefined;
  if (token === undefined && cert === undefined) return undefined;
  return { token, cert, key };
}
