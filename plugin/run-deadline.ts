// Process edge: the deadline of a whole `generate` run. ROLLSTAMP_RENDER_TIMEOUT_SECONDS bounds the run, not
// only the renderer: every child gets what is left of it (exec.ts), live reads too, and each phase boundary
// checks it, so a slow render followed by slow reads cannot pass Argo CD's own deadline unnoticed (#12).
import { InputError } from './errors.ts';
import type { Io } from './io.ts';
import { positiveWholeEnv } from './settings.ts';
import { envOf, setting } from './settings-table.ts';

const RENDER_TIMEOUT_ENV = envOf('renderTimeoutSeconds');
/** Default: 45 s, below Argo CD's 60 s repo-server deadline. */
const DEFAULT_RENDER_TIMEOUT_SECONDS = Number(setting('renderTimeoutSeconds').default);

/** The operator's ROLLSTAMP_RENDER_TIMEOUT_SECONDS, else 45. */
function renderTimeoutSeconds(io: Io): number {
  return positiveWholeEnv(io, RENDER_TIMEOUT_ENV, 'seconds') ?? DEFAULT_RENDER_TIMEOUT_SECONDS;
}

/** A run's deadline, fixed when the run starts. */
export class RunDeadline {
  readonly at: number;
  private readonly seconds: number;

  constructor(io: Io, startedAt: number) {
    this.seconds = renderTimeoutSeconds(io);
    this.at = startedAt + this.seconds * 1000;
  }

  /** Milliseconds left (at least 1, so a timer built from it fires at once rather than never). */
  leftMs(): number {
    return Math.max(1, this.at - Date.now());
  }

  /**
   * Fails with one line when the deadline has passed.
   * - Called after each phase (render, stamping): synchronous work cannot be interrupted by a timer.
   */
  check(phase: string): void {
    if (Date.now() > this.at) throw new InputError(`${phase} ran past the deadline of the whole run: ${this.seconds} s (${RENDER_TIMEOUT_ENV})`);
  }
}
