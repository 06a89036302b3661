// Shared by the fuzz suites (issue #7 item 10): the seed and case count, the case loop, the CLI in-process, and
// the contract every run must keep whatever its input. Not a test file.
//
// - ROLLSTAMP_FUZZ_SEED=<n> (decimal or 0x hex) replaces the fixed seed; ROLLSTAMP_FUZZ_SEED=random picks one
//   and prints it. ROLLSTAMP_FUZZ_CASES=<n> changes the number of cases (default 500, or 10,000 when CI is
//   set, over all fuzz files: #25); the seed and the count are printed when a fuzz file loads;
//   ROLLSTAMP_FUZZ_CASE=<i> replays one case. A case depends only on (seed, index): its kind, its input, its
//   command line — not on the case count.
// - ROLLSTAMP_FUZZ_KEEP_GOING=1 runs every case and reports all failures (triage).
// - A failing case names its seed, index and kind and how to replay it, and writes its inputs to a temp dir.
// - Cases run in the test's own thread: worker threads were slower here (every CLI run imports its command
//   through tsx's loader thread, which the workers share).
// - Every CLI run is made twice, with the default reader and with ROLLSTAMP_READER=full; a case fails when the
//   two differ in exit code, stderr or stdout.
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { addDuplicateKeyErrors, PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { LIVE_RECORD_ANNOTATION } from '../../function/model/constants.ts';
import { assertNoLeak } from './canary-sweep.ts';
import { caseSeed, Rng } from './property-generate.ts';
import { bothReaders, type RunOpts } from './both-readers.ts';
import { runInProcess, type CliRun } from './run-cli.ts';

export const DEFAULT_SEED = 0x5eed0710;
/**
 * Cases over all fuzz files: a developer's `npm test` runs 500, CI 10,000 (#25). 500 was 2,000 until #36: the
 * fixed seed's 500 still draw every kind (17 each of the rarest, files and kagent1x), and CI and `npm run fuzz` search further.
 */
export const DEFAULT_CASES = 500;
export const CI_CASES = 10_000;

export interface FuzzSettings {
  seed: number;
  cases: number;
  /** Replay one case only. */
  only?: number;
  /** The seed was picked at random (and printed). */
  random: boolean;
  keepGoing: boolean;
}

function parseCount(name: string, raw: string, min: number): number {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got ${JSON.stringify(raw)})`);
  return Number(raw);
}

/** The settings from the environment (see the header). */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const rawSeed = env.ROLLSTAMP_FUZZ_SEED?.trim() ?? '';
  let seed = DEFAULT_SEED;
  let random = false;
  if (rawSeed === 'random') {
    seed = randomInt(0, 2 ** 32);
    random = true;
  } else if (rawSeed !== '') {
    if (!/^(0x[0-9a-f]{1,8}|[0-9]{1,10})$/i.test(rawSeed) || Number(rawSeed) > 0xffffffff) {
      throw new Error(`ROLLSTAMP_FUZZ_SEED must be "random" or a number from 0 to 4294967295 (got ${JSON.stringify(rawSeed)})`);
    }
    seed = Number(rawSeed);
  }
  const out: FuzzSettings = {
    seed,
    random,
    cases: env.ROLLSTAMP_FUZZ_CASES ? parseCount('ROLLSTAMP_FUZZ_CASES', env.ROLLSTAMP_FUZZ_CASES, 1) : env.CI ? CI_CASES : DEFAULT_CASES,
    keepGoing: env.ROLLSTAMP_FUZZ_KEEP_GOING === '1',
  };
  if (env.ROLLSTAMP_FUZZ_CASE) out.only = parseCount('ROLLSTAMP_FUZZ_CASE', env.ROLLSTAMP_FUZZ_CASE, 0);
  return out;
}

export const SETTINGS: FuzzSettings = fuzzSettings();
// Printed before any case runs, so even a crash of the whole process shows how to replay it.
process.stdout.write(`${settingsLine(SETTINGS, process.env)}\n`);

/** `fuzz: seed …, N cases …`: what this run draws, and where the count came from. */
export function settingsLine(s: FuzzSettings, env: NodeJS.ProcessEnv): string {
  const seed = s.random ? `seed ${s.seed} (picked at random; replay: ROLLSTAMP_FUZZ_SEED=${s.seed})` : `seed ${s.seed}`;
  const from = env.ROLLSTAMP_FUZZ_CASES ? 'ROLLSTAMP_FUZZ_CASES' : env.CI ? 'CI is set' : 'the default; 10,000 when CI is set';
  return `fuzz: ${seed}, ${s.cases} cases over all fuzz files (${from})${s.only !== undefined ? `, replaying case ${s.only} only` : ''}`;
}

/** What a fuzz case is about; drawn from the case's own generator, so every fuzz file agrees on it. */
export type Kind = 'stream' | 'files' | 'resource-list' | 'hostile-stream' | 'hostile-resource-list' | 'kagent1x';
// kagent1x (#20) took the top 4% of hostile-resource-list: every other case keeps its kind.
const KIND_WEIGHTS: ReadonlyArray<[Kind, number]> = [
  ['stream', 0.22],
  ['files', 0.04],
  ['resource-list', 0.1],
  ['hostile-stream', 0.4],
  ['hostile-resource-list', 0.2],
  ['kagent1x', 0.04],
];

function kindOf(x: number): Kind {
  let acc = 0;
  for (const [kind, w] of KIND_WEIGHTS) {
    acc += w;
    if (x < acc) return kind;
  }
  return KIND_WEIGHTS[KIND_WEIGHTS.length - 1]![0];
}

export interface FuzzCase {
  rng: Rng;
  index: number;
  kind: Kind;
  /** `seed=… case=… kind=…`, for messages (never a value). */
  label: string;
  /** Keeps an input or output so a failure can write it out. */
  keep(name: string, data: string | Uint8Array): void;
}

/** A module of cases: one body per kind. */
export type CaseModule = { CASES: Partial<Record<Kind, (c: FuzzCase) => Promise<void>>> };

/** Counts over a run, for the summary line. */
export interface Stats {
  cases: Record<string, number>;
  ms: Record<string, number>;
  runs: number;
  exit: Record<string, number>;
  slowestMs: number;
  slowest: string;
}
export const stats: Stats = { cases: {}, ms: {}, runs: 0, exit: {}, slowestMs: 0, slowest: '' };
const bump = (m: Record<string, number>, k: string | number, n = 1): void => {
  m[k] = (m[k] ?? 0) + n;
};

const utf8Lossy = new TextDecoder('utf-8', { fatal: false });
const asString = (d: string | Uint8Array): string => (typeof d === 'string' ? d : utf8Lossy.decode(d));

/**
 * A case fails when it takes longer than this, or than SLOW_CASE_FACTOR × the mean case of this run so far,
 * whichever is larger: a hostile input must be refused about as cheaply as any other, and the mean moves with
 * the machine's load (an absolute bound alone fails on a loaded runner, #12).
 */
const SLOW_CASE_MS = 10_000;
const SLOW_CASE_FACTOR = 50;
let caseMsTotal = 0;
let caseCount = 0;

export function replayHint(seed: number, index: number): string {
  return `ROLLSTAMP_FUZZ_SEED=${seed} ROLLSTAMP_FUZZ_CASE=${index} node --import tsx node_modules/uvu/bin.js test/fuzz '\\.test\\.ts$'`;
}

/**
 * Runs the cases of `mod` whose kind is in `kinds`, stopping at the first failure (all of them with keepGoing).
 * Failures come back as messages that start with the seed, index, kind and replay command; their inputs are
 * written to a temp dir.
 */
export async function forEachCase(mod: CaseModule, kinds: readonly Kind[], settings: FuzzSettings = SETTINGS): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < settings.cases; i++) {
    if (settings.only !== undefined && i !== settings.only) continue;
    const rng = new Rng(caseSeed(settings.seed, i));
    const kind = kindOf(rng.next());
    const body = mod.CASES[kind];
    if (!kinds.includes(kind) || !body) continue;
    const kept = new Map<string, string | Uint8Array>();
    const label = `seed=${settings.seed} case=${i} kind=${kind}`;
    const t0 = performance.now();
    try {
      await body({ rng, index: i, kind, label, keep: (k, d) => kept.set(k, d) });
      const ms = performance.now() - t0;
      bump(stats.ms, kind, ms);
      if (ms > stats.slowestMs) {
        stats.slowestMs = ms;
        stats.slowest = label;
      }
      const limit = Math.max(SLOW_CASE_MS, caseCount > 0 ? (SLOW_CASE_FACTOR * caseMsTotal) / caseCount : 0);
      caseMsTotal += ms;
      caseCount++;
      assert.ok(ms < limit, `case took ${ms.toFixed(0)} ms (limit ${limit.toFixed(0)} ms: ${SLOW_CASE_FACTOR} × the mean case, at least ${SLOW_CASE_MS} ms)`);
      bump(stats.cases, kind);
    } catch (err) {
      // An assertion's diff is in `details` (uvu).
      const details = (err as { details?: unknown })?.details;
      const message = err instanceof Error ? `${err.message}${typeof details === 'string' ? `\n${details}` : ''}` : String(err);
      const dir = join(tmpdir(), 'rollstamp-fuzz', `seed-${settings.seed}-case-${i}`);
      mkdirSync(dir, { recursive: true });
      for (const [k, d] of kept) writeFileSync(join(dir, k), d);
      const where = `[fuzz ${label}; replay: ${replayHint(settings.seed, i)}${kept.size ? `; inputs in ${dir}` : ''}]`;
      failures.push(`${where} ${settings.keepGoing ? message.split('\n')[0]!.slice(0, 400) : message}`);
      if (!settings.keepGoing) break;
    }
  }
  return failures;
}

/** Runs the cases of `kinds` from the case module at `moduleUrl`; fails with the failures found. */
export async function runFuzz(moduleUrl: URL, kinds: readonly Kind[]): Promise<void> {
  const t0 = performance.now();
  const failures = await forEachCase((await import(moduleUrl.href)) as CaseModule, kinds);
  wallMs += performance.now() - t0;
  if (failures.length > 0) throw new Error(failures.length === 1 ? failures[0] : `${failures.length} failing cases:\n${failures.join('\n')}`);
}

let wallMs = 0;

/** One summary line (cases per kind, exit codes, wall time of every runFuzz so far). */
export function summary(): string {
  const seconds = wallMs / 1000;
  const kinds = Object.entries(stats.cases).map(([k, n]) => `${k} ${n} in ${((stats.ms[k] ?? 0) / 1000).toFixed(0)} s`).join(', ');
  const exits = Object.entries(stats.exit).map(([c, n]) => `exit ${c}: ${n}`).join(', ');
  const total = Object.values(stats.cases).reduce((a, b) => a + b, 0);
  return `fuzz: seed ${SETTINGS.seed}, ${total} cases (${kinds}), ${stats.runs} runs (${exits}), ${seconds.toFixed(1)} s, slowest ${stats.slowestMs.toFixed(0)} ms (${stats.slowest})`;
}

// ---------------------------------------------------------------------------------------------------------
// Running the CLI

export interface Run extends CliRun {
  /** An exception that was not a RollstampError: what main.ts prints as "internal error". */
  internal?: unknown;
}

/** The CLI in-process (test/support/run-cli.ts), with an unexpected exception kept instead of thrown. */
async function runOnce(argv: string[], opts: RunOpts): Promise<Run> {
  try {
    return await runInProcess(argv, opts);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `rollstamp: error: internal error (${(err as Error)?.name ?? 'unknown'}); rerun with --debug for details\n`, internal: err };
  }
}

/**
 * The CLI in-process with the default reader and again with ROLLSTAMP_READER=full: both must print the same
 * (test/support/both-readers.ts); the default run is returned.
 */
export async function run(argv: string[], stdin: string | Uint8Array, opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  stats.runs++;
  const r: Run = await bothReaders(argv, { stdin, ...opts }, argv.join(' '), runOnce);
  bump(stats.exit, r.code);
  return r;
}

// ---------------------------------------------------------------------------------------------------------
// The contract

/** `stamp` and `fn` print manifests (and so may echo input); `explain --json` prints a report. */
export type Command = 'stamp' | 'fn' | 'explain-json';

/** C0 controls and DEL other than the line feed ending each line: text from input must be escaped. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;
/** C1 controls (U+0085 NEL, U+009B CSI …) and the Unicode line and paragraph separators: escaped too, by SECURITY.md. */
const C1_OR_SEPARATOR = /[\u0080-\u009f\u2028\u2029]/;

function lines(stderr: string): string[] {
  return stderr === '' ? [] : stderr.replace(/\n$/, '').split('\n');
}

export interface Checked {
  ok: boolean;
  /** explain --json: the report, when one was printed. */
  report?: { targets: unknown[]; results: Array<{ severity: string }> };
}

/**
 * What every run must hold, valid input or not:
 * - exit 0 or 1 (never 2 or 3), no internal error, no stack trace;
 * - stderr: only `rollstamp: ` lines, no control character taken from input;
 * - failure: `stamp` and `fn` print nothing on stdout and exactly one stderr line; `explain --json` prints
 *   nothing and one line, or its report and one stderr line per error result;
 * - success: `stamp` prints only warnings on stderr, `fn` and `explain --json` nothing;
 * - no canary form on stderr, nor in a report; `stamp`/`fn` stdout holds a form at most as often as the input.
 */
export function checkContract(r: Run, cmd: Command, where: string, input: string | Uint8Array, canaries: readonly string[] = []): Checked {
  if (r.internal !== undefined) {
    const e = r.internal as Error;
    assert.unreachable(`${where}: internal error ${e?.name ?? ''}: ${e?.stack ?? String(e)}`);
  }
  assert.ok(r.code === 0 || r.code === 1, `${where}: exit ${r.code}, expected 0 or 1: ${r.stderr.slice(0, 300)}`);
  assert.ok(r.stderr === '' || r.stderr.endsWith('\n'), `${where}: stderr does not end with a line break`);
  assert.not.ok(/\n\s+at /.test(r.stderr), `${where}: stack trace on stderr`);
  const errLines = lines(r.stderr);
  for (const l of errLines) {
    assert.ok(l.startsWith('rollstamp: '), `${where}: stderr line without the "rollstamp: " prefix: ${JSON.stringify(l.slice(0, 200))}`);
    assert.not.ok(CONTROL.test(l), `${where}: stderr line holds a raw control character: ${JSON.stringify(l.slice(0, 300))}`);
    const c1 = C1_OR_SEPARATOR.exec(l);
    assert.not.ok(c1, `${where}: stderr line holds a raw C1 control or line separator (U+${c1?.[0].codePointAt(0)?.toString(16).padStart(4, '0')})`);
  }
  const out: Checked = { ok: r.code === 0 };
  if (cmd === 'explain-json' && r.stdout !== '') {
    let report: Checked['report'];
    try {
      report = JSON.parse(r.stdout) as Checked['report'];
    } catch {
      assert.unreachable(`${where}: stdout is not one JSON document`);
    }
    assert.ok(Array.isArray(report?.targets) && Array.isArray(report?.results), `${where}: report without targets and results`);
    const errors = report!.results.filter((x) => x.severity === 'error').length;
    if (r.code === 0) assert.is(errors, 0, `${where}: exit 0 with error results`);
    else assert.ok(errors >= 1, `${where}: exit 1 with a report but no error result`);
    assert.is(errLines.length, errors, `${where}: ${errLines.length} stderr lines for ${errors} error results`);
    out.report = report;
  } else if (r.code !== 0) {
    assert.is(r.stdout, '', `${where}: printed on stdout after an error`);
    assert.is(errLines.length, 1, `${where}: a failure prints exactly one stderr line, got ${errLines.length}: ${JSON.stringify(r.stderr.slice(0, 400))}`);
  } else if (cmd === 'stamp') {
    // Besides warnings, only the one line that says kagent 1.x objects pass through (#35).
    const passThrough = errLines.filter((l) => l.startsWith('rollstamp: info: ') && l.includes('objects pass through unchanged: kagent 1.x'));
    assert.ok(passThrough.length <= 1, `${where}: more than one kagent 1.x line`);
    for (const l of errLines) assert.ok(l.startsWith('rollstamp: warning: ') || passThrough.includes(l), `${where}: success, but stderr has a non-warning line: ${JSON.stringify(l.slice(0, 200))}`);
  } else {
    assert.is(r.stderr, '', `${where}: success, but stderr is not empty`);
  }
  if (canaries.length > 0) assertNoLeak(r, canaries, { where, ...(cmd === 'explain-json' ? {} : { echoed: asString(input) }) });
  return out;
}

/** JSON with object keys sorted (a canonical form for comparing data). */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/**
 * Every `sha256:`/`hmac-sha256:` digest in a text, in order (cheap, and never expands an alias); not the
 * all-zero one that generated comments hold (a tree printed again may drop a comment).
 */
export function digestsIn(text: string): string[] {
  return (text.match(/\b(?:hmac-)?sha256:[0-9a-f]{64}\b/g) ?? []).filter((d) => !/:0{64}$/.test(d));
}

/**
 * A value without entries named `key` (at any depth) or `rollstamp.dev/live-reads` (the record only a render
 * that reads the cluster writes: one an input carries is replaced with the empty record, #34), without list
 * entries named `ROLLSTAMP_HASH` (a kagent SandboxAgent's stamp is an env entry), without the maps and lists that leaves empty, and without null
 * entries (`annotations:` with no value is where a stamp goes; Kubernetes reads null as unset).
 */
function withoutKey(v: unknown, key: string): unknown {
  if (Array.isArray(v)) return v.filter((x) => !isEnvStamp(x)).map((x) => withoutKey(x, key));
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === key || k === LIVE_RECORD_ANNOTATION || x === null) continue;
      const y = withoutKey(x, key);
      if (y && typeof y === 'object' && (Array.isArray(y) ? y.length === 0 : Object.keys(y).length === 0)) continue;
      Object.defineProperty(out, k, { value: y, enumerable: true, configurable: true, writable: true });
    }
    return out;
  }
  return v;
}

const isEnvStamp = (x: unknown): boolean => !!x && typeof x === 'object' && (x as { name?: unknown }).name === 'ROLLSTAMP_HASH';

/**
 * The data of a stream (or of a ResourceList's items), as rollstamp parses it, without the stamp annotation
 * `key` and the maps it alone filled: what stamping must not change. Undefined when it cannot be read cheaply
 * (errors, aliases that expand too far).
 */
export function dataOf(text: string, key: string, resourceList: boolean): string | undefined {
  try {
    const docs = parseAllDocuments(text, PARSE_OPTIONS);
    if (!Array.isArray(docs)) return undefined;
    docs.forEach(addDuplicateKeyErrors);
    if (docs.some((d) => d.errors.length > 0)) return undefined;
    let values: unknown[] = docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((v) => v !== null && v !== undefined);
    if (resourceList) values = ((values[0] as { items?: unknown[] } | undefined)?.items ?? []) as unknown[];
    return canonical(values.map((v) => withoutKey(v, key)));
  } catch {
    return undefined;
  }
}
