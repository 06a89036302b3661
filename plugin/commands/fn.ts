// `rollstamp fn` (and `rollstamp` with no arguments): the KRM function. ResourceList on stdin, ResourceList
// with results on stdout. Any error result: exit 1, one line on stderr, nothing on stdout.
import { InputError, UsageError } from '../process/errors.ts';
import { readLiveSources } from '../live/live-sources.ts';
import { unknownFlagMessage } from '../cli/flags.ts';
import { readInputs } from '../inputs/read-inputs.ts';
import { refuseTerminalStdin } from '../cli/terminal-hint.ts';
import { loadHashKey, suggestSetting } from '../settings/settings.ts';
import { pluginConfig } from '../settings/plugin-config.ts';
import { printWarnings, summarize } from '../output/result-lines.ts';
import { hasErrors, startListRun } from '../../function/index.ts';
import { readLimits, runStart, type RunIo } from '../settings/run-settings.ts';
import type { CommandModule } from './command.ts';

export const FN_HELP = `Usage: rollstamp [fn]

Runs as a KRM function (kpt, kustomize): reads a ResourceList (YAML or JSON) on stdin and writes it back
with every target's pod template stamped and results in .results.

functionConfig: a RollstampConfig (apiVersion rollstamp.dev/v1alpha1, settings under spec) or a ConfigMap
(settings under data, what \`kpt fn eval -- key=value\` sends). Settings: targets, selector, annotationKey,
onMissing, defaultNamespace, hashKeyFile, kagent, hashScheme, live (never|missing|always: read Secrets and
ConfigMaps from the cluster of KUBECONFIG or the in-cluster service account). The env ROLLSTAMP_HASH_KEY
keys digests with HMAC-SHA256.

Examples:
  kpt fn eval ./pkg --exec "rollstamp" -- selector=restart-on-config-update=true
  kpt fn eval ./pkg --exec "rollstamp" --fn-config rollstamp-config.yaml

Exit status: 0 success, 1 an error result (one line on stderr says why; nothing on stdout).`;

export async function runFn(args: readonly string[], io: RunIo): Promise<number> {
  const [first] = args;
  if (first !== undefined && first.startsWith('-') && first !== '-') throw new UsageError(unknownFlagMessage(first.split('=')[0]!, [], 'fn'));
  if (first !== undefined) throw new UsageError(`fn takes no arguments (got ${first}); it reads a ResourceList on stdin`);
  refuseTerminalStdin('fn', [], io);
  const [stdin] = await readInputs(['-'], io, io.settings.maxInputBytes);
  const text = stdin!.text;
  if (isManifestStream(text)) {
    throw new InputError('stdin is a manifest stream, not a ResourceList: rollstamp fn reads the one ResourceList kpt or kustomize sends; for plain manifests run rollstamp stamp -');
  }
  const { maxReferences, maxKeyWork } = io.settings;
  const run = startListRun(text, { ...runStart(io), limits: readLimits(io), maxReferences, maxKeyWork });
  // A mistyped functionConfig key (`kpt fn eval -- onMising=warn`) gets the setting it is near, as --config does.
  if ('refused' in run) throw new InputError('message' in run.refused ? run.refused.message : summarize(run.refused.results.map(suggestSetting)));
  const hashKey = await loadHashKey(pluginConfig(run), io);
  const live = await readLiveSources(run, {}, io);
  const outcome = run.finish({ ...(live ?? {}), ...(hashKey ? { hashKey } : {}) });
  if (hasErrors(outcome.results)) throw new InputError(summarize(outcome.results.map(suggestSetting)));
  // kustomize ignores `results` but sets LOG_TO_STDERR for container functions: show warnings there.
  if (io.settings.env.LOG_TO_STDERR === 'true') printWarnings(outcome.results, io);
  await io.writeStdout(outcome.outputPieces);
  return 0;
}

/**
 * Plain manifests piped into `fn` (`kustomize build | rollstamp`): YAML whose top-level `kind:` lines name
 * something, none of them ResourceList. A JSON ResourceList has no such line, so it is never taken for one.
 */
function isManifestStream(text: string): boolean {
  const kinds = [...text.matchAll(/^kind:[ \t]*["']?([A-Za-z][\w]*)/gm)].map((m) => m[1]);
  return kinds.length > 0 && !kinds.includes('ResourceList');
}

/** `rollstamp fn` for the command list (commands/index.ts). */
export const FN_COMMAND: CommandModule = { help: FN_HELP, flags: [], run: runFn };
