// Run stage: the two halves of the core around the live reads. `startPlan` reads the input once — index,
// targets, stamp sites, dependencies, text edits — and says which sources only the cluster could supply;
// `apply` resolves, hashes and stamps from the plan alone. The runs (stream-run.ts, list-run.ts) drive both.
import { ENV_STAMP_NAME, LIVE_RECORD_ANNOTATION } from '../model/constants.ts';
import { EMPTY_RECORD, RECORD_SITE } from '../model/live-record.ts';
import { formatPath } from '../model/nodes.ts';
import { liveRecords } from '../hash/live-records.ts';
import { makeHasher } from '../hash/scheme.ts';
import { KeyBudgetSpent, SharedDigests } from '../hash/shared-digests.ts';
import { hashTarget, type HashContext } from '../hash/targets.ts';
import { resetSlots } from '../resolve/index.ts';
import { Planner } from '../plan/plan.ts';
import { errorResult, hasErrors, infoResult, sortResults, warningResult, type Result } from '../model/results.ts';
import { writeStamp } from '../write/stamp.ts';
import { previewKagent1x } from '../hash/kagent1x-secret-hash.ts';
import { planStampEdit } from '../write/text-edit.ts';
import { fillEdit, type TextEdit } from '../model/target.ts';
import { type Config, DEFAULT_MAX_KEY_WORK } from '../model/config.ts';
import type { Deadline } from '../model/deadline.ts';
import type { FetchedSources, LiveVersions } from '../model/dependencies.ts';
import type { Item } from '../model/object.ts';
import type { Plan, PlannedTarget, RecordSite } from '../model/plan.ts';
import type { TargetReport } from '../model/reports.ts';
import type { Kagent1xReport } from '../model/kagent1x.ts';

export interface ApplyOptions {
  /** HMAC key; absent means plain SHA-256. */
  hashKey?: Uint8Array;
  /** Sources read from the cluster for the ids the plan's `needs` listed. */
  fetched?: FetchedSources;
  /** The uid and resourceVersion of each source read (the live-read record names them). Default: none known. */
  versions?: LiveVersions;
  /**
   * Report every selected key of each source (SourceReport.keys), as explain and diff print them; without it a
   * report lists only the keys the target names. Rows count against Config.maxKeyWork. Default: false.
   */
  keyDetail?: boolean;
  /** With keyDetail: a digest per reported key too (diff compares them). Default: false. */
  keyDigests?: boolean;
  /**
   * Build each target's source reports (`TargetReport.sources`), which explain and diff print; keyDetail and
   * keyDigests imply it. Without it `sources` is empty: stamp, fn and generate print none, and the same hashes
   * and results cost no report per source (#37). Default: false.
   */
  sourceReports?: boolean;
  /** Preview kagent 1.x objects too (`StampOutcome.kagent1x`, #20): `diff` and `explain`. Default: false. */
  kagentPreview?: boolean;
  /** The run's deadline, for the loop over targets. Default: none. */
  deadline?: Deadline;
}

export interface StampOutcome {
  results: Result[];
  targets: TargetReport[];
  /**
   * Items (by their index among the planned items) that were stamped or whose live-read record changed, each with
   * the text edits that write them into its source (one per stamp or record: an object with several pod templates
   * has several; undefined where only a fresh rendering can). Empty when there are errors: then nothing is stamped.
   */
  changed: Map<number, Array<TextEdit | undefined>>;
  /** With `kagentPreview` and kagent 1.x objects in the input: their Agents' inputs and ModelConfigs' secretHash. */
  kagent1x?: Kagent1xReport;
}

/**
 * Plans a run over `items`: reads everything of each tree that apply and the writers need, once. Plain
 * Secrets and ConfigMaps are decoded then; afterwards only the trees of producers, SOPS Secrets and kagent
 * objects are still read (and, for an item whose document can be printed again, the tree a stamp is written
 * into), so the caller should let the items go.
 * - `needs`: the Secrets and ConfigMaps to read from the cluster under `config.live` (see wantsLiveRead);
 *   read them only when `results` has no error.
 */
export function plan(items: readonly Item[], config: Config, deadline?: Deadline): Plan {
  const planner = startPlan(config, deadline);
  planner.add(items);
  const first = planner.finish();
  if (!first.replan) return first;
  const again = startPlan(config, deadline, first.replan);
  again.add(items);
  return again.finish();
}

/**
 * `plan`, item by item: `add` items in input order as they are read (each may then be let go), `finish` once.
 * A tree is at hand only while its item is added, unless it is a producer's, a SOPS Secret's or a kagent
 * object's.
 * - A plan with `replan` asks for the same input again, added to `startPlan(config, deadline, plan.replan)`.
 */
export function startPlan(config: Config, deadline?: Deadline, wanted?: readonly string[]): Planner {
  return new Planner(config, planStampEdit, deadline, wanted);
}

/**
 * Computes every planned target's hash and, when no error was found, stamps them.
 * - Results (the plan's and apply's) are sorted; an `error` means the caller must write nothing.
 */
