// The stamp diff as `rollstamp diff -o` prints it (#16; the rows are output/diff-formats.ts): an aligned text
// table, a Markdown table for a pull-request comment, and JSON (schemas/stamp-diff.schema.json). Names, keys and
// digests only; text and Markdown show each name and key by shownName (Kubernetes' alphabet, else \uXXXX) and
// say why (#33), JSON keeps the values, JSON-escaped.
import { ESCAPED_NAME_NOTE, isShownOtherwise, type KeyChange, printable, printableJson, shownLabel, shownName, type SourceChange, type StampDiff, targetId, type TargetDiff, writtenTargetId } from '../../function/index.ts';

/** One line that says how many targets roll, appear, disappear and may roll. */
export function diffSummary(diff: StampDiff): string {
  const { rolls, appears, disappears } = diff.summary;
  const mayRoll = diff.summary['may-roll'] ?? 0;
  if (rolls + appears + disappears + mayRoll === 0) return 'Nothing rolls.';
  const parts = [`${rolls} ${rolls === 1 ? 'target rolls' : 'targets roll'}`];
  if (appears > 0) parts.push(`${appears} ${appears === 1 ? 'appears' : 'appear'}`);
  if (disappears > 0) parts.push(`${disappears} ${disappears === 1 ? 'disappears' : 'disappear'}`);
  if (mayRoll > 0) parts.push(`${mayRoll} may roll`);
  return `${parts.join(', ')}.`;
}

/**
 * What the renders hid, said once under the table (#38): masked values (Argo CD's API shows every Secret value
 * as `++++++++`, as argocd-diff-preview's renders do), and what decided instead.
 */
export function hiddenNote(diff: StampDiff): string | undefined {
  const masked = diff.targets.some((t) => t.sources.some(function hid(s): boolean {
    return s.unknown === 'masked' || (s.sources ?? []).some(hid);
  }));
  const mayRoll = diff.targets.some((t) => t.change === 'may-roll');
  if (!masked && !diff.targets.some((t) => t.basis === 'stamps')) return undefined;
  const lines = [];
  if (masked) lines.push('Secret values are masked in these renders (++++++++, as Argo CD\'s API shows them): a target rolls when the stamp its render carries changed; which key changed cannot be told.');
  else lines.push('A source is in neither render: a target rolls when the stamp its render carries changed.');
  if (mayRoll) lines.push('A target that "may roll" has no stamp in one render to compare: render both with the rollstamp plugin.');
  return lines.join(' ');
}

/** The JSON document (`kind: StampDiff`): full digests, stable field names; see the schema. */
export function renderJson(diff: StampDiff): string {
  const doc = { apiVersion: 'rollstamp.dev/v1alpha1', kind: 'StampDiff', summary: diff.summary, targets: diff.targets };
  return `${printableJson(JSON.stringify(doc, null, 2))}\n`;
}

/** One row per changed source (a ModelConfig's own sources flattened under it). */
interface Row {
  target: string;
  change: string;
  source: string;
  /** `source` for Markdown: each name a code span. */
  sourceMd: string;
  from: string;
  fromMd: string;
  keys: KeyChange[];
  /** The renders hide the source (SourceChange.unknown): its keys cannot be compared. */
  unknown?: 'masked' | 'absent';
  /** A hidden source: the keys the stamp covers. */
  covers?: string[];
}

/** `rolls`, or `rolls (recreate)` when a changed stamp does not roll the pods a few at a time (docs/kinds.md). */
function changeOf(t: TargetDiff): string {
  if (t.change === 'may-roll') return 'may roll';
  return t.change === 'rolls' && t.rollout && t.rollout.how !== 'rolling' ? `rolls (${t.rollout.how})` : t.change;
}

/** The KEYS cell: the keys that changed, or what the renders hid of the source and the keys the stamp covers. */
function keysCell(r: Row, name: (key: string) => string): string {
  const covers = r.covers && r.covers.length > 0 ? `: ${r.covers.map(name).join(', ')}` : '';
  if (r.unknown === 'masked') return `masked${covers}`;
  if (r.unknown === 'absent') return `in neither render${covers}`;
  return keysOf(r.keys, name);
}

function rowsOf(t: TargetDiff): Row[] {
  const target = targetId(t);
  const rolls = changeOf(t);
  const sources = t.sources.flatMap((s) => flatten(s, '', ''));
  const none = { source: '', sourceMd: '', from: '', fromMd: '', keys: [] };
  if (t.change !== 'rolls' && t.change !== 'may-roll') return [{ target, change: t.change, ...none }];
  if (sources.length === 0) {
    const why = '(the hash differs, no source does)';
    return [{ target, change: rolls, ...none, source: why, sourceMd: why }];
  }
  return sources.map((s, i) => ({ target: i === 0 ? target : '', change: i === 0 ? rolls : '', ...s }));
}

function flatten(s: SourceChange, prefix: string, prefixMd: string): Array<Omit<Row, 'target' | 'change'>> {
  const id = `${shownName(s.namespace)}/${shownName(s.name)}`;
  const label = `${prefix}${shownName(s.kind)} ${id}`;
  const labelMd = `${prefixMd}${shownName(s.kind)} ${mdCode(id)}`;
  if (s.sources && s.sources.length > 0) return s.sources.flatMap((inner) => flatten(inner, `${label} › `, `${labelMd} › `));
  const tail = s.change === 'changed' ? '' : ` (${s.change === 'added' ? 'now used' : 'no longer used'})`;
  const hidden = s.unknown === 'masked' ? ', masked' : '';
  return [
    {
      source: `${label}${tail}`,
      sourceMd: `${labelMd}${tail}`,
      from: `${fromOf(s, shownLabel)}${hidden}`,
      fromMd: `${fromOf(s, (p) => mdCode(shownLabel(p)))}${hidden}`,
      keys: s.keys,
      ...(s.unknown ? { unknown: s.unknown } : {}),
      ...(s.covers ? { covers: s.covers } : {}),
    },
  ];
}

