// Argo CD CMP render stage: the helm directories the sidecar owns (#21). kustomize sets HELM_CONFIG_HOME,
// HELM_CACHE_HOME and HELM_DATA_HOME for its helm from `helmGlobals.configHome` (else a temp dir of its own),
// after our environment (api/internal/builtins/HelmChartInflationGenerator.go `runHelmCommand`); helm derives
// its plugin directory and repository files from those homes only when their own variables are unset
// (helm pkg/cli/environment.go, checked with `helm env`). So each of them is set here, to a fresh directory.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh, private (0700) set of helm directories: the environment that points helm at them, and their removal. */
export interface HelmHomes {
  env: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * Helm directories for one render.
 * - kustomize: every directory helm reads plugins, repositories or registry logins from (HELM_PLUGINS,
 *   HELM_REPOSITORY_CONFIG, HELM_REPOSITORY_CACHE, HELM_REGISTRY_CONFIG, HELM_CONTENT_CACHE) and the three
 *   homes; all empty, so nothing a repository wrote is read.
 * - helm: only HELM_PLUGINS (empty): the sidecar's repository and registry settings stay the operator's,
 *   but no plugin runs, whatever scheme a chart names.
 */
export async function helmHomes(renderer: 'helm' | 'kustomize'): Promise<HelmHomes> {
  const dir = await mkdtemp(join(tmpdir(), 'rollstamp-helm-'));
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const [config, cache, data, plugins] = ['config', 'cache', 'data', 'plugins'].map((d) => join(dir, d)) as [string, string, string, string];
    await mkdir(plugins, { mode: 0o700 });
    if (renderer === 'helm') return { env: { HELM_PLUGINS: plugins }, remove };
    await Promise.all([config, cache, data].map((d) => mkdir(d, { mode: 0o700 })));
    const env = {
      HELM_CONFIG_HOME: config,
      HELM_CACHE_HOME: cache,
      HELM_DATA_HOME: data,
      HELM_PLUGINS: plugins,
      HELM_REPOSITORY_CONFIG: join(config, 'repositories.yaml'),
      HELM_REPOSITORY_CACHE: join(cache, 'repository'),
      HELM_REGISTRY_CONFIG: join(config, 'registry', 'config.json'),
      HELM_CONTENT_CACHE: join(cache, 'content'),
    };
    return { env, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
