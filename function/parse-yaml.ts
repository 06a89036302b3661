// Read stage: the one set of yaml options rollstamp parses with, and YAML errors as results.
// prettyErrors stays off: it copies the failing source line into the message, and that line may be a secret.
import { LineCounter, type DocumentOptions, type ParseOptions, type SchemaOptions, type YAMLError } from 'yaml';
import { errorResult, type FileRef, type Result } from './results.ts';

/** Options for every parse: YAML 1.2 (no `yes`/`0755` retyping, no merge keys), unique keys, no pretty errors. */
export const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
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
