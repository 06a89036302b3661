// Process edge: runs a renderer (kustomize, helm) as a child in its own process group, with a timeout, the
// run's deadline (passed in, `RunDeadline`) and an output limit; on timeout the whole group is killed, and main.ts kills every running
// group on our own SIGTERM, so no child outlives rollstamp.
import { spawn, type ChildProcess } from 'node:child_process';
import { RollstampError } from './errors.ts';
import type { ChildDeadline } from './run-deadline.ts';

/** A renderer failed: exit 1, with a message that names the command but not what it printed. */
export class CommandError extends RollstampError {
  override name = 'CommandError';
  constructor(
    message: string,
    readonly argv: readonly string[],
    readonly stderr: string,
  ) {
    super(message, 1);
  }
}

export interface RunOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** The run's deadline (generate): a child still running then is killed, whatever `timeoutMs` says. */
  deadline?: ChildDeadline;
}

let onChildEvent: ((pid: number, running: boolean) => void) | undefined;

/**
 * Calls `listener(pid, true)` when a child starts and `listener(pid, false)` when it has ended: the run
 * reports each renderer's process group to main.ts, which kills them on SIGTERM (#12, #21).
 */
export function onChild(listener: (pid: number, running: boolean) => void): void {
  onChildEvent = listener;
}

function track(child: ChildProcess): void {
  if (child.pid !== undefined) onChildEvent?.(child.pid, true);
}

function untrack(child: ChildProcess): void {
  if (child.pid !== undefined) onChildEvent?.(child.pid, false);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  setTimeout(() => {
    try {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 2000).unref();
}

/**
 * Runs argv[0] with argv[1..] (no shell: every value is an argument, never code) and returns its stdout bytes.
 * - Fails with CommandError on a non-zero exit, a signal, the timeout, or output over the limit.
 */
export function runCommand(argv: readonly string[], what: string, options: RunOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group, so a kill reaches the renderer's children too
    });
    track(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: string | undefined;
    const fail = (why: string): void => {
      failure ??= why;
      killGroup(child);
    };
    const leftMs = options.deadline?.remainingMs() ?? Infinity;
    const timer =
      leftMs < options.timeoutMs
        ? setTimeout(() => fail('timed out at the deadline of the whole run (ROLLSTAMP_RENDER_TIMEOUT_SECONDS)'), Math.max(0, leftMs))
        : setTimeout(() => fail(`timed out after ${Math.round(options.timeoutMs / 1000)} s`), options.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxOutputBytes) fail(`printed more than ${options.maxOutputBytes} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
      else out.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (err.reduce((n, b) => n + b.length, 0) < 64 * 1024) err.push(chunk);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      untrack(child);
      const why = e.code === 'ENOENT' ? `${argv[0]} is not installed (not found on PATH)` : `could not start ${argv[0]}`;
      reject(new CommandError(`${what}: ${why}`, argv, ''));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      untrack(child);
      const stderr = Buffer.concat(err).toString('utf8');
      if (failure) reject(new CommandError(`${what}: ${failure}`, argv, stderr));
      else if (code !== 0) reject(new CommandError(`${what}: ${argv[0]} failed (${signal ? `signal ${signal}` : `exit ${code}`})`, argv, stderr));
      else resolve(new Uint8Array(Buffer.concat(out)));
    });
  });
}
