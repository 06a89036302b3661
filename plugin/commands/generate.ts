// `rollstamp generate`: the Argo CD config management plugin's generate command. Renders the app directory,
// stamps, writes the stream. Any failure: non-zero exit and nothing on stdout — an empty success would make
// Argo CD prune the whole application.
import { RollstampError, UsageError, InputError } from '../process/errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../cli/flags.ts';
import { readAppSettings } from '../argocd/app-settings.ts';
import { detectRenderer, renderApp } from '../argocd/render.ts';
import { redactPaths } from '../argocd/redact-paths.ts';
import { rootsToShow } from '../argocd/repo-root.ts';
import { printWarnings, summarize } from '../output/result-lines.ts';
import { liveSettingsForGenerate } from '../live/live-sources.ts';
import { RunDeadline } from '../process/run-deadline.ts';
import { argocdParameterOf, envOf as env, setting, settingsOwnedBy } from '../settings/settings-table.ts';
import { stampFiles } from '../stamp-streams.ts';
import { refuseEmpty } from '../inputs/refuse-empty.ts';
import { hasErrors, joinStreams, toKubernetesJson } from '../../function/index.ts';
import type { CommandModule } from './command.ts';
import { type RunIo, type TimedRunIo, withDeadline } from '../settings/run-settings.ts';

/** The parameters an Application may set, as Argo CD spells them (the settings table's `app` rows). */
const APP_PARAMETERS = settingsOwnedBy('app').map(argocdParameterOf);

/** A setting's default, as the table has it. */
const def = (name: string): string => String(setting(name).default ?? '');
/** A byte count's default in MiB (`10 MiB`). */
const mebibytes = (name: string): string => `${Number(def(name)) / 1024 / 1024} MiB`;
/** The values of a setting other than its default (`missing|always`). */
const other = (name: string): string => (setting(name).values ?? []).filter((v) => v !== setting(name).default).join('|');

/** `generate`'s own flags (Argo CD runs it without any). */
export const GENERATE_FLAGS: readonly FlagSpec[] = [
  {
    name: 'render-only',
    type: 'boolean',
    help: 'print the render unstamped, after the same checks (two revisions\nof a pull request for rollstamp diff; action.yml)',
  },
];

export const GENERATE_HELP = `Usage: rollstamp generate [--render-only]

The Argo CD config management plugin command (see argocd/plugin.yaml and argocd/README.md). Run in the
Application's directory, it renders it — kustomize when a kustomization file exists (\`kustomize build\`, else
\`kubectl kustomize\`), helm when Chart.yaml exists (\`helm template --include-crds\` with Argo CD's release
name, namespace, KUBE_VERSION and KUBE_API_VERSIONS; \`helm dependency build\` first when charts/ lacks a
dependency), else every *.yaml, *.yml, *.json below it (leaving out documents marked
config.kubernetes.io/local-config: "true") — stamps the workloads, and prints the stream. On any failure it
prints nothing and exits non-zero.

Application settings (later wins): .rollstamp.yaml in the app directory (a RollstampConfig, or a ConfigMap
with the settings under data), plugin env ARGOCD_ENV_ROLLSTAMP_<NAME> (e.g. ROLLSTAMP_RENDERER=helm,
ROLLSTAMP_VALUES_FILES=values-prod.yaml), then parameters (${APP_PARAMETERS.slice(0, 4).join(', ')},
${APP_PARAMETERS.slice(4).join(', ')}). The output format is plugin env
ARGOCD_ENV_ROLLSTAMP_OUTPUT=yaml|json (default: the sidecar's ROLLSTAMP_OUTPUT, else yaml). The default
namespace is the destination namespace (ARGOCD_APP_NAMESPACE).

Operator settings (sidecar environment only): ${env('hashKey')} or ${env('hashKeyFile')},
${env('maxInputBytes')} (default ${mebibytes('maxInputBytes')}), ${env('renderTimeoutSeconds')} (default ${def('renderTimeoutSeconds')}: the deadline of the
whole run, render, live reads and stamping together),
${env('output')}=${other('output')} (the default output format), ${env('rendererStderr')}=${other('rendererStderr')} (show the renderer's own
error output), ${env('kustomizeBuildOptions')} (extra kustomize build flags, as argocd-cm
kustomize.buildOptions), ${env('helmAllowHttp')}=${other('helmAllowHttp')} (plain http:// chart repositories; default:
https://, oci:// and local only),
${env('live')}=${other('live')} (read Secrets and ConfigMaps from the cluster, in the destination namespace and
${env('liveNamespaces')} only; ${env('kubeconfig')} and ${env('kubeContext')}, else the in-cluster token),
${env('liveTimeoutSeconds')} (${def('liveTimeoutSeconds')}), ${env('liveDeadlineSeconds')} (${def('liveDeadlineSeconds')}, and within the run's deadline),
${env('maxReferences')} (per workload, ${def('maxReferences')}), ${env('maxLiveReads')} (per run, ${def('maxLiveReads')}), ${env('maxKeyWork')}
(keys hashed or reported per run after sharing, and paths of declared kinds read, ${def('maxKeyWork')}), ${env('maxKinds')}
(spec.kinds entries, ${def('maxKinds')}), ${env('maxKindPaths')} (paths per declared kind, ${def('maxKindPaths')}), ${env('maxPreviewRows')}
(kagent 1.x preview rows per run of explain and diff, ${def('maxPreviewRows')}), ${env('reader')}=${other('reader')} (read every
input with the yaml library: an escape hatch).

With --render-only it prints what it would stamp: the renderer's output (a directory's files joined), after
the same checks — no symlink out of the repository, no \`..\` escape, no helm home or plugin the repository
chose, no path of the machine in an error — and nothing else: no stamp, no live read, no hash key. A CI job
renders an untrusted pull request this way (action.yml, from a copy of each revision without .git).

Flags:
${flagsHelp(GENERATE_FLAGS)}

Exit status: 0 success, 1 a render or input error, 2 a bad setting.`;

