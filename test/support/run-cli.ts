// The one CLI runner of the tests: the CLI in-process with a captured Io, or any command — the built bundle
// above all — as a child process with its output collected.
import { spawn, spawnSync } from 'node:child_process';
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
      stdout += typeof t === 'string' ? t : Array.from(t).join(''); // a stamped stream comes as its pieces (Io.OutputText)
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

/** `runProcess` without blocking this thread, so a file can have several processes running (see `inParallel`). */
export function runProcessAsync(cmd: string, args: readonly string[], opts: ProcessOpts = {}): Promise<ProcessRun> {
  const base: NodeJS.ProcessEnv = opts.exactEnv ? {} : opts.inheritEnv ? process.env : { PATH: process.env.PATH ?? '' };
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args], { cwd: opts.cwd ?? ROOT, env: { ...base, ...opts.env }, stdio: [opts.stdin === 'closed' ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let spawnError = '';
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => (spawnError = `spawn ${cmd} failed: ${e.message}\n`));
    const timer = setTimeout(() => child.kill(opts.killSignal ?? 'SIGTERM'), opts.timeoutMs ?? 120_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');
      resolve({ code: code ?? -1, stdout: text(out), stderr: `${spawnError}${text(err)}`, signal });
    });
    if (child.stdin && opts.stdin !== 'closed') {
      child.stdin.on('error', () => undefined); // a process that exits without reading its input
      child.stdin.end(opts.stdin ?? '');
    }
  });
}

/** `runBundle` without blocking this thread. */
export function runBundleAsync(argv: readonly string[], opts: ProcessOpts & { nodeArgs?: readonly string[] } = {}): Promise<ProcessRun> {
  return runProcessAsync(process.execPath, [...(opts.nodeArgs ?? []), BUNDLE, ...argv], opts);
}

/**
 * `fn` over `items`, at most `limit` at a time (default 2: the cores the suite is sized for; more only adds
 * contention beside the other shards); results in the order of `items`. For files that spawn a process per
 * case where the process is the point: their spawns overlap instead of waiting on each other.
 */
export async function inParallel<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = 2): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
