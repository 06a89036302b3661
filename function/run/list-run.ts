// Run stage for KRM function mode (`fn`): a ResourceList read item by item where a line scan can split it
// (else read whole) → its functionConfig → plan → the live sources it needs → apply → the list written back
// with results. A list is one document: an item outside the subset comes from the yaml library's reading of
// the whole list, and a list the line scan cannot split is read whole.
import { startPlan } from './apply.ts';
import { applyOnce, failedOutcome, finishWithFallback, needsOf, type FinishInputs, type Run, type RunOutcome, type RunStart } from './run.ts';
import { type RawSettings, readConfig } from '../config/config.ts';
import { readConfigObject } from '../config/config-object.ts';
import type { Config, ReadLimits } from '../model/config.ts';
import type { Plan } from '../model/plan.ts';
import { hasErrors, infoResult, sortResults, type Result } from '../model/results.ts';
import { DEFAULT_READ_MODE, type ReadMode } from '../read/parse-yaml.ts';
import { parseResourceList, type ResourceList } from '../read/resource-list.ts';
import { splitResourceList } from '../read/resource-list-items.ts';
import { serializeResourceList } from '../write/resource-list.ts';

/**
 * A list run reads with `reader`, checks `deadline` and calls `afterApply` (RunStart); it reports no phases.
 * `maxReferences` and `maxKeyWork` are the operator's caps (never from the functionConfig). Default: the config's.
 */
export interface ListRunOptions extends Pick<RunStart, 'reader' | 'deadline' | 'afterApply'>, Partial<Pick<Config, 'maxReferences' | 'maxKeyWork'>> {
  /** The operator's bounds on the functionConfig's `spec.kinds` (#33); the deadline is the run's own. Default: the core's. */
  limits?: Omit<ReadLimits, 'deadline'>;
}

/**
 * Why a list is refused before anything is planned: its reading's or its functionConfig's error results, or
 * (a functionConfig with aliases, merge keys or deep nesting) one line.
 */
export type Refusal = { results: Result[] } | { message: string };

/**
 * The list read and planned. `plan` is taken by the run's one `apply` (applyOnce), so it can go before the list is
 * written: writing needs only the list's text and the outcome (#37).
 */
type Planned = { rl: ResourceList; plan: Plan | undefined; settings: Readonly<RawSettings> } | { refused: Refusal };

/** A list's run, with every setting of its functionConfig as given (validated), for those only the plugin reads. */
export interface ListRun extends Run {
  readonly settings: Readonly<RawSettings>;
}

/**
 * Reads the ResourceList and plans it with the settings of its functionConfig.
 * - A refused list (malformed, not a ResourceList, an item that is not an object, invalid settings) gives
 *   `refused`, with what the whole reading reports first.
 * - `finish`: error results leave `output` empty; an empty list is not an error (KRM: a pipeline may filter
 *   every item out) and comes back with an info result saying nothing was stamped.
 */
export function startListRun(text: string, options: ListRunOptions = {}): ListRun | { refused: Refusal } {
  const first = readAndPlan(text, options.reader ?? DEFAULT_READ_MODE, options);
  if ('refused' in first) return first;
  const { config } = first.plan!;
  return {
    config,
    settings: first.settings,
    needs: needsOf(first.plan!),
    finish(inputs: FinishInputs = {}): RunOutcome {
      const { fetched, versions, hashKey } = inputs;
      const { deadline } = options;
      const readAgain = (options.reader ?? DEFAULT_READ_MODE) === 'full' ? [] : [(): Planned => readAndPlan(text, 'full', options, { config, settings: first.settings })];
      return finishWithFallback<Planned>(first, readAgain, (read) => {
        // Read again with the settings already read, a list can be refused only by its reading's results.
        if ('refused' in read) return failedOutcome('results' in read.refused ? read.refused.results : []);
        const { outcome, counts } = applyOnce(read, { ...(hashKey ? { hashKey } : {}), ...(fetched ? { fetched } : {}), ...(versions ? { versions } : {}), ...(deadline ? { deadline } : {}) });
        options.afterApply?.();
        if (hasErrors(outcome.results)) return { ...outcome, outputPieces: [], ...counts };
        const output = serializeResourceList(read.rl, withEmptyNote(outcome.results, counts.objects), outcome.changed);
        return output === undefined ? undefined : { ...outcome, outputPieces: output, ...counts };
      }, 'the ResourceList');
    },
  };
}

