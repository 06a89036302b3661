// `npm run bench:render`: what one render costs over node itself (#37), the cost an Argo CD app or a kpt
// pipeline pays on every run. Whole processes on the synthetic bundle at 3 and 300 objects, interleaved with the
// floor (a node process that reads stdin and writes it back), and the targets printed with PASS or MISS:
// - a 3-object render ≤ 1.25 × the floor and a 300-object render ≤ 1.6 × the floor, in CPU time (user +
//   system, all threads) and, where valgrind is installed, in instructions of the whole process (callgrind, with
//   node's --predictable: every thread's work on one, so a count repeats to a fraction of a percent on a loaded
//   machine; --no-instructions leaves them out, they take about 15 s a run);
// - a 300-object render's peak RSS ≤ 64 MiB;
// - `rollstamp --version` within `node -e 0` + 10 ms of wall time.
// Beside them, for reference and with no goal, the least a render does (bench/least-render.mjs: stdin through the
// stream's events, one SHA-256 by node:crypto, the input written back), so the room each target leaves rollstamp's
// own code is printed.
// `--rounds N` (default 15; instructions: `--instruction-rounds N`, default 3), `--json FILE`, `--bundle FILE`,
// `--single-threaded` (count under that flag instead, as the bench did from 2026-12-06 to 2026-12-07: see below).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { asResourceList, asStream, bundleDocuments } from './generate-bundle.ts';
import { measureProcess, median, type ProcessSample } from './measure-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, 'instruction-rounds': { type: 'string', default: '3' }, 'no-instructions': { type: 'boolean', default: false }, 'single-threaded': { type: 'boolean', default: false }, json: { type: 'string' }, bundle: { type: 'string' } } });
const BUNDLE = values.bundle ?? join(ROOT, 'dist/rollstamp.js');
const FLOOR = join(ROOT, 'bench/floor.mjs');
const LEAST = join(ROOT, 'bench/least-render.mjs');
const rounds = Number(values.rounds);
const instructionRounds = Number(values['instruction-rounds']);
const withInstructions = !values['no-instructions'] && spawnSync('valgrind', ['--version']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'rollstamp-render-bench-'));

// The targets of #37, on this machine kind.
const RATIO_TARGETS: Record<number, number> = { 3: 1.25, 300: 1.6 };
const RSS_TARGET_MIB = 64;
const RSS_SIZE = 300;
const STARTUP_TARGET_MS = 10;

interface Case {
  name: string;
  argv: string[];
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** The case this one is divided by. */
  floor?: string;
  size?: number;
  /** Printed against the floor for reference, with no target. */
  reference?: boolean;
}
type Sample = ProcessSample;

/** One process, spawned alike for every case (bench/measure-process.ts). */
const run = (c: Case): Sample => measureProcess({ ...c, cwd: c.cwd ?? ROOT }, work);

/**
 * Under callgrind a run takes 30-50 × its time, more on a loaded machine: the run's own deadline (45 s) is lifted
 * so a slow 300-object render is counted, not cut off; it changes no instruction the run executes otherwise.
 */
const UNDER_CALLGRIND = { ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '3600' };
/**
 * node --predictable: V8 compiles and collects on the process's own thread, so three runs agree to a fraction of a
 * percent on a loaded machine; without a flag, helper threads' share moves with the load (a 300-object `stamp -`
 * counted 720-727 M on an idle machine and 822-880 M at load average 5-7). Not --single-threaded, the bench's flag
 * from 2026-12-06 to 2026-12-07: node rejects the code cache of its own built-in modules under a V8 flag it was not
 * built with and compiles each from source, about 60 M more in every count, the floor's too (178 against about 117 M
 * for 3 objects), so every ratio came out lower than a user's process executes. V8 leaves --predictable out of the
 * hash that check compares (the floor counts 117 M under it, the built-ins read from their cache). docs/performance.md,
 * "What the instruction counts had left out".
 */
