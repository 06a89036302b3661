// Target kinds, kagent versions: which kagent kinds and API versions rollstamp may write into; the rest pass
// through. Only the versions a released kagent serves for that kind (release/v0.10.x, commit 03e950f6e; tag
// v0.10.0-rc3 = 7c52fffed:
// go/api/config/crd/bases/kagent.dev_{agents,modelconfigs,sandboxagents,agentharnesses}.yaml `versions[].name`).
// Anything newer passes through untouched: a field written there would be pruned or rejected by the API
// server. kagent.dev/v1alpha3 (the 1.0 pre-releases) is kagent 1.x and is caught before this module
// (kagent1x-versions.ts, #20).

import type { PassThrough } from './kind.ts';
import { infoResult, warningResult } from '../model/results.ts';

/** What this module reads of an object (an inventory KObject has it). */
interface KindAndVersion {
  group: string;
  kind: string;
  apiVersion: string;
}

export const KAGENT_GROUP = 'kagent.dev';

/** Released API versions per kagent kind rollstamp interprets. */
const RELEASED: ReadonlyMap<string, readonly string[]> = new Map([
  ['Agent', ['v1alpha1', 'v1alpha2']],
  ['ModelConfig', ['v1alpha1', 'v1alpha2']],
  ['SandboxAgent', ['v1alpha2']],
  ['AgentHarness', ['v1alpha2']],
]);

/** kagent kinds that make or configure workloads on kagent main only (kagent.dev/v1alpha3). */
const UNRELEASED_KINDS: ReadonlySet<string> = new Set(['AgentTemplate', 'Harness']);

/**
 * How rollstamp treats a kagent.dev object of this kind and version.
 * - `supported`: a released version of a kind rollstamp interprets;
 * - `unsupported`: a kind rollstamp interprets (or one kagent main added) in a version no released kagent
 *   serves: never written;
 * - undefined: not a kagent object rollstamp interprets (RemoteMCPServer and others are only read).
 */
export function kagentVersionSupport(obj: KindAndVersion): 'supported' | 'unsupported' | undefined {
  if (obj.group !== KAGENT_GROUP) return undefined;
  const released = RELEASED.get(obj.kind);
  if (released) return released.includes(obj.apiVersion.slice(KAGENT_GROUP.length + 1)) ? 'supported' : 'unsupported';
  return UNRELEASED_KINDS.has(obj.kind) ? 'unsupported' : undefined;
}

/** The warning text for an unsupported version: names the apiVersion and why nothing is written. */
export function unsupportedVersionMessage(obj: KindAndVersion): string {
  const version = obj.apiVersion.slice(KAGENT_GROUP.length + 1);
  const released = RELEASED.get(obj.kind);
  const served = released ? `released kagent serves ${obj.kind} as ${released.map((v) => `${KAGENT_GROUP}/${v}`).join(', ')}` : `no released kagent serves ${obj.kind}`;
  const newer = !['v1alpha1', 'v1alpha2'].includes(version) ? "; in kagent's newer API, kagent's own revisions handle Secret changes" : '';
  return `${obj.apiVersion} ${obj.kind} is not supported yet (${served}): passed through unchanged${newer}`;
}

/**
 * kagent objects that are never written, with the result that says why: an unreleased or unknown API version
 * (a field added there is pruned or rejected, #13), and an AgentHarness (nothing of it rolls).
 */
export const kagentPassThrough: PassThrough = (obj, config) => {
  if (config.kagent !== 'enabled') return undefined;
  const support = kagentVersionSupport(obj);
  if (support === 'unsupported') return warningResult('UNSUPPORTED_KAGENT_VERSION', unsupportedVersionMessage(obj), obj.subject);
  if (support === 'supported' && obj.kind === 'AgentHarness') return infoResult('NO_AUTOMATIC_ROLLOUT', HARNESS_NOT_STAMPED, obj.subject);
  return undefined;
};

/**
 * Why an AgentHarness (kagent.dev/v1alpha2) is not stamped. kagent builds one ActorTemplate per harness
 * (go/core/pkg/sandboxbackend/substrate/lifecycle_actortemplate.go `buildActorTemplate`); only the hermes
 * backend passes `spec.env` into it (lifecycle_acp.go; lifecycle_openclaw.go does not), and a changed template
 * is deleted and recreated (`reconcileActorTemplate`). But the harness runs one shared actor, created once
 * from the template and resumed from then on (agentharness_actor.go `EnsureSessionActor`), and the controller
 * never replaces it (go/core/internal/controller/agentharness_substrate_controller.go): nothing rolls.
 */
export const HARNESS_NOT_STAMPED =
  'an AgentHarness is not stamped: kagent runs one shared Substrate actor per harness, created once from its ActorTemplate ' +
  'and resumed afterwards; a changed spec recreates the template but not that actor, so its rollouts are not automatic ' +
  '(its token Secrets and modelConfigRef feed that template)';