export function apply(planned: Plan, options: ApplyOptions = {}): StampOutcome {
  const { config } = planned;
  if (config.hashScheme === 'kagent' && options.hashKey) {
    return { results: [errorResult('INVALID_CONFIG', 'hashScheme kagent reproduces kagent\'s unkeyed hash and cannot be used with a hash key')], targets: [], changed: new Map() };
  }
  const results: Result[] = [...planned.results];
  const hasher = makeHasher(options.hashKey);
  // Each source's decoded values go once its last planned reader is hashed (#37): the plan counted them.
  resetSlots(planned.slots);
  const ctx: HashContext = {
    inventory: planned.index,
    results,
    slots: planned.slots,
    unplanned: new Map(),
    hasher,
    // One budget for the run: hashing goes on from what planning spent on declared paths (#33).
    shared: new SharedDigests(hasher, config.maxKeyWork ?? DEFAULT_MAX_KEY_WORK, options.keyDetail === true || options.keyDigests === true, options.keyDigests === true, planned.workSpent),
    config,
    reloaderIgnore: config.reloader === 'enabled',
    unitPlans: planned.units,
    unitHashes: new Map(),
    sharedReports: new Map(),
    reports: options.sourceReports === true || options.keyDetail === true || options.keyDigests === true,
    ...(options.fetched ? { fetched: options.fetched } : {}),
    ...(options.deadline ? { deadline: options.deadline } : {}),
  };
  const reports = hashTargets(planned.targets, ctx);
  if (!reports) return { results: sortResults(results), targets: [], changed: new Map() };
  const kagent1x = options.kagentPreview && planned.kagent1x?.length ? previewKagent1x(planned.kagent1x, ctx) : undefined;
  const records = liveRecords(planned.targets, ctx, options.versions);
  const changed = new Map<number, Array<TextEdit | undefined>>();
  if (!hasErrors(results)) {
    // The two messages a stamp can have, made once for the run rather than per target (#37).
    const stampedAnnotation = `stamped ${config.annotationKey}`;
    const stampedEnv = `stamped env ${ENV_STAMP_NAME}`;
    planned.targets.forEach((t, i) => {
      const report = reports[i];
      if (report?.changed) {
        // The tree is kept only where the document may be printed again; the text edit serves everywhere else.
        if (t.node) writeStamp(t.node, t.site, config.annotationKey, report.hash);
        addEdit(changed, t.item, t.edit ? fillEdit(t.edit, report.hash) : undefined);
        results.push(infoResult('STAMPED', t.site.kind === 'env' ? stampedEnv : stampedAnnotation, t.subject, report.field));
      }
      if (report && t.record) writeRecord(t.record, records.get(t), changed, results);
    });
    for (const site of planned.strayRecords) writeRecord(site, undefined, changed, results);
  }
  return { results: sortResults(results), targets: reports.filter((r): r is TargetReport => r !== undefined), changed, ...(kagent1x ? { kagent1x } : {}) };
}

/** Adds an item's edit; an item with an edit-less change (undefined) is rendered afresh whatever else it has. */
function addEdit(changed: Map<number, Array<TextEdit | undefined>>, item: number, edit: TextEdit | undefined): void {
  const edits = changed.get(item);
  if (edits) edits.push(edit);
  else changed.set(item, [edit]);
}

const RECORD_FIELD = formatPath([...RECORD_SITE.path, LIVE_RECORD_ANNOTATION]);

/**
 * Writes an object's live-read record when it changes: this run's record, or, where the input carried one and this
 * run read nothing live for the object, the empty record (#34: a repository cannot forge one).
 */
function writeRecord(site: RecordSite, record: string | undefined, changed: Map<number, Array<TextEdit | undefined>>, results: Result[]): void {
  const desired = record ?? (site.previous !== undefined ? EMPTY_RECORD : undefined);
  if (desired === undefined || desired === site.previous) return;
  if (site.node) writeStamp(site.node, RECORD_SITE, LIVE_RECORD_ANNOTATION, desired);
  addEdit(changed, site.item, site.edit ? fillEdit(site.edit, desired) : undefined);
  if (record !== undefined) results.push(infoResult('RECORDED', 'recorded what this render read from the cluster', site.subject, RECORD_FIELD));
  else if (site.previous !== EMPTY_RECORD) {
    const message = 'the input carries a live-read record; replaced with the empty record: only a render that reads the cluster writes one';
    results.push(warningResult('RECORD_REPLACED', message, site.subject, RECORD_FIELD));
  }
}

/** Every target's report, or undefined when the key budget ran out (one TOO_MUCH_KEY_WORK error is added). */
function hashTargets(targets: readonly PlannedTarget[], ctx: HashContext): Array<TargetReport | undefined> | undefined {
  try {
    return targets.map((t) => {
      ctx.deadline?.check('hashing'); // a target may cost up to a whole source's keys: check before each
      return hashTarget(t, ctx);
    });
  } catch (err) {
    if (!(err instanceof KeyBudgetSpent)) throw err;
    const message = `${err.message} after sharing equal selections between targets (keys of each distinct selection of a Secret or ConfigMap, and the keys reported per target); the limit is ROLLSTAMP_MAX_KEY_WORK`;
    ctx.results.push(errorResult('TOO_MUCH_KEY_WORK', message));
    return undefined;
  }
}