const NODE_UNDER_CALLGRIND = values['single-threaded'] ? ['--single-threaded'] : ['--predictable'];

function instructions(c: Case): number {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...NODE_UNDER_CALLGRIND, ...c.argv], { cwd: c.cwd ?? ROOT, input: c.stdin ? readFileSync(c.stdin) : '', env: { PATH: process.env.PATH ?? '', ...UNDER_CALLGRIND, ...c.env }, maxBuffer: 2 ** 28 });
  const m = /Collected : (\d+)/.exec(r.stderr.toString());
  if (r.status !== 0 || !m) throw new Error(`${c.name} under callgrind failed (exit ${r.status ?? r.signal}): ${r.stderr.toString().slice(-300)}`);
  return Number(m[1]);
}

const cases: Case[] = [{ name: 'node -e 0', argv: ['-e', '0'] }, { name: 'rollstamp --version', argv: [BUNDLE, '--version'] }];
for (const size of [3, 300]) {
  const docs = bundleDocuments(size);
  const stream = join(work, `stream-${size}.yaml`);
  const rl = join(work, `rl-${size}.yaml`);
  const app = mkdtempSync(join(work, `app-${size}-`));
  writeFileSync(stream, asStream(docs));
  writeFileSync(rl, asResourceList(docs));
  writeFileSync(join(app, 'all.yaml'), asStream(docs));
  const floor = `floor (${size})`;
  cases.push(
    { name: floor, argv: [FLOOR], stdin: stream, size },
    { name: `least a render does (${size})`, argv: [LEAST], stdin: stream, floor, size, reference: true },
    { name: `rollstamp stamp - (${size})`, argv: [BUNDLE, 'stamp', '-'], stdin: stream, floor, size },
    { name: `rollstamp fn (${size})`, argv: [BUNDLE, 'fn'], stdin: rl, floor, size },
    // generate as the Argo CD plugin runs it on a plain directory (a kustomize or helm render keeps its worker).
    { name: `rollstamp generate (${size})`, argv: [BUNDLE, 'generate'], cwd: app, env: { ARGOCD_APP_NAME: 'bench', ARGOCD_APP_NAMESPACE: 'team-0' }, floor, size },
  );
}
const targeted = (c: Case): boolean => c.floor !== undefined && !c.reference;

const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
for (let r = 0; r < rounds; r++) for (const c of cases) samples.get(c.name)!.push(run(c)); // interleaved
const counted = new Map<string, number[]>();
if (withInstructions) {
  const measured = cases.filter((c) => c.size !== undefined);
  for (let r = 0; r < instructionRounds; r++) for (const c of measured) counted.set(c.name, [...(counted.get(c.name) ?? []), instructions(c)]);
}

interface Row {
  name: string;
  cpuSeconds: number;
  cpuRatio?: number;
  wallMs: number;
  rssMiB: number;
  instructions?: number;
  /** The lowest and highest count of the callgrind rounds. */
  instructionRange?: [number, number];
  instructionRatio?: number;
}
const rows: Row[] = cases.map((c) => {
  const s = samples.get(c.name)!;
  const cpu = median(s.map((x) => x.cpuSeconds));
  const ins = counted.get(c.name);
  const row: Row = { name: c.name, cpuSeconds: cpu, wallMs: median(s.map((x) => x.wallMs)), rssMiB: Math.max(...s.map((x) => x.rssMiB)), ...(ins ? { instructions: median(ins), instructionRange: [Math.min(...ins), Math.max(...ins)] as [number, number] } : {}) };
  if (c.floor) {
    row.cpuRatio = cpu / median(samples.get(c.floor)!.map((x) => x.cpuSeconds));
    const floorIns = counted.get(c.floor);
    if (ins && floorIns) row.instructionRatio = median(ins) / median(floorIns);
  }
  return row;
});
const row = (name: string): Row => rows.find((r) => r.name === name)!;

