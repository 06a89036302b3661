// Argo CD CMP render stage for Helm charts: `helm template` as Argo CD's repo-server runs it
// (argoproj/argo-cd util/helm/cmd.go `template`, reposerver/repository/repository.go `helmTemplate`):
// release name, namespace, KUBE_VERSION / KUBE_API_VERSIONS, values files, `--include-crds` unless the
// Application skips CRDs, and `helm dependency build` when the chart's dependencies are not in charts/.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../process/errors.ts';
import { CommandError } from '../process/exec.ts';
import { isInside } from '../inputs/link-check.ts';
import { repoRoot } from './repo-root.ts';
import type { PluginConfig } from '../settings/plugin-config.ts';
import type { RunIo } from '../settings/run-settings.ts';

/** Runs one renderer command (with the render's deadline and output limit) and returns its stdout. */
export type RunRenderer = (argv: readonly string[], what: string) => Promise<Uint8Array>;

/**
 * helm's answer when Chart.yaml (or requirements.yaml) names a dependency that charts/ lacks; the same test
 * as Argo CD's `IsMissingDependencyErr` (util/helm/helm.go).
 */
const MISSING_DEPENDENCY = ['found in Chart.yaml, but missing in charts/ directory', 'found in requirements.yaml, but missing in charts'];

/**
 * Renders the chart in the working directory with `argv` (from `helmArgv`).
 * - `helm template`; when it fails because a dependency is missing from charts/, `helm dependency build`
 *   (local `file://` charts, or the repositories named in Chart.yaml) and `helm template` once more, as
 *   Argo CD's repo-server does (`runHelmBuild`).
 * - A dependency that cannot be fetched is one line; helm's own message only with ROLLSTAMP_RENDERER_STDERR.
 */
export async function renderHelm(argv: readonly string[], run: RunRenderer, what: string): Promise<Uint8Array> {
  try {
    return await run(argv, what);
  } catch (err) {
    if (!(err instanceof CommandError) || !MISSING_DEPENDENCY.some((m) => err.stderr.includes(m))) throw err;
  }
  try {
    await run(['helm', 'dependency', 'build'], `${what}: helm dependency build`);
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    const reason = err.message.slice(`${what}: helm dependency build: `.length);
    throw new CommandError(`${what}: a chart dependency could not be fetched (helm dependency build: ${reason})`, err.argv, err.stderr);
  }
  return run(argv, what);
}

/** `helm template <release> . --namespace <ns> …` (util/helm/cmd.go `template`). */
export function helmArgv(config: PluginConfig, io: RunIo): string[] {
  const name = releaseName(io.settings.env.ARGOCD_APP_NAME ?? '');
  const argv = ['helm', 'template', name, '.', '--namespace', io.settings.env.ARGOCD_APP_NAMESPACE || config.defaultNamespace];
  const kubeVersion = io.settings.env.KUBE_VERSION;
  if (kubeVersion) argv.push('--kube-version', kubeVersion);
  for (const file of config.valuesFiles ?? []) argv.push('--values', valuesFile(file, io));
  for (const v of (io.settings.env.KUBE_API_VERSIONS ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) argv.push('--api-versions', v);
  // Argo CD's default: a chart's crds/ reach the output, so a plugin render never prunes them (#12).
  if (!config.skipCrds) argv.push('--include-crds');
  return argv;
}

/** A values file path, refused unless it is a regular file inside the repository. */
function valuesFile(file: string, io: RunIo): string {
  const root = repoRoot(io);
  const full = resolve(io.cwd, file);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    throw new UsageError(`values file ${file}: not found`);
  }
  if (isAbsolute(file) || !isInside(full, root) || !isInside(real, root)) throw new UsageError(`values file ${file}: outside the repository`);
  if (!statSync(real).isFile()) throw new UsageError(`values file ${file}: not a regular file`);
  return relative(io.cwd, real) || '.';
}

/** Argo CD names apps outside its namespace `<namespace>_<name>`; a Helm release name cannot hold `_`. */
function releaseName(appName: string): string {
  const name = appName.slice(appName.lastIndexOf('_') + 1);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 53) {
    throw new UsageError(`ARGOCD_APP_NAME ${JSON.stringify(appName)} is not a valid Helm release name`);
  }
  return name;
}
