// The command table: parses the first argument, dispatches, and prints help and version. Commands load lazily.
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import type { Io } from './io.ts';
import { UsageError } from './errors.ts';
import { closest, flagsHelp, unknownFlagMessage, type FlagSpec } from './flags.ts';

/** Flags that come before any command. */
const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: 'help', short: 'h', type: 'boolean', help: 'help for rollstamp or a command (rollstamp stamp --help)' },
  { name: 'version', short: 'V', type: 'boolean', help: 'print the version (also: rollstamp version)' },
  { name: 'debug', type: 'boolean', help: 'print a stack trace for internal errors, each phase of a run as it starts, and\nwhether the run is on the main thread or in a worker (docs/performance.md)' },
];

// Docs: the README of the installed package by its path (npm puts README.md beside dist/; the image copies it to
// /README.md beside /app), not a bare README.md that is in no directory the user is in (#22).
export const MAIN_HELP = `Usage: rollstamp [command] [flags]

rollstamp rolls Kubernetes workloads when the Secrets and ConfigMaps they use change, at render time: it
hashes exactly the bytes each workload uses and writes the hash into its pod template (rollstamp.dev/hash),
so a changed value becomes an ordinary Git diff and an ordinary rolling update.

Commands:
  fn        KRM function: ResourceList on stdin → ResourceList on stdout (the default with no command)
  stamp     stamp plain manifests from files, directories or stdin; --check for CI
  generate  Argo CD config management plugin: render the current directory, stamp, print
  explain   show each target's sources, keys and digests (never values); -o json|yaml for machines
  diff      compare two renders: which workloads roll, which sources and keys caused it
  refresh   Argo CD: hard-refresh the Applications whose live Secrets or ConfigMaps changed
  version   print the version; -o json adds the commit and build date
  completion  print a shell completion script: bash, zsh or fish

Flags:
${flagsHelp(GLOBAL_FLAGS)}

Docs: ${fileURLToPath(new URL('../README.md', import.meta.url))} and the docs/*.md pages beside it (configuration,
hash scheme, diff, live reads, kagent).`;

interface Command {
  help: () => Promise<string>;
  run: (args: readonly string[], io: Io) => Promise<number>;
  /** Runs until told to stop (io.signal): main.ts asks it to stop on SIGTERM instead of ending the process. */
  longRunning?: true;
  /**
   * Always runs in a worker thread, whatever the size of its input (#37): it runs until stopped, on a stream of
   * watch events the size gate (run-gate.ts) cannot see.
   */
  worker?: true;
}

const COMMANDS: Record<string, Command> = {
  fn: {
    help: async () => (await import('./commands/fn.ts')).FN_HELP,
    run: async (a, io) => (await import('./commands/fn.ts')).runFn(a, io),
  },
  stamp: {
    help: async () => (await import('./commands/stamp.ts')).STAMP_HELP,
    run: async (a, io) => (await import('./commands/stamp.ts')).runStamp(a, io),
  },
  generate: {
    help: async () => (await import('./commands/generate.ts')).GENERATE_HELP,
    run: async (a, io) => (await import('./commands/generate.ts')).runGenerate(a, io),
  },
  explain: {
    help: async () => (await import('./commands/explain.ts')).EXPLAIN_HELP,
    run: async (a, io) => (await import('./commands/explain.ts')).runExplain(a, io),
  },
  diff: {
    help: async () => (await import('./commands/diff.ts')).DIFF_HELP,
    run: async (a, io) => (await import('./commands/diff.ts')).runDiff(a, io),
  },
  refresh: {
    help: async () => (await import('./commands/refresh/refresh.ts')).REFRESH_HELP,
    run: async (a, io) => (await import('./commands/refresh/refresh.ts')).runRefresh(a, io),
    longRunning: true,
    worker: true,
  },
  version: {
    help: async () => (await import('./commands/version.ts')).VERSION_HELP,
    run: async (a, io) => (await import('./commands/version.ts')).runVersion(a, io),
  },
  completion: {
    help: async () => (await import('./commands/completion.ts')).COMPLETION_HELP,
    run: async (a, io) => (await import('./commands/completion.ts')).runCompletion(a, io),
  },
};

export const VERSION: string = pkg.version;

/**
 * Whether `argv` runs a long-running command (not its help): main.ts then forwards SIGTERM to it as a stop
 * request and exits with its status, rather than ending the process with 143.
 */
export function isLongRunning(argv: readonly string[]): boolean {
  const args = argv.filter((a) => a !== '--debug');
  return COMMANDS[args[0] ?? '']?.longRunning === true && !args.includes('--help') && !args.includes('-h');
}

/** Whether `argv` runs a command that always has its worker thread (refresh), help aside. */
export function runsInWorker(argv: readonly string[]): boolean {
  const args = argv.filter((a) => a !== '--debug');
  return COMMANDS[args[0] ?? '']?.worker === true && !args.includes('--help') && !args.includes('-h');
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
    const topic = rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    await io.writeStdout(`${topic ? await topic.help() : MAIN_HELP}\n`);
    return 0;
  }
  // A flag before any command: the global ones were handled above.
  if (first !== undefined && first.startsWith('-') && first !== '-') throw new UsageError(unknownFlagMessage(first.split('=')[0]!, GLOBAL_FLAGS, ''));
  const name = first === undefined || first.startsWith('-') ? 'fn' : first;
  const command = COMMANDS[name];
  if (!command) {
    const near = closest(name, [...Object.keys(COMMANDS), 'help']);
    throw new UsageError(`unknown command "${name}"; ${near ? `did you mean ${near}?` : 'run rollstamp --help'}`);
  }
  const commandArgs = first === undefined || first.startsWith('-') ? args : rest;
  if (commandArgs.includes('--help') || commandArgs.includes('-h')) {
    await io.writeStdout(`${await command.help()}\n`);
    return 0;
  }
  return command.run(commandArgs, io);
}
