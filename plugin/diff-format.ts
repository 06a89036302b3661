// The three outputs of `rollstamp diff` (#16): an aligned text table, a Markdown table for a pull-request
// comment, and JSON (schemas/stamp-diff.schema.json). They print names, keys and digests only.
import { type KeyChange, resourceId, type SourceChange, type StampDiff, type TargetDiff } from '../function/index.ts';

export const DIFF_FORMATS = ['text', 'markdown', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** One line that says how many targets roll, appear and disappear. */
export function diffSummary(diff: StampDiff): string {
  const { rolls, appears, disappears } = diff.summary;
  if (rolls + appears + disappears === 0) return 'Nothing rolls.';
  const parts = [`${rolls} ${rolls === 1 ? 'target rolls' : 'targets roll'}`];
  if (appears > 0) parts.push(`${appears} ${appears === 1 ? 'appears' : 'appear'}`);
  if (disappears > 0) parts.push(`${disappears} ${disappears === 1 ? 'disappears' : 'disappear'}`);
  return `${parts.join(', ')}.`;
}

/** The JSON document (`kind: StampDiff`): full digests, stable field names; see the schema. */
export function renderJson(diff: StampDiff): string {
  const doc = { apiVersion: 'rollstamp.dev/v1alpha1', kind: 'StampDiff', summary: diff.summary, targets: diff.targets };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** One row per changed source (a ModelConfig's own sources flattened under it). */
interface Row {
  target: string;
  change: string;
  source: string;
  from: string;
  keys: KeyChange[];
}

/** `rolls`, or `rolls (recreate)` when a changed stamp does not roll the pods a few at a time (docs/kinds.md). */
function changeOf(t: TargetDiff): string {
  return t.change === 'rolls' && t.rollout && t.rollout.how !== 'rolling' ? `rolls (${t.rollout.how})` : t.change;
}

function rowsOf(t: TargetDiff): Row[] {
  const target = resourceId(t.resourceRef);
  const rolls = changeOf(t);
  const sources = t.sources.flatMap((s) => flatten(s, ''));
  if (t.change !== 'rolls') return [{ target, change: t.change, source: '', from: '', keys: [] }];
  if (sources.length === 0) return [{ target, change: rolls, source: '(the hash differs, no source does)', from: '', keys: [] }];
  return sources.map((s, i) => ({ target: i === 0 ? target : '', change: i === 0 ? rolls : '', ...s }));
}

function flatten(s: SourceChange, prefix: string): Array<Omit<Row, 'target' | 'change'>> {
  const label = `${prefix}${s.kind} ${s.namespace}/${s.name}`;
  if (s.sources && s.sources.length > 0) return s.sources.flatMap((inner) => flatten(inner, `${label} › `));
  const what = s.change === 'changed' ? label : `${label} (${s.change === 'added' ? 'now used' : 'no longer used'})`;
  return [{ source: what, from: fromOf(s), keys: s.keys }];
}

/** `bundle`, `missing → bundle`, `producer: ExternalSecret shop/db`. */
function fromOf(s: SourceChange): string {
  const one = (from: string | undefined): string => (from === 'producer' && s.producedBy ? `producer: ${s.producedBy}` : (from ?? ''));
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

/** The summary line, then an aligned table: TARGET, STAMP, SOURCE, FROM, KEYS. */
export function renderText(diff: StampDiff): string {
  const rows = diff.targets.flatMap(rowsOf);
  if (rows.length === 0) return `${diffSummary(diff)}\n`;
  const table: string[][] = [['TARGET', 'STAMP', 'SOURCE', 'FROM', 'KEYS'], ...rows.map((r) => [r.target, r.change, r.source, r.from, keysOf(r.keys, (k) => k)].map(printable))];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => [...row[c]!].length)));
  const lines = table.map((row) => row.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join('  ').trimEnd());
  return `${diffSummary(diff)}\n\n${lines.join('\n')}\n`;
}

/** A heading line with the summary, then one table row per target: workload, why, keys. */
export function renderMarkdown(diff: StampDiff): string {
  const head = `**rollstamp diff**: ${diffSummary(diff)}`;
  if (diff.targets.length === 0) return `${head}\n`;
  const lines = ['| Workload | Why | Keys |', '|---|---|---|'];
  for (const t of diff.targets) {
    const rows = rowsOf(t);
    const why = rows.map((r) => (t.change === 'rolls' ? whyOf(r) : t.change)).join('<br>');
    const keys = rows.map((r) => keysOf(r.keys, code)).join('<br>');
    const rolls = changeOf(t) === t.change ? '' : ` (${t.rollout!.how})`;
    lines.push(`| ${code(resourceId(t.resourceRef))}${rolls} | ${why} | ${keys} |`);
  }
  return `${head}\n\n${lines.join('\n')}\n`;
}

function whyOf(r: Row): string {
  if (r.from === '') return escapeHtml(r.source);
  return `${escapeHtml(r.source)} (${escapeHtml(r.from)})`;
}

/** A code span that no name can break out of: HTML `<code>` with every special character escaped. */
function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}

/** Escapes what Markdown tables and HTML would read (`|`, `<`, `&`, backticks, line breaks). */
function escapeHtml(text: string): string {
  return printable(text).replace(/[&<>"'`|\\*_[\]]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Control characters (a line break in a key name, C1, U+2028/U+2029) as `\uXXXX`, so a cell stays one line. */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
