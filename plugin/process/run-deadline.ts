// Process edge: the deadline of a whole `generate` run, one object made once when the run starts and carried by
// the run's io (`RunIo.deadline`) to every part that must stop in time: the renderer and an exec credential
// plugin (exec.ts), the live reads (live-sources.ts) and the core (`function/model/deadline.ts`: only `check`).
// ROLLSTAMP_RENDER_TIMEOUT_SECONDS bounds the run, not only the renderer, so a slow render followed by slow
// reads cannot pass Argo CD's own deadline unnoticed (#12). The clock is injectable so tests control it.
import { DeadlineError } from './errors.ts';
import { envOf } from '../settings/settings-table.ts';
import type { Deadline } from '../../function/index.ts';
import type { OperatorSettings } from '../settings/setting-row.ts';

const RENDER_TIMEOUT_ENV = envOf('renderTimeoutSeconds');

/** Epoch milliseconds now; `Date.now` unless a test injects another. */
export type Clock = () => number;

/** A run's deadline, fixed when the run starts: `seconds` from the clock's first reading. */
export class RunDeadline implements Deadline {
  readonly at: number;

  constructor(
    private readonly seconds: number,
    private readonly clock: Clock = Date.now,
  ) {
    this.at = clock() + seconds * 1000;
  }

  /** The deadline of a `generate` run started now, from ROLLSTAMP_RENDER_TIMEOUT_SECONDS (the run's settings). */
  static fromSettings(settings: Pick<OperatorSettings, 'renderTimeoutSeconds'>, clock: Clock = Date.now): RunDeadline {
    return new RunDeadline(settings.renderTimeoutSeconds, clock);
  }

  /** Milliseconds left, unclamped (negative once past). */
  remainingMs(): number {
    return this.at - this.clock();
  }

  /** Milliseconds left (at least 1, so a timer built from it fires at once rather than never). */
  leftMs(): number {
    return Math.max(1, this.remainingMs());
  }

  /**
   * Fails with one line when the deadline has passed.
   * - Called after each phase (render, stamping) and by the core inside long loops: synchronous work cannot
   *   be interrupted by a timer.
   */
  check(phase: string): void {
    if (this.clock() > this.at) throw new DeadlineError(`${phase} ran past the deadline of the whole run: ${this.seconds} s (${RENDER_TIMEOUT_ENV})`);
  }
}

/** What a child process needs of the run's deadline (exec.ts): the time left, unclamped. */
export type ChildDeadline = Pick<RunDeadline, 'remainingMs'>;
