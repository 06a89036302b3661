// Shared by the end-to-end tests: where the bundle is, running processes, temp dirs, and the rule for
// tests that need an external tool (kpt, kubectl): missing on a developer machine → skipped with one
// "skip: TOOL not found on PATH" line; missing in CI (env CI set) → a failing test that says so.
import { spawn } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import { assertSameReaders, FULL_READER } from './both-readers.ts';
import { BUNDLE, ROOT, runProcess } from './run-cli.ts';

export { BUNDLE, ROOT };
export const EXAMPLE_KPT = join(ROOT, 'examples', 'kpt');

/** `"sha256:<64 hex>"` as rollstamp writes it (quoted). */
export const STAMP_LINE = /^\s*rollstamp\.dev\/hash: "(sha256:[0-9a-f]{64})"$/;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` (default: this process's) with ROLLSTAMP_READER=full: rollstamp reads everything with the yaml library. */
export function fullReaderEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...FULL_READER };
}

/**
 * A tool run that invoked rollstamp with the default reader and its twin with ROLLSTAMP_READER=full must give
 * the same exit code, stdout and stderr; `normalize` first maps what two runs may legitimately differ in (a
 * duration, a temp path) to one form. Reports where they differ, never the text.
 */
export function assertSameWithFullReader(fast: Run, full: Run, what: string, normalize: (t: string) => string = (t) => t): void {
  const n = (r: Run): Run => ({ code: r.code, stdout: normalize(r.stdout), stderr: normalize(r.stderr) });
  assertSameReaders(n(fast), n(full), what);
}

/** Fails with a clear message when the bundle has not been built (npm test builds it first). */
export function requireBundle(): void {
  if (!existsSync(BUNDLE)) {
    throw new Error(`${relative(ROOT, BUNDLE)} not found: build it first with \`npm run build\` (npm test does this)`);
  }
}

/**
 * Copies the checkout's files as a clone of it would hold them (tracked, and untracked but not ignored; so no
 * dist/, build/ or node_modules/) into `dir`: work on the copy leaves this checkout's dist/, which other shards
 * run, alone.
 */
export function copyCheckout(dir: string): void {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
}

/** A command run to completion (runProcess): `env` is its whole environment (default: this process's). */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; input?: string | Uint8Array; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Run {
  const r = runProcess(cmd, args, { ...(opts.cwd ? { cwd: opts.cwd } : {}), stdin: opts.input ?? '', env: opts.env ?? process.env, exactEnv: true, timeoutMs: opts.timeoutMs ?? 30_000 });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** `a | b` with a real OS pipe between the two processes; both exit codes are reported. */
export function pipe(
  a: { cmd: string; args: readonly string[] },
  b: { cmd: string; args: readonly string[] },
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ first: Run; second: Run }> {
  return new Promise((resolvePipe, reject) => {
    const spawnOpts = { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env };
    const left = spawn(a.cmd, [...a.args], { ...spawnOpts, stdio: ['ignore', 'pipe', 'pipe'] });
    const right = spawn(b.cmd, [...b.args], { ...spawnOpts, stdio: ['pipe', 'pipe', 'pipe'] });
    left.stdout.pipe(right.stdin);
    const first: Run = { code: -1, stdout: '(piped)', stderr: '' };
    const second: Run = { code: -1, stdout: '', stderr: '' };
    left.stderr.on('data', (c) => (first.stderr += c));
    right.stdout.on('data', (c) => (second.stdout += c));
    right.stderr.on('data', (c) => (second.stderr += c));
    let open = 2;
    const done = (): void => {
      if (--open === 0) resolvePipe({ first, second });
    };
    left.on('error', reject);
    right.on('error', reject);
    left.on('close', (code) => {
      first.code = code ?? -1;
      done();
    });
    right.on('close', (code) => {
      second.code = code ?? -1;
      done();
    });
  });
}

/** The absolute path of an executable found on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

type Register = (name: string, fn: () => void | Promise<void>) => void;

/**
 * `test` when `tool` is on PATH. Otherwise: with env CI set, one failing test naming the tool (the others
 * are skipped); without CI, every test is skipped and one line `skip: TOOL not found on PATH` is printed.
 */
export function testNeeding(tool: string): Register {
  return findOnPath(tool) ? test : unavailable(tool, `${tool} not found on PATH`, `install ${tool} on the runner`);
}

/** The same rule for a tool obtained another way (helm, extracted by test/support/helm.ts). */
export function testNeedingTool(tool: string, lookup: { ok: true } | { ok: false; reason: string }): Register {
  return lookup.ok ? test : unavailable(tool, `${tool} unavailable: ${lookup.reason}`, 'run npm ci');
}

function unavailable(tool: string, why: string, fix: string): Register {
  if (process.env.CI) {
    test(`${tool} is available (required because CI is set)`, () => {
      throw new Error(`${why}, and CI is set: the ${tool} end-to-end tests must run in CI; ${fix}`);
    });
  } else {
    process.stdout.write(`skip: ${why}\n`);
  }
  return (name, fn) => test.skip(name, fn);
}

export { removeTempDirs, tempDir } from './temp-dirs.ts';

/** Every file under `dir` (relative path → bytes as text). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** The comments of a YAML text, one per comment line, with the text after `#` (for counting duplicates). */
export function commentsOf(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /(?:^|\s)#(.*)$/.exec(line);
    if (!m) continue;
    const comment = `#${m[1]!.trimEnd()}`;
    counts.set(comment, (counts.get(comment) ?? 0) + 1);
  }
  return counts;
}

/**
 * Lines of `after` that are not in `before`, when `after` is `before` with lines inserted and nothing else
 * changed; undefined when any line of `before` was changed, moved or removed.
 */
export function insertedLines(before: string, after: string): string[] | undefined {
  const a = before.split('\n');
  const b = after.split('\n');
  const inserted: string[] = [];
  let i = 0;
  for (const line of b) {
    if (i < a.length && line === a[i]) i++;
    else inserted.push(line);
  }
  return i === a.length ? inserted : undefined;
}

/** The stamp values (`sha256:…`) written in a YAML text, in order. */
export function stampsIn(text: string): string[] {
  return text
    .split('\n')
    .map((l) => STAMP_LINE.exec(l)?.[1])
    .filter((h): h is string => h !== undefined);
}
