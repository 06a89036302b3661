// A small YAML writer for property tests: the same objects in many textual forms (block and flow collections,
// plain/single/double-quoted scalars, literal blocks, comments, indentation, key and document order, CRLF, BOM,
// JSON documents). Every form it writes must parse (YAML 1.2) back to exactly the same data.
import type { Rng } from './property-generate.ts';

/** An ordered map: keys are plain strings, so `__proto__` is an ordinary key. */
export class YMap {
  constructor(readonly entries: Array<[string, YNode]> = []) {}
}
export type YNode = string | number | boolean | null | YNode[] | YMap;

/** A map from entries; `false`/`undefined` entries are left out. */
export const ymap = (...entries: Array<[string, YNode] | false | undefined>): YMap =>
  new YMap(entries.filter((e): e is [string, YNode] => Array.isArray(e)));

/** How a stream is written. Every style writes the same data. */
export interface Style {
  /** Block indentation step. */
  indent: number;
  /** `key:\n- a` (true) or `key:\n  - a`. */
  compactSeq: boolean;
  /** Chance that a collection is written in flow style (`{a: b}`, `[a]`). */
  flow: number;
  /** How strings are quoted: plain when possible, always double, single when possible, or any. */
  quote: 'plain' | 'double' | 'single' | 'mixed';
  /** Double-quoted strings escape some non-ASCII characters (`\u00e9`, `\U0001f600`). */
  escapeUnicode: boolean;
  /** Chance that a multi-line string is a literal block scalar (`|`, `|-`, `|+`). */
  literal: number;
  /** Chance of a comment line before a block entry, and of a trailing comment after a scalar. */
  comments: number;
  shuffleKeys: boolean;
  shuffleDocs: boolean;
  /** `---` before the first document too. */
  docStart: boolean;
  /** `{ a: b }` instead of `{a: b}`. */
  flowPadding: boolean;
  /** Chance that a whole document is written as JSON. */
  json: number;
  /** Chance that a whole document is one flow map on one line. */
  flowDoc: number;
  /** `True`/`TRUE`, `~`/empty for null. */
  mixedScalars: boolean;
  /** CRLF line breaks. */
  crlf: boolean;
  /** A byte order mark before the stream (and after `...` markers). */
  bom: boolean;
  /** `...` after every document; then `%YAML 1.2` directives may precede `---`. */
  docEnd: boolean;
  /** `%YAML` directives may say 1.1 (else always 1.2); a 1.1 document may write 1.1-only plain strings. */
  yaml11: boolean;
  /**
   * Chance of rarer syntax: `!!str`/`!!map` tags, anchors (no aliases), explicit `? key` entries, multi-line
   * plain, folded and double-quoted scalars, tabs after `:`, blank lines, comments at odd indentation.
   */
  exotic: number;
  /**
   * Chance of the shapes renderers write that the fast reader reads (#26): an empty collection or a literal
   * block scalar's header on the line below its key, a string wrapped over lines (plain or double-quoted).
   * Never drawn when 0, so styles without it make the same random choices as before.
   */
  rendered: number;
}

export const PLAIN_STYLE: Style = {
  indent: 2,
  compactSeq: false,
  flow: 0,
  quote: 'plain',
  escapeUnicode: false,
  literal: 0,
  comments: 0,
  shuffleKeys: false,
  shuffleDocs: false,
  docStart: false,
  flowPadding: false,
  json: 0,
  flowDoc: 0,
  mixedScalars: false,
  crlf: false,
  bom: false,
  docEnd: false,
  yaml11: false,
  exotic: 0,
  rendered: 0,
};

/** A random formatting (no reordering): indentation, collection and scalar styles, comments, line breaks. */
export function randomFormat(rng: Rng): Style {
  return {
    ...PLAIN_STYLE,
    indent: rng.pick([2, 2, 3, 4]),
    compactSeq: rng.bool(),
    flow: rng.pick([0, 0.1, 0.3, 0.7, 1]),
    quote: rng.pick(['plain', 'double', 'single', 'mixed', 'mixed'] as const),
    escapeUnicode: rng.bool(),
    literal: rng.pick([0, 0.5, 1]),
    comments: rng.pick([0, 0.1, 0.3]),
    docStart: rng.bool(),
    flowPadding: rng.bool(),
    json: rng.pick([0, 0, 0.2]),
    flowDoc: rng.pick([0, 0, 0.2]),
    mixedScalars: rng.bool(),
    crlf: rng.bool(0.2),
    bom: rng.bool(0.1),
    docEnd: rng.bool(0.15),
    exotic: rng.pick([0, 0, 0.05, 0.2]),
  };
}

