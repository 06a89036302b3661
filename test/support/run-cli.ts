// The one CLI runner of the tests: the CLI in-process with a captured Io, or any command — the built bundle
// above all — as a child process with its output collected.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../plugin/cli/run-cli.ts';
import { errorLine, RollstampError } from '../../plugin/process/errors.ts';
import type { Io } from '../../plugin/process/io.ts';

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

/** How `runProcess` and `runBundle` start a process. */
export interface ProcessOpts {
  /** Bytes on stdin; `closed` starts the process with stdin closed (as argocd-cmp-server does). Default: empty. */
  stdin?: string | Uint8Array | 'closed';
  /** Default: the repository root. */
  cwd?: string;
  /** The whole environment when `inheritEnv` is unset: PATH plus these. Default: PATH only. */
  env?: NodeJS.ProcessEnv;
  /** Start from this process's environment instead of PATH only. Default: false. */
  inheritEnv?: boolean;
  /** `env` is the whole environment, nothing added (a test of what a tool does without PATH). Default: false. */
  exactEnv?: boolean;
  /** Killed after this long (the run then has `signal` set). Default: 120 s. */
  timeoutMs?: number;
  /** Default: SIGTERM. */
  killSignal?: NodeJS.Signals;
}

/** A finished process: a spawn failure is code -1 with the reason first on stderr. */
export interface ProcessRun extends CliRun {
  /** The signal that ended it (a timeout's kill signal), else null. */
  signal: NodeJS.Signals | null;
}

/**
 * `cmd args` run to completion with stdout and stderr collected as text; never throws for a non-zero exit.
 * - The one place the tests spawn rollstamp and collect its output; `runBundle` is this with the bundle.
 */
export function runProcess(cmd: string, args: readonly string[], opts: ProcessOpts = {}): ProcessRun {
  const base: NodeJS.ProcessEnv = opts.exactEnv ? {} : opts.inheritEnv ? process.env : { PATH: process.env.PATH ?? '' };
  const r = spawnSync(cmd, [...args], {
    ...(opts.stdin === 'closed' ? { stdio: ['ignore', 'pipe', 'pipe'] as const } : { input: opts.stdin ?? '' }),
    cwd: opts.cwd ?? ROOT,
    env: { ...base, ...opts.env },
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    killSignal: opts.killSignal ?? 'SIGTERM',
    maxBuffer: 256 * 1024 * 1024,
  });
  const spawnError = r.error && r.signal === null ? `spawn ${cmd} failed: ${r.error.message}\n` : '';
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: `${spawnError}${r.stderr ?? ''}`, signal: r.signal };
}

/** The built bundle under plain node (`nodeArgs` before it, e.g. a `--require` preload). */
export function runBundle(argv: readonly string[], opts: ProcessOpts & { nodeArgs?: readonly string[] } = {}): ProcessRun {
  return runProcess(process.execPath, [...(opts.nodeArgs ?? []), BUNDLE, ...argv], opts);
}
