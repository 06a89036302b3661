// `rollstamp diff -o`: its formats as rows (output-format.ts). Each prints the stamp diff and, when either render
// has kagent 1.x Agents, their preview after it (#20); JSON carries that preview as its `kagent` member.
import { printableJson, type Kagent1xDiff, type StampDiff } from '../../function/index.ts';
import { renderJson, renderMarkdown, renderText } from './diff-format.ts';
import { agentsJson, renderAgentsMarkdown, renderAgentsText } from './kagent1x-format.ts';
import type { OutputFormat } from './output-format.ts';

/** What a diff format renders. */
export interface DiffReport {
  diff: StampDiff;
  /** The kagent 1.x preview: only when either render has an Agent. */
  agents?: Kagent1xDiff;
  /** Whether either render has a target; with none, "Nothing rolls." would only say that nothing is stamped. */
  stamped: boolean;
}

/** The stamps' table, then the Agents' (the stamps' left out when nothing is stamped at all). */
function withAgents(stamps: string, agents: string | undefined, stamped: boolean): string {
  if (agents === undefined) return stamps;
  return stamped ? `${stamps}\n${agents}` : agents;
}

/** `diff`'s formats, the default first. */
export const DIFF_OUTPUT: readonly OutputFormat<DiffReport>[] = [
  {
    name: 'text',
    help: 'an aligned table',
    render: (r) => withAgents(renderText(r.diff), r.agents && renderAgentsText(r.agents), r.stamped),
  },
  {
    name: 'markdown',
    help: 'a table for a pull-request comment (workload, why, keys)',
    render: (r) => withAgents(renderMarkdown(r.diff), r.agents && renderAgentsMarkdown(r.agents), r.stamped),
  },
  {
    name: 'json',
    help: 'kind StampDiff, full digests (schemas/stamp-diff.schema.json)',
    render: (r) => {
      if (!r.agents) return renderJson(r.diff);
      const doc = JSON.parse(renderJson(r.diff)) as Record<string, unknown>;
      return `${printableJson(JSON.stringify({ ...doc, kagent: agentsJson(r.agents) }, null, 2))}\n`;
    },
  },
];