/** Over a random format: what a chart or kustomize render looks like, with the shapes of Style.rendered (#26). */
export const RENDERER_LIKE: Partial<Style> = { exotic: 0, crlf: false, bom: false, json: 0, flowDoc: 0, docEnd: false, literal: 0.5, rendered: 0.5 };

/** A fully random style: formatting plus key and document order. */
export function randomStyle(rng: Rng): Style {
  return { ...randomFormat(rng), shuffleKeys: rng.bool(), shuffleDocs: rng.bool() };
}

const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
const PLAIN = /^[\p{L}_][\p{L}\p{N}_./ -]*$/u;

/** A string that reads back as the same string when written plain, in block and flow context. */
export function plainOk(s: string): boolean {
  return PLAIN.test(s) && !s.endsWith(' ') && !RESERVED.test(s);
}

/** Characters written as they are inside quotes and literal blocks; everything else is escaped. */
function printable(cp: number): boolean {
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp >= 0x80 && cp <= 0x9f) return false;
  if (cp === 0x2028 || cp === 0x2029 || cp === 0xfeff || cp === 0xfffe || cp === 0xffff) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return true;
}

function singleOk(s: string): boolean {
  for (const ch of s) if (!printable(ch.codePointAt(0)!)) return false;
  return true;
}

function literalOk(s: string): boolean {
  if (!s.includes('\n') || s.startsWith(' ') || s.startsWith('\n')) return false;
  for (const ch of s) if (ch !== '\n' && !printable(ch.codePointAt(0)!)) return false;
  return true;
}

const hex = (n: number, w: number): string => n.toString(16).padStart(w, '0');

function doubleQuoted(s: string, st: Style, rng: Rng): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += rng.bool() ? '\\t' : '\\u0009';
    else if (ch === '\r') out += '\\r';
    else if (cp === 0) out += rng.bool() ? '\\0' : '\\x00';
    else if (!printable(cp)) out += `\\u${hex(cp, 4)}`;
    else if (cp > 0x7f && st.escapeUnicode && rng.bool(0.5)) out += cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
    else out += ch;
  }
  return `${out}"`;
}

const singleQuoted = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** State of one document's rendering. */
interface Ctx {
  st: Style;
  rng: Rng;
  anchors: number;
  /** A `|+` literal was written: blank lines after it would join its value, so none are added any more. */
  keepLiteral: boolean;
  /** The document has a `%YAML 1.1` directive: strings YAML 1.1 reads as strings (`0o17`) may be plain. */
  yaml11: boolean;
}

/** Plain in YAML 1.1, an integer in YAML 1.2. */
const YAML11_ONLY_STRING = /^0o[0-7]+$/;

function scalar(v: YNode, cx: Ctx): string {
  const { st, rng } = cx;
  if (v === null) return st.mixedScalars ? rng.pick(['null', '~', 'Null']) : 'null';
  if (typeof v === 'boolean') return st.mixedScalars ? rng.pick(v ? ['true', 'True', 'TRUE'] : ['false', 'False', 'FALSE']) : String(v);
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw new Error('not a scalar');
  const plain = plainOk(v) || (cx.yaml11 && YAML11_ONLY_STRING.test(v));
  switch (st.quote) {
    case 'plain':
      return plain ? v : doubleQuoted(v, st, rng);
    case 'double':
      return doubleQuoted(v, st, rng);
    case 'single':
      return singleOk(v) ? singleQuoted(v) : doubleQuoted(v, st, rng);
    case 'mixed': {
      const choices: Array<'p' | 's' | 'd'> = ['d'];
      if (plain) choices.push('p', 'p');
      if (singleOk(v)) choices.push('s');
      const c = rng.pick(choices);
      return c === 'p' ? v : c === 's' ? singleQuoted(v) : doubleQuoted(v, st, rng);
    }
  }
}

/** Positions of single spaces between two non-space characters (where a line may be folded). */
function foldPoints(s: string, ok: (prev: string, next: string) => boolean): number[] {
  const out: number[] = [];
  for (let i = 1; i < s.length - 1; i++) if (s[i] === ' ' && ok(s[i - 1]!, s[i + 1]!)) out.push(i);
  return out;
}

