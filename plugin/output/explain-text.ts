// `rollstamp explain`'s text for people: each target, its hash and state, how it rolls, and each source with
// the keys used, where it resolved and a short digest; then the kagent 1.x preview and the results. Names and
// keys shown by shownName (Kubernetes' alphabet, else \uXXXX), never a value.
import { ESCAPED_NAME_NOTE, formatResult, type Kagent1xReport, printable, type Result, shownLabel, shownName, type SourceReport, targetId, type TargetReport, writtenTargetId } from '../../function/index.ts';
import { documentPlace } from './document-place.ts';
import { renderKagent1xText } from './kagent1x-explain.ts';

/** The report as text: one block per target, then the kagent 1.x preview and the results (STAMPED left out). */
export function renderExplainText(targets: readonly TargetReport[], results: readonly Result[], kagent1x: Kagent1xReport | undefined): string {
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
