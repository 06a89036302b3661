// `rollstamp version`: the version line, or with -o json the version, commit and build date.
import { buildInfo } from '../build-info.ts';
import { UsageError } from '../errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../flags.ts';
import type { Io } from '../io.ts';

export const VERSION_FLAGS: readonly FlagSpec[] = [
  { name: 'output', short: 'o', type: 'string', values: ['text', 'json'], help: 'text: `rollstamp VERSION` (default); json: version, commit and build date' },
];

export const VERSION_HELP = `Usage: rollstamp version [-o text|json]

Prints rollstamp's version (the same line as rollstamp --version); with -o json, an object with the version,
the commit it was built from and the build date ("unknown" when not built from a git checkout).

Flags:
${flagsHelp(VERSION_FLAGS)}

Examples:
  rollstamp version
  rollstamp version -o json`;

export async function runVersion(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, VERSION_FLAGS, 'version');
  if (positionals.length > 0) throw new UsageError(`version takes no arguments (got ${positionals[0]})`);
  const info = buildInfo();
  await io.writeStdout(values.output === 'json' ? `${JSON.stringify(info, null, 2)}\n` : `rollstamp ${info.version}\n`);
  return 0;
}
