// The process edge: the only file that touches `process`. Output is written once, after the run
// succeeded, and flushed before exit (process.exit would cut a pipe). Errors are one line, no stack.
import { runCli } from './cli.ts';
import { errorLine, RollstampError } from './errors.ts';
import { killChildren, onChildrenRunning } from './exec.ts';
import type { Io } from './io.ts';

/**
 * The reader of stdout went away (`rollstamp stamp big.yaml | head -1`): nothing more can be written, and
 * this is no error of ours to report. End at once with the status a process killed by SIGPIPE has (128+13),
 * as `yes | head` does, so a shell with pipefail still sees the output was cut.
 */
const SIGPIPE_STATUS = 141;
const isEpipe = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
process.stdout.on('error', (err) => {
  if (isEpipe(err)) process.exit(SIGPIPE_STATUS);
  throw err;
});

const io: Io = {
  async readStdin() {
    if (process.stdin.isTTY) return new Uint8Array();
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  },
  writeStdout: (text) =>
    new Promise((resolve, reject) => {
      // A SIGTERM now must not cut the output short: let the write finish, then end as terminated.
      let terminated = false;
      const later = (): void => {
        terminated = true;
      };
      process.on('SIGTERM', later);
      process.stdout.write(text, (err) => {
        process.off('SIGTERM', later);
        if (err && isEpipe(err)) process.exit(SIGPIPE_STATUS);
        if (terminated) terminate(' after the output was written');
        if (err) reject(err);
        else resolve();
      });
    }),
  writeStderr: (text) => {
    process.stderr.write(text);
  },
  stdinIsTTY: process.stdin.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
};

function terminate(when: string): never {
  killChildren();
  process.stderr.write(`rollstamp: terminated (SIGTERM)${when}\n`);
  process.exit(143);
}

// Argo CD's cmp-server SIGTERMs the process group at its deadline. SIGTERM is caught only while renderers run
// (to kill their process groups) and while the output is written (so it is never cut short). Otherwise the
// default action ends the process at once: a handler could not run before synchronous work (parsing a large
// input) returns, and until the output is written there is nothing to clean up and nothing on stdout (#12).
const onTerm = (): void => terminate('');
onChildrenRunning((any) => (any ? process.on('SIGTERM', onTerm) : process.off('SIGTERM', onTerm)));

const argv = process.argv.slice(2);
const debug = argv.includes('--debug');

try {
  process.exitCode = await runCli(argv, io);
} catch (err) {
  // Loaded only here: the core is not compiled at start-up for commands that never reach it (--version, --help).
  const { oneLine } = await import('../function/index.ts');
  if (err instanceof RollstampError) {
    process.stderr.write(errorLine(oneLine(err.message)));
    process.exitCode = err.exitCode;
  } else if (isParseArgsError(err)) {
    process.stderr.write(errorLine(`${oneLine((err as Error).message)}; see --help`));
    process.exitCode = 2;
  } else {
    // An unexpected error is a bug; its message could quote input, so it is shown only with --debug.
    process.stderr.write(errorLine(`internal error (${(err as Error)?.name ?? 'unknown'}); rerun with --debug for details`));
    if (debug) process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? '';
  return code.startsWith('ERR_PARSE_ARGS');
}