/** `bundle`, `missing → bundle`, `producer: ExternalSecret shop/db` (the producer shown by `name`). */
function fromOf(s: SourceChange, name: (producer: string) => string): string {
  const one = (from: string | undefined): string => (from === 'producer' && s.producedBy ? `producer: ${name(s.producedBy)}` : (from ?? ''));
  if (s.from.old !== undefined && s.from.new !== undefined && s.from.old !== s.from.new) return `${one(s.from.old)} → ${one(s.from.new)}`;
  return one(s.from.new ?? s.from.old);
}

/** `changed: password; added: url`, each key name shown by `name`. */
function keysOf(keys: readonly KeyChange[], name: (key: string) => string): string {
  const groups: string[] = [];
  for (const change of ['changed', 'added', 'removed'] as const) {
    const names = keys.filter((k) => k.change === change).map((k) => name(k.key));
    if (names.length > 0) groups.push(`${change}: ${names.join(', ')}`);
  }
  return groups.join('; ');
}

/** The summary line, then an aligned table: TARGET, STAMP, SOURCE, FROM, KEYS (and why a name shows `\uXXXX`). */
export function renderText(diff: StampDiff): string {
  const rows = diff.targets.flatMap(rowsOf);
  if (rows.length === 0) return `${diffSummary(diff)}\n`;
  const table: string[][] = [['TARGET', 'STAMP', 'SOURCE', 'FROM', 'KEYS'], ...rows.map((r) => [r.target, r.change, r.source, r.from, keysCell(r, shownName)].map(printable))];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => [...row[c]!].length)));
  const lines = table.map((row) => row.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join('  ').trimEnd());
  const note = hiddenNote(diff);
  return `${diffSummary(diff)}\n\n${lines.join('\n')}\n${note ? `\n${note}\n` : ''}${escapedNote(diff, '')}`;
}

/**
 * A heading line with the summary, then one table row per target: workload, why, keys.
 * - Every name and key is a code span (mdCode): GitHub makes no link, mention, issue reference, strikethrough
 *   or emoji inside code, and nothing in a name can end the span or the table cell (#21).
 */
export function renderMarkdown(diff: StampDiff): string {
  const head = `**rollstamp diff**: ${diffSummary(diff)}`;
  if (diff.targets.length === 0) return `${head}\n`;
  const lines = ['| Workload | Why | Keys |', '|---|---|---|'];
  for (const t of diff.targets) {
    const rows = rowsOf(t);
    const why = rows.map((r) => (t.change === 'rolls' || t.change === 'may-roll' ? whyOf(r) : t.change)).join('<br>');
    const keys = rows.map((r) => keysCell(r, (k) => mdCode(shownName(k)))).join('<br>');
    const rolls = t.change === 'may-roll' ? ' (may roll)' : changeOf(t) === t.change ? '' : ` (${t.rollout!.how})`;
    lines.push(`| ${mdCode(targetId(t))}${rolls} | ${why} | ${keys} |`);
  }
  const note = hiddenNote(diff);
  return `${head}\n\n${lines.join('\n')}\n${note ? `\n${note}\n` : ''}${escapedNote(diff, '_')}`;
}

/** ESCAPED_NAME_NOTE on its own paragraph (in `emphasis`), when the diff shows a name or key otherwise than written. */
function escapedNote(diff: StampDiff, emphasis: string): string {
  const otherwise = (s: SourceChange): boolean =>
    [s.kind, s.namespace, s.name, ...s.keys.map((k) => k.key), ...(s.covers ?? [])].some(isShownOtherwise) ||
    (s.producedBy !== undefined && shownLabel(s.producedBy) !== s.producedBy) ||
    (s.sources ?? []).some(otherwise);
  const shown = diff.targets.some((t) => targetId(t) !== writtenTargetId(t) || t.sources.some(otherwise));
  return shown ? `\n${emphasis}${ESCAPED_NAME_NOTE}${emphasis}\n` : '';
}

function whyOf(r: Row): string {
  return r.fromMd === '' ? r.sourceMd : `${r.sourceMd} (${r.fromMd})`;
}

/**
 * A Markdown code span holding `text` exactly, safe inside a GFM table cell: control and format characters as
 * `\uXXXX` (printable); `|` as `\|` (the table reads that as a pipe of the cell, even inside code), and a
 * backslash before a pipe as `\u005c` (the table would read `\\|` as an escaped backslash and end the cell); a fence one
 * backtick longer than any run in the text, padded with a space when the text starts or ends with a backtick
 * or a space (CommonMark strips one space each side). An empty name shows as one space, never as a bare
 * `` that would read as a fence.
 */
export function mdCode(text: string): string {
  const body = printable(text).replace(/\\(?=\|)/g, '\\u005c').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // Spaces only are kept as they are (CommonMark strips nothing then); an empty span cannot be written.
  if (body === '') return '` `';
  const pad = /^ +$/.test(body) ? '' : /^[` ]|[` ]$/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}
