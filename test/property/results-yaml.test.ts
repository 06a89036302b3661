// fn's `results:` block (#26): resultsYaml prints, byte for byte, what the yaml library's
// stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false }) prints, for random results with hostile
// strings (indicators, quotes, reserved words, numbers, dates, document markers, control and format characters,
// lone surrogates, line breaks, long lines), in any key order, with fields left out or undefined, shared
// objects, and now and then a result of another shape (which the library prints whole). Also every string of
// up to three characters from an alphabet of YAML's troublemakers, in both places a string can stand.
// 2,000 cases here, 20,000 when CI is set; PROPERTY_CASES overrides.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import type { Result } from '../../function/model/results.ts';
import { resultsYaml } from '../../function/write/results-yaml.ts';
import { Rng } from '../support/property-generate.ts';
import { forAll } from '../support/property-harness.ts';

const CASES = Number(process.env.PROPERTY_CASES ?? (process.env.CI ? 20_000 : 2_000));
const SEED = 0x7e5a17e5;

const library = (results: readonly unknown[]): string => stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false });

/** Whole strings YAML reads as something else, or that need quoting (or look as if they might). */
const ATOMS = [
  '', ' ', '  ', 'a', 'web', 'a b', 'a  b', ' a', 'a ', '\ta', 'a\t', 'a: b', 'a:b', 'a:', ':a', ': a', 'a #b', 'a#b', '#a', 'a #', '#',
  '-', '- a', '-a', '--', '---', '--- a', '---a', '...', '... a', '....', '?', '? a', '?a', ':', '::1', '%x', '%YAML 1.2', '@x', '`x', '!x', '!!str', '&a', '*a', '|', '|-', '>', '>-',
  "'", '"', "'a'", '"a"', "it's", 'a"b', '[a]', '{a}', 'a[0]', 'a{b}', ',a', 'a,b', 'a]', '}',
  'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', 'nULL', '~', 'yes', 'Yes', 'YES', 'no', 'No', 'on', 'On', 'ON', 'off', 'Off', 'y', 'Y', 'n', 'N',
  '0', '1', '-1', '+1', '007', '1_000', '1e3', '1E3', '1e+3', '-1.5e-3', '0x1', '0x1F', '0X1', '0o17', '0b101', '.5', '5.', '1.50', '+.5', '.inf', '.Inf', '-.inf', '+.INF', '.nan', '.NaN', 'NaN', 'Infinity', '1:30', '190:20:30', '12:30:45.5',
  '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2002-12-14',
  'é', '日本語', 'naïve café', '😀', '\ud800', '\udc00', 'a\ud83d', '\u2028', '\u2029', '\u0085', '\u00a0', '\ufeff', '\u200b', '\u202e', '\u00ad',
  '\n', 'a\nb', 'a\n', '\na', 'a\n\n', 'a\n\nb', ' a\nb', 'a\n b', 'a \nb', '\r', 'a\rb', '\r\n', '\0', '\u0007', '\u001b[31m', '\u007f', '\u009b', '\\', '\\n', 'a\\b',
  'spec.template.metadata.annotations["rollstamp.dev/hash"]', 'apps/v1', 'v1', 'Deployment', 'team-1', 'app-1001', 'rollstamp.dev/hash', 'spec.containers[0].env[2].valueFrom.secretKeyRef',
  'stamped rollstamp.dev/hash', 'Secret team-1/creds-3 is missing', 'x'.repeat(100), `${'word '.repeat(40)}end`, 'INVALID_INPUT', 'error', 'warning', 'info',
] as const;

/** Pieces strings are made of: YAML's indicators, whitespace, and characters of every kind. */
const CHARS = [...'abcXYZ019 \t\n-?:,[]{}#&*!|>\'"%@`~._/\\=+<>;()^$', '\r', '\0', '\u0007', '\u007f', '\u0085', '\u009f', '\u00a0', 'é', '日', '😀', '\ud800', '\udfff', '\u2028', '\ufeff', '\u200b'];

function hostile(rng: Rng): string {
  switch (rng.int(6)) {
    case 0:
      return rng.pick(ATOMS);
    case 1: // atoms side by side, or with a space, a colon or a hash between them
      return `${rng.pick(ATOMS)}${rng.pick(['', ' ', ': ', ':', ' #', '#', '\n', '-', '/'])}${rng.pick(ATOMS)}`;
    case 2: {
      let s = '';
      for (let n = rng.range(1, 12); n > 0; n--) s += rng.pick(CHARS);
      return s;
    }
    case 3: {
      // A long line, the kind folding would break had lineWidth not been 0.
      const words: string[] = [];
      for (let n = rng.range(20, 120); n > 0; n--) words.push(rng.bool(0.9) ? rng.pick(['lorem', 'ipsum', 'a.b', 'x/y', 'k=v', '(z)']) : rng.pick(ATOMS));
      return words.join(rng.pick([' ', ' ', '  ', '\n']));
    }
    default: {
      // Plain-looking, as real results are: the writer's own path, now and then broken by one character.
      let s = `${rng.pick(['stamped', 'Deployment', 'team', 'missing', 'spec'])}${rng.pick(['', ' ', '-', '.', '/', ':'])}${rng.pick(['app-1', 'key "x"', 'a[0]', 'rollstamp.dev/hash', 'v1'])}`;
      if (rng.bool(0.3)) {
        const at = rng.int(s.length + 1);
        s = s.slice(0, at) + rng.pick(CHARS) + s.slice(at);
      }
      return s;
    }
  }
}

