// Differential runs: one CLI invocation with the default read mode (the subset reader first, the yaml library
// when it declines) and again with ROLLSTAMP_READER=full (the yaml library only). Both must print the same
// stdout and stderr and exit with the same code. A difference is reported by where it starts (stream, line,
// column) and the shape of the two lines, never their text: test inputs may hold secret-like values.
import * as assert from 'uvu/assert';
import { runBundle, runInProcess, type CliRun } from './run-cli.ts';
import { PROCESS_TWINS } from './sizes.ts';

export const READER_ENV = 'ROLLSTAMP_READER';
export const FULL_READER = { [READER_ENV]: 'full' } as const;

export interface RunOpts {
  stdin?: string | Uint8Array;
  cwd?: string;
  env?: Record<string, string>;
}

export type Runner = (argv: string[], opts: RunOpts) => CliRun | Promise<CliRun>;

/** `opts` with ROLLSTAMP_READER=full added to its environment. */
export function withFullReader<T extends RunOpts>(opts: T): T & { env: Record<string, string> } {
  return { ...opts, env: { ...opts.env, ...FULL_READER } };
}

/**
 * Up to 24 characters either side of `col` in a line, reduced to its shape (letters, digits and other
 * characters as classes) so no value is shown.
 */
function shape(line: string | undefined, col: number): string {
  if (line === undefined) return '(no line)';
  const from = Math.max(0, col - 24);
  const cut = `${from > 0 ? '…' : ''}${line.slice(from, col + 24)}${line.length > col + 24 ? '…' : ''}`;
  return JSON.stringify(cut.replace(/[A-Za-z]/g, 'a').replace(/[0-9]/g, '9').replace(/[^\x20-\x7e…]/g, '?'));
}

/** Where two texts first differ, as a sentence without their content; undefined when they are equal. */
export function firstDifference(what: string, a: string, b: string): string | undefined {
  if (a === b) return undefined;
  const la = a.split('\n');
  const lb = b.split('\n');
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  const x = la[i] ?? '';
  const y = lb[i] ?? '';
  let col = 0;
  while (col < x.length && col < y.length && x[col] === y[col]) col++;
  return (
    `${what} differs from line ${i + 1} column ${col + 1} (default: ${la.length} lines, ${shape(la[i], col)}; ` +
    `full: ${lb.length} lines, ${shape(lb[i], col)})`
  );
}

/** Every difference between the default run and the full-reader run, as sentences (empty when they agree). */
export function readerDifferences(fast: CliRun, full: CliRun): string[] {
  const out: string[] = [];
  if (fast.code !== full.code) out.push(`exit code ${fast.code} with the default reader, ${full.code} with ROLLSTAMP_READER=full`);
  const e = firstDifference('stderr', fast.stderr, full.stderr);
  if (e) out.push(e);
  const o = firstDifference('stdout', fast.stdout, full.stdout);
  if (o) out.push(o);
  return out;
}

/** Fails when the two runs differ in exit code, stderr or stdout. */
export function assertSameReaders(fast: CliRun, full: CliRun, what: string): void {
  const d = readerDifferences(fast, full);
  if (d.length > 0) assert.unreachable(`${what}: the two read front-ends disagree: ${d.join('; ')}`);
}

/**
 * Runs `argv` with the default reader and with ROLLSTAMP_READER=full (in-process unless another runner is
 * given), asserts that both give the same exit code, stderr and stdout, and returns the default run.
 */
export async function bothReaders(argv: string[], opts: RunOpts = {}, what = argv.join(' '), runner: Runner = runInProcess): Promise<CliRun> {
  const fast = await runner(argv, opts);
  const full = await runner(argv, withFullReader(opts));
  assertSameReaders(fast, full, what);
  return fast;
}

/** `bothReaders` over the built bundle under plain node; the twin under PROCESS_TWINS only (sizes.ts). */
export function bothReadersBundle(argv: string[], opts: RunOpts = {}, what = argv.join(' ')): CliRun {
  const fast = runBundle(argv, opts);
  if (PROCESS_TWINS) assertSameReaders(fast, runBundle(argv, withFullReader(opts)), what);
  return fast;
}
