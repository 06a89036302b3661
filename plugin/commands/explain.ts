// `rollstamp explain`: for every target, the sources it uses, the keys, where each resolved and short
// digests — names and digests only, never a value.
import { ALLOW_EMPTY_FLAG, CONFIG_FLAGS, CONFIG_FLAGS_HELP, configFromFlags, INPUT_FLAGS, inputPaths, liveFlags } from '../cli/config-flags.ts';
import { UsageError } from '../process/errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../cli/flags.ts';
import { stampStreams } from '../stamp-streams.ts';
import { refuseEmpty } from '../inputs/refuse-empty.ts';
import { refuseTerminalStdin } from '../cli/terminal-hint.ts';
import { EXPLAIN_OUTPUT } from '../output/explain-formats.ts';
import { chosenFormat, outputFlag } from '../output/output-format.ts';
import { formatResult, hasErrors } from '../../function/index.ts';
import type { CommandModule } from './command.ts';
import type { RunIo } from '../settings/run-settings.ts';

/** `explain`'s own flags; the config flags follow them. */
export const EXPLAIN_FLAGS: readonly FlagSpec[] = [
  outputFlag(EXPLAIN_OUTPUT),
  { name: 'json', type: 'boolean', help: 'the same as -o json' },
  ALLOW_EMPTY_FLAG,
  ...INPUT_FLAGS,
];

export const EXPLAIN_HELP = `Usage: rollstamp explain [flags] [PATH... | -]

Shows what rollstamp would stamp and why, as a dry run (it writes nothing): for every target workload, the
file it is in (and which document of the file, counted from 1, when not the first), its hash and whether a
stamp would add or change it (new, changed, unchanged), each Secret and ConfigMap it uses, the keys used, where each resolved and a short digest, and how a changed stamp reaches the pods
(rolling, recreate, on-delete, next-job or never, with the operator's reason; docs/kinds.md). Where a source resolved: bundle (the input),
producer (an ExternalSecret, SealedSecret, Certificate … in the input that makes it), cluster (read live,
with --live), missing, or ignored (rollstamp.dev/ignore). Prints no value, ever. Reads the same inputs as
\`rollstamp stamp\`. With -o json or yaml: an Explanation document whose wouldChange lists the targets a
stamp would change, each source named by kind, namespace and name. kagent 1.x objects are never stamped:
for each 1.x Agent, explain lists its revision inputs (the chain to each Secret, ConfigMap and object, and
whether a change recompiles it or applies live), and for each 1.x ModelConfig the status.secretHash kagent
will report, to compare with kubectl (the \`kagent\` member of the JSON document). A result names its
document as FILE#N, N counted from 0 as kpt's file.index (and the JSON document's file.index) count.

Flags:
${flagsHelp(EXPLAIN_FLAGS)}
${CONFIG_FLAGS_HELP}

Examples:
  rollstamp explain manifests/
  kustomize build overlays/prod | rollstamp explain -o json - | jq '.wouldChange'

Exit status: 0 success, 1 invalid input, no objects (without --allow-empty) or an error result (all results
are listed), 2 bad usage.`;

export async function runExplain(args: readonly string[], io: RunIo): Promise<number> {
  const { values, positionals } = parseFlags(args, [...EXPLAIN_FLAGS, ...CONFIG_FLAGS], 'explain');
  // --json is the same as -o json: it names that row, and an -o that disagrees is refused.
  const alias = values.json === true ? 'json' : undefined;
  if (alias !== undefined && values.output !== undefined && values.output !== alias) {
    throw new UsageError(`--json and -o ${String(values.output)} disagree; give one`);
  }
  const format = chosenFormat(EXPLAIN_OUTPUT, values, alias);
  const paths = inputPaths(values, positionals);
  refuseTerminalStdin('explain', paths, io);
  const config = await configFromFlags(values, io);
  const run = await stampStreams(paths, config, io, liveFlags(values), { keyDetail: true, kagentPreview: true, write: false });
  const outcome = run;
  const failed = hasErrors(outcome.results);
  if (!failed) refuseEmpty(run, values['allow-empty'] === true, { paths });
  await io.writeStdout(format.render(outcome));
  if (failed) for (const r of outcome.results) if (r.severity === 'error') io.writeStderr(`rollstamp: ${formatResult(r)}\n`);
  return failed ? 1 : 0;
}

/** `rollstamp explain` for the command list (commands/index.ts). */
export const EXPLAIN_COMMAND: CommandModule = { help: EXPLAIN_HELP, flags: [...EXPLAIN_FLAGS, ...CONFIG_FLAGS], run: runExplain };
