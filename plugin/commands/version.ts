// `rollstamp version`: the version line, or with -o json the version, the commit and the build date. build.mjs
// replaces `__ROLLSTAMP_BUILD__` with what it found (the commit it built, the commit's date, or
// SOURCE_DATE_EPOCH); run from the sources (tsx, the tests) both are "unknown".
import pkg from '../../package.json' with { type: 'json' };
import { UsageError } from '../process/errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../cli/flags.ts';
import { chosenFormat, outputFlag, type OutputFormat } from '../output/output-format.ts';
import type { CommandModule } from './command.ts';
import type { RunIo } from '../settings/run-settings.ts';

declare const __ROLLSTAMP_BUILD__: { commit: string; buildDate: string } | undefined;

export interface BuildInfo {
  version: string;
  commit: string;
  buildDate: string;
}

/** What `rollstamp version -o json` prints. */
export function buildInfo(): BuildInfo {
  const built = typeof __ROLLSTAMP_BUILD__ === 'undefined' ? undefined : __ROLLSTAMP_BUILD__;
  return { version: pkg.version, commit: built?.commit ?? 'unknown', buildDate: built?.buildDate ?? 'unknown' };
}

/** `version`'s formats, the default first. */
export const VERSION_OUTPUT: readonly OutputFormat<BuildInfo>[] = [
  { name: 'text', help: '`rollstamp VERSION`', render: (info) => `rollstamp ${info.version}\n` },
  { name: 'json', help: 'version, commit and build date', render: (info) => `${JSON.stringify(info, null, 2)}\n` },
];

export const VERSION_FLAGS: readonly FlagSpec[] = [outputFlag(VERSION_OUTPUT)];

export const VERSION_HELP = `Usage: rollstamp version [-o text|json]

Prints rollstamp's version (the same line as rollstamp --version); with -o json, an object with the version,
the commit it was built from and the build date ("unknown" when not built from a git checkout).

Flags:
${flagsHelp(VERSION_FLAGS)}

Examples:
  rollstamp version
  rollstamp version -o json`;

export async function runVersion(args: readonly string[], io: RunIo): Promise<number> {
  const { values, positionals } = parseFlags(args, VERSION_FLAGS, 'version');
  if (positionals.length > 0) throw new UsageError(`version takes no arguments (got ${positionals[0]})`);
  const info = buildInfo();
  await io.writeStdout(chosenFormat(VERSION_OUTPUT, values).render(info));
  return 0;
}

/** `rollstamp version` for the command list (commands/index.ts). */
export const VERSION_COMMAND: CommandModule = { help: VERSION_HELP, flags: VERSION_FLAGS, run: runVersion };