/** Breaks `s` into lines at some of `points` (each space becomes a line break plus `pad`). */
function foldAt(s: string, points: number[], pad: string, rng: Rng): string {
  const chosen = new Set(points.filter(() => rng.bool(0.5)));
  if (chosen.size === 0 && points.length > 0) chosen.add(rng.pick(points));
  let out = '';
  for (let i = 0; i < s.length; i++) out += chosen.has(i) ? `\n${pad}` : s[i];
  return out;
}

const notSpace = (c: string): boolean => c !== ' ' && c !== '\t';

/** Whether to write one of the rendered shapes (see Style.rendered); draws nothing when they are off. */
const rendered = (cx: Ctx): boolean => cx.st.rendered > 0 && cx.rng.bool(cx.st.rendered);

/** `v` wrapped over lines as a renderer wraps a long value: plain or double-quoted, or undefined when it cannot be. */
function wrapped(v: string, cx: Ctx, cont: number): string | undefined {
  const pad = ' '.repeat(cont);
  if (plainOk(v) && cx.rng.bool()) {
    const points = foldPoints(v, (a, b) => notSpace(a) && notSpace(b) && b !== '-' && b !== '#');
    return points.length ? foldAt(v, points, pad, cx.rng) : undefined;
  }
  const q = doubleQuoted(v, cx.st, cx.rng);
  const points = foldPoints(q, (a, b) => notSpace(a) && notSpace(b) && a !== '\\').filter((i) => i > 0 && i < q.length - 1);
  return points.length ? foldAt(q, points, pad, cx.rng) : undefined;
}

/**
 * A scalar in block context whose continuation lines are indented by `cont`: sometimes a multi-line form
 * that reads back as the same string (folded `>-`, multi-line plain, multi-line double-quoted).
 */
function blockScalar(v: YNode, cx: Ctx, cont: number): string {
  const { st, rng } = cx;
  if (typeof v === 'string' && rendered(cx)) {
    const out = wrapped(v, cx, cont);
    if (out !== undefined) return out;
  }
  if (typeof v === 'string' && rng.bool(st.exotic)) {
    const pad = ' '.repeat(cont);
    const forms: Array<() => string | undefined> = [
      () => {
        // Folded: single spaces between words become line breaks; no leading/trailing/double spaces, no breaks.
        if (v.includes('\n') || v !== v.trim() || v.includes('  ') || !singleOk(v) || v.includes('\t')) return undefined;
        const points = foldPoints(v, (a, b) => notSpace(a) && notSpace(b));
        return points.length ? `>-\n${pad}${foldAt(v, points, pad, rng)}` : undefined;
      },
      () => {
        if (!plainOk(v)) return undefined; // (a YAML 1.1-only plain string has no spaces to fold at)
        const points = foldPoints(v, (a, b) => notSpace(a) && notSpace(b) && b !== '-' && b !== '#');
        return points.length ? foldAt(v, points, pad, rng) : undefined;
      },
      () => {
        const q = doubleQuoted(v, st, rng);
        const points = foldPoints(q, (a, b) => notSpace(a) && notSpace(b) && a !== '\\').filter((i) => i > 0 && i < q.length - 1);
        return points.length ? foldAt(q, points, pad, rng) : undefined;
      },
    ];
    for (const f of rng.shuffle(forms)) {
      const out = f();
      if (out !== undefined) return out;
    }
  }
  return scalar(v, cx);
}

const COMMENTS = [
  'TODO: rotate',
  'managed by kustomize',
  'key: value',
  '"quoted" and \'single\'',
  '---',
  'ünïcödé 日本 😀',
  '{not: flow}, [nor, this]',
  'rollstamp.dev/hash: "sha256:0000000000000000000000000000000000000000000000000000000000000000"',
  '',
  '#',
  '- item',
];

function comment(rng: Rng): string {
  const text = rng.pick(COMMENTS);
  return text === '' ? '#' : `# ${text}`;
}

function trailing(cx: Ctx): string {
  return cx.rng.bool(cx.st.comments) ? ` ${comment(cx.rng)}` : '';
}

/** A comment line at indentation `ind` (or, in exotic mode, anywhere from column 0 to `ind`). */
function commentLine(cx: Ctx, ind: number): string {
  const at = cx.rng.bool(cx.st.exotic) ? cx.rng.int(ind + 1) : ind;
  return ' '.repeat(at) + comment(cx.rng);
}

