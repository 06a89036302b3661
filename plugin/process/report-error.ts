// Process edge: how a run that threw ends — one stderr line and an exit code — the same whether the run is on
// the process's own thread (run-in-process.ts) or in its worker (run-worker.ts).
import { errorLine, RollstampError } from './errors.ts';
import type { Io } from './io.ts';

/**
 * Writes the one line for an error that ended a run and returns its exit code.
 * - A RollstampError is its message and exit code; a parse-args error exit 2 with a hint to --help.
 * - Anything else is a bug: exit 1, and its message (which could quote input) and stack only with `debug`.
 */
export async function reportError(err: unknown, debug: boolean, io: Io): Promise<number> {
  // Loaded only here: the core is not compiled at start-up for commands that never reach it (--version, --help).
  const { oneLine } = await import('../../function/index.ts');
  if (err instanceof RollstampError) {
    io.writeStderr(errorLine(oneLine(err.message)));
    return err.exitCode;
  }
  if (((err as { code?: string })?.code ?? '').startsWith('ERR_PARSE_ARGS')) {
    io.writeStderr(errorLine(`${oneLine((err as Error).message)}; see --help`));
    return 2;
  }
  // An unexpected error is a bug; its message could quote input, so it is shown only with --debug.
  io.writeStderr(errorLine(`internal error (${(err as Error)?.name ?? 'unknown'}); rerun with --debug for details`));
  if (debug) io.writeStderr(`${(err as Error)?.stack ?? String(err)}\n`);
  return 1;
}
