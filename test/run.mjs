// The test runner `npm test` ends with: the test files run as shards, each shard one process (uvu over
// TypeScript through tsx), several at a time; files that must run alone run afterwards, one by one. Ends with
// each file's duration and one summary line "tests: N passed, N failed, N skipped" (the total; CI reads it).
//
// Usage: node test/run.mjs [--jobs N] [PATH…]
// - PATH: test files or directories (every `*.test.ts` below them, hidden directories skipped); default `test`.
// - --jobs N (or ROLLSTAMP_TEST_JOBS): shards at once. Default: os.availableParallelism() + 1 (a shard waiting on a
//   process, a socket or a timer leaves its core to the extra one), at least 2, at most 4.
// - A shard is several files of one tier directory (test/unit, test/e2e, …) run one after another by
//   test/support/shard-files.mjs, which saves a start-up per file; a file with a line
//   `// Runs in its own process: <why>` in its header keeps a process to itself (test/support/shard-plan.mjs).
//   Each file is still reported, counted and failed on its own.
// - A file with a line `// Runs alone: <why>` in its header (it rebuilds this checkout's dist/, or changes
//   other shared state) runs after the parallel shards with nothing beside it.
// - ROLLSTAMP_TEST_SHARD_TIMEOUT_SECONDS (default 1200): a shard still running then is killed and fails.
// - Fails (exit 1) when a file fails, crashes or times out, and when no test ran at all.
// - Each file's CPU seconds (its own and its children's, from test/support/shard-cpu.mjs; in a shared shard
//   plus an equal part of the shard's start-up) are shown beside its duration and kept in
//   node_modules/.cache/rollstamp/test-cpu.json: on a shared machine wall time lies.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planShards, splitShard } from './support/shard-plan.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TIMES = join(ROOT, 'node_modules', '.cache', 'rollstamp', 'test-durations.json');
const CPU = join(ROOT, 'node_modules', '.cache', 'rollstamp', 'test-cpu.json');
const PROBE = join(ROOT, 'test', 'support', 'shard-cpu.mjs');
const SHARED = join(ROOT, 'test', 'support', 'shard-files.mjs');
let CPU_DIR = ''; // made in main(), after the arguments are checked
const ALONE = /^\/\/ Runs alone: \S/m;

function usage(message) {
  process.stderr.write(`test/run.mjs: ${message}\nusage: node test/run.mjs [--jobs N] [PATH…]\n`);
  process.exit(2);
}

function parseJobs(raw, from) {
  if (!/^[1-9][0-9]*$/.test(raw ?? '')) usage(`${from} must be a whole number ≥ 1 (got ${JSON.stringify(raw ?? '')})`);
  return Number(raw);
}

/** Options and paths from argv. */
function parseArgs(argv) {
  let jobs = process.env.ROLLSTAMP_TEST_JOBS ? parseJobs(process.env.ROLLSTAMP_TEST_JOBS, 'ROLLSTAMP_TEST_JOBS') : Math.min(4, Math.max(2, availableParallelism() + 1));
  const paths = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--jobs' || a === '-j') jobs = parseJobs(argv[++i], a);
    else if (a.startsWith('--jobs=')) jobs = parseJobs(a.slice(7), '--jobs');
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else paths.push(a);
  }
  return { jobs, paths: paths.length > 0 ? paths : ['test'] };
}

/** Every `*.test.ts` file under the given paths, relative to the repository root, sorted and without duplicates. */
function testFiles(paths) {
  const found = new Set();
  const walk = (abs) => {
    if (statSync(abs).isDirectory()) {
      for (const e of readdirSync(abs)) if (e !== 'node_modules' && !e.startsWith('.')) walk(join(abs, e));
    } else if (abs.endsWith('.test.ts')) found.add(relative(ROOT, abs));
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) usage(`${p}: no such file or directory`);
    if (!statSync(abs).isDirectory() && !abs.endsWith('.test.ts')) usage(`${p}: not a test file (*.test.ts) or directory`);
    walk(abs);
  }
  return [...found].sort();
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const count = (out, label) => Number(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm').exec(out)?.[1] ?? 0);
const children = new Set();

/**
 * Runs one shard in its own process (and process group, so a timeout ends its children too); resolves with one
 * result per file.
 */
function runShard(shard, timeoutMs) {
  return new Promise((done) => {
    const started = performance.now();
    const cpuFile = join(CPU_DIR, shard.files[0].replace(/[^\w.-]/g, '_'));
    const args = shard.shared ? [SHARED, ...shard.files] : shard.files;
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', PROBE, ...args], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', ROLLSTAMP_TEST_CPU_FILE: cpuFile },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const text = strip(out);
      const ok = code === 0 && !timedOut;
      const why = timedOut ? `timed out after ${timeoutMs / 1000} s` : signal ? `killed by ${signal}` : code !== 0 ? `exit ${code}` : '';
      const ms = performance.now() - started;
      if (shard.shared) return done(splitShard(shard.files, text, { ok, why, ms, shardCpu: shardCpu(cpuFile) }));
      const total = count(text, 'Total');
      const passed = count(text, 'Passed');
      const skipped = count(text, 'Skipped');
      // uvu's Total counts the tests that ran (skipped ones are not in it).
      const failed = Math.max(total - passed, ok ? 0 : 1);
      done([{ file: shard.files[0], ok, why, total, passed, skipped, failed, out, ms, cpu: shardCpu(cpuFile) }]);
    });
  });
}