/** Node properties (`!!str `, `&a1 `) or nothing. */
function props(v: YNode, cx: Ctx): string {
  if (!cx.rng.bool(cx.st.exotic)) return '';
  const parts: string[] = [];
  if (cx.rng.bool()) parts.push(`&a${++cx.anchors}`);
  if (cx.rng.bool()) {
    const tag = typeof v === 'string' ? '!!str' : v instanceof YMap ? '!!map' : Array.isArray(v) ? '!!seq' : undefined;
    if (tag) parts.push(tag);
  }
  return parts.length ? `${cx.rng.shuffle(parts).join(' ')} ` : '';
}

const isCollection = (v: YNode): v is YMap | YNode[] => v instanceof YMap || Array.isArray(v);
const isEmpty = (v: YMap | YNode[]): boolean => (v instanceof YMap ? v.entries.length === 0 : v.length === 0);

function entriesOf(m: YMap, cx: Ctx): Array<[string, YNode]> {
  return cx.st.shuffleKeys ? cx.rng.shuffle(m.entries) : m.entries;
}

function flow(v: YNode, cx: Ctx): string {
  const pad = cx.st.flowPadding ? ' ' : '';
  if (v instanceof YMap) {
    const parts = entriesOf(v, cx).map(([k, x]) => `${scalar(k, cx)}: ${props(x, cx)}${flow(x, cx)}`);
    return parts.length === 0 ? '{}' : `{${pad}${parts.join(', ')}${pad}}`;
  }
  if (Array.isArray(v)) {
    const parts = v.map((x) => `${props(x, cx)}${flow(x, cx)}`);
    return parts.length === 0 ? '[]' : `[${pad}${parts.join(', ')}${pad}]`;
  }
  return scalar(v, cx);
}

function literal(s: string, ind: number): string[] {
  const body = s.replace(/\n+$/, '');
  const trailingBreaks = s.length - body.length;
  const header = trailingBreaks === 0 ? '|-' : trailingBreaks === 1 ? '|' : '|+';
  const pad = ' '.repeat(ind);
  const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
  for (let i = 1; i < trailingBreaks; i++) lines.push('');
  return [header, ...lines];
}

/** The text after `key:` (or `-`): the value, and the lines below it. */
function valueLines(v: YNode, ind: number, cx: Ctx, seqIndent: number): { inline: string; below: string[] } {
  const { st, rng } = cx;
  const p = props(v, cx);
  if (isCollection(v)) {
    if (isEmpty(v) && !p && rendered(cx)) return { inline: trailing(cx), below: [`${' '.repeat(ind + st.indent)}${flow(v, cx)}`] };
    if (isEmpty(v) || rng.bool(st.flow)) return { inline: ` ${p}${flow(v, cx)}${trailing(cx)}`, below: [] };
    const head = p ? ` ${p.trimEnd()}` : '';
    if (v instanceof YMap) return { inline: head + (head ? '' : trailing(cx)), below: blockMap(v, ind + st.indent, cx) };
    return { inline: head + (head ? '' : trailing(cx)), below: blockSeq(v, seqIndent, cx) };
  }
  if (typeof v === 'string' && literalOk(v) && rng.bool(st.literal)) {
    const [header, ...body] = literal(v, ind + st.indent);
    if (header === '|+') cx.keepLiteral = true;
    if (!p && rendered(cx)) return { inline: '', below: [`${' '.repeat(ind + st.indent)}${header}`, ...body] };
    return { inline: ` ${p}${header}`, below: body };
  }
  if (v === null && st.mixedScalars && !p && rng.bool(0.3)) return { inline: '', below: [] };
  const sep = rng.bool(st.exotic) ? rng.pick(['\t', '  ', ' \t']) : ' ';
  const text = blockScalar(v, cx, ind + st.indent);
  return { inline: `${sep}${p}${text}${text.includes('\n') ? '' : trailing(cx)}`, below: [] };
}

