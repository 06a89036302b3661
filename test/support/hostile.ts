// Shared by the hostile-input tests: the built bundle as a child process with its wall time, CPU time and
// peak RSS; time bounds relative to the yaml library parsing the same bytes in the same run; temp dirs; a run
// signalled with SIGTERM in a given phase (termIn). The objects they feed it are in objects.ts. Not a test file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as assert from 'uvu/assert';
import { BUNDLE, ROOT, runBundle } from './run-cli.ts';

export { BUNDLE, ROOT };

import { removeTempDirs, tempDir } from './temp-dirs.ts';

export { removeTempDirs as cleanup, tempDir };

export { requireBundle } from './tools.ts';

export interface Measured {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** CPU time (user + system) of the rollstamp process, ms: what other load on the machine changes least. */
  cpuMs: number;
  /** Peak resident set size of the rollstamp process, KiB. */
  maxRssKiB: number;
}

let preload: string | undefined;

function preloadFile(): string {
  if (preload === undefined || !existsSync(preload)) { // cleanup() of an earlier test file may have removed it
    const dir = tempDir('rss');
    preload = join(dir, 'rss.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => { if (process.env.HOSTILE_RSS_FILE) { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.HOSTILE_RSS_FILE, `${u.maxRSS} ${(u.userCPUTime + u.systemCPUTime) / 1000}`); } });\n",
    );
  }
  return preload;
}

/** Runs `node dist/rollstamp.js ...argv` with a preload that records its peak RSS and CPU time at exit. */
export function runMeasured(argv: string[], opts: { stdin?: string | Uint8Array; cwd?: string; env?: Record<string, string> } = {}): Measured {
  const preload = preloadFile();
  const rssFile = join(tempDir('rssout'), 'rss.txt');
  const t0 = performance.now();
  const r = runBundle(argv, { ...opts, nodeArgs: ['--require', preload], env: { ...opts.env, HOSTILE_RSS_FILE: rssFile } });
  const ms = performance.now() - t0;
  const [rss, cpu] = existsSync(rssFile) ? readFileSync(rssFile, 'utf8').split(' ').map(Number) : [];
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ms, cpuMs: cpu ?? Number.NaN, maxRssKiB: rss ?? Number.NaN };
}

/**
 * What a loaded machine adds to a time bound: two start-ups of the bundle measured now (`--version`; about
 * 0.1 s each on an idle 2-core machine, seconds under load). A bound is the promise's own limit plus this, so
 * it never drops below the promise and a busy machine does not fail it (#36).
 */
export function loadAllowanceMs(): number {
  return 2 * runMeasured(['--version']).ms;
}

/** Peak RSS allowed for a YAML bomb (which must fail early) … */
export const RSS_LIMIT_KIB = 256 * 1024;
/** … and for any input under the input limit (#12). */
export const RSS_LIMIT_LARGE_KIB = 1024 * 1024;

export interface Baseline {
  /** The yaml library parsing the input in a fresh node process (start-up included): wall and CPU ms. */
  yaml: { ms: number; cpuMs: number };
  /** `rollstamp --version`: the bundle's own start-up. */
  startup: { ms: number; cpuMs: number };
}

const YAML_MODULE = join(ROOT, 'node_modules', 'yaml');
// Reads stdin, parses every document as rollstamp's PARSE_OPTIONS would but without the library's quadratic
// uniqueKeys scan (rollstamp checks keys itself, linearly), and reports its own CPU time.
const YAML_BASELINE = `const { parseAllDocuments } = require(${JSON.stringify(YAML_MODULE)});
const text = require('node:fs').readFileSync(0, 'utf8');
const docs = parseAllDocuments(text, { version: '1.2', merge: false, uniqueKeys: false, strict: true, keepSourceTokens: true, logLevel: 'error' });
const n = Array.isArray(docs) ? docs.length : 1;
const u = process.resourceUsage();
process.stdout.write(String(n) + ' ' + (u.userCPUTime + u.systemCPUTime) / 1000);`;

function timed(args: string[], input: string | Uint8Array): { ms: number; cpuMs: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`baseline failed: ${r.stderr.slice(0, 300)}`);
  return { ms, cpuMs: Number(r.stdout.split(' ')[1] ?? Number.NaN), stdout: r.stdout };
}

/** The baseline for `input`, measured now (so it sees the same machine load as the run it bounds). */
export function measureBaseline(input: string | Uint8Array): Baseline {
  const yaml = timed(['-e', YAML_BASELINE], input);
  const s = runMeasured(['--version']);
  if (s.code !== 0) throw new Error('rollstamp --version failed');
  return { yaml: { ms: yaml.ms, cpuMs: yaml.cpuMs }, startup: { ms: s.ms, cpuMs: s.cpuMs } };
}

/** Whether a run is within 2 × the yaml library plus start-up of one baseline, in wall and CPU time. */
function within(r: Measured, b: Baseline): boolean {
  return r.ms <= 2 * b.yaml.ms + b.startup.ms && r.cpuMs <= 2 * b.yaml.cpuMs + b.startup.cpuMs;
}

