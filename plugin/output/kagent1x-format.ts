// `rollstamp diff` over kagent 1.x (#20, #35): the Agents a change keeps from compiling, recompiles or applies
// live, as an aligned text table, Markdown rows for a pull-request comment, and the `kagent` member of the JSON
// document. Names and keys only: no value, no digest of one.
import { type AgentDiff, type InputChange, type Kagent1xDiff, type Kagent1xFailure, type KeyChange, printable, resourceId } from '../../function/index.ts';
import { mdCode } from './diff-format.ts';

/** Said once wherever 1.x Agents are previewed: what a recreation does, which manifests rarely show. */
export const RECREATE_NOTE =
  'kagent 1.x: an object an Agent compiles from, or a ConfigMap its prompt reads, deleted and created again gets a new UID and so a new ' +
  'revision, even unchanged; a Secret does not (the egress gateway reads it live). Renders without metadata.uid cannot show a recreation.';

/** One line: how many 1.x Agents will not compile, recompile, apply live, appear and disappear. */
export function agentSummary(diff: Kagent1xDiff): string {
  const s = diff.summary;
  const parts: string[] = [];
  if (s['will-not-compile'] > 0) parts.push(`${s['will-not-compile']} ${s['will-not-compile'] === 1 ? 'agent' : 'agents'} will not compile`);
  if (s.recompiles > 0) parts.push(`${s.recompiles} ${s.recompiles === 1 ? 'agent recompiles' : 'agents recompile'}`);
  if (s['applies-live'] > 0) parts.push(`${s['applies-live']} ${s['applies-live'] === 1 ? 'agent applies' : 'agents apply'} a credential live`);
  if (s.appears > 0) parts.push(`${s.appears} ${s.appears === 1 ? 'appears' : 'appear'}`);
  if (s.disappears > 0) parts.push(`${s.disappears} ${s.disappears === 1 ? 'disappears' : 'disappear'}`);
  return `kagent 1.x: ${parts.length === 0 ? 'no agent recompiles.' : `${parts.join(', ')}.`}`;
}

const EFFECT: Record<string, string> = { recompiles: 'recompiles', 'applies-live': 'applies live' };

interface Row {
  agent: string;
  effect: string;
  input: string;
  from: string;
  keys: string;
}

/** A failure's rows first (what fails, naming the field), then the changed inputs. */
function rowsOf(a: AgentDiff, name: (k: string) => string): Row[] {
  const agent = resourceId(a.resourceRef);
  const rows: Row[] = [
    ...a.failures.map((f) => ({ agent: '', effect: 'will not compile', input: f.chain.join(' › '), from: '', keys: failureText(f, name) })),
    ...a.inputs.map((i) => ({ agent: '', effect: EFFECT[i.effect]!, input: inputOf(i), from: fromOf(i), keys: keysOf(i, name) })),
  ];
  if (rows.length === 0) return [{ agent, effect: a.change, input: '', from: '', keys: '' }];
  rows[0]!.agent = agent;
  return rows;
}

/** What fails and in which field: `key "api-key" is not in Secret agents/openai-key (field spec.apiKeySecret)`. */
const failureText = (f: Kagent1xFailure, name: (k: string) => string): string => `${f.reason} (field ${name(f.field)})`;

/** The chain of objects to the input (each link shown by `link`), and whether it is now or no longer used. */
function inputOf(i: InputChange, link: (name: string) => string = (n) => n): string {
  const chain = i.chain.map(link).join(' › ');
  return i.change === 'changed' ? chain : `${chain} (${i.change === 'added' ? 'now used' : 'no longer used'})`;
}

function fromOf(i: InputChange): string {
  if (i.from.old !== undefined && i.from.new !== undefined && i.from.old !== i.from.new) return `${i.from.old} → ${i.from.new}`;
  return i.from.new ?? i.from.old ?? '';
}

function keysOf(i: InputChange, name: (k: string) => string): string {
  const groups: string[] = [];
  if (i.spec) groups.push('spec changed');
  if (i.whole) groups.push('data changed');
  if (i.recreated) groups.push('recreated (new uid)');
  for (const change of ['changed', 'added', 'removed'] as const) {
    const names = i.keys.filter((k: KeyChange) => k.change === change).map((k) => name(k.key));
    if (names.length > 0) groups.push(`${change}: ${names.join(', ')}`);
  }
  return groups.join('; ');
}

/** The widest cell of each column, without spreading a column into arguments (a table may be long). */
function widthsOf(table: readonly string[][]): number[] {
  const widths = table[0]!.map(() => 0);
  for (const row of table) row.forEach((cell, c) => (widths[c] = Math.max(widths[c]!, [...cell].length)));
  return widths;
}

/** The summary line, the table (AGENT, REVISION, INPUT, FROM, KEYS), and the note on recreated objects. */
export function renderAgentsText(diff: Kagent1xDiff): string {
  const rows = diff.agents.flatMap((a) => rowsOf(a, (k) => k));
  if (rows.length === 0) return `${agentSummary(diff)}\n${RECREATE_NOTE}\n`;
  const table = [['AGENT', 'REVISION', 'INPUT', 'FROM', 'KEYS'], ...rows.map((r) => [r.agent, r.effect, r.input, r.from, r.keys].map(printable))];
  const widths = widthsOf(table);
  const lines = table.map((row) => row.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join('  ').trimEnd());
  return `${agentSummary(diff)}\n\n${lines.join('\n')}\n\n${RECREATE_NOTE}\n`;
}

/**
 * A heading line and one row per Agent: agent, revision, why (each chain), keys. Every name and key is a code
 * span (mdCode, as in the stamps table: no markup from names, #21); what fails is in bold.
 */
export function renderAgentsMarkdown(diff: Kagent1xDiff): string {
  const head = `**${agentSummary(diff)}**`;
  if (diff.agents.length === 0) return `${head}\n\n_${RECREATE_NOTE}_\n`;
  const lines = ['| Agent | Revision | Why | Keys |', '|---|---|---|---|'];
  for (const a of diff.agents) {
    const rows = rowsOf(a, mdCode);
    const effects = rows.map((r) => (r.effect === 'will not compile' ? '**will not compile**' : r.effect)).join('<br>');
    const why = [
      ...a.failures.map((f) => f.chain.map(mdCode).join(' › ')),
      ...a.inputs.map((i) => {
        const from = fromOf(i);
        return from === '' ? inputOf(i, mdCode) : `${inputOf(i, mdCode)} (${mdCode(from)})`;
      }),
    ].join('<br>');
    const keys = [...a.failures.map((f) => mdFailure(f)), ...a.inputs.map((i) => keysOf(i, mdCode))].join('<br>');
    lines.push(`| ${mdCode(resourceId(a.resourceRef))} | ${effects} | ${why} | ${keys} |`);
  }
  return `${head}\n\n${lines.join('\n')}\n\n_${RECREATE_NOTE}_\n`;
}

/** A failure in Markdown: its reason as a code span (it holds names), and the field. */
const mdFailure = (f: Kagent1xFailure): string => `${mdCode(f.reason)} (field ${mdCode(f.field)})`;

/** The `kagent` member of the JSON document. */
export const agentsJson = (diff: Kagent1xDiff): object => ({ summary: diff.summary, agents: diff.agents, note: RECREATE_NOTE });
