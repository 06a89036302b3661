// The commands, each one record: name, one-line summary and a loader for its module (help, flags, run). The
// dispatcher (cli.ts), the main help's command list and the shell completion scripts all read this list, so a
// new command is one record here and one module beside it. Modules load lazily: start-up compiles none of them.
import type { CommandRecord } from './command.ts';

/** The commands, in the main help's order. */
export const COMMANDS: readonly CommandRecord[] = [
  {
    name: 'fn',
    summary: 'KRM function: ResourceList on stdin → ResourceList on stdout (the default with no command)',
    load: async () => (await import('./fn.ts')).FN_COMMAND,
  },
  {
    name: 'stamp',
    summary: 'stamp plain manifests from files, directories or stdin; --check for CI',
    load: async () => (await import('./stamp.ts')).STAMP_COMMAND,
  },
  {
    name: 'generate',
    summary: 'Argo CD config management plugin: render the current directory, stamp, print',
    load: async () => (await import('./generate.ts')).GENERATE_COMMAND,
  },
  {
    name: 'explain',
    summary: "show each target's sources, keys and digests (never values); -o json|yaml for machines",
    load: async () => (await import('./explain.ts')).EXPLAIN_COMMAND,
    keyRows: true,
  },
  {
    name: 'diff',
    summary: 'compare two renders: which workloads roll, which sources and keys caused it',
    load: async () => (await import('./diff.ts')).DIFF_COMMAND,
    keyRows: true,
  },
  {
    name: 'refresh',
    summary: 'Argo CD: hard-refresh the Applications whose live Secrets or ConfigMaps changed',
    load: async () => (await import('./refresh/refresh.ts')).REFRESH_COMMAND,
    longRunning: true,
    worker: true,
  },
  {
    name: 'version',
    summary: 'print the version; -o json adds the commit and build date',
    load: async () => (await import('./version.ts')).VERSION_COMMAND,
  },
  {
    name: 'completion',
    summary: 'print a shell completion script: bash, zsh or fish',
    // Completion lists the commands: it is handed this list rather than importing it (no import cycle).
    load: async () => (await import('./completion.ts')).completionCommand(COMMANDS),
    noFileArgs: true,
  },
];

/** The command named `name`, if there is one. */
export function findCommand(name: string): CommandRecord | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The main help's command list: `  stamp     summary`, names in a column wide enough for most of them. */
export function commandsHelp(commands: readonly Pick<CommandRecord, 'name' | 'summary'>[]): string {
  return commands.map((c) => `  ${c.name.padEnd(8)}  ${c.summary}`).join('\n');
}
