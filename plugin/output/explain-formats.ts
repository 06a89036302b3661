// `rollstamp explain -o`: its formats as rows (output-format.ts): text for people, and the Explanation document
// (wouldChange, sources by kind, full digests) as JSON or YAML for machines.
import type { RunOutcome } from '../../function/index.ts';
import { explanationJson, explanationOf, explanationYaml } from './explain-document.ts';
import { renderExplainText } from './explain-text.ts';
import type { OutputFormat } from './output-format.ts';

/** What an explain format renders: the run's reports and results. */
export type ExplainReport = Pick<RunOutcome, 'targets' | 'results' | 'kagent1x'>;

/** `explain`'s formats, the default first. */
export const EXPLAIN_OUTPUT: readonly OutputFormat<ExplainReport>[] = [
  { name: 'text', help: 'for people', render: (r) => renderExplainText(r.targets, r.results, r.kagent1x) },
  { name: 'json', help: 'an Explanation document for machines (full digests)', render: (r) => explanationJson(r.targets, r.results, r.kagent1x) },
  { name: 'yaml', help: 'the same document as YAML', render: (r) => explanationYaml(explanationOf(r.targets, r.results, r.kagent1x)) },
];
