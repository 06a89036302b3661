// Runs the CLI in-process with a captured Io, or the built bundle as a child process.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../plugin/cli.ts';
import { errorLine, RollstampError } from '../../plugin/errors.ts';
import type { Io } from '../../plugin/io.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUNDLE = fileURLToPath(new URL('../../dist/rollstamp.js', import.meta.url));

/** The CLI as main.ts runs it, without a process: errors become one stderr line and an exit code. */
export async function runInProcess(
  argv: string[],
  opts: { stdin?: string | Uint8Array; cwd?: string; env?: Record<string, string>; stdinIsTTY?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    readStdin: async () => (typeof opts.stdin === 'string' ? new TextEncoder().encode(opts.stdin) : (opts.stdin ?? new Uint8Array())),
    writeStdout: async (t) => {
      stdout += t;
    },
    writeStderr: (t) => {
      stderr += t;
    },
    env: opts.env ?? {},
    cwd: opts.cwd ?? ROOT,
    ...(opts.stdinIsTTY !== undefined ? { stdinIsTTY: opts.stdinIsTTY } : {}),
  };
  try {
    const code = await runCli(argv, io);
    return { code, stdout, stderr };
  } catch (err) {
    if (err instanceof RollstampError) return { code: err.exitCode, stdout, stderr: `${stderr}${errorLine(err.message)}` };
    throw err;
  }
}

/** The built bundle under plain node. */
export function runBundle(
  argv: string[],
  opts: { stdin?: string | Uint8Array; cwd?: string; env?: Record<string, string> } = {},
): CliRun {
  const r = spawnSync(process.execPath, [BUNDLE, ...argv], {
    input: opts.stdin ?? '',
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', ...opts.env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
