// `npm run bench`: times whole processes side by side on synthetic bundles and prints, from one run, each mode's
// median time as a multiple of the floor (reading the same input and writing it back unchanged), time per
// object, how per-object time scales, peak RSS against its target, and start-up against bare node. CPU time
// (user + system, all threads) is printed beside wall time: other load on the machine changes it least.
// `--sizes 1000,10000,50000`, `--rounds 3`, `--json FILE`, `--yaml` (add a yaml parse + print reference row: slow at 50k), `--bundle FILE` (measure another build). Rounds are interleaved (every case once per round),
// so load on a shared machine falls on all cases alike; the output is markdown.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { asResourceList, asStream, bundleDocuments } from './generate-bundle.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000,50000' }, rounds: { type: 'string', default: '3' }, json: { type: 'string' }, yaml: { type: 'boolean', default: false }, bundle: { type: 'string' } } });
// `--bundle FILE` measures another build (an older release, say) against the same floors.
const BUNDLE = values.bundle ?? join(ROOT, 'dist/rollstamp.js');
const sizes = values.sizes.split(',').map(Number);
const rounds = Number(values.rounds);
if (sizes.some((n) => !Number.isInteger(n) || n <= 0) || !Number.isInteger(rounds) || rounds <= 0) {
  console.error('usage: bench/run.ts [--sizes N,N,...] [--rounds N] [--json FILE] [--yaml]');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'rollstamp-bench-'));

// Targets on this machine kind.
const RATIO_TARGET = 4; // a mode's time ≤ 4 × its floor, at 10k and 50k objects
const RATIO_SIZES = [10000, 50000];
const SCALING = { from: 10000, to: 50000, target: 1.15 }; // per-object time at 50k ≤ 1.15 × at 10k
const RSS_SIZE = 50000; // peak RSS ≤ 8 × input + 100 MB
const rssTargetMiB = (inputBytes: number): number => (8 * inputBytes + 100e6) / 2 ** 20;
const STARTUP_TARGET_MS = 30; // `--version` within bare node + 30 ms

interface Case {
  name: string;
  argv: string[];
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** The floor this case's time is divided by. */
  floor?: string;
  /** A mode with targets (a rollstamp command), not a reference row. */
  mode?: boolean;
  /** Runs per round: the floors are short, so a few more samples keep their median steady. */
  repeat?: number;
}
interface Sample {
  seconds: number;
  cpuSeconds: number;
  rssMiB: number;
}

/** generate's run deadline in the bench: far above what 50k objects take on a loaded 2-core machine. */
const BENCH_RENDER_TIMEOUT_SECONDS = 1800;
const baseEnv = { PATH: process.env.PATH ?? '', ROLLSTAMP_MAX_INPUT_BYTES: String(2 ** 31) };

