// Argo CD CMP render stage, before a renderer runs: where a chart may come from and which helm homes a
// repository may choose (#21). kustomize hands `helmGlobals.configHome` to helm as its config, cache and data
// homes, so helm's plugin directory would be the repository's, and a chart repository URL with a plugin's
// scheme would run the repository's getter in the sidecar.
import { InputError } from '../process/errors.ts';
import { envOf } from '../settings/settings-table.ts';

const HELM_ALLOW_HTTP_ENV = envOf('helmAllowHttp');

/** What the operator allows of chart repositories. */
export interface RepoPolicy {
  /** Plain `http://` repositories (ROLLSTAMP_HELM_ALLOW_HTTP=true). Default: false. */
  allowHttp: boolean;
}

const ACCEPTED = 'accepted: https://, oci:// and local charts';

/**
 * Refuses a chart repository that is not `https://`, `oci://` or local.
 * - `repo` empty means a local chart; `file://` is local only in a Chart.yaml dependency (`dependency`),
 *   where the caller checks that it stays inside the repository.
 * - `http://` only when the policy allows it. Every other scheme (a helm getter plugin's, `@alias` and
 *   `alias:` names of repositories the sidecar's helm may know) is refused.
 * - The message names `shown` and the scheme only, never the rest of the URL.
 */
export function checkChartRepo(repo: string, shown: string, policy: RepoPolicy, dependency: boolean): void {
  if (repo === '') return;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(repo)?.[1]?.toLowerCase();
  if (scheme === 'https' || scheme === 'oci') return;
  if (scheme === 'file' && dependency) return;
  if (scheme === 'http') {
    if (policy.allowHttp) return;
    throw new InputError(`${shown}: a plain http:// chart repository is refused (${ACCEPTED}; the operator may allow http:// with ${HELM_ALLOW_HTTP_ENV}=true)`);
  }
  const what = scheme === undefined ? (repo.startsWith('@') || /^alias:/i.test(repo) ? 'a repository alias' : 'not a URL') : `scheme ${scheme}://`;
  throw new InputError(`${shown}: chart repository refused: ${what} (${ACCEPTED})`);
}

/**
 * Checks the helm settings of one kustomization (`doc`, read from `shown`).
 * - `helmGlobals.configHome` and the deprecated `helmChartInflationGenerator[].helmHome` are refused: helm
 *   would load plugins and repository settings from where the repository says.
 * - `helmCharts[].repo` and `helmChartInflationGenerator[].chartRepoUrl` go through `checkChartRepo`.
 */
export function checkKustomizationHelm(doc: Record<string, unknown>, shown: string, policy: RepoPolicy): void {
  if (isRecord(doc.helmGlobals) && doc.helmGlobals.configHome !== undefined) throw new InputError(configHomeRefused(`${shown}: helmGlobals.configHome`));
  list(doc.helmCharts).forEach((chart, i) => checkChartRepo(text(chart.repo), `${shown}: helmCharts[${i}].repo`, policy, false));
  list(doc.helmChartInflationGenerator).forEach((chart, i) => {
    if (chart.helmHome !== undefined) throw new InputError(configHomeRefused(`${shown}: helmChartInflationGenerator[${i}].helmHome`));
    checkChartRepo(text(chart.chartRepoUrl), `${shown}: helmChartInflationGenerator[${i}].chartRepoUrl`, policy, false);
  });
}

/**
 * Checks one document of a file kustomize may load as a generator's configuration: a
 * `HelmChartInflationGenerator` is held to the rules of `helmGlobals` and `helmCharts`.
 */
export function checkGeneratorConfig(doc: unknown, shown: string, policy: RepoPolicy): void {
  if (!isRecord(doc) || doc.kind !== 'HelmChartInflationGenerator') return;
  if (doc.configHome !== undefined) throw new InputError(configHomeRefused(`${shown}: HelmChartInflationGenerator configHome`));
  checkChartRepo(text(doc.repo), `${shown}: HelmChartInflationGenerator repo`, policy, false);
}

function configHomeRefused(what: string): string {
  return `${what} is refused: helm would run plugins from a directory the repository chooses (rollstamp gives helm its own empty homes)`;
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/** A field as kustomize reads it: a string, else (absent, or a type kustomize would reject) empty. */
function text(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
