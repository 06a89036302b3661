// `rollstamp stamp`: plain multi-document YAML in (files, directories, stdin), stamped stream out.
// Usable as a Helm post-renderer and in pipes after `kustomize build`. `--check` gates CI.
import { ALLOW_EMPTY_FLAG, CONFIG_FLAGS, CONFIG_FLAGS_HELP, configFromFlags, INPUT_FLAGS, inputPaths, liveFlags } from '../cli/config-flags.ts';
import { CheckFailed, InputError, UsageError } from '../process/errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../cli/flags.ts';
import { printWarnings, summarize } from '../output/result-lines.ts';
import { stampStreams } from '../stamp-streams.ts';
import { refuseEmpty } from '../inputs/refuse-empty.ts';
import { refuseTerminalStdin } from '../cli/terminal-hint.ts';
import { formatResult, hasErrors, resourceId, targetId } from '../../function/index.ts';
import { STAMP_OUTPUT } from '../output/stamp-formats.ts';
import { chosenFormat, outputFlag } from '../output/output-format.ts';
import type { CommandModule } from './command.ts';
import type { RunIo } from '../settings/run-settings.ts';

/** `stamp`'s own flags; the config flags follow them. */
export const STAMP_FLAGS: readonly FlagSpec[] = [
  { name: 'check', type: 'boolean', help: 'print no manifests; exit 3 if any stamp would change, naming those workloads\nin one line on stderr (CI over hydrated manifests)' },
  outputFlag(STAMP_OUTPUT),
  { name: 'allow-no-targets', type: 'boolean', help: 'with --check: succeed when no workload is a target (default: exit 1,\nso a mistyped --selector does not keep CI green)' },
  { name: 'quiet', short: 'q', type: 'boolean', help: 'do not print warnings' },
  ALLOW_EMPTY_FLAG,
  ...INPUT_FLAGS,
];

export const STAMP_HELP = `Usage: rollstamp stamp [flags] [PATH... | -]

Reads Kubernetes manifests (multi-document YAML or JSON files; directories are read recursively for
*.yaml, *.yml, *.json, leaving out documents marked config.kubernetes.io/local-config; no PATH or - reads
stdin), writes the hash of the Secrets and ConfigMaps each target
workload uses into its pod template (rollstamp.dev/hash), and prints the whole stream. Documents that did not
change are printed byte for byte as they were read.

A workload is a target when it has rollstamp.dev/enabled: "true" (annotation or label), matches --selector,
or --targets all is set; rollstamp.dev/enabled: "false" always opts out.

Flags:
${flagsHelp(STAMP_FLAGS)}
${CONFIG_FLAGS_HELP}

Examples:
  rollstamp stamp manifests/ > stamped.yaml
  kustomize build overlays/prod | rollstamp stamp -
  helm template app ./chart -n shop | rollstamp stamp -n shop -
  rollstamp stamp --check --selector restart-on-config-update=true hydrated/
  rollstamp stamp -o json manifests/ | jq -c 'select(.kind == "Deployment")'

Exit status: 0 success, 1 invalid input, no objects (without --allow-empty), --check with no target
workloads (without --allow-no-targets; kagent 1.x objects alone pass, as they are never stamped), a document
-o json cannot carry as Kubernetes reads it, or an error (one line on stderr; nothing on stdout), 2 bad usage,
3 --check found changes.`;

/** How to make a workload a target, as explain says it. */
const OPT_IN = 'opt in with rollstamp.dev/enabled: "true", --selector or --targets all';

export async function runStamp(args: readonly string[], io: RunIo): Promise<number> {
  const { values, positionals } = parseFlags(args, [...STAMP_FLAGS, ...CONFIG_FLAGS], 'stamp');
  if (values.check === true && values.output !== undefined) throw new UsageError(`--check prints no manifests, so -o ${String(values.output)} has nothing to format; give one`);
  const paths = inputPaths(values, positionals);
  refuseTerminalStdin('stamp', paths, io);
  const config = await configFromFlags(values, io);
  // A directory's local-config documents (a RollstampConfig, a Kptfile) are settings, not objects to apply:
  // they are left out of the output, as generate and kustomize leave them out (#23).
  const run = await stampStreams(paths, config, io, liveFlags(values), { dropLocalConfigFromDirectories: true });
  const { results } = run;
  if (hasErrors(results)) throw new InputError(summarize(results));
  refuseEmpty(run, values['allow-empty'] === true, { paths });
  if (!values.quiet) printWarnings(results, io);
  // kagent 1.x objects are passed through: one line says so and why, once per run (#35).
  const kagent1x = results.find((r) => r.tags.code === 'KAGENT_1X_NOT_STAMPED');
  if (kagent1x && !values.quiet) io.writeStderr(`rollstamp: ${formatResult(kagent1x)}\n`);
  // An empty input allowed by --allow-empty has no targets by nature: only objects without one count here.
  // Neither has a render of kagent 1.x objects alone: nothing in it is stamped by design (#20), so no
  // selector can have missed.
  const noTargets = run.objects > 0 && run.targets.length === 0 && !run.onlyKagent1x;
  if (noTargets && values.check && values['allow-no-targets'] !== true) {
    throw new InputError(`--check found no target workloads (a mistyped --selector?): ${OPT_IN}, or pass --allow-no-targets`);
  }
  // A result about an object (an opted-in Job, a Service with no pod template) already says why nothing was
  // stamped; the opt-in hint is for a stream where nothing was chosen at all.
  const explained = results.some((r) => r.resourceRef !== undefined);
  if (noTargets && !explained && !values.quiet) io.writeStderr(`rollstamp: warning: no target workloads: ${OPT_IN}\n`);
  if (values.check) {
    const changed = run.targets.filter((t) => t.changed).map(targetId);
    if (changed.length > 0) throw new CheckFailed(`${changed.length} workload(s) would change: ${changed.join(', ')}`);
    return 0;
  }
  await io.writeStdout(chosenFormat(STAMP_OUTPUT, values).render(run.outputPieces));
  return 0;
}


/** `rollstamp stamp` for the command list (commands/index.ts). */
export const STAMP_COMMAND: CommandModule = { help: STAMP_HELP, flags: [...STAMP_FLAGS, ...CONFIG_FLAGS], run: runStamp };