/**
 * Runs `run` (which must measure one rollstamp process) and checks it against the yaml library parsing
 * `input` in the same test run: wall time ≤ 2 × yaml + rollstamp's start-up, CPU time ≤ 2 × yaml's CPU time +
 * rollstamp's start-up CPU time, and peak RSS under `rssLimitKiB`.
 * - Load from other processes moves both sides, but not always together: the baseline is measured before
 *   the run and, when the run misses it, again after it (the larger counts); a round that still misses is
 *   repeated, up to `rounds` times. A run that is really slower than linear misses every round.
 * - Returns the first measurement (for the caller's assertions on exit code and output).
 */
export function assertWithinBaseline(run: () => Measured, input: string | Uint8Array, what: string, rssLimitKiB = RSS_LIMIT_LARGE_KIB, rounds = 3): Measured {
  let first: Measured | undefined;
  const misses: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = measureBaseline(input);
    const r = run();
    first ??= r;
    assert.ok(Number.isFinite(r.maxRssKiB) && Number.isFinite(r.cpuMs), `${what}: peak RSS / CPU time was not recorded`);
    assert.ok(r.maxRssKiB < rssLimitKiB, `${what}: peak RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB (limit ${(rssLimitKiB / 1024).toFixed(0)} MiB)`);
    if (within(r, before)) return first;
    const after = measureBaseline(input);
    const yamlMs = Math.max(before.yaml.ms, after.yaml.ms);
    const yamlCpu = Math.max(before.yaml.cpuMs, after.yaml.cpuMs);
    const startupMs = Math.max(before.startup.ms, after.startup.ms);
    const startupCpu = Math.max(before.startup.cpuMs, after.startup.cpuMs);
    const wallLimit = 2 * yamlMs + startupMs;
    const cpuLimit = 2 * yamlCpu + startupCpu;
    if (r.ms <= wallLimit && r.cpuMs <= cpuLimit) return first;
    misses.push(`round ${round + 1}: ${r.ms.toFixed(0)} ms wall (limit ${wallLimit.toFixed(0)}: yaml ${yamlMs.toFixed(0)}, start-up ${startupMs.toFixed(0)}), ${r.cpuMs.toFixed(0)} ms CPU (limit ${cpuLimit.toFixed(0)}: yaml ${yamlCpu.toFixed(0)}, start-up ${startupCpu.toFixed(0)})`);
  }
  assert.unreachable(`${what}: slower than 2 × the yaml library on the same bytes in every round: ${misses.join('; ')}`);
  return first!;
}

/** Fails closed as SECURITY.md says: exit 1, nothing on stdout, one `rollstamp: ` line on stderr, no stack. */
export function assertFailsClosed(r: { code: number; stdout: string; stderr: string }, what: string): void {
  assert.is(r.code, 1, `${what}: exit code (stderr: ${r.stderr.slice(0, 300)})`);
  assert.is(r.stdout.length, 0, `${what}: stdout must be exactly empty`);
  assert.ok(r.stderr.startsWith('rollstamp: '), `${what}: stderr starts with "rollstamp: " (got ${JSON.stringify(r.stderr.slice(0, 200))})`);
  assert.ok(r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1, `${what}: stderr is exactly one line (got ${JSON.stringify(r.stderr.slice(0, 400))})`);
  assert.not.ok(r.stderr.includes('    at '), `${what}: no stack trace on stderr`);
}

/**
 * A hostile input is handled as cheaply as the yaml library parses it (see assertWithinBaseline), in under
 * 256 MiB. Was an absolute 2 s, which a loaded 2-core machine broke while the yaml library alone needed 1.9 s.
 */
export function assertCheap(run: () => Measured, input: string | Uint8Array, what: string): Measured {
  return assertWithinBaseline(run, input, what, RSS_LIMIT_KIB);
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  afterTermMs: number;
  /** The phase lines printed before the run ended. */
  phases: string[];
}

/**
 * `rollstamp stamp --debug [args] app.yaml` on `text`; SIGTERM as soon as the `phase` line arrives (the
 * hostile SIGTERM tests: sigterm-phases.test.ts in the worker, run-gate.test.ts on the main thread). With
 * `sendSignal` false nothing is sent: `afterTermMs` is then the time from that line to the end of the whole run, the
 * baseline a SIGTERM's latency is held to on a loaded machine.
 */
export async function termIn(phase: string, text: string, env: Record<string, string> = {}, args: readonly string[] = [], sendSignal = true): Promise<Ended> {
  const dir = tempDir('phase');
  writeFileSync(join(dir, 'app.yaml'), text);
  const child = spawn(process.execPath, [BUNDLE, 'stamp', '--debug', ...args, 'app.yaml'], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let t0 = 0;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    if (t0 === 0 && stderr.includes(`rollstamp: debug: ${phase}\n`)) {
      t0 = Date.now();
      if (sendSignal) child.kill('SIGTERM');
    }
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (c, s) => resolve({ code: c, signal: s })));
  clearTimeout(guard);
  const phases = [...stderr.matchAll(/^rollstamp: debug: (.+)$/gm)].map((m) => m[1]!);
  return { code, signal, stdout, stderr, afterTermMs: t0 === 0 ? Number.NaN : Date.now() - t0, phases };
}
