// Read stage: the one set of yaml options rollstamp parses with, and YAML errors as results.
// prettyErrors stays off: it copies the failing source line into the message, and that line may be a secret.
import { Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, Scalar, visit, YAMLParseError, type CST, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions, type YAMLError } from 'yaml';
import { stringifyNumber } from 'yaml/util';
import { errorResult, type FileRef, type Result } from '../model/results.ts';

type Tags = Extract<NonNullable<SchemaOptions['customTags']>, (...args: never[]) => unknown> extends (tags: infer T) => unknown ? T : never;

/**
 * Numbers print as they were written. YAML 1.2 reads `0400` as 400, but kubectl reads YAML 1.1, where it is
 * octal: printing `400` would change a `defaultMode`. Also keeps `0x1F`, `1e3`, `+12` as written.
 */
function keepNumberSource(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== 'object' || !/:(int|float)$/.test(tag.tag)) return tag;
    const fallback = tag.stringify ?? stringifyNumber;
    return {
      ...tag,
      stringify: (item, ctx, onComment, onChompKeep) => {
        const source = (item as Scalar).source;
        return (item as Scalar).type === Scalar.PLAIN && typeof source === 'string' && source !== ''
          ? source
          : fallback(item, ctx, onComment, onChompKeep);
      },
    };
  }) as Tags;
}

/**
 * Options for every parse: YAML 1.2 (no `yes`/`0755` retyping, no merge keys), no pretty errors.
 * - `uniqueKeys` is off because the library's check is quadratic: for each key it scans every earlier key of
 *   the same map (`mapIncludes` → `items.some`, yaml 2.9 `compose/util-map-includes.js`), so one map of 80k
 *   keys took over a minute. Every document parsed with these options must go through `addDuplicateKeyErrors`,
 *   which makes the same check in linear time (#12): `parseYamlDocument` does both.
 */
export const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  customTags: keepNumberSource,
  version: '1.2',
  merge: false,
  uniqueKeys: false,
  strict: true,
  prettyErrors: false,
  keepSourceTokens: true,
  logLevel: 'error',
};

/**
 * One document parsed with PARSE_OPTIONS (plus `extra`, e.g. a lineCounter) and checked for duplicate keys:
 * the way to parse a single document, so no caller can forget the check that PARSE_OPTIONS leaves out. Text
 * nested deeper than MAX_YAML_NESTING is refused before the library builds a tree (see tooDeepError).
 */
