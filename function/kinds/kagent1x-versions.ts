// Target kinds, kagent 1.x: which objects belong to kagent's 1.x API and the one result per run that says why
// none of them is written (#20, #35). kagent 1.0.x serves every resource under `api.kagent.dev/v1alpha3`
// (helm/kagent-crds/templates/api.kagent.dev_*.yaml); its pre-releases served `kagent.dev/v1alpha3`.
import { infoResult, type Result } from '../model/results.ts';
import type { PassThrough } from './kind.ts';

/** The API group kagent 1.x serves. */
export const KAGENT1X_GROUP = 'api.kagent.dev';

/** The apiVersion of kagent's 1.0 pre-releases (kagent.dev main before 1.0; 0.10.x serves only v1alpha1 and v1alpha2). */
export const KAGENT1X_PRERELEASE = 'kagent.dev/v1alpha3';

/** What this module reads of an object. */
interface GroupAndVersion {
  group: string;
  apiVersion: string;
}

/**
 * Whether an object belongs to kagent 1.x: any `api.kagent.dev/*` object, and any `kagent.dev/v1alpha3` one.
 * - Such objects are never written; `diff` and `explain` preview them (kinds/kagent1x-agent.ts).
 */
export const isKagent1x = (obj: GroupAndVersion): boolean => obj.group === KAGENT1X_GROUP || obj.apiVersion === KAGENT1X_PRERELEASE;

/**
 * The result for a run with kagent 1.x objects: once per run, naming the API of the first one, with no object named.
 * - True under kagent 1.0.x's rules (translator/revision.go@092a61b4): a revision covers specs and prompt
 *   ConfigMaps, and the egress gateway reads credentials live, so a stamp would move nothing.
 */
export function kagent1xNote(apiVersion: string): Result {
  const api = apiVersion === KAGENT1X_PRERELEASE ? `${KAGENT1X_PRERELEASE} (a kagent 1.0 pre-release)` : `${apiVersion} (kagent 1.x)`;
  return infoResult(
    'KAGENT_1X_NOT_STAMPED',
    `${api} objects pass through unchanged: kagent 1.x compiles each Agent's specs and prompt ConfigMaps into its own revision ` +
      'and its egress gateway reads credentials live, so a stamp would roll nothing; rollstamp diff previews what a change recompiles',
  );
}

/**
 * kagent 1.x objects, whatever their labels say: never written (a stamp is not a revision input). Reported once
 * per run (`oncePerRun`).
 */
export const kagent1xPassThrough: PassThrough = Object.assign((obj: Parameters<PassThrough>[0]) => (isKagent1x(obj) ? kagent1xNote(obj.apiVersion) : undefined), {
  oncePerRun: true as const,
});
