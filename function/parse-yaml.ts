// Read stage: the one set of yaml options rollstamp parses with, and YAML errors as results.
// prettyErrors stays off: it copies the failing source line into the message, and that line may be a secret.
import { LineCounter, Scalar, type DocumentOptions, type ParseOptions, type SchemaOptions, type YAMLError } from 'yaml';
import { stringifyNumber } from 'yaml/util';
import { errorResult, type FileRef, type Result } from './results.ts';

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

/** Options for every parse: YAML 1.2 (no `yes`/`0755` retyping, no merge keys), unique keys, no pretty errors. */
export const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  customTags: keepNumberSource,
  version: '1.2',
  merge: false,
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
  keepSourceTokens: true,
  logLevel: 'error',
};

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
  RESOURCE_EXHAUSTION: 'nesting too deep',
};

/** A YAML error as one result: the code and the position, never the source text. */
export function yamlErrorResult(err: YAMLError, lines: LineCounter, file: FileRef | undefined): Result {
  const { line, col } = lines.linePos(err.pos[0]);
  const phrase = PHRASES[err.code] ?? err.code.toLowerCase().replace(/_/g, ' ');
  const fileRef = file ? { ...file } : undefined;
  const where = fileRef ? '' : ' in input';
  return errorResult(
    err.code === 'DUPLICATE_KEY' ? 'DUPLICATE_KEY' : 'YAML_SYNTAX',
    `invalid YAML${where}: ${phrase} at line ${line}, column ${col}`,
    fileRef ? { file: fileRef } : {},
  );
}

export { LineCounter };
