// Read stage: a stream of JSON objects one after another (`{…}{…}` or one per line), as `generate` writes
// with ROLLSTAMP_OUTPUT=json and as Argo CD and kubectl read (k8s.io/apimachinery's YAMLOrJSONDecoder takes
// input whose first non-space character is `{` as consecutive JSON values). Such text is no single YAML
// document, so it is cut into one document per object; each is then read like any other document.

const SPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Where each object starts, when `text` is two or more JSON objects separated only by whitespace;
 * undefined for anything else (one object, YAML, unbalanced text), which the YAML readers take as before.
 * - Linear: one pass over the text, tracking strings, escapes and bracket depth; each piece must be JSON
 *   (a YAML flow map such as `{a: 1}` is not, and Kubernetes' decoder would refuse it too).
 */
export function splitJsonStream(text: string): number[] | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = skipSpace(text, 0);
  while (i < text.length) {
    if (text[i] !== '{') return undefined;
    const end = objectEnd(text, i);
    if (end === undefined) return undefined;
    starts.push(i);
    ends.push(end);
    i = skipSpace(text, end);
  }
  // One object is an ordinary document: the YAML readers take it (and report its errors) as before.
  if (starts.length < 2) return undefined;
  return starts.every((start, k) => isJson(text.slice(start, ends[k]))) ? starts : undefined;
}

/**
 * `text` as a YAML stream when it is a JSON stream (`---` before every object after the first; JSON objects
 * are YAML flow maps), else `text` unchanged. For output that joins a JSON stream with other documents: a
 * reader that sees `{` first (Kubernetes' YAMLOrJSONDecoder, rollstamp) reads the whole text as JSON, and
 * YAML readers do not read two objects without a `---` between them.
 */
export function jsonStreamAsYaml(text: string): string {
  const starts = splitJsonStream(text);
  if (!starts) return text;
  const parts: string[] = [];
  let at = 0;
  for (const start of starts.slice(1)) {
    const piece = text.slice(at, start);
    parts.push(piece, piece.endsWith('\n') ? '---\n' : '\n---\n');
    at = start;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && SPACE.has(text[i]!)) i++;
  return i;
}

/** The offset just past the object opening at `from`, or undefined when it never closes. */
function objectEnd(text: string, from: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return undefined;
    }
  }
  return undefined;
}

function isJson(piece: string): boolean {
  try {
    JSON.parse(piece);
    return true;
  } catch {
    return false;
  }
}
