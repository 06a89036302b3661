// Command-line flags: each command declares its flags once, in a table, and that table drives both parsing
// (unknown flags with a suggestion, values checked against their allowed set) and the help text. Every
// mistake is a UsageError (exit 2) on one line, as kubectl, helm and kustomize users expect.
import { UsageError } from '../process/errors.ts';

/** One flag of a command. */
export interface FlagSpec {
  /** Long name without the dashes: `on-missing`. */
  name: string;
  /** One-letter alias without the dash: `n`. */
  short?: string;
  /**
   * - `boolean`: present or absent; takes no value.
   * - `string`: one value; given twice, the last wins.
   * - `list`: one value each time it is given, all kept in order (kubectl's `-f a -f b`).
   */
  type: 'boolean' | 'string' | 'list';
  /** The only values accepted, shown in the help as `a|b|c`. */
  values?: readonly string[];
  /** What the value is, for the help: `FILE`. Default: the allowed values, else `VALUE`. */
  arg?: string;
  /** Help text; a line break continues it in the same column. */
  help: string;
}

/** Values by long name: `true` for a boolean given, a string, or a string list. Absent flags are undefined. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Splits `args` into flag values and positionals by `table`.
 * - `--name value`, `--name=value`, `-n value` and `-nvalue`; `-` alone is a positional (stdin); after
 *   `--` everything is positional.
 * - Unknown flag: `unknown flag --chek; did you mean --check?` (the suggestion only when one is close).
 * - A value outside `values`, a missing value, or a value given to a boolean: a UsageError naming the flag.
 */
export function parseFlags(args: readonly string[], table: readonly FlagSpec[], command: string): { values: FlagValues; positionals: string[] } {
  const values: FlagValues = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    const written = long ? (eq < 0 ? arg : arg.slice(0, eq)) : arg.slice(0, 2);
    const spec = long ? table.find((f) => `--${f.name}` === written) : table.find((f) => f.short !== undefined && `-${f.short}` === written);
    if (!spec) throw new UsageError(unknownFlagMessage(written, table, command));
    let value: string | undefined = long ? (eq < 0 ? undefined : arg.slice(eq + 1)) : arg.length > 2 ? arg.slice(2) : undefined;
    if (spec.type === 'boolean') {
      if (value !== undefined) throw new UsageError(`flag ${written} takes no value (got ${JSON.stringify(value)})`);
      values[spec.name] = true;
      continue;
    }
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`flag ${written} needs a value${spec.values ? ` (${spec.values.join(', ')})` : ''}`);
      value = next;
      i++;
    }
    if (spec.values && !spec.values.includes(value)) {
      throw new UsageError(`invalid value ${JSON.stringify(value)} for ${written}: use one of ${spec.values.join(', ')}`);
    }
    if (spec.type === 'list') values[spec.name] = [...((values[spec.name] as string[] | undefined) ?? []), value];
    else values[spec.name] = value;
  }
  return { values, positionals };
}

/** `unknown flag --chek; did you mean --check?`, or a pointer to the command's help. */
export function unknownFlagMessage(written: string, table: readonly FlagSpec[], command: string): string {
  const names = table.flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]);
  const close = closest(written, [...names, '--help']);
  const help = command === '' ? 'rollstamp --help' : `rollstamp ${command} --help`;
  return close ? `unknown flag ${written}; did you mean ${close}?` : `unknown flag ${written}; see ${help}`;
}

/**
 * The candidate nearest to `word` by edit distance (a transposition counts as one edit), if it is near
 * enough to be a typo: at most 2 edits, and fewer than half the word's length.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  const core = word.replace(/^-+/, '');
  return best !== undefined && bestDistance <= 2 && bestDistance * 2 < core.length ? best : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

const HELP_COLUMN = 32;

/** The help lines for `table`: `  -c, --config FILE             text`, long specs with the text below. */
export function flagsHelp(table: readonly FlagSpec[]): string {
  return table
    .map((f) => {
      const arg = f.type === 'boolean' ? '' : ` ${f.arg ?? (f.values ? f.values.join('|') : 'VALUE')}`;
      const left = `  ${f.short ? `-${f.short}, ` : '    '}--${f.name}${arg}`;
      const [first, ...rest] = f.help.split('\n');
      const pad = ' '.repeat(HELP_COLUMN);
      const head = left.length < HELP_COLUMN - 1 ? [`${left.padEnd(HELP_COLUMN)}${first}`] : [left, `${pad}${first}`];
      return [...head, ...rest.map((l) => `${pad}${l}`)].join('\n');
    })
    .join('\n');
}
