// Shared by `stamp`, `explain` and `generate`: parse streams → run the core → the stamped text.
import type { Config } from '../function/config.ts';
import { applyStamp, type StampOutcome } from '../function/index.ts';
import { hasErrors, type Result } from '../function/results.ts';
import { needsFullRead, parseStream, serializeStream, streamItems, type ReadMode, type StreamDoc } from '../function/stream.ts';
import type { Io } from './io.ts';
import { readLiveSources, type LiveSettings } from './live-sources.ts';
import { readInputs, type InputFile } from './read-inputs.ts';
import { loadHashKey, maxInputBytes, readMode } from './settings.ts';

export interface StreamRun {
  outcome: StampOutcome;
  /** The stamped output (meaningful only when there are no errors). */
  output: string;
  /** How many objects the input held. */
  objects: number;
}

/** Reads plain multi-document inputs and stamps them. */
export async function stampStreams(paths: readonly string[], config: Config, io: Io, live: LiveSettings = {}): Promise<StreamRun> {
  return stampFiles(await readInputs(paths, io, maxInputBytes(io)), config, io, undefined, live);
}

/**
 * Runs the core over already-read streams. Parse errors come back as results, not throws.
 * - `keep` drops documents before anything else sees them (generate: local-config files of a plain directory).
 * - With `config.live`, what the core asks for is read from the cluster first (`live`: where and how).
 * - Streams are read fast (subset reader) unless `ROLLSTAMP_READER=full`; tests compare the two.
 */
export async function stampFiles(
  files: readonly InputFile[],
  config: Config,
  io: Io,
  keep: (d: StreamDoc) => boolean = () => true,
  live: LiveSettings = {},
): Promise<StreamRun> {
  const hashKey = await loadHashKey(config, io);
  const mode = readMode(io);
  let streams = readStreams(files, keep, mode);
  const empty: StampOutcome = { results: streams.results, targets: [], changed: new Map() };
  if (hasErrors(streams.results)) return { outcome: empty, output: '', objects: 0 };
  let read = streamItems(streams.parsed.flat());
  if (hasErrors(read.results)) return { outcome: { ...empty, results: read.results }, output: '', objects: 0 };
  const fetched = await readLiveSources(read.items, config, live, io);
  const options = { config, ...(hashKey ? { hashKey } : {}), ...(fetched ? { fetched } : {}) };
  let outcome = applyStamp(read.items, options);
  if (needsFullRead(streams.parsed.flat(), outcome.changed)) {
    // A stamp that cannot be written as a text edit is printed from the yaml library's tree: read again.
    streams = readStreams(files, keep, 'full');
    read = streamItems(streams.parsed.flat());
    const problems = [...streams.results, ...read.results];
    if (hasErrors(problems)) return { outcome: { ...empty, results: problems }, output: '', objects: 0 };
    outcome = applyStamp(read.items, options);
  }
  const output = joinStreams(streams.parsed.map((docs) => serializeStream(docs, outcome.changed)));
  return { outcome, output, objects: read.items.length };
}

function readStreams(files: readonly InputFile[], keep: (d: StreamDoc) => boolean, mode: ReadMode): { parsed: StreamDoc[][]; results: Result[] } {
  const results: Result[] = [];
  const parsed: StreamDoc[][] = [];
  for (const file of files) {
    const stream = parseStream(file.text, file.path, mode);
    if ('results' in stream) results.push(...stream.results);
    else parsed.push(stream.docs.filter(keep));
  }
  return { parsed, results };
}

/** Concatenates streams of several files, with a `---` between two files when the next has none. */
export function joinStreams(texts: readonly string[]): string {
  let out = '';
  for (const text of texts) {
    if (text === '') continue;
    if (out !== '') {
      if (!out.endsWith('\n')) out += '\n';
      if (!/^---(\s|$)/.test(text)) out += '---\n';
    }
    out += text;
  }
  return out;
}
