// Live reads between the core's plan and its stamp: asks the core which Secrets and ConfigMaps the cluster
// should supply, keeps those inside the tenant scope, reads them, and hands them back as `fetched`. The
// Kubernetes client is imported only here and only when something must be read, so a run without live reads
// never loads it.
import { InputError, UsageError } from '../process/errors.ts';
import type { Io } from '../process/io.ts';
import { envOf } from '../settings/settings-table.ts';
import type { RunDeadline } from '../process/run-deadline.ts';
import { type FetchedSources, type LiveNeed, type LiveVersions, oneLine, type Run } from '../../function/index.ts';
import type { RunIo } from '../settings/run-settings.ts';
import type { LiveOptions } from './types.ts';

/** Where and how a command's live reads go: the reader's own kubeconfig and context, and the tenant scope. */
export interface LiveSettings extends Pick<LiveOptions, 'kubeconfig' | 'context'> {
  /**
   * Namespaces live reads may touch (generate: the destination namespace and the operator's allowlist);
   * undefined: any. A reference elsewhere is treated as missing, without a request.
   */
  namespaces?: ReadonlySet<string>;
  /** Where the scope came from, for the warning about references outside it. */
  scopeOrigin?: string;
}

/** generate: the operator's live mode, allowlist and kubeconfig context (sidecar environment only). */
export const LIVE_ENV = envOf('live');
export const LIVE_NAMESPACES_ENV = envOf('liveNamespaces');
export const KUBE_CONTEXT_ENV = envOf('kubeContext');
/** Most Secrets and ConfigMaps one run may read from the cluster (operator-only, #12). */
export const MAX_LIVE_READS_ENV = envOf('maxLiveReads');

/**
 * `generate`: live reads touch only the Application's destination namespace (ARGOCD_APP_NAMESPACE) and the
 * operator's ROLLSTAMP_LIVE_NAMESPACES, so a repository cannot make a hash an oracle for another team's Secret.
 */
export function liveSettingsForGenerate(io: RunIo): LiveSettings {
  const namespaces = new Set<string>();
  const destination = io.settings.env.ARGOCD_APP_NAMESPACE;
  if (destination) namespaces.add(destination);
  for (const ns of (io.settings.env[LIVE_NAMESPACES_ENV] ?? '').split(',')) {
    const name = ns.trim();
    if (name === '') continue;
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name)) throw new UsageError(`${LIVE_NAMESPACES_ENV}: "${name}" is not a namespace name`);
    namespaces.add(name);
  }
  const context = io.settings.env[KUBE_CONTEXT_ENV];
  return {
    namespaces,
    scopeOrigin: `the destination namespace${io.settings.env[LIVE_NAMESPACES_ENV] ? ` and ${LIVE_NAMESPACES_ENV}` : ''}`,
    ...(context ? { context } : {}),
  };
}

/** What a run read from the cluster: the sources, and the version of each one found (for the live-read record). */
export interface LiveRead {
  fetched: FetchedSources;
  versions: LiveVersions;
}

/**
 * Reads what the run needs from the cluster under its `config.live`; undefined when nothing is to be read.
 * - With planning errors nothing is read (the run's `needs` is undefined; `finish` reports them).
 * - More reads than ROLLSTAMP_MAX_LIVE_READS (default 500) is an error before any request is made.
 * - A failed read throws one line (LiveReadError): nothing is stamped, nothing written.
 * - The run's deadline (`io.deadline`, generate) ends the reads, and an exec credential plugin, by then.
 */
export async function readLiveSources(run: Pick<Run, 'needs'>, settings: LiveSettings, io: RunIo): Promise<LiveRead | undefined> {
  if (run.needs === undefined) return undefined;
  const inScope: LiveNeed[] = [];
  for (const n of run.needs) {
    if (settings.namespaces === undefined || settings.namespaces.has(n.namespace)) inScope.push(n);
    else io.writeStderr(`rollstamp: warning: ${oneLine(`${n.cls} ${n.namespace}/${n.name} is outside the live-read scope (${settings.scopeOrigin ?? 'allowed namespaces'}): not read`)}\n`);
  }
  if (inScope.length === 0) return { fetched: new Map(), versions: new Map() };
  const maxReads = io.settings.maxLiveReads;
  if (inScope.length > maxReads) {
    throw new InputError(`live reads: this run would read ${inScope.length} Secrets and ConfigMaps from the cluster, more than ${maxReads} (${MAX_LIVE_READS_ENV}); nothing was read`);
  }
  const { readLive } = await import('./reader.ts');
  const deadlineMs = liveDeadlineMs(io.settings.liveDeadlineSeconds * 1000, io.deadline);
  const requestTimeoutMs = io.settings.liveTimeoutSeconds * 1000;
  const outcome = await readLive(inScope, {
    ...(settings.kubeconfig !== undefined ? { kubeconfig: settings.kubeconfig } : {}),
    ...(settings.context !== undefined ? { context: settings.context } : {}),
    env: credentialEnv(io.settings.env),
    deadlineMs,
    ...(io.deadline !== undefined ? { runDeadline: io.deadline } : {}),
    requestTimeoutMs,
  });
  return { fetched: outcome.fetched, versions: outcome.versions };
}

/** The live reads' own deadline (ROLLSTAMP_LIVE_DEADLINE_SECONDS), within what is left of the run's. */
export function liveDeadlineMs(ownMs: number, run: RunDeadline | undefined): number {
  return Math.min(ownMs, run?.leftMs() ?? Infinity);
}

/**
 * The environment live reads (and a kubeconfig exec credential plugin) see: not the hash key, nor anything an
 * Argo CD Application set (ARGOCD_ENV_*).
 */
export function credentialEnv(env: Io['env']): Io['env'] {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('ARGOCD_ENV_') && !k.startsWith('ROLLSTAMP_HASH_KEY')));
}
