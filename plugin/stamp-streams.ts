// Shared by `stamp` and `explain`: read inputs → parse streams → run the core → the stamped text.
import type { Config } from '../function/config.ts';
import { applyStamp, type StampOutcome } from '../function/index.ts';
import { hasErrors, type Result } from '../function/results.ts';
import { parseStream, serializeStream, streamItems, type StreamDoc } from '../function/stream.ts';
import type { Io } from './io.ts';
import { readInputs } from './read-inputs.ts';
import { loadHashKey, maxInputBytes } from './settings.ts';

export interface StreamRun {
  outcome: StampOutcome;
  /** The stamped output (meaningful only when there are no errors). */
  output: string;
  /** The input exactly as read, for comparison. */
  input: string;
}

/** Runs the core over plain multi-document inputs. Parse errors come back as results, not throws. */
export async function stampStreams(paths: readonly string[], config: Config, io: Io): Promise<StreamRun> {
  const files = await readInputs(paths, io, maxInputBytes(io));
  const hashKey = await loadHashKey(config, io);
  const results: Result[] = [];
  const parsed: StreamDoc[][] = [];
  for (const file of files) {
    const stream = parseStream(file.text, file.path);
    if ('results' in stream) results.push(...stream.results);
    else parsed.push(stream.docs);
  }
  const empty: StampOutcome = { results, targets: [], changed: new Map() };
  const input = joinStreams(files.map((f) => f.text));
  if (hasErrors(results)) return { outcome: empty, output: '', input };
  const read = streamItems(parsed.flat());
  if (hasErrors(read.results)) return { outcome: { ...empty, results: read.results }, output: '', input };
  const outcome = applyStamp(read.items, hashKey ? { config, hashKey } : { config });
  return { outcome, output: joinStreams(parsed.map((docs) => serializeStream(docs, outcome.changed))), input };
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
