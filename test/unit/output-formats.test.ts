// Output formats are rows (plugin/output/output-format.ts): a command's `-o` values, its help and the shell
// completion are read from its table, so a new format is one row and one render function (#36).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { completionScript, SHELLS } from '../../plugin/commands/completion.ts';
import { COMMANDS } from '../../plugin/commands/index.ts';
import { UsageError } from '../../plugin/process/errors.ts';
import { flagsHelp, parseFlags } from '../../plugin/cli/flags.ts';
import { DIFF_OUTPUT, type DiffReport } from '../../plugin/output/diff-formats.ts';
import { EXPLAIN_OUTPUT } from '../../plugin/output/explain-formats.ts';
import { chosenFormat, outputFlag, outputHelp, type OutputFormat } from '../../plugin/output/output-format.ts';
import { STAMP_OUTPUT } from '../../plugin/output/stamp-formats.ts';
import { VERSION_OUTPUT } from '../../plugin/commands/version.ts';
import { runInProcess } from '../support/run-cli.ts';

/** A format the product does not have: a Mermaid graph of the targets that roll, for a pull-request comment. */
const MERMAID: OutputFormat<DiffReport> = {
  name: 'mermaid',
  help: 'a graph of what rolls, for a pull-request comment',
  render: (r) => `graph LR\n${r.diff.targets.map((t, i) => `  t${i}[rolls]`).join('\n')}\n`,
};
const WITH_MERMAID = [...DIFF_OUTPUT, MERMAID];

test('a row added to a table is an -o value: parsed, chosen and rendered; without the row it is refused', () => {
  const { values } = parseFlags(['-o', 'mermaid'], [outputFlag(WITH_MERMAID)], 'diff');
  const report: DiffReport = { diff: { summary: { rolls: 0, appears: 0, disappears: 0 }, targets: [] } as unknown as DiffReport['diff'], stamped: true };
  assert.is(chosenFormat(WITH_MERMAID, values).render(report), 'graph LR\n\n');
  assert.throws(() => parseFlags(['-o', 'mermaid'], [outputFlag(DIFF_OUTPUT)], 'diff'), (e: unknown) => e instanceof UsageError && /use one of text, markdown, json$/.test(e.message));
  assert.is(chosenFormat(WITH_MERMAID, {}).name, 'text', 'no -o: the first row');
});

test('a row added to a table shows in the flag help, with its help line', () => {
  const help = flagsHelp([outputFlag(WITH_MERMAID)]);
  assert.match(help, '-o, --output text|markdown|json|mermaid');
  assert.match(help.replace(/\n\s+/g, ' '), 'mermaid: a graph of what rolls, for a pull-request comment');
  assert.not.match(flagsHelp([outputFlag(DIFF_OUTPUT)]), 'mermaid');
});

test('a row added to a table completes as an -o value in every shell', () => {
  for (const shell of SHELLS) {
    const script = completionScript(shell, [{ name: 'diff', description: 'compare two renders', files: true, flags: [outputFlag(WITH_MERMAID)] }]);
    assert.match(script, shell === 'fish' ? "'text markdown json mermaid'" : 'values="text markdown json mermaid"', shell);
  }
});

test('the -o help names each row, the first as the default, wrapped to the help width', () => {
  assert.is(outputHelp(DIFF_OUTPUT), 'text: an aligned table (default); markdown: a table for a pull-request\ncomment (workload, why, keys); json: kind StampDiff, full digests\n(schemas/stamp-diff.schema.json)');
  for (const line of outputHelp([...EXPLAIN_OUTPUT, ...STAMP_OUTPUT, MERMAID]).split('\n')) assert.ok(line.length <= 73, line);
});

test('every command with -o takes its values and help from its table, in --help and in completion', async () => {
  const tables: Record<string, readonly OutputFormat<never>[]> = { diff: DIFF_OUTPUT, explain: EXPLAIN_OUTPUT, stamp: STAMP_OUTPUT, version: VERSION_OUTPUT };
  const bash = (await runInProcess(['completion', 'bash'])).stdout;
  for (const c of COMMANDS) {
    const output = (await c.load()).flags.find((f) => f.name === 'output');
    if (!output) continue;
    const table = tables[c.name];
    assert.ok(table, `${c.name} has -o but no table in this test`);
    assert.equal(output, outputFlag(table));
    const help = (await runInProcess([c.name, '--help'])).stdout.replace(/\n\s+/g, ' ');
    for (const row of table) assert.match(help, `${row.name}: ${row.help}`, `${c.name} -o ${row.name}`);
    assert.match(bash, `${c.name}:--output|${c.name}:-o) values="${table.map((f) => f.name).join(' ')}"`);
  }
});

test.run();
