// Live reads, step 1: which kubeconfig, which context, which cluster and user. @kubernetes/client-node parses
// the files and owns the data model; this module decides where to look (from the env it is given, never from
// process.env) and turns every way that can go wrong into one line that names the file or context.
//
// Where, in order (client-go's rules, minus its silent http://localhost:8080 fallback):
//   1. `kubeconfig` (--kubeconfig): must exist.
//   2. KUBECONFIG: a path list; missing entries are skipped, at least one must exist; on a name clash the
//      first file wins (as kubectl merges), and current-context comes from the first file that sets one.
//   3. $HOME/.kube/config when it exists.
//   4. In a pod (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT set): https://host:port with the
//      service account's ca.crt and token (re-read by client-node's token-file authenticator).
import { statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { isIPv6 } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { Cluster, Context, User } from '@kubernetes/client-node/dist/config_types.js';
import { LiveReadError } from './live-error.ts';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface KubeConfigChoice {
  kubeconfig?: string;
  context?: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface LoadedKubeConfig {
  kc: KubeConfig;
  /** What was loaded, for messages: a path, `KUBECONFIG (a:b)` or `in-cluster service account`. */
  source: string;
  /** Directory relative exec commands resolve against (the first kubeconfig file's), if any. */
  baseDir: string | undefined;
  context: Context;
  cluster: Cluster;
  user: User;
}

/** Loads the kubeconfig and selects the context; throws LiveReadError('kubeconfig') with one line. */
export function loadKubeConfig(choice: KubeConfigChoice, serviceAccountDir: string = SERVICE_ACCOUNT_DIR): LoadedKubeConfig {
  const { env } = choice;
  let files: string[];
  let source: string;
  if (choice.kubeconfig !== undefined && choice.kubeconfig !== '') {
    files = [resolve(choice.kubeconfig)];
    source = files[0]!;
    requireFile(files[0]!, 'kubeconfig');
  } else if (env.KUBECONFIG) {
    const listed = env.KUBECONFIG.split(delimiter).filter((f) => f !== '').map((f) => resolve(f));
    files = listed.filter((f) => fileState(f) !== 'missing');
    source = `KUBECONFIG (${listed.join(delimiter)})`;
    if (files.length === 0) throw configError(`none of the files in KUBECONFIG exists (${listed.join(delimiter)})`);
    for (const f of files) requireFile(f, 'kubeconfig');
  } else {
    const home = env.HOME || env.USERPROFILE;
    const homeConfig = home ? join(home, '.kube', 'config') : undefined;
    if (homeConfig !== undefined && fileState(homeConfig) !== 'missing') {
      files = [homeConfig];
      source = homeConfig;
      requireFile(homeConfig, 'kubeconfig');
    } else if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) {
      return loadInCluster(choice, serviceAccountDir);
    } else {
      throw configError(
        'no kubeconfig: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run in a pod with a service account token',
      );
    }
  }

  const kc = new KubeConfig();
  const clusters: Cluster[] = [];
  const users: User[] = [];
  const contexts: Context[] = [];
  let currentContext = '';
  for (const file of files) {
    const one = new KubeConfig();
    try {
      one.loadFromFile(file);
    } catch (err) {
      throw configError(`kubeconfig ${file}: ${describeLoadError(err, file)}`);
    }
    addNew(clusters, one.getClusters());
    addNew(users, one.getUsers());
    addNew(contexts, one.getContexts());
    currentContext ||= one.getCurrentContext() ?? '';
  }
  kc.loadFromOptions({ clusters, users, contexts, currentContext });
  const baseDir = files.length > 0 ? resolve(files[0]!, '..') : undefined;
  return selectContext(kc, choice.context, source, baseDir);
}

function loadInCluster(choice: KubeConfigChoice, dir: string): LoadedKubeConfig {
  const host = choice.env.KUBERNETES_SERVICE_HOST!;
  const port = choice.env.KUBERNETES_SERVICE_PORT!;
  const tokenFile = join(dir, 'token');
  const caFile = join(dir, 'ca.crt');
  const source = 'in-cluster service account';
  if (fileState(tokenFile) !== 'file') {
    throw configError(
      `running in a pod but there is no service account token at ${tokenFile} (mount a projected token into this container, or pass --kubeconfig)`,
    );
  }
  if (fileState(caFile) !== 'file') throw configError(`running in a pod but there is no ${caFile}`);
  // Always https: client-node would switch to http for ports 80/8080/8001, which live reads refuse anyway.
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'in-cluster', server, caFile, skipTLSVerify: false }],
    users: [{ name: 'service-account', authProvider: { name: 'tokenFile', config: { tokenFile } } }],
    contexts: [{ name: 'in-cluster', cluster: 'in-cluster', user: 'service-account' }],
    currentContext: 'in-cluster',
  });
  return selectContext(kc, choice.context, source, undefined);
}

function selectContext(kc: KubeConfig, wanted: string | undefined, source: string, baseDir: string | undefined): LoadedKubeConfig {
  const name = wanted !== undefined && wanted !== '' ? wanted : kc.getCurrentContext();
  if (!name) throw configError(`${source} sets no current-context; pass --context`);
  const context = kc.getContextObject(name);
  if (!context) throw configError(`context ${JSON.stringify(name)} is not in ${source}`);
  kc.setCurrentContext(name);
  const cluster = kc.getCluster(context.cluster);
  if (!cluster) throw configError(`context ${JSON.stringify(name)} names cluster ${JSON.stringify(context.cluster)}, which ${source} does not define`);
  if (!context.user) throw configError(`context ${JSON.stringify(name)} names no user (anonymous reads are not supported)`);
  const user = kc.getUser(context.user);
  if (!user) throw configError(`context ${JSON.stringify(name)} names user ${JSON.stringify(context.user)}, which ${source} does not define`);
  return { kc, source, baseDir, context, cluster, user };
}

function addNew<T extends { name: string }>(into: T[], from: readonly T[]): void {
  for (const item of from) if (!into.some((x) => x.name === item.name)) into.push(item);
}

type FileState = 'file' | 'missing' | 'other';

function fileState(path: string): FileState {
  try {
    return statSync(path).isFile() ? 'file' : 'other';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'missing' : 'other';
  }
}

function requireFile(path: string, what: string): void {
  const state = fileState(path);
  if (state === 'missing') throw configError(`${what} ${path} does not exist`);
  if (state === 'other') throw configError(`${what} ${path} is not a readable regular file`);
}

/** client-node's own validation messages name only an index and a field; anything else is summarised. */
function describeLoadError(err: unknown, file: string): string {
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.message === 'string' && /^(clusters|users|contexts)\[\d+\]\.[a-z.-]+ is missing$/.test(e.message)) return e.message;
  if (e?.name === 'YAMLException') return 'not valid YAML';
  if (typeof e?.code === 'string' && typeof e.path === 'string') {
    return e.path === file ? `cannot be read (${e.code})` : `names ${e.path}, which cannot be read (${e.code})`;
  }
  return 'not a valid kubeconfig';
}

function configError(message: string): LiveReadError {
  return new LiveReadError(`live read: ${message}`, 'kubeconfig');
}
