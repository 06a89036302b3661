// Write stage for several input streams: their stamped texts joined into the one stream a command prints.
import { jsonStreamAsYaml } from '../read/json-stream.ts';

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

/**
 * joinStreams for streams given as pieces (write/stream.ts): one stream's pieces as they are; several streams
 * joined as joinStreams joins their texts, into one piece.
 */
export function joinStreamPieces(streams: readonly (readonly string[])[]): readonly string[] {
  const present = streams.filter((pieces) => pieces.some((p) => p !== ''));
  if (present.length < 2) return present[0] ?? [];
  return [joinStreams(present.map((pieces) => pieces.join('')))];
}