function maybe<T>(rng: Rng, p: number, make: () => T): T | undefined {
  return rng.bool(p) ? make() : undefined;
}

/** An object with the given entries in random order; an absent value is left out or set to undefined. */
function object(rng: Rng, entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of rng.shuffle(entries)) if (v !== undefined || rng.bool(0.2)) out[k] = v;
  return out;
}

function index(rng: Rng): number {
  return rng.bool(0.8) ? rng.int(rng.pick([3, 100, 100_000])) : rng.pick([-1, -0, 1.5, 1e21, 2 ** 53, NaN, Infinity, -Infinity, 0.1]);
}

/** A value of the wrong type, or a map of another shape, in place of one of ours. */
function odd(rng: Rng): unknown {
  return rng.pick([null, true, 0, 1, '', {}, [], ['a'], { x: 'y' }, new Map([['a', 'b']]), Object.create(null)]);
}

function genResult(rng: Rng, shared: Record<string, unknown>[]): unknown {
  const s = (): string => hostile(rng);
  const other = rng.bool(0.03);
  const ref = (): Record<string, unknown> => {
    if (shared.length > 0 && rng.bool(0.3)) return rng.pick(shared);
    const r = object(rng, [['apiVersion', s()], ['kind', s()], ['name', s()], ['namespace', maybe(rng, 0.7, s)]]);
    shared.push(r);
    return r;
  };
  const entries: [string, unknown][] = [
    ['message', s()],
    ['severity', rng.bool(0.9) ? rng.pick(['error', 'warning', 'info']) : s()],
    ['tags', object(rng, [['code', rng.bool(0.9) ? rng.pick(['STAMPED', 'MISSING_SOURCE', 'INVALID_INPUT']) : s()]])],
    ['resourceRef', maybe(rng, 0.7, ref)],
    ['field', maybe(rng, 0.5, () => ({ path: s() }))],
    ['file', maybe(rng, 0.4, () => object(rng, [['path', s()], ['index', maybe(rng, 0.6, () => index(rng))]]))],
  ];
  if (other) {
    // Another shape: a field of the wrong type, an unknown key, a key inside a map that has none of its own.
    const [k] = rng.pick(entries);
    const e = entries.find((x) => x[0] === k)!;
    e[1] = rng.bool(0.5) ? odd(rng) : { ...(typeof e[1] === 'object' && e[1] !== null ? e[1] : {}), [rng.pick(['extra', 'currentValue', 'code'])]: rng.bool(0.5) ? s() : odd(rng) };
    if (rng.bool(0.3)) entries.push([rng.pick(['extra', 'proposedValue', 'constructor', 'toString']), s()]);
  }
  return object(rng, entries);
}

test(`resultsYaml prints what the yaml library prints, for ${CASES} random lists of results`, async () => {
  // The library's own forms must turn up often, or the cases are not hostile enough to mean much.
  const seen = { quoted: 0, block: 0, whole: 0 };
  await forAll('results-yaml', SEED, async ({ rng, keep }) => {
    const shared: Record<string, unknown>[] = [];
    const results = Array.from({ length: rng.pick([1, 1, 2, 3, 8, 30]) }, () => genResult(rng, shared));
    const want = library(results);
    const got = resultsYaml(results as Result[]);
    if (got !== want) {
      keep('results.json', JSON.stringify(results, null, 2));
      assert.fixture(got, want);
    }
    if (/: ["']/.test(want)) seen.quoted++;
    if (/: [|>]/.test(want)) seen.block++;
    if (/: (?:\{\}|\[\]|null|true)$|^ {6}- /m.test(want)) seen.whole++;
  }, CASES);
  assert.ok(seen.quoted > CASES / 2, `only ${seen.quoted} cases had a quoted string`);
  assert.ok(seen.block > CASES / 20, `only ${seen.block} cases had a block scalar`);
  assert.ok(seen.whole > CASES / 100, `only ${seen.whole} cases had a result of another shape`);
});

// The three-character strings over this alphabet; each twice: as a message (a result's key) and as a nested
// value. The writer's rule for plain strings is tried on every one of them.
const SHORT = [...'aZ09 -?:,[]{}#&*!|>\'"%@`~.\\/_=+\t\n', '\u0085', 'é', '\u2028'];

test('resultsYaml prints what the yaml library prints for every string of up to three troublesome characters', () => {
  const strings = [''];
  for (const a of SHORT) {
    strings.push(a);
    for (const b of SHORT) {
      strings.push(a + b);
      for (const c of SHORT) strings.push(a + b + c);
    }
  }
  // In batches: one list of many results is as exact as many lists, and much faster to compare.
  for (let i = 0; i < strings.length; i += 500) {
    const results = strings.slice(i, i + 500).map((s) => ({ message: s, severity: 'info', tags: { code: s } })) as unknown as Result[];
    const got = resultsYaml(results);
    const want = library(results);
    if (got !== want) {
      const gl = got.split('\n');
      const wl = want.split('\n');
      const at = gl.findIndex((l, j) => l !== wl[j]);
      assert.unreachable(`first difference at line ${at}: ours ${JSON.stringify(gl[at])}, the library's ${JSON.stringify(wl[at])}`);
    }
  }
});

test.run();