interface Target {
  what: string;
  measured: string;
  target: string;
  verdict: 'PASS' | 'MISS';
}
const targets: Target[] = [];
const verdict = (pass: boolean): Target['verdict'] => (pass ? 'PASS' : 'MISS');
for (const c of cases.filter(targeted)) {
  const r = row(c.name);
  const limit = RATIO_TARGETS[c.size!]!;
  targets.push({ what: `${c.name}: CPU ÷ floor`, measured: `${r.cpuRatio!.toFixed(2)} ×`, target: `≤ ${limit} ×`, verdict: verdict(r.cpuRatio! <= limit) });
  if (r.instructionRatio !== undefined) targets.push({ what: `${c.name}: instructions ÷ floor`, measured: `${r.instructionRatio.toFixed(2)} ×`, target: `≤ ${limit} ×`, verdict: verdict(r.instructionRatio <= limit) });
  if (c.size === RSS_SIZE) targets.push({ what: `${c.name}: peak RSS`, measured: `${r.rssMiB.toFixed(1)} MiB`, target: `≤ ${RSS_TARGET_MIB} MiB`, verdict: verdict(r.rssMiB <= RSS_TARGET_MIB) });
}
const startupMs = row('rollstamp --version').wallMs - row('node -e 0').wallMs;
targets.push({ what: 'rollstamp --version: wall − node -e 0', measured: `${startupMs >= 0 ? '+' : ''}${startupMs.toFixed(1)} ms`, target: `≤ +${STARTUP_TARGET_MS} ms`, verdict: verdict(startupMs <= STARTUP_TARGET_MS) });

/** Per size: what the least render takes of the instructions a target allows over the floor. */
const room = [3, 300].flatMap((size) => {
  const least = row(`least a render does (${size})`);
  const floorIns = row(`floor (${size})`).instructions;
  if (least.instructionRatio === undefined || floorIns === undefined) return [];
  const allowed = (RATIO_TARGETS[size]! - 1) * floorIns;
  const left = (RATIO_TARGETS[size]! - least.instructionRatio) * floorIns;
  return [`${size} objects: the least a render does is ${least.instructionRatio.toFixed(2)} × the floor, so of the ${(allowed / 1e6).toFixed(0)} M instructions the target allows over the floor ${(left / 1e6).toFixed(0)} M are left for rollstamp's code to load and run.`];
});

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`;
const fmt = (n: number | undefined, digits = 2): string => (n === undefined ? '—' : n.toFixed(digits));
const lines = [
  `rollstamp per-render benchmark — ${machine}; medians of ${rounds} interleaved rounds (CPU, wall, the highest peak RSS)${withInstructions ? ` and of ${instructionRounds} callgrind rounds (instructions of every thread, node ${NODE_UNDER_CALLGRIND.join(' ')}; the range in brackets)` : '; instructions not measured (no valgrind, or --no-instructions)'}; the floor reads stdin and writes it back in node`,
  '',
  '| case | CPU s | CPU × floor | M instructions | instructions × floor | wall ms | peak RSS MiB |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${fmt(r.cpuSeconds, 3)} | ${fmt(r.cpuRatio)} | ${r.instructions === undefined ? '—' : `${(r.instructions / 1e6).toFixed(0)} (${r.instructionRange!.map((n) => (n / 1e6).toFixed(0)).join('–')})`} | ${fmt(r.instructionRatio)} | ${r.wallMs.toFixed(0)} | ${r.rssMiB.toFixed(1)} |`),
  '',
  '| target | measured | goal | |',
  '|---|---:|---|---|',
  ...targets.map((t) => `| ${t.what} | ${t.measured} | ${t.target} | ${t.verdict} |`),
  '',
  ...room,
  `${targets.filter((t) => t.verdict === 'PASS').length} PASS, ${targets.filter((t) => t.verdict === 'MISS').length} MISS. generate renders a plain directory here; with kustomize or helm it keeps its worker thread.`,
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rounds, instructionRounds: withInstructions ? instructionRounds : 0, nodeUnderCallgrind: NODE_UNDER_CALLGRIND, rows, targets }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
