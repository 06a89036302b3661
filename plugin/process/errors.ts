// Process-edge errors: each carries the exit code main.ts uses and a message safe to print (no values).

export class RollstampError extends Error {
  // Each class names itself: the bundle is minified, so `new.target.name` would be a mangled name in a --debug stack.
  override name = 'RollstampError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Bad flags or arguments: exit 2. */
export class UsageError extends RollstampError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, 2);
  }
}

/** Unreadable or invalid input, or an error result: exit 1. */
export class InputError extends RollstampError {
  override name = 'InputError';
  constructor(message: string) {
    super(message, 1);
  }
}

/** The run's deadline passed (ROLLSTAMP_RENDER_TIMEOUT_SECONDS): exit 1, in whatever phase it was noticed. */
export class DeadlineError extends InputError {
  override name = 'DeadlineError';
}

/** `stamp --check` found workloads whose stamp would change: exit 3. */
export class CheckFailed extends RollstampError {
  override name = 'CheckFailed';
  constructor(message: string) {
    super(message, 3);
  }
}

/**
 * The one stderr line of a failed run: `rollstamp: error: MESSAGE`. A message that is already a result
 * line (`error: input.yaml …`, from the core's results) keeps its own `error: `, so every failure reads alike.
 */
export function errorLine(message: string): string {
  return `rollstamp: ${message.startsWith('error: ') ? message : `error: ${message}`}\n`;
}

/**
 * The line for a worker that ran out of heap (limit `heapMb` MiB). `partWritten`: a part of the output had been
 * handed on to be written when it did (the worker encodes the rest a part at a time), so what stdout holds is
 * cut short, where otherwise nothing was written. The exit status is 1 either way.
 */
export function outOfMemoryLine(heapMb: number, partWritten: boolean): string {
  const after = partWritten ? 'the output written is incomplete' : 'nothing was written';
  return errorLine(`out of memory: the run needed more than the JavaScript heap limit of ${heapMb} MiB (raise it with node --max-old-space-size, or lower ROLLSTAMP_MAX_INPUT_BYTES); ${after}`);
}
