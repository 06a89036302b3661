// `rollstamp explain`: for every target, the sources it uses, the keys, where each resolved and short
// digests — names and digests only, never a value.
import { ALLOW_EMPTY_FLAG, CONFIG_FLAGS, CONFIG_FLAGS_HELP, configFromFlags, INPUT_FLAGS, inputPaths, liveFlags } from '../config-flags.ts';
import { UsageError } from '../errors.ts';
import { explanationOf, formatExplanation } from '../explain-document.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../flags.ts';
import type { Io } from '../io.ts';
import { liveSettingsFromFlags } from '../live-sources.ts';
import { refuseEmpty, stampStreams } from '../stamp-streams.ts';
import { refuseTerminalStdin } from '../terminal-hint.ts';
import { renderKagent1xText } from '../kagent1x-explain.ts';
import { documentPlace } from '../document-place.ts';
import { ESCAPED_NAME_NOTE, formatResult, hasErrors, type Kagent1xReport, printable, type Result, shownLabel, shownName, type SourceReport, targetId, type TargetReport, writtenTargetId } from '../../function/index.ts';
import type { CommandModule } from './command.ts';

/** `explain`'s own flags; the config flags follow them. */
export const EXPLAIN_FLAGS: readonly FlagSpec[] = [
  { name: 'output', short: 'o', type: 'string', values: ['text', 'json', 'yaml'], help: 'text for people (default); json or yaml for machines (full digests)' },
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

export async function runExplain(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, [...EXPLAIN_FLAGS, ...CONFIG_FLAGS], 'explain');
  if (values.json === true && values.output !== undefined && values.output !== 'json') {
    throw new UsageError(`--json and -o ${String(values.output)} disagree; give one`);
  }
  const format = values.json === true ? 'json' : ((values.output as 'text' | 'json' | 'yaml' | undefined) ?? 'text');
  const paths = inputPaths(values, positionals);
  refuseTerminalStdin('explain', paths, io);
  const config = await configFromFlags(values, io);
  const run = await stampStreams(paths, config, io, liveSettingsFromFlags(liveFlags(values)), { keyDetail: true, kagentPreview: true, write: false });
  const outcome = run;
  const failed = hasErrors(outcome.results);
  if (!failed) refuseEmpty(run, paths, values['allow-empty'] === true);
  if (format === 'text') await io.writeStdout(renderText(outcome.targets, outcome.results, outcome.kagent1x));
  else await io.writeStdout(formatExplanation(explanationOf(outcome.targets, outcome.results, outcome.kagent1x), format));
  if (failed) for (const r of outcome.results) if (r.severity === 'error') io.writeStderr(`rollstamp: ${formatResult(r)}\n`);
  return failed ? 1 : 0;
}

function renderText(targets: readonly TargetReport[], results: readonly Result[], kagent1x: Kagent1xReport | undefined): string {
  const lines: string[] = [];
  const broken = results.some((r) => r.severity === 'error');
  const previewed = (kagent1x?.agents.length ?? 0) + (kagent1x?.modelConfigs.length ?? 0) > 0;
  if (targets.length === 0 && broken) lines.push('No report: the input has errors (listed below).');
  else if (targets.length === 0 && !previewed) lines.push('No target workloads. Opt in with rollstamp.dev/enabled: "true", --selector or --targets all.');
  // Names and keys as Kubernetes spells them, else \uXXXX; why is said once when any is shown so (#33).
  const show = new Shown();
  for (const t of targets) {
    const file = documentPlace(t.file);
    lines.push(`${show.as(targetId, t, writtenTargetId(t))}${file}`);
    const state = t.previous === undefined ? 'new' : t.changed ? `changed, was ${short(t.previous)}` : 'unchanged';
    lines.push(`  ${t.field} = ${t.hash}  (${state})`);
    // How a changed stamp reaches the pods (docs/kinds.md): said for every workload, with the operator's reason.
    if (t.rollout) lines.push(`  rolls: ${t.rollout.how} (${t.rollout.why})`);
    if (t.sources.length === 0) lines.push('  uses no Secret or ConfigMap');
    for (const s of t.sources) pushAll(lines, renderSource(s, show));
  }
  if (show.otherwise) lines.push('', ESCAPED_NAME_NOTE);
  // Appended line by line: a long report spread into push() overflows the stack (#33).
  if (kagent1x) pushAll(lines, renderKagent1xText(kagent1x));
  const notes = results.filter((r) => r.severity !== 'info' || r.tags.code !== 'STAMPED');
  if (notes.length > 0) lines.push('', 'Results:');
  for (const r of notes) lines.push(`  ${formatResult(r)}`);
  return `${lines.map(printable).join('\n')}\n`; // names and keys from input, as printable text (#21)
}

/** Appends `more` to `lines` without spreading it into arguments. */
function pushAll(lines: string[], more: readonly string[]): void {
  for (const line of more) lines.push(line);
}

/** Names shown by shownName (or a label by shownLabel), remembering whether any was shown otherwise than written. */
class Shown {
  otherwise = false;

  as<T>(show: (value: T) => string, value: T, written: string): string {
    const shown = show(value);
    if (shown !== written) this.otherwise = true;
    return shown;
  }

  name(name: string): string {
    return this.as(shownName, name, name);
  }
}

function renderSource(s: SourceReport, show: Shown, indent = '  '): string[] {
  const keys = s.keys.map((k) => (k.present ? show.name(k.key) : `${show.name(k.key)} (absent)`));
  const from = s.producedBy && s.from === 'producer' ? `producer: ${show.as(shownLabel, s.producedBy, s.producedBy)}` : s.producedBy ? `${s.from}, sops` : s.from;
  const flags = [from, s.masked ? 'masked' : '', s.optional ? 'optional' : ''].filter((f) => f !== '').join(', ');
  const lines = [`${indent}${s.cls} ${show.name(s.namespace)}/${show.name(s.name)}  [${flags}]  ${s.digest ? short(s.digest) : 'not hashed'}`];
  if (s.cls === 'Secret' || s.cls === 'ConfigMap') {
    const none = s.from === 'producer' ? ' (as the producer makes them)' : ' (none)';
    lines.push(`${indent}  ${s.whole ? `all keys${keys.length ? `: ${keys.join(', ')}` : none}` : `keys: ${keys.join(', ')}`}`);
  }
  lines.push(...s.fields.map((f) => `${indent}  via ${f}`));
  // A ModelConfig is hashed as a unit: show what it is made of.
  for (const inner of s.sources ?? []) lines.push(...renderSource(inner, show, `${indent}    `));
  return lines;
}

/** `sha256:0123456789ab` — enough to tell digests apart by eye. */
function short(digest: string): string {
  const [alg, hex] = digest.split(':');
  return `${alg}:${(hex ?? '').slice(0, 12)}`;
}

/** `rollstamp explain` for the command list (commands/index.ts). */
export const EXPLAIN_COMMAND: CommandModule = { help: EXPLAIN_HELP, flags: [...EXPLAIN_FLAGS, ...CONFIG_FLAGS], run: runExplain };