export function parseYamlDocument(text: string, extra: ParseOptions = {}): Document.Parsed {
  const options = { ...PARSE_OPTIONS, ...extra };
  const read = parseTokens(text, options.lineCounter);
  const tokens = 'tokens' in read ? read.tokens : [];
  const deep = 'tokens' in read ? tooDeepError(tokens) : read.error;
  // As the library's parseDocument: the first document; a second one is a MULTIPLE_DOCS error on it.
  let doc: Document.Parsed | undefined;
  for (const next of new Composer(options).compose(deep ? [] : tokens, true, text.length)) {
    if (!doc) doc = next as Document.Parsed;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  if (deep) doc!.errors.push(deep);
  addDuplicateKeyErrors(doc!);
  return doc!;
}

/**
 * Deepest collection nesting handed to the yaml library. Its composer recurses per level and turns a stack
 * overflow into a `nesting too deep` error at whatever depth the stack ran out, which depends on how much
 * stack the code compiled so far uses: about 790 flow levels in a cold process, so the same input could
 * fail at different columns from run to run. Below this limit it never runs out; above it, the error is
 * always the same. Kubernetes objects nest a few dozen levels (a CRD schema included).
 */
export const MAX_YAML_NESTING = 256;

/**
 * The parser's tokens, or the too-deep error when the parser itself ran out of stack: it recurses once per
 * level while it closes block collections, so text nested thousands of levels deep overflows it before
 * tooDeepError can look. Either way the error is the same, so no run prints a different one.
 */
export function parseTokens(text: string, lines?: LineCounter): { tokens: CST.Token[] } | { error: YAMLParseError } {
  try {
    return { tokens: [...new Parser(lines?.addNewLine).parse(text)] };
  } catch (err) {
    if (err instanceof RangeError) return { error: tooDeep(0) };
    throw err;
  }
}

const tooDeep = (offset: number): YAMLParseError => new YAMLParseError([offset, offset + 1], 'RESOURCE_EXHAUSTION', `nesting deeper than ${MAX_YAML_NESTING} levels`);

/**
 * The error for the first collection nested deeper than MAX_YAML_NESTING in a token stream, or undefined.
 * Walks the parser's tokens (the parser itself keeps an explicit stack) with a stack of its own.
 */
export function tooDeepError(tokens: readonly CST.Token[]): YAMLParseError | undefined {
  const stack: Array<{ token: CST.Token | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (!token) continue;
    switch (token.type) {
      case 'document':
        stack.push({ token: token.value, depth });
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        if (depth >= MAX_YAML_NESTING) return tooDeep(token.offset);
        for (const item of token.items) {
          stack.push({ token: item.value, depth: depth + 1 });
          if ('key' in item) stack.push({ token: item.key ?? undefined, depth: depth + 1 });
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

/**
 * Adds a DUPLICATE_KEY error to `doc.errors` for every key equal to an earlier key of the same map, as the
 * yaml library's own `uniqueKeys` check does (scalar keys with equal values; NaN equals nothing; a collection
 * or alias key equals only itself), at the repeated key's position.
 * - In the library's order (a key, its check, then its value), linear in the number of nodes, and iterative
 *   (no recursion on deep input).
 */
export function addDuplicateKeyErrors(doc: Document): void {
  type Task = { node: unknown } | { key: unknown; seen: Set<unknown> };
  const stack: Task[] = [{ node: doc.contents }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('key' in task) {
      const key = task.key;
      if (!isScalar(key) || Number.isNaN(key.value)) continue;
      if (!task.seen.has(key.value)) task.seen.add(key.value);
      else {
        const at = key.range?.[0] ?? 0;
        doc.errors.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
      }
    } else if (isMap(task.node)) {
      const seen = new Set<unknown>();
      for (let i = task.node.items.length - 1; i >= 0; i--) {
        const pair = task.node.items[i]!;
        stack.push({ node: pair.value }, { key: pair.key, seen }, { node: pair.key });
      }
    } else if (isSeq(task.node)) {
      for (let i = task.node.items.length - 1; i >= 0; i--) {
        const item = task.node.items[i];
        stack.push({ node: isPair(item) ? item.value : item });
      }
    }
  }
}

const PHRASES: Record<string, string> = {
  DUPLICATE_KEY: 'duplicate key',
  BAD_INDENT: 'bad indentation',
  TAB_AS_INDENT: 'tab used as indentation',
  MISSING_CHAR: 'missing character',
  MULTILINE_IMPLICIT_KEY: 'implicit key spans lines',
  BLOCK_AS_IMPLICIT_KEY: 'block collection used as a key',
  UNEXPECTED_TOKEN: 'unexpected token',
  BAD_ALIAS: 'bad alias',
  BAD_DIRECTIVE: 'bad directive',
  RESOURCE_EXHAUSTION: `nesting too deep (the limit is ${MAX_YAML_NESTING} levels)`,
};

/** A YAML error as one result: the code and the position, never the source text. */
export function yamlErrorResult(err: YAMLError, lines: LineCounter, file: FileRef | undefined): Result {
  // No position for over-deep nesting: where the parser ran out of stack differs from run to run.
  const at = err.code === 'RESOURCE_EXHAUSTION' ? '' : positionOf(err, lines);
  const phrase = PHRASES[err.code] ?? err.code.toLowerCase().replace(/_/g, ' ');
  const fileRef = file ? { ...file } : undefined;
  const where = fileRef ? '' : ' in input';
  return errorResult(
    err.code === 'DUPLICATE_KEY' ? 'DUPLICATE_KEY' : 'YAML_SYNTAX',
    `invalid YAML${where}: ${phrase}${at}`,
    fileRef ? { file: fileRef } : {},
  );
}

function positionOf(err: YAMLError, lines: LineCounter): string {
  const { line, col } = lines.linePos(err.pos[0]);
  return ` at line ${line}, column ${col}`;
}

const CORE = 'tag:yaml.org,2002:';

/** Whether a scalar's value is what its explicit core tag promises (`!!int "payments"` is not). */
function fitsTag(node: Scalar, tag: string): boolean {
  const v = node.value;
  switch (tag) {
    case 'str':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    case 'float':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      return false; // !!binary, !!timestamp …: Kubernetes objects hold none, and yaml prints them back lossily
  }
}

/**
 * Problems the yaml library accepts but cannot print back faithfully, which would make a re-printed
 * document differ from its source: a core tag that does not fit its value (`!!int "payments"`, `!!str [..]`,
 * any `!!binary`), an alias whose anchor does not exist, an anchor name yaml refuses to print. Checked only
 * when the text has a `!`, `*` or `&`.
 */
export function unprintableNodes(doc: Document, text: string, lines: LineCounter, file: FileRef | undefined): Result[] {
  if (!text.includes('!') && !text.includes('*') && !text.includes('&')) return [];
  const results: Result[] = [];
  const where = (range: readonly number[] | null | undefined): string => {
    const { line, col } = lines.linePos(range?.[0] ?? 0);
    return `line ${line}, column ${col}`;
  };
  const problem = (what: string, range: readonly number[] | null | undefined): void => {
    results.push(errorResult('YAML_SYNTAX', `invalid YAML${file ? '' : ' in input'}: ${what} at ${where(range)}`, file ? { file: { ...file } } : {}));
  };
  // Anchors met so far, in the order yaml's Alias.resolve searches them: calling resolve() per alias walks the
  // whole document each time, quadratic in aliases (#12).
  const anchors = new Set<string>();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      if (!anchors.has(node.source)) problem('an alias has no anchor', node.range);
      return undefined;
    }
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor !== undefined) anchors.add(anchor);
    // The same test the yaml library applies before printing an anchor.
    if (anchor !== undefined && /[\x00-\x19\s,[\]{}]/.test(anchor)) problem('an anchor name holds a space or control character', (node as { range?: number[] }).range);
    const tag = (node as { tag?: string } | null)?.tag;
    if (!tag?.startsWith(CORE)) return undefined;
    const name = tag.slice(CORE.length);
    const ok = isScalar(node) ? fitsTag(node, name) : name === 'map' || name === 'seq';
    if (!ok) problem(`value does not fit its tag !!${name.slice(0, 32)}`, (node as { range?: number[] }).range);
    return undefined;
  });
  return results;
}

export { LineCounter };

/** The readers a run may start with (ROLLSTAMP_READER's values; the core owns the choice and its default). */
export const READ_MODES = ['fast', 'full'] as const;
/** `fast`: the subset reader when the stream fits it, else the yaml library; `full`: the yaml library. */
export type ReadMode = (typeof READ_MODES)[number];
/** The reader a run starts with when none is named. */
export const DEFAULT_READ_MODE: ReadMode = 'fast';

/**
 * `%YAML 1.1` is refused: it changes what plain values mean (`yes`, `0755`), and a YAML 1.1 document cannot
 * be printed again without changing the documents after it.
 */
export function yaml11Result(file: FileRef | undefined): Result {
  return errorResult('YAML_SYNTAX', 'only YAML 1.2 is read: remove the %YAML 1.1 directive (Kubernetes manifests need none)', file ? { file } : {});
}
