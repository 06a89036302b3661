// Run stage: what both runs (stream-run.ts, list-run.ts) give the plugin — a run started from the input's
// text that names the live sources it still needs, and is finished with them into the output text.
import type { Config } from '../model/config.ts';
import type { Deadline } from '../model/deadline.ts';
import type { FetchedSources, LiveVersions } from '../model/dependencies.ts';
import type { LiveNeed, Plan } from '../model/plan.ts';
import { hasErrors, type Result } from '../model/results.ts';
import type { ReadMode } from '../read/parse-yaml.ts';
import { apply, type ApplyOptions, type StampOutcome } from './apply.ts';

/**
 * What the process gives every run at its start, whatever the input's shape (#36): the plugin builds it once
 * per run (`plugin/settings/run-settings.ts` `runStart`), so a new run or reader gets it without a new field.
 */
export interface RunStart {
  /** `full`: the yaml library reads everything (an escape hatch; tests compare the two). Default: `fast`. */
  reader?: ReadMode;
  /** The run's deadline, given once: checked while reading the settings, reading, planning and hashing. Default: none. */
  deadline?: Deadline;
  /** Called as each phase starts (`reading`, `planning`, `hashing`, `writing`): `--debug` shows them. Default: none. */
  trace?: (phase: string) => void;
  /**
   * Called once the plan is applied and let go, before anything is written (`plugin/` collects its garbage there:
   * the plan was most of the heap, #37). Default: none.
   */
  afterApply?: () => void;
}

/** What a run is finished with: what the plugin read and loaded between start and finish. */
export interface FinishInputs {
  /** Sources read from the cluster for the run's `needs`. Default: none read. */
  fetched?: FetchedSources;
  /** The uid and resourceVersion of each source read (for the live-read record). Default: none known. */
  versions?: LiveVersions;
  /** HMAC key; absent means plain SHA-256. */
  hashKey?: Uint8Array;
}

/** A finished run: the core's outcome and the text to write. */
export interface RunOutcome extends StampOutcome {
  /**
   * The stamped output as pieces, written in order (joined, they are the output text); meaningful only when
   * `results` has no error. None for a run started with `write: false`.
   * - Pieces, not one string: most are slices of the input, which share its memory, so the output is not held a
   *   second time beside the input while it is encoded and written (25 MB at 50k objects, #37).
   */
  outputPieces: readonly string[];
  /** How many objects the input held (0 when it could not be read). */
  objects: number;
  /**
   * The input has kagent 1.x objects and no object of a kind a target kind selects: nothing is stamped by
   * design (kagent 1.x recompiles its agents itself, #20), not because a selector missed.
   */
  onlyKagent1x: boolean;
}

/**
 * A started run: read and planned, waiting for its live sources.
 * - `needs`: the Secrets and ConfigMaps to read from the cluster before `finish`; undefined when none may be
 *   read (`live: never`, or the plan already has errors, which `finish` reports).
 * - `finish` may be called once.
 */
export interface Run {
  readonly config: Config;
  readonly needs: readonly LiveNeed[] | undefined;
  finish(inputs?: FinishInputs): RunOutcome;
}

/** The live sources a plan asks for, undefined when none may be read. */
export function needsOf(plan: Plan): readonly LiveNeed[] | undefined {
  return plan.config.live === 'never' || hasErrors(plan.results) ? undefined : plan.needs;
}

/** A run whose input could not be read: finishing it gives the reading's results and nothing to write. */
export function failedRun(config: Config, results: Result[]): Run {
  return { config, needs: undefined, finish: () => failedOutcome(results) };
}

/** The outcome of a run whose input could not be read. */
export function failedOutcome(results: Result[]): RunOutcome {
  return { results, targets: [], changed: new Map(), outputPieces: [], objects: 0, onlyKagent1x: false };
}

/**
 * The fast→full fallback of both runs (stream-run.ts, list-run.ts), written once (#36): the input as first read
 * is finished; when what that reading gave cannot be written (input the subset reader read is written by text
 * edits only, and a stamp may need a new rendering), the input is read again by the next reader and finished.
 * - `finishOne`: the outcome of one reading, or undefined when its stamps cannot be written from it.
 * - `readAgain`: the readings still to try, in order (none when the run started with the yaml library).
 * - None left and nothing written: a bug (`what` names the input in the message).
 */
export function finishWithFallback<R>(first: R, readAgain: readonly (() => R)[], finishOne: (reading: R) => RunOutcome | undefined, what: string): RunOutcome {
  let reading = first;
  for (const next of [...readAgain, undefined]) {
    const outcome = finishOne(reading);
    if (outcome !== undefined) return outcome;
    if (next === undefined) break;
    reading = next();
  }
  throw new Error(`internal: ${what} read in full could not be written`);
}

/** RunOutcome's `objects` and `onlyKagent1x`, from a plan. */
export function planCounts(plan: Plan): Pick<RunOutcome, 'objects' | 'onlyKagent1x'> {
  return { objects: plan.items, onlyKagent1x: plan.selectable === 0 && (plan.kagent1x?.length ?? 0) > 0 };
}

/**
 * Applies a reading's plan, which the reading then no longer holds: a run applies it once, and nothing but this
 * call's frame keeps it, so it can go before writing starts (a plan of 50,000 objects kept alive beside the
 * output was most of the heap, #37).
 */
export function applyOnce(read: { plan: Plan | undefined }, options: ApplyOptions): { outcome: StampOutcome; counts: ReturnType<typeof planCounts> } {
  const { plan } = read;
  if (!plan) throw new Error('internal: a plan was applied twice');
  read.plan = undefined;
  return { outcome: apply(plan, options), counts: planCounts(plan) };
}