/** The CPU seconds the shard wrote at exit, or NaN when it wrote none (killed, or crashed before the probe). */
function shardCpu(path) {
  try {
    return Number(readFileSync(path, 'utf8'));
  } catch {
    return NaN;
  }
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const cpuText = (cpu) => (Number.isFinite(cpu) ? `cpu ${cpu.toFixed(1)} s` : 'cpu ?');

function report(r) {
  const status = r.ok ? 'ok' : `FAILED (${r.why})`;
  process.stdout.write(`\n── ${r.file}: ${status}, ${seconds(r.ms)}, ${cpuText(r.cpu)}\n${r.out}${r.out.endsWith('\n') ? '' : '\n'}`);
}

/** Runs `shards` `jobs` at a time, longest (by the last run's durations of their files) first; resolves with every file's result. */
async function runPool(shards, jobs, timeoutMs, times) {
  const length = (s) => s.files.reduce((n, f) => n + (times[f] ?? Infinity), 0);
  const queue = [...shards].sort((a, b) => length(b) - length(a) || a.files[0].localeCompare(b.files[0]));
  const results = [];
  const worker = async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      for (const r of await runShard(s, timeoutMs)) {
        report(r);
        results.push(r);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, shards.length) }, worker));
  return results;
}

async function main() {
  const { jobs, paths } = parseArgs(process.argv.slice(2));
  const timeoutMs = 1000 * parseJobs(process.env.ROLLSTAMP_TEST_SHARD_TIMEOUT_SECONDS ?? '1200', 'ROLLSTAMP_TEST_SHARD_TIMEOUT_SECONDS');
  const files = testFiles(paths);
  const alone = files.filter((f) => ALONE.test(readFileSync(join(ROOT, f), 'utf8').slice(0, 2000)));
  const parallel = files.filter((f) => !alone.includes(f));
  const times = readJson(TIMES);
  const cpu = readJson(CPU);
  const shards = planShards(parallel, (f) => readFileSync(join(ROOT, f), 'utf8').slice(0, 2000), cpu);
  CPU_DIR = mkdtempSync(join(tmpdir(), 'rollstamp-test-cpu-'));
  const started = performance.now();
  process.stdout.write(`test/run.mjs: ${files.length} files, ${parallel.length} in parallel as ${shards.length} shards (${jobs} at a time), ${alone.length} alone${alone.length ? `: ${alone.join(', ')}` : ''}\n`);
  const results = await runPool(shards, jobs, timeoutMs, times);
  results.push(...(await runPool(alone.map((f) => ({ files: [f], shared: false })), 1, timeoutMs, times)));
  const wall = performance.now() - started;

  for (const r of results) {
    times[r.file] = Math.round(r.ms);
    if (Number.isFinite(r.cpu)) cpu[r.file] = r.cpu;
  }
  // Files that are gone (renamed, deleted, or the scratch tiers of test-runner.test.ts's nested runs) leave.
  for (const table of [times, cpu]) for (const file of Object.keys(table)) if (!existsSync(join(ROOT, file))) delete table[file];
  try {
    mkdirSync(dirname(TIMES), { recursive: true });
    writeFileSync(TIMES, `${JSON.stringify(times, null, 1)}\n`);
    writeFileSync(CPU, `${JSON.stringify(cpu, null, 1)}\n`);
  } catch {
    // the order of the next run only
  }
  rmSync(CPU_DIR, { recursive: true, force: true });

  const sum = (k) => results.reduce((n, r) => n + r[k], 0);
  process.stdout.write('\nfile durations, slowest first:\n');
  for (const r of [...results].sort((a, b) => b.ms - a.ms)) {
    process.stdout.write(`${seconds(r.ms).padStart(9)}  ${r.file}  ${cpuText(r.cpu)}, ${r.ok ? `${r.passed} passed, ${r.skipped} skipped` : `FAILED (${r.why})`}\n`);
  }
  const cpuOf = (rs) => rs.reduce((n, r) => n + (Number.isFinite(r.cpu) ? r.cpu : 0), 0);
  const bad = results.filter((r) => !r.ok);
  if (bad.length) process.stdout.write(`\nfailed files: ${bad.map((r) => r.file).join(', ')}\n`);
  process.stdout.write(`\nwall ${seconds(wall)}, ${jobs} jobs, ${results.length} files in ${shards.length + alone.length} shards, cpu ${cpuOf(results).toFixed(1)} s (${cpuOf(results.filter((r) => alone.includes(r.file))).toFixed(1)} s of it alone)\n`);
  process.stdout.write(`tests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped\n`);
  if (sum('total') === 0) {
    process.stdout.write('no test ran\n');
    process.exit(1);
  }
  process.exit(bad.length === 0 ? 0 : 1);
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const c of children) killGroup(c, 'SIGKILL');
    if (CPU_DIR) rmSync(CPU_DIR, { recursive: true, force: true });
    process.exit(130);
  });
}

await main();
