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
