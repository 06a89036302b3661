// `rollstamp explain`: for every target, the sources it uses, the keys, where each resolved and short
// digests — names and digests only, never a value.
import { parseArgs } from 'node:util';
import type { SourceReport, TargetReport } from '../../function/index.ts';
import { formatResult, hasErrors, resourceId, type Result } from '../../function/results.ts';
import { CONFIG_FLAG_OPTIONS, CONFIG_FLAGS_HELP, overridesFromFlags } from '../config-flags.ts';
import type { Io } from '../io.ts';
import { configFrom, readConfigFile } from '../settings.ts';
import { liveSettingsFromFlags } from '../live-sources.ts';
import { ALLOW_EMPTY_HELP, refuseEmpty, stampStreams } from '../stamp-streams.ts';

export const EXPLAIN_HELP = `Usage: rollstamp explain [flags] [PATH... | -]

Shows what rollstamp would stamp and why: for every target workload, each Secret and ConfigMap it uses, the
keys used, where each resolved (bundle, missing, ignored) and a short digest. Prints no value, ever.
Reads the same inputs as \`rollstamp stamp\`.

Flags:
      --json                    machine-readable output (full digests)
${ALLOW_EMPTY_HELP}
${CONFIG_FLAGS_HELP}

Examples:
  rollstamp explain manifests/
  kustomize build overlays/prod | rollstamp explain --json - | jq '.targets[].hash'

Exit status: 0 success, 1 invalid input, no objects (without --allow-empty) or an error result (all results
are listed), 2 bad usage.`;

export async function runExplain(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { ...CONFIG_FLAG_OPTIONS, json: { type: 'boolean' }, 'allow-empty': { type: 'boolean' } },
  });
  const file = values.config === undefined ? undefined : await readConfigFile(values.config, io);
  const config = configFrom(file, overridesFromFlags(values), values.config ?? '');
  const run = await stampStreams(positionals, config, io, liveSettingsFromFlags(values));
  const { outcome } = run;
  const failed = hasErrors(outcome.results);
  if (!failed) refuseEmpty(run, positionals, values['allow-empty']);
  if (values.json) {
    const doc = { apiVersion: 'rollstamp.dev/v1alpha1', kind: 'Explanation', targets: outcome.targets, results: outcome.results };
    await io.writeStdout(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    await io.writeStdout(renderText(outcome.targets, outcome.results));
  }
  if (failed) for (const r of outcome.results) if (r.severity === 'error') io.writeStderr(`rollstamp: ${formatResult(r)}\n`);
  return failed ? 1 : 0;
}

function renderText(targets: readonly TargetReport[], results: readonly Result[]): string {
  const lines: string[] = [];
  const broken = results.some((r) => r.severity === 'error');
  if (targets.length === 0 && broken) lines.push('No report: the input has errors (listed below).');
  else if (targets.length === 0) lines.push('No target workloads. Opt in with rollstamp.dev/enabled: "true", --selector or --targets all.');
  for (const t of targets) {
    const file = t.file ? `  (${t.file.path}${t.file.index ? `#${t.file.index}` : ''})` : '';
    lines.push(`${resourceId(t.resourceRef)}${file}`);
    const state = t.previous === undefined ? 'new' : t.changed ? `changed, was ${short(t.previous)}` : 'unchanged';
    lines.push(`  ${t.field} = ${t.hash}  (${state})`);
    if (t.sources.length === 0) lines.push('  uses no Secret or ConfigMap');
    for (const s of t.sources) lines.push(...renderSource(s));
  }
  const notes = results.filter((r) => r.severity !== 'info' || r.tags.code !== 'STAMPED');
  if (notes.length > 0) lines.push('', 'Results:', ...notes.map((r) => `  ${formatResult(r)}`));
  return `${lines.join('\n')}\n`;
}

function renderSource(s: SourceReport, indent = '  '): string[] {
  const keys = s.keys.map((k) => (k.present ? k.key : `${k.key} (absent)`));
  const from = s.producedBy && s.from === 'producer' ? `producer: ${s.producedBy}` : s.producedBy ? `${s.from}, sops` : s.from;
  const flags = [from, s.optional ? 'optional' : ''].filter((f) => f !== '').join(', ');
  const lines = [`${indent}${s.cls} ${s.namespace}/${s.name}  [${flags}]  ${s.digest ? short(s.digest) : 'not hashed'}`];
  if (s.cls === 'Secret' || s.cls === 'ConfigMap') {
    const none = s.from === 'producer' ? ' (as the producer makes them)' : ' (none)';
    lines.push(`${indent}  ${s.whole ? `all keys${keys.length ? `: ${keys.join(', ')}` : none}` : `keys: ${keys.join(', ')}`}`);
  }
  lines.push(...s.fields.map((f) => `${indent}  via ${f}`));
  // A ModelConfig is hashed as a unit: show what it is made of.
  for (const inner of s.sources ?? []) lines.push(...renderSource(inner, `${indent}    `));
  return lines;
}

/** `sha256:0123456789ab` — enough to tell digests apart by eye. */
function short(digest: string): string {
  const [alg, hex] = digest.split(':');
  return `${alg}:${(hex ?? '').slice(0, 12)}`;
}
