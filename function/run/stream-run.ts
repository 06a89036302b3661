// Run stage for plain multi-document streams (`stamp`, `explain`, `generate`, `diff`): read each document
// (the subset reader, else the yaml library for that document alone) → plan → the live sources it needs →
// apply → write. A stamp only a new rendering can write reads the streams again with the yaml library.
import { startPlan } from './apply.ts';
import { applyOnce, failedOutcome, failedRun, finishWithFallback, needsOf, type FinishInputs, type Run, type RunOutcome, type RunStart } from './run.ts';
import type { Config } from '../model/config.ts';
import type { Plan } from '../model/plan.ts';
import { hasErrors, type Result } from '../model/results.ts';
import { DEFAULT_READ_MODE, type ReadMode } from '../read/parse-yaml.ts';
import { isLocalConfigDoc, parseStream, streamItems, type StreamDoc } from '../read/stream.ts';
import { streamDocuments, type Skim } from '../read/stream-documents.ts';
import { IDENTITY_ONLY_NAMES } from '../plan/identity-only.ts';
import { joinStreamPieces } from '../write/join-streams.ts';
import { serializeStream } from '../write/stream.ts';

/** One input stream: where it came from (for results) and its text. */
export interface StreamInput {
  path: string;
  text: string;
  /** Drop this stream's local-config documents (see StreamRunOptions.dropLocalConfig). Default: false. */
  dropLocalConfig?: boolean;
}

export interface StreamRunOptions extends RunStart {
  config: Config;
  /** Drop documents marked `config.kubernetes.io/local-config: "true"` before anything reads them. Default: false. */
  dropLocalConfig?: boolean;
  /** Report every selected key of each source (SourceReport.keys), as explain and diff print them. Default: false. */
  keyDetail?: boolean;
  /** With keyDetail: a digest per reported key too (diff compares them). Default: false. */
  keyDigests?: boolean;
  /** Each target's source reports (`RunOutcome.targets[].sources`; ApplyOptions.sourceReports). Default: false. */
  sourceReports?: boolean;
  /** Preview kagent 1.x objects too (`RunOutcome.kagent1x`, #20): `diff` and `explain`. Default: false. */
  kagentPreview?: boolean;
  /**
   * Write the stamped streams (`RunOutcome.outputPieces`). `explain` and `diff` print reports, not the streams: without
   * it nothing is written, so nothing is read back and no stream is read again to be printed. Default: true.
   */
  write?: boolean;
}

/**
 * The streams read and planned. `plan` is taken by the run's one `apply` (takePlan): writing needs only the documents
 * and the outcome, and a plan of 50,000 objects kept alive beside the output was most of the heap (#37).
 */
type Planned = { parsed: StreamDoc[][]; plan: Plan | undefined } | { results: Result[] };

/**
 * Reads and plans the streams. Read errors come back from `finish` as results, not throws.
 * - Documents are read one at a time, so only one document's tree (and those of Secrets, ConfigMaps,
 *   producers and kagent objects) exists at a time.
 */
export function startStreamRun(files: readonly StreamInput[], options: StreamRunOptions): Run {
  const { config } = options;
  const keep = (d: StreamDoc, file: StreamInput): boolean => !((options.dropLocalConfig || file.dropLocalConfig) && isLocalConfigDoc(d));
  const modes: readonly ReadMode[] = (options.reader ?? DEFAULT_READ_MODE) === 'full' ? ['full'] : ['fast', 'full'];
  const first = readAndPlan(files, keep, modes[0]!, options);
  if ('results' in first) return failedRun(config, first.results);
  return {
    config,
    needs: needsOf(first.plan!),
    finish(inputs: FinishInputs = {}): RunOutcome {
      const { fetched, versions, hashKey } = inputs;
      const { deadline } = options;
      // Read again with the yaml library, the streams give the same plan; the live sources are already read.
      const readAgain = modes.slice(1).map((mode) => (): Planned => readAndPlan(files, keep, mode, options));
      return finishWithFallback<Planned>(first, readAgain, (read) => {
        if ('results' in read) return failedOutcome(read.results);
        options.trace?.('hashing');
        const { outcome, counts } = applyOnce(read, { ...(hashKey ? { hashKey } : {}), ...(fetched ? { fetched } : {}), ...(versions ? { versions } : {}), ...(options.keyDetail ? { keyDetail: true } : {}), ...(options.keyDigests ? { keyDigests: true } : {}), ...(options.sourceReports ? { sourceReports: true } : {}), ...(options.kagentPreview ? { kagentPreview: true } : {}), ...(deadline ? { deadline } : {}) });
        options.afterApply?.();
        if (options.write === false) return { ...outcome, outputPieces: [], ...counts };
        options.trace?.('writing');
        const streams = read.parsed.map((docs) => serializeStream(docs, outcome.changed));
        return streams.every((s) => s !== undefined) ? { ...outcome, outputPieces: joinStreamPieces(streams as string[][]), ...counts } : undefined;
      }, 'streams');
    },
  };
}