/**
 * The list read and planned: item by item in `fast` mode where it can be split, else whole. A plan that asks
 * for objects read before a target named them (Plan.replan) is made again, knowing them.
 */
function readAndPlan(text: string, mode: ReadMode, options: ListRunOptions, known?: ListSettings, wanted?: readonly string[]): Planned {
  const read = (mode === 'fast' ? planItemByItem(text, options, wanted) : undefined) ?? planWhole(text, mode, options, known, wanted);
  return 'plan' in read && read.plan?.replan && !wanted ? readAndPlan(text, mode, options, known, read.plan.replan) : read;
}

/**
 * Reads the items one at a time and plans each as it comes, so only one item's tree (and those the plan keeps)
 * exists at a time. Undefined when the list is outside the YAML subset, or its settings are refused: reading
 * it whole then gives the same plan, or the error it would report first.
 */
function planItemByItem(text: string, options: ListRunOptions, wanted?: readonly string[]): Planned | undefined {
  const list = splitResourceList(text);
  if (!list) return undefined;
  const settings = listConfig(list.rl.functionConfig, options);
  // Items that are not objects are reported before settings: the whole reading says which.
  if ('refused' in settings) return undefined;
  const planner = startPlan(settings.config, options.deadline, wanted);
  const results = list.read((items) => planner.add(items));
  if (results === false) return undefined;
  if (results.length > 0) return { refused: { results } };
  return { rl: list.rl, plan: planner.finish(), settings: settings.settings };
}

/** Reads the list whole, then plans it (with `known` settings when read again). */
function planWhole(text: string, mode: ReadMode, options: ListRunOptions, known?: ListSettings, wanted?: readonly string[]): Planned {
  const parsed = parseResourceList(text, mode);
  if ('results' in parsed) return { refused: { results: parsed.results } };
  const settings = known ?? listConfig(parsed.rl.functionConfig, options);
  if ('refused' in settings) return settings;
  const planner = startPlan(settings.config, options.deadline, wanted);
  planner.add(parsed.items);
  return { rl: parsed.rl, plan: planner.finish(), settings: settings.settings };
}

/** The settings a list's functionConfig gives: the core's config, and every setting as given. */
type ListSettings = { config: Config; settings: Readonly<RawSettings> };

/** The functionConfig's settings, read as every config is (readConfigObject: aliases and merge keys refused first). */
function listConfig(functionConfig: unknown, { maxReferences, maxKeyWork, limits, deadline }: ListRunOptions): ListSettings | { refused: Refusal } {
  const plain = readConfigObject({ node: functionConfig }, 'functionConfig');
  if ('error' in plain) return { refused: { message: plain.error } };
  const read = readConfig(plain.object, {}, 'functionConfig', {}, { ...limits, ...(deadline ? { deadline } : {}) });
  if ('results' in read) return { refused: { results: read.results } };
  return { config: { ...read.config, ...(maxReferences === undefined ? {} : { maxReferences }), ...(maxKeyWork === undefined ? {} : { maxKeyWork }) }, settings: read.settings };
}

/** KRM convention: an empty ResourceList is not an error; an info result says nothing was stamped. */
function withEmptyNote(results: Result[], items: number): Result[] {
  if (items > 0) return results;
  return sortResults([...results, infoResult('EMPTY_INPUT', 'the ResourceList has no items: nothing to stamp')]);
}
