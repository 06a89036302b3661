// The `results:` block fn appends to a ResourceList, printed by a writer for the fixed shape of a Result
// instead of the yaml library's general printer, which took about a fifth of fn's time on large lists (#26).
// The output is byte for byte what `stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false })`
// prints: a string is written plain only when a narrow rule says the library would too (checked against the
// library in test/property/results-yaml.test.ts); any other string is printed by the library itself, in the
// same place, once per distinct string; and a result of any other shape sends the whole block to the library.
import { stringify } from 'yaml';
import type { Result } from '../model/results.ts';

const OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false } as const;

/** A result's keys with a string value. */
const TOP = new Set(['message', 'severity']);
/** A result's keys with a map value, and the keys each map may have (`true`: its value may be a number). */
const NESTED = new Map<string, ReadonlyMap<string, boolean>>([
  ['resourceRef', new Map([['apiVersion', false], ['kind', false], ['name', false], ['namespace', false]])],
  ['field', new Map([['path', false]])],
  ['file', new Map([['path', false], ['index', true]])],
  ['tags', new Map([['code', false]])],
]);

/**
 * Strings the library prints plain as a block map value, narrowly: printable ASCII, led by a letter (so no
 * indicator, number, `.inf` or document marker), with no `: ` or ` #`, and not ending in a space or `:`.
 * Of these the library quotes only words that read as null or a boolean: RESERVED, tested apart.
 */
const PLAIN = /^[A-Za-z](?:[!-9;-~]|:(?=[!-~])| (?=[ !"$-~]))*$/;
/** Letter-led words a YAML 1.1 or 1.2 schema reads as null or a boolean (broader than the core schema's). */
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

/** Thrown when a result is not of the fixed shape: the block is printed by the library instead. */
class NotFixedShape extends Error {}

/** How the library prints a string the writer does not print plain, as the value of a result's key (0) or of a nested map's (1). */
const quoted = [new Map<string, string>(), new Map<string, string>()] as const;
const PREFIX = ['results:\n  - k: ', 'results:\n  - k:\n      k: '] as const;

function libraryScalar(value: string, depth: 0 | 1): string {
  const cache = quoted[depth];
  let out = cache.get(value);
  if (out === undefined) {
    const text = stringify({ results: [depth === 0 ? { k: value } : { k: { k: value } }] }, OPTIONS);
    const prefix = PREFIX[depth];
    // A string printed over several lines (a block scalar) depends on its neighbours: the library prints it all.
    if (!text.startsWith(prefix) || text.indexOf('\n', prefix.length) !== text.length - 1) throw new NotFixedShape();
    out = text.slice(prefix.length, -1);
    if (cache.size > 10_000) cache.clear();
    cache.set(value, out);
  }
  return out;
}

/** Whether the writer prints `value` plain itself (the library's printing is asked for every other string). */
export const writesPlain = (value: string): boolean => PLAIN.test(value) && !(value.length <= 5 && RESERVED.test(value));

function scalar(value: unknown, depth: 0 | 1, numberAllowed: boolean): string {
  if (typeof value === 'string') return writesPlain(value) ? value : libraryScalar(value, depth);
  if (numberAllowed && typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  throw new NotFixedShape();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

function writeResult(r: unknown, out: string[]): void {
  if (!isPlainObject(r)) throw new NotFixedShape();
  let lead = '  - ';
  for (const key of Object.keys(r)) {
    const value = r[key];
    if (value === undefined) continue; // the library leaves out undefined values
    if (TOP.has(key)) {
      out.push(`${lead}${key}: ${scalar(value, 0, false)}\n`);
    } else {
      const keys = NESTED.get(key);
      if (keys === undefined || !isPlainObject(value)) throw new NotFixedShape();
      let body = '';
      for (const k of Object.keys(value)) {
        const v = value[k];
        if (v === undefined) continue;
        const numberAllowed = keys.get(k);
        if (numberAllowed === undefined) throw new NotFixedShape();
        body += `      ${k}: ${scalar(v, 1, numberAllowed)}\n`;
      }
      if (body === '') throw new NotFixedShape(); // an empty map prints as `{}`
      out.push(`${lead}${key}:\n${body}`);
    }
    lead = '    ';
  }
  if (lead === '  - ') throw new NotFixedShape(); // an empty result prints as `- {}`
}

/** `results:` and the results, as `stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false })` prints them. */
export function resultsYaml(results: readonly Result[]): string {
  if (results.length > 0) {
    try {
      const out = ['results:\n'];
      for (const r of results) writeResult(r, out);
      return out.join('');
    } catch (err) {
      if (!(err instanceof NotFixedShape)) throw err;
    }
  }
  return stringify({ results }, OPTIONS);
}