/** One process, spawned the same way for every case (floors included), with its peak RSS and CPU from bench/rss.cjs. */
function run(c: Case): Sample {
  const rssFile = join(work, 'rss');
  rmSync(rssFile, { force: true });
  const input = c.stdin === undefined ? '' : readFileSync(c.stdin);
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/rss.cjs'), ...c.argv], {
    cwd: c.cwd ?? ROOT,
    input,
    env: { ...baseEnv, ...c.env, BENCH_RSS_FILE: rssFile },
    maxBuffer: 2 ** 31,
  });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${c.name} failed (exit ${r.status}): ${r.stderr.toString().slice(0, 300)}`);
  const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRSS: number; cpu: number };
  return { seconds, cpuSeconds: usage.cpu / 1e6, rssMiB: usage.maxRSS / 1024 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

interface Row {
  size: number;
  name: string;
  seconds: number;
  cpuSeconds: number;
  /** Time as a multiple of `ratioTo`'s. */
  ratio?: number;
  /** CPU time as a multiple of `ratioTo`'s. */
  cpuRatio?: number;
  ratioTo?: string;
  usPerObject: number;
  /** Highest peak RSS over the rounds. */
  rssMiB: number;
  inputMiB: number;
  inputBytes: number;
  mode: boolean;
}
const rows: Row[] = [];

const STREAM_FLOOR = 'floor: read + write (stream)';
const RL_FLOOR = 'floor: read + write (ResourceList)';
for (const size of sizes) {
  const docs = bundleDocuments(size);
  const dir = join(work, String(size));
  mkdirSync(join(dir, 'app'), { recursive: true });
  const stream = join(dir, 'stream.yaml');
  const rl = join(dir, 'rl.yaml');
  writeFileSync(stream, asStream(docs));
  writeFileSync(rl, asResourceList(docs));
  writeFileSync(join(dir, 'app', 'all.yaml'), asStream(docs));
  const bytes = { [stream]: statSync(stream).size, [rl]: statSync(rl).size };
  const floor = join(ROOT, 'bench/floor.mjs');
  const cases: Case[] = [
    { name: STREAM_FLOOR, argv: [floor], stdin: stream, repeat: 5 },
    { name: RL_FLOOR, argv: [floor], stdin: rl, repeat: 5 },
    ...(values.yaml ? [{ name: 'yaml parse + print (stream)', argv: [join(ROOT, 'bench/yaml-round-trip.mjs'), 'stream'], stdin: stream, floor: STREAM_FLOOR }] : []),
    { name: 'rollstamp stamp -', argv: [BUNDLE, 'stamp', '-'], stdin: stream, floor: STREAM_FLOOR, mode: true },
    { name: 'rollstamp fn', argv: [BUNDLE, 'fn'], stdin: rl, floor: RL_FLOOR, mode: true },
    // generate reads the same stream from a directory: its floor is the stream's. Its run deadline (45 s by
    // default, Argo CD's budget) is raised so a 50k-object run on a loaded machine measures rather than aborts.
    { name: 'rollstamp generate', argv: [BUNDLE, 'generate'], cwd: join(dir, 'app'), env: { ARGOCD_APP_NAME: 'bench', ARGOCD_APP_NAMESPACE: 'team-0', ROLLSTAMP_RENDER_TIMEOUT_SECONDS: String(BENCH_RENDER_TIMEOUT_SECONDS) }, floor: STREAM_FLOOR, mode: true },
  ];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) for (const c of cases) for (let k = 0; k < (c.repeat ?? 1); k++) samples.get(c.name)!.push(run(c)); // interleaved
  const med = (name: string): Sample => {
    const s = samples.get(name)!;
    return { seconds: median(s.map((x) => x.seconds)), cpuSeconds: median(s.map((x) => x.cpuSeconds)), rssMiB: Math.max(...s.map((x) => x.rssMiB)) };
  };
  for (const c of cases) {
    const m = med(c.name);
    const inputBytes = bytes[c.stdin ?? stream]!;
    const row: Row = { size, name: c.name, seconds: m.seconds, cpuSeconds: m.cpuSeconds, usPerObject: (m.seconds / size) * 1e6, rssMiB: m.rssMiB, inputMiB: inputBytes / 2 ** 20, inputBytes, mode: c.mode === true };
    if (c.floor) {
      row.ratio = m.seconds / med(c.floor).seconds;
      row.cpuRatio = m.cpuSeconds / med(c.floor).cpuSeconds;
      row.ratioTo = c.floor;
    }
    rows.push(row);
  }
}

// Start-up: --version against bare node, interleaved, spawned like every other case.
const startup = { bare: [] as number[], version: [] as number[] };
for (let r = 0; r < Math.max(11, rounds * 3); r++) {
  startup.bare.push(run({ name: 'node -e 0', argv: ['-e', '0'] }).seconds);
  startup.version.push(run({ name: 'rollstamp --version', argv: [BUNDLE, '--version'] }).seconds);
}
const bareMs = median(startup.bare) * 1000;
const versionMs = median(startup.version) * 1000;

const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const find = (name: string, size: number): Row | undefined => rows.find((r) => r.name === name && r.size === size);
const modes = [...new Set(rows.filter((r) => r.mode).map((r) => r.name))];

interface Target {
  mode: string;
  what: string;
  measured: string;
  target: string;
  pass: boolean;
}
const targets: Target[] = [];
for (const mode of modes) {
  for (const size of RATIO_SIZES) {
    const r = find(mode, size);
    if (r?.ratio !== undefined) targets.push({ mode, what: `time at ${size} ÷ floor`, measured: `${r.ratio.toFixed(2)} × (CPU ${r.cpuRatio!.toFixed(2)} ×)`, target: `≤ ${RATIO_TARGET} ×`, pass: r.ratio <= RATIO_TARGET });
  }
  const from = find(mode, SCALING.from);
  const to = find(mode, SCALING.to);
  if (from && to) {
    const scale = to.usPerObject / from.usPerObject;
    targets.push({ mode, what: `µs/object at ${SCALING.to} ÷ at ${SCALING.from}`, measured: `${scale.toFixed(2)} (${to.usPerObject.toFixed(0)} / ${from.usPerObject.toFixed(0)} µs)`, target: `≤ ${SCALING.target}`, pass: scale <= SCALING.target });
  }
  const big = find(mode, RSS_SIZE);
  if (big) {
    const limit = rssTargetMiB(big.inputBytes);
    targets.push({ mode, what: `peak RSS at ${RSS_SIZE} (input ${big.inputMiB.toFixed(1)} MiB)`, measured: `${big.rssMiB.toFixed(0)} MiB`, target: `≤ ${limit.toFixed(0)} MiB (8 × input + 100 MB)`, pass: big.rssMiB <= limit });
  }
}
targets.push({ mode: 'rollstamp --version', what: 'start-up − node -e 0', measured: `+${(versionMs - bareMs).toFixed(0)} ms (${versionMs.toFixed(0)} vs ${bareMs.toFixed(0)} ms)`, target: `≤ +${STARTUP_TARGET_MS} ms`, pass: versionMs - bareMs <= STARTUP_TARGET_MS });

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, node ${process.version}`;
const ratioCell = (r: Row): string => (r.ratio === undefined ? '1 (floor)' : `${r.ratio.toFixed(2)}`);
const cpuRatioCell = (r: Row): string => (r.cpuRatio === undefined ? '1 (floor)' : `${r.cpuRatio.toFixed(2)}`);
const lines = [
  `rollstamp benchmark — ${machine}; medians of ${rounds} interleaved run${rounds === 1 ? '' : 's'}; the floor is reading the input and writing it back unchanged in node (same spawn, same RSS probe)`,
  '',
  '| objects | command | median s | × floor | µs/object | CPU s | CPU × floor | peak RSS MiB | input MiB |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.size} | ${r.name} | ${r.seconds.toFixed(2)} | ${ratioCell(r)} | ${r.usPerObject.toFixed(1)} | ${r.cpuSeconds.toFixed(2)} | ${cpuRatioCell(r)} | ${r.rssMiB.toFixed(0)} | ${r.inputMiB.toFixed(1)} |`),
  '',
  `Targets use wall time; stamp and generate are divided by the stream floor, fn by the ResourceList floor${values.yaml ? '; the yaml row is for reference' : ''}.`,
  '',
  '| mode | measure | measured | target | |',
  '|---|---|---:|---|---|',
  ...targets.map((t) => `| ${t.mode} | ${t.what} | ${t.measured} | ${t.target} | ${verdict(t.pass)} |`),
];
if (!sizes.includes(SCALING.from) || !sizes.includes(SCALING.to)) lines.push('', `(time-ratio, scaling and RSS targets need sizes ${SCALING.from} and ${SCALING.to})`);
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rounds, rows, startup: { bareMs, versionMs }, targets }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
