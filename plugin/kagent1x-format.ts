// `rollstamp diff` over kagent 1.x (#20): the Agents a change recompiles or applies live, as an aligned text
// table, Markdown rows for a pull-request comment, and the `kagent` member of the JSON document. Names and
// keys only: no value, no digest of one.
import { type AgentDiff, type InputChange, type Kagent1xDiff, type KeyChange, printable, resourceId } from '../function/index.ts';
import { mdCode } from './diff-format.ts';

/** Said once wherever 1.x Agents are previewed: what manifests cannot show. */
export const RECREATE_NOTE =
  'kagent 1.x: a Secret or ConfigMap deleted and created again gets a new UID, and so a new revision, even with the same value; manifests cannot show that.';

/** One line: how many 1.x Agents recompile, apply live, appear and disappear. */
export function agentSummary(diff: Kagent1xDiff): string {
  const s = diff.summary;
  const parts: string[] = [];
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

function rowsOf(a: AgentDiff, keyName: (k: string) => string): Row[] {
  const agent = resourceId(a.resourceRef);
  if (a.inputs.length === 0) return [{ agent, effect: a.change, input: '', from: '', keys: '' }];
  return a.inputs.map((i, n) => ({ agent: n === 0 ? agent : '', effect: EFFECT[i.effect]!, input: inputOf(i), from: fromOf(i), keys: keysOf(i, keyName) }));
}

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
  for (const change of ['changed', 'added', 'removed'] as const) {
    const names = i.keys.filter((k: KeyChange) => k.change === change).map((k) => name(k.key));
    if (names.length > 0) groups.push(`${change}: ${names.join(', ')}`);
  }
  return groups.join('; ');
}

/** The summary line, the table (AGENT, REVISION, INPUT, FROM, KEYS), and the note on recreated objects. */
export function renderAgentsText(diff: Kagent1xDiff): string {
  const rows = diff.agents.flatMap((a) => rowsOf(a, (k) => k));
  if (rows.length === 0) return `${agentSummary(diff)}\n${RECREATE_NOTE}\n`;
  const table = [['AGENT', 'REVISION', 'INPUT', 'FROM', 'KEYS'], ...rows.map((r) => [r.agent, r.effect, r.input, r.from, r.keys].map(printable))];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => [...row[c]!].length)));
  const lines = table.map((row) => row.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join('  ').trimEnd());
  return `${agentSummary(diff)}\n\n${lines.join('\n')}\n\n${RECREATE_NOTE}\n`;
}

/**
 * A heading line and one row per Agent: agent, revision, why (each chain), keys. Every name and key is a code
 * span (mdCode, as in the stamps table: no markup from names, #21).
 */
export function renderAgentsMarkdown(diff: Kagent1xDiff): string {
  const head = `**${agentSummary(diff)}**`;
  if (diff.agents.length === 0) return `${head}\n\n_${RECREATE_NOTE}_\n`;
  const lines = ['| Agent | Revision | Why | Keys |', '|---|---|---|---|'];
  for (const a of diff.agents) {
    const rows = rowsOf(a, mdCode);
    const effects = rows.map((r) => r.effect).join('<br>');
    const why = a.inputs.length === 0 ? '' : a.inputs.map((i) => {
      const from = fromOf(i);
      return from === '' ? inputOf(i, mdCode) : `${inputOf(i, mdCode)} (${mdCode(from)})`;
    }).join('<br>');
    lines.push(`| ${mdCode(resourceId(a.resourceRef))} | ${effects} | ${why} | ${rows.map((r) => r.keys).join('<br>')} |`);
  }
  return `${head}\n\n${lines.join('\n')}\n\n_${RECREATE_NOTE}_\n`;
}

/** The `kagent` member of the JSON document. */
export const agentsJson = (diff: Kagent1xDiff): object => ({ summary: diff.summary, agents: diff.agents, note: RECREATE_NOTE });