function blockMap(m: YMap, ind: number, cx: Ctx, leadComment = true): string[] {
  const { st, rng } = cx;
  const lines: string[] = [];
  const pad = ' '.repeat(ind);
  entriesOf(m, cx).forEach(([k, v], i) => {
    if (i > 0 && !cx.keepLiteral && rng.bool(st.exotic)) lines.push('');
    if ((i > 0 || leadComment) && rng.bool(st.comments)) lines.push(commentLine(cx, ind));
    const key = scalar(k, cx);
    if (rng.bool(st.exotic * 0.3)) {
      // Explicit entry: `? key` then `: value` (block collections below, never compact).
      const { inline, below } = valueLines(v, ind, cx, ind + st.indent);
      lines.push(`${pad}? ${key}`, `${pad}:${inline}`, ...below);
      return;
    }
    const { inline, below } = valueLines(v, ind, cx, st.compactSeq ? ind : ind + st.indent);
    lines.push(`${pad}${key}:${inline}`, ...below);
  });
  return lines;
}

function blockSeq(items: YNode[], ind: number, cx: Ctx): string[] {
  const { st, rng } = cx;
  const lines: string[] = [];
  const pad = ' '.repeat(ind);
  for (const item of items) {
    if (rng.bool(st.comments)) lines.push(commentLine(cx, ind));
    if (item instanceof YMap && !isEmpty(item) && !rng.bool(st.flow)) {
      const sub = blockMap(item, ind + 2, cx, false);
      lines.push(`${pad}- ${sub[0]!.slice(ind + 2)}`, ...sub.slice(1));
    } else if (isCollection(item)) {
      lines.push(`${pad}- ${props(item, cx)}${flow(item, cx)}${trailing(cx)}`);
    } else {
      const text = blockScalar(item, cx, ind + 2);
      lines.push(`${pad}- ${props(item, cx)}${text}${text.includes('\n') ? '' : trailing(cx)}`);
    }
  }
  return lines;
}

/** Plain JavaScript data (null-prototype objects, so `__proto__` stays a key). */
export function toJS(v: YNode): unknown {
  if (v instanceof YMap) {
    const o = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of v.entries) o[k] = toJS(x);
    return o;
  }
  if (Array.isArray(v)) return v.map(toJS);
  return v;
}

/** JSON text that is also valid YAML 1.2: characters YAML does not allow raw are escaped. */
export function toJSON(v: YNode, indent: number): string {
  return JSON.stringify(toJS(v), null, indent).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

/** One document's text (ends with a line break). */
export function renderDoc(doc: YNode, st: Style, rng: Rng, yaml11 = false): string {
  const cx: Ctx = { st, rng, anchors: 0, keepLiteral: false, yaml11 };
  if (rng.bool(st.json)) return `${toJSON(doc, rng.pick([0, 2]))}\n`;
  if (rng.bool(st.flowDoc)) return `${props(doc, cx)}${flow(doc, cx)}\n`;
  if (!(doc instanceof YMap) || isEmpty(doc)) return `${flow(doc, cx)}\n`;
  const lines = blockMap(doc, 0, cx);
  return `${lines.join('\n')}\n`;
}

/** A multi-document stream. */
export function renderStream(docs: readonly YNode[], st: Style, rng: Rng): string {
  const cx: Ctx = { st, rng, anchors: 0, keepLiteral: false, yaml11: false };
  const order = st.shuffleDocs ? rng.shuffle(docs) : docs;
  let out = '';
  order.forEach((doc, i) => {
    const marker = i > 0 || st.docStart;
    // After `...` a document may start with a BOM and directives (which need the `---`).
    if (st.docEnd && i > 0 && st.bom && rng.bool(0.3)) out += '\ufeff';
    // `%YAML 1.1` lets this document write YAML 1.1-only plain strings. (The yaml package keeps a version
    // for the documents after it too; everything else this writer prints reads the same in 1.1 and 1.2.)
    let yaml11 = false;
    if ((i === 0 || st.docEnd) && rng.bool(st.exotic)) {
      yaml11 = st.yaml11 && rng.bool();
      out += `%YAML ${yaml11 ? '1.1' : '1.2'}\n---\n`;
    } else if (marker) out += `---${trailing(cx)}\n`;
    if (rng.bool(st.comments)) out += `${comment(rng)}\n`;
    out += renderDoc(doc, st, rng, yaml11);
    if (st.docEnd) out += `...${trailing(cx)}\n`;
  });
  if (rng.bool(st.comments)) out += `${comment(rng)}\n`;
  if (st.crlf) out = out.replace(/\n/g, '\r\n');
  return st.bom ? `\ufeff${out}` : out;
}
