// Output formats as rows: a command with `-o` declares its formats in one table (the value, one line of help,
// the render function), and its `-o` flag — the values parsing accepts, the help, the completion — is read from
// that table. A new format is one row and one render function.
import type { FlagSpec, FlagValues } from '../cli/flags.ts';
import type { OutputText } from '../process/io.ts';

/** One `-o` value of a command. */
export interface OutputFormat<T> {
  /** The value after `-o`: `markdown`. The table's first row is the default. */
  name: string;
  /** What it prints, for the help: `a table for a pull-request comment`. */
  help: string;
  /** The whole output for `input`, as text or its pieces in order; may throw a RollstampError (a document JSON cannot carry). */
  render: (input: T) => OutputText;
}

/** The help text's width, past the flag column (flags.ts wraps nothing itself). */
const HELP_WIDTH = 73;

/** `-o`'s help: each row as `name: help`, the first marked `(default)`, joined by `; ` and wrapped. */
export function outputHelp(table: readonly OutputFormat<never>[]): string {
  const text = table.map((f, i) => `${f.name}: ${f.help}${i === 0 ? ' (default)' : ''}`).join('; ');
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= HELP_WIDTH) lines[last] = `${lines[last]} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/**
 * The `-o/--output` flag of a command whose formats are `table`: its values are the rows' names, its help
 * the rows' help (outputHelp).
 */
export function outputFlag(table: readonly OutputFormat<never>[]): FlagSpec {
  return { name: 'output', short: 'o', type: 'string', values: table.map((f) => f.name), help: outputHelp(table) };
}

/**
 * The row `-o` chose, or the first (the default) when none was given.
 * - `name` overrides `-o` (an alias flag such as `explain --json`).
 * - A name not in the table is a bug: parseFlags already refused it against the flag's values.
 */
export function chosenFormat<T>(table: readonly OutputFormat<T>[], values: FlagValues, name?: string): OutputFormat<T> {
  const wanted = name ?? values.output;
  const row = wanted === undefined ? table[0] : table.find((f) => f.name === wanted);
  if (!row) throw new Error(`no output format ${JSON.stringify(wanted)}`);
  return row;
}