export async function runGenerate(args: readonly string[], io: RunIo): Promise<number> {
  const { values, positionals } = parseFlags(args, GENERATE_FLAGS, 'generate');
  if (positionals.length > 0) throw new UsageError(`generate takes no arguments (got ${positionals[0]}); it renders the current directory`);
  // The run's one deadline, on the io the whole run is handed: the renderer, the live reads and the core read it there.
  const run = withDeadline(io, RunDeadline.fromSettings(io.settings));
  try {
    return await generate(run, values['render-only'] === true);
  } catch (err) {
    // No message shows where things are on the sidecar: paths in the repository are relative to it, the
    // others are replaced (#21). Operator settings such as ROLLSTAMP_HASH_KEY_FILE are named by variable.
    if (err instanceof RollstampError) err.message = redactPaths(err.message, rootsToShow(io));
    throw err;
  }
}

async function generate(io: TimedRunIo, renderOnly: boolean): Promise<number> {
  const { deadline } = io;
  const { config, output, settingsBytes } = await readAppSettings(io);
  deadline.check('reading settings');
  // .rollstamp.yaml counts against the input limit (it was checked against the whole limit on its own).
  const limit = io.settings.maxInputBytes - settingsBytes;
  if (limit <= 0) throw new InputError(`.rollstamp.yaml: input exceeds the limit of ${io.settings.maxInputBytes} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
  const renderer = detectRenderer(io.cwd, config);
  const files = await renderApp(renderer, config, io, limit);
  deadline.check(`rendering ${renderer}`);
  if (renderOnly) {
    // Written as rendered (#33): `rollstamp diff` reads it; an empty render is shown as such.
    await io.writeStdout(joinStreams(files.map((f) => f.text)));
    return 0;
  }
  // Like kustomize, a plain directory's local-config documents (rollstamp's own config, a Kptfile …) are
  // not objects to apply: Argo CD would try to.
  const run = await stampFiles(files, config, io, { dropLocalConfig: renderer === 'directory', live: liveSettingsForGenerate(io) });
  deadline.check('stamping');
  if (hasErrors(run.results)) throw new InputError(summarize(run.results));
  refuseEmpty(run, config.allowEmpty, { renderer });
  printWarnings(run.results, io);
  if (output === 'yaml') {
    await io.writeStdout(run.outputPieces);
    return 0;
  }
  // One JSON object per line (Argo CD reads concatenated JSON objects as well as YAML), with the values
  // Kubernetes would read from the YAML.
  const json = toKubernetesJson(run.outputPieces.join(''));
  if ('results' in json) throw new InputError(summarize(json.results));
  await io.writeStdout(json.text);
  return 0;
}

/** `rollstamp generate` for the command list (commands/index.ts). */
export const GENERATE_COMMAND: CommandModule = { help: GENERATE_HELP, flags: GENERATE_FLAGS, run: runGenerate };