/**
 * The streams read and planned: document by document in `fast` mode where the documents allow, else whole.
 * A plan that asks for objects read before a target named them (Plan.replan) is made again, knowing them.
 */
function readAndPlan(files: readonly StreamInput[], keep: (d: StreamDoc, file: StreamInput) => boolean, mode: ReadMode, options: StreamRunOptions, wanted?: readonly string[]): Planned {
  options.trace?.('reading');
  const read = (mode === 'fast' ? planDocuments(files, keep, options, wanted) : undefined) ?? readStreams(files, keep, mode, options, wanted);
  return 'plan' in read && read.plan?.replan && !wanted ? readAndPlan(files, keep, mode, options, read.plan.replan) : read;
}

/**
 * Reads and plans each document in turn. Undefined when a document cannot be read alone (see
 * streamDocuments): the streams are then read whole, which reports what it found with the stream's lines.
 */
function planDocuments(files: readonly StreamInput[], keep: (d: StreamDoc, file: StreamInput) => boolean, options: StreamRunOptions, wanted?: readonly string[]): Planned | undefined {
  const planner = startPlan(options.config, options.deadline, wanted);
  const parsed: StreamDoc[][] = [];
  const results: Result[] = [];
  const skim: Skim = { kinds: IDENTITY_ONLY_NAMES, wants: (identity, text) => planner.needsOnlyIdentity(identity, text), sources: (identity, text) => planner.scansSource(identity, text) };
  for (const file of files) {
    const docs: StreamDoc[] = [];
    const reader = streamDocuments(file.text, file.path, skim);
    for (let step = reader.next(); ; step = reader.next()) {
      if (step.done) {
        if (!step.value) return undefined;
        break;
      }
      if (step.value.identity) {
        // Skimmed: no tree, one item (not local-config: see identity-only.ts), the planner needs only its identity,
        // or it is a scanned Secret or ConfigMap.
        const { source } = step.value;
        // Assigned one by one: Object.assign made an object per document to copy from (#37).
        step.value.firstItem = planner.items;
        step.value.itemCount = 1;
        step.value.identity = undefined;
        step.value.source = undefined;
        docs.push(step.value);
        if (source) planner.addScanned(source, step.value.file);
        else planner.addIdentityOnly();
        continue;
      }
      if (!keep(step.value, file)) continue;
      docs.push(step.value);
      const read = streamItems([step.value], planner.items);
      results.push(...read.results);
      planner.add(read.items);
    }
    parsed.push(docs);
  }
  if (hasErrors(results)) return { results };
  options.trace?.('planning');
  return { parsed, plan: planner.finish() };
}

/** Reads the streams whole, then plans them. The items stay inside: once planned, a tree nothing reads again can be freed. */
function readStreams(files: readonly StreamInput[], keep: (d: StreamDoc, file: StreamInput) => boolean, mode: ReadMode, options: StreamRunOptions, wanted?: readonly string[]): Planned {
  const results: Result[] = [];
  const parsed: StreamDoc[][] = [];
  for (const file of files) {
    const stream = parseStream(file.text, file.path, mode);
    if ('results' in stream) results.push(...stream.results);
    else parsed.push(stream.docs.filter((d) => keep(d, file)));
  }
  if (hasErrors(results)) return { results };
  const read = streamItems(parsed.flat());
  if (hasErrors(read.results)) return { results: read.results };
  options.trace?.('planning');
  const planner = startPlan(options.config, options.deadline, wanted);
  planner.add(read.items);
  return { parsed, plan: planner.finish() };
}
