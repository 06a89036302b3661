// A command that reads manifests from stdin, started at a terminal with nothing piped in, would wait for
// typing or (as main.ts reads it) see no input at all: say what to do instead, on one line.
import { UsageError } from '../process/errors.ts';
import type { Io } from '../process/io.ts';

const HINTS: Record<string, string> = {
  fn: 'rollstamp (= rollstamp fn) is a KRM function and reads a ResourceList on stdin, e.g. kpt fn eval DIR --exec rollstamp; to stamp files: rollstamp stamp manifests/',
  stamp: 'rollstamp stamp reads manifests from stdin, which is a terminal: name files or directories (rollstamp stamp manifests/) or pipe them in (kustomize build . | rollstamp stamp -)',
  diff: 'rollstamp diff reads one render from stdin (-), which is a terminal: name both renders (rollstamp diff old.yaml new/) or pipe one in (kustomize build . | rollstamp diff old.yaml -)',
  explain: 'rollstamp explain reads manifests from stdin, which is a terminal: name files or directories (rollstamp explain manifests/) or pipe them in (kustomize build . | rollstamp explain -)',
};

/**
 * Throws a UsageError (exit 2) with a short hint when `paths` would read stdin (none given, or `-`) and
 * stdin is a terminal. Piped or redirected input, and every path argument, pass.
 */
export function refuseTerminalStdin(command: string, paths: readonly string[], io: Io): void {
  const readsStdin = paths.length === 0 || paths.includes('-');
  if (readsStdin && io.stdinIsTTY === true) throw new UsageError(`${HINTS[command] ?? `${command} reads stdin, which is a terminal`}; see rollstamp ${command} --help`);
}
