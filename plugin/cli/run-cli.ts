// The dispatcher: parses the first argument, finds the command among the records (commands/index.ts), and prints
// help and version. Commands load lazily.
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import type { Io } from '../process/io.ts';
import { UsageError } from '../process/errors.ts';
import { closest, flagsHelp, unknownFlagMessage, type FlagSpec } from './flags.ts';
import { COMMANDS, commandsHelp, findCommand } from '../commands/index.ts';

/** Flags that come before any command. */
const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: 'help', short: 'h', type: 'boolean', help: 'help for rollstamp or a command (rollstamp stamp --help)' },
  { name: 'version', short: 'V', type: 'boolean', help: 'print the version (also: rollstamp version)' },
  { name: 'debug', type: 'boolean', help: 'print a stack trace for internal errors, each phase of a run as it starts, and\nwhether the run is on the main thread or in a worker (docs/performance.md)' },
];

// Docs: the README of the installed package by its path (npm puts README.md beside dist/; the image copies it to
// /README.md beside /app), not a bare README.md that is in no directory the user is in (#22). This module runs
// from the bundle (dist/rollstamp.js, one level below the README) or from the sources (plugin/cli/, two below).
const README = new URL(import.meta.url.includes('/plugin/cli/') ? '../../README.md' : '../README.md', import.meta.url);

export const MAIN_HELP = `Usage: rollstamp [command] [flags]

rollstamp rolls Kubernetes workloads when the Secrets and ConfigMaps they use change, at render time: it
hashes exactly the bytes each workload uses and writes the hash into its pod template (rollstamp.dev/hash),
so a changed value becomes an ordinary Git diff and an ordinary rolling update.

Commands:
${commandsHelp(COMMANDS)}

Flags:
${flagsHelp(GLOBAL_FLAGS)}

Docs: ${fileURLToPath(README)} and the docs/*.md pages beside it (configuration,
hash scheme, diff, live reads, kagent).`;

export const VERSION: string = pkg.version;

/**
 * Whether `argv` runs a long-running command (not its help): main.ts then forwards SIGTERM to it as a stop
 * request and exits with its status, rather than ending the process with 143.
 */
export function isLongRunning(argv: readonly string[]): boolean {
  const args = argv.filter((a) => a !== '--debug');
  return findCommand(args[0] ?? '')?.longRunning === true && !args.includes('--help') && !args.includes('-h');
}

/** Whether `argv` runs a command that always has its worker thread (its record says `worker`), help aside. */
export function runsInWorker(argv: readonly string[]): boolean {
  const args = argv.filter((a) => a !== '--debug');
  return findCommand(args[0] ?? '')?.worker === true && !args.includes('--help') && !args.includes('-h');
}

/** Runs one invocation; returns the exit code. Throws RollstampError for usage and input problems. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const args = argv.filter((a) => a !== '--debug');
  const [first, ...rest] = args;
  if (first === '--version' || first === '-V') {
    await io.writeStdout(`rollstamp ${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    // `rollstamp help stamp`, `rollstamp --help stamp` and `rollstamp -h stamp` all show stamp's help.
    const topic = rest[0] !== undefined ? findCommand(rest[0]) : undefined;
    await io.writeStdout(`${topic ? (await topic.load()).help : MAIN_HELP}\n`);
    return 0;
  }
  // A flag before any command: the global ones were handled above.
  if (first !== undefined && first.startsWith('-') && first !== '-') throw new UsageError(unknownFlagMessage(first.split('=')[0]!, GLOBAL_FLAGS, ''));
  const name = first === undefined || first.startsWith('-') ? 'fn' : first;
  const command = findCommand(name);
  if (!command) {
    const near = closest(name, [...COMMANDS.map((c) => c.name), 'help']);
    throw new UsageError(`unknown command "${name}"; ${near ? `did you mean ${near}?` : 'run rollstamp --help'}`);
  }
  const commandArgs = first === undefined || first.startsWith('-') ? args : rest;
  const loaded = await command.load();
  if (commandArgs.includes('--help') || commandArgs.includes('-h')) {
    await io.writeStdout(`${loaded.help}\n`);
    return 0;
  }
  // The process edge: the environment is read here, once, and handed to the command with its streams. The settings
  // table loads the core's defaults, so it loads here, where a command runs, not with help or usage errors (#37).
  const { withRunSettings } = await import('../settings/run-settings.ts');
  return loaded.run(commandArgs, withRunSettings(io));
}
