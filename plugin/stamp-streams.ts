// Shared by `stamp`, `explain` and `generate`: parse streams → run the core → the stamped text.
import { InputError } from './errors.ts';
import type { Io } from './io.ts';
import { readLiveSources, type LiveSettings } from './live-sources.ts';
import { readInputs, type InputFile } from './read-inputs.ts';
import { loadHashKey, maxInputBytes, readModes, withOperatorLimits } from './settings.ts';
import { apply, type ApplyOptions, type Config, type Deadline, type FetchedSources, hasErrors, jsonStreamAsYaml, parseStream, plan, type Plan, type ReadMode, type Result, serializeStream, type StampOutcome, startPlan, type StreamDoc, streamItems, subsetDocuments } from '../function/index.ts';

/** What a command may ask of the core besides the stamp. */
export type CoreOptions = Pick<ApplyOptions, 'keyDetail' | 'keyDigests' | 'deadline' | 'kagentPreview'>;

export interface StreamRun {
  outcome: StampOutcome;
  /** The stamped output (meaningful only when there are no errors). */
  output: string;
  /** How many objects the input held. */
  objects: number;
}

/** Help line of `--allow-empty` (stamp, explain). */
/**
 * Zero objects in is an error unless allowed: `renderer | rollstamp stamp --check -` must not pass CI when
 * the renderer failed and printed nothing (#12).
 */
export function refuseEmpty(run: StreamRun, paths: readonly string[], allowEmpty: boolean | undefined): void {
  if (run.objects > 0 || allowEmpty) return;
  const where = paths.length === 0 || (paths.length === 1 && paths[0] === '-') ? 'standard input' : paths.join(', ');
  throw new InputError(`no objects in ${where}; pass --allow-empty if an empty input is expected`);
}

/** Reads plain multi-document inputs and stamps them. */
export async function stampStreams(
  paths: readonly string[],
  config: Config,
  io: Io,
  live: LiveSettings = {},
  core: CoreOptions = {},
  keep?: (d: StreamDoc, file: InputFile) => boolean,
): Promise<StreamRun> {
  return stampFiles(await readInputs(paths, io, maxInputBytes(io)), config, io, keep, live, core);
}

/**
 * Runs the core over already-read streams. Parse errors come back as results, not throws.
 * - `keep` drops documents before anything else sees them (local-config documents read from a directory).
 * - With `config.live`, what the core asks for is read from the cluster first (`live`: where and how).
 * - Streams are read fast (subset reader) unless `ROLLSTAMP_READER=full`; tests compare the two.
 * - `core`: further options for the core (`explain` and `diff` ask for per-key rows, `diff` for their digests,
 *   both for the kagent 1.x preview; `generate` passes its run deadline, checked inside planning and hashing).
 */
export async function stampFiles(
  files: readonly InputFile[],
  settings: Config,
  io: Io,
  keep: (d: StreamDoc, file: InputFile) => boolean = () => true,
  live: LiveSettings = {},
  core: CoreOptions = {},
): Promise<StreamRun> {
  const config = withOperatorLimits(settings, io);
  const hashKey = await loadHashKey(config, io);
  const failed = (results: Result[]): StreamRun => ({ outcome: { results, targets: [], changed: new Map() }, output: '', objects: 0 });
  let fetched: { sources: FetchedSources | undefined } | undefined;
  for (const mode of readModes(io)) {
    io.trace?.('reading');
    const streams = (mode === 'fast' ? planOneByOne(files, keep, config, io, core.deadline) : undefined) ?? readStreams(files, keep, mode, config, io, core.deadline);
    if ('results' in streams) return failed(streams.results);
    const { parsed, plan: planned } = streams;
    if (!fetched) io.trace?.('reading the cluster');
    fetched ??= { sources: await readLiveSources(planned, live, io) };
    const sources = fetched.sources;
    io.trace?.('hashing');
    const outcome = apply(planned, { ...core, ...(hashKey ? { hashKey } : {}), ...(sources ? { fetched: sources } : {}) });
    io.trace?.('writing');
    const texts = parsed.map((docs) => serializeStream(docs, outcome.changed));
    if (texts.some((t) => t === undefined)) continue;
    return { outcome, output: joinStreams(texts as string[]), objects: planned.items };
  }
  throw new Error('internal: streams read in full could not be written');
}

type Planned = { parsed: StreamDoc[][]; plan: Plan } | { results: Result[] };

/**
 * Reads and plans each document in turn, so only one document's tree (and those of Secrets, ConfigMaps,
 * producers and kagent objects) exists at a time. Undefined when a document is outside the YAML subset:
 * the caller then reads the streams whole.
 */
function planOneByOne(files: readonly InputFile[], keep: (d: StreamDoc, file: InputFile) => boolean, config: Config, io: Io, deadline?: Deadline): Planned | undefined {
  const planner = startPlan(config, deadline);
  const parsed: StreamDoc[][] = [];
  const results: Result[] = [];
  for (const file of files) {
    const docs: StreamDoc[] = [];
    const reader = subsetDocuments(file.text, file.path);
    for (let step = reader.next(); ; step = reader.next()) {
      if (step.done) {
        if (!step.value) return undefined;
        break;
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
  io.trace?.('planning');
  return { parsed, plan: planner.finish() };
}

/** Reads the streams whole, then plans them. The items stay inside: once planned, a tree nothing reads again can be freed. */
function readStreams(files: readonly InputFile[], keep: (d: StreamDoc, file: InputFile) => boolean, mode: ReadMode, config: Config, io: Io, deadline?: Deadline): Planned {
  const results: Result[] = [];
  const parsed: StreamDoc[][] = [];
  for (const file of files) {
    const stream = parseStream(file.text, file.path, mode);
    if ('results' in stream) results.push(...stream.results);
    else parsed.push(stream.docs.filter((d) => keep(d, file)));
  }
  if (hasErrors(results)) return { results };
  io.trace?.('planning');
  const read = streamItems(parsed.flat());
  return hasErrors(read.results) ? { results: read.results } : { parsed, plan: plan(read.items, config, deadline) };
}

/**
 * Concatenates streams of several files, with a `---` between two files when the next has none.
 * - Joined with others, a JSON stream gets `---` between its objects, and output whose first character would
 *   be `{` starts with `---`: otherwise readers take the whole output as JSON (#12).
 */
export function joinStreams(texts: readonly string[]): string {
  const present = texts.filter((t) => t !== '');
  if (present.length < 2) return present[0] ?? '';
  let out = '';
  for (const text of present.map(jsonStreamAsYaml)) {
    if (text === '') continue;
    if (out !== '') {
      if (!out.endsWith('\n')) out += '\n';
      if (!/^---(\s|$)/.test(text)) out += '---\n';
    }
    out += text;
  }
  return out.trimStart().startsWith('{') ? `---\n${out}` : out;
}
