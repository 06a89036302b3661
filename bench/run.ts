// `npm run bench`: times whole processes side by side and prints, from one run, every target of the
// performance work (#26) with PASS or MISS. Two bundles are measured at each size:
// - synthetic (bench/generate-bundle.ts): workloads, Secrets, ConfigMaps, kagent objects, Services, with
//   comments; `stamp -`, `fn` (its ResourceList form), `generate`, `explain -o json` and `diff` (against a copy
//   with every tenth Secret's password changed) run on it;
// - real shapes (bench/real-shape-bundle.ts): the documents of fixtures/real-shapes/*/input.yaml repeated
//   with names made unique per copy; `stamp -` and `fn` run on it, and the bench counts which reader read
//   each of its documents.
// Each mode's median time is printed as a multiple of its floor (reading the same input and writing it back
// unchanged), with time per object, CPU time (user + system, all threads: other load on the machine changes it
// least) and its system share, minor page faults and context switches beside the floor's (#37: what the kernel
// and V8's helper threads cost a run, without strace), peak RSS against its target, and start-up against bare node.
// `--sizes 1000,10000,50000`, `--rounds 3`, `--quick` (one round at 1000 objects unless --sizes says
// otherwise), `--json FILE`, `--yaml` (add a yaml parse + print reference row: slow at 50k), `--bundle FILE`
// (measure another build). Rounds are interleaved (every case once per round), so load on a shared machine
// falls on all cases alike; the output is markdown. Targets at a size not run are listed as not measured.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { streamDocuments } from '../function/read/stream-documents.ts';
import { asResourceList, asStream, bundleDocuments, withChangedSecrets } from './generate-bundle.ts';
import { realShapeDocuments, realShapeUnits } from './real-shape-bundle.ts';
import { measureProcess, median } from './measure-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE = 'usage: bench/run.ts [--sizes N,N,...] [--rounds N] [--quick] [--json FILE] [--yaml] [--bundle FILE]';
const { values } = parseArgs({ options: { sizes: { type: 'string' }, rounds: { type: 'string' }, quick: { type: 'boolean', default: false }, json: { type: 'string' }, yaml: { type: 'boolean', default: false }, bundle: { type: 'string' } } });
// `--bundle FILE` measures another build (an older release, say) against the same floors.
const BUNDLE = values.bundle ?? join(ROOT, 'dist/rollstamp.js');
const sizes = (values.sizes ?? (values.quick ? '1000' : '1000,10000,50000')).split(',').map(Number);
const rounds = Number(values.rounds ?? (values.quick ? '1' : '3'));
if (sizes.some((n) => !Number.isInteger(n) || n <= 0) || !Number.isInteger(rounds) || rounds <= 0) {
  console.error(USAGE);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'rollstamp-bench-'));

// Targets on this machine kind (#26).
const RATIO_TARGETS = [
  { size: 10000, target: 4 }, // a mode's time ≤ 4 × its floor at 10k objects
  { size: 50000, target: 6 }, // and ≤ 6 × at 50k
];
// #37 states the 50k goal in CPU (user + system, all threads: what other load on the machine changes least), for
// `stamp` and `fn`; the wall-time lines above are #26's.
const CPU_RATIO_TARGET = { size: 50000, target: 6 };
const SCALING = { from: 10000, to: 50000 }; // per-object time at 50k ÷ at 10k: printed for reference, no target
// Wall time each object past 10k adds, (t50k − t10k) ÷ (objects50k − objects10k): ≤ 25 µs on an idle core (#37).
// On a shared machine other load inflates it; the CPU form is printed beside it.
const MARGINAL_TARGET_US = 25;
const RSS_SIZE = 50000; // peak RSS ≤ 8 × input + 100 MB; explain and diff ≤ 1.5 × stamp's
const rssTargetMiB = (inputBytes: number): number => (8 * inputBytes + 100e6) / 2 ** 20;
const PEER_RSS_TARGET = 1.5;
const STARTUP_TARGET_MS = 30; // `--version`, and a stamp of one object, within bare node + 30 ms

interface Case {
  name: string;
  argv: string[];
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** The floor this case's time is divided by. */
  floor?: string;
  /** Files this case reads, for the input column (default: stdin). */
  inputs?: string[];
  /** Exit statuses that are success (default: 0 only). */
  ok?: number[];
  /** Runs per round: the floors are short, so a few more samples keep their median steady. */
  repeat?: number;
}
interface Sample {
  seconds: number;
  cpuSeconds: number;
  systemSeconds: number;
  minorFaults: number;
  switches: number;
  rssMiB: number;
}

/** generate's run deadline in the bench: far above what 50k objects take on a loaded 2-core machine. */
const BENCH_RENDER_TIMEOUT_SECONDS = 1800;
const baseEnv = { ROLLSTAMP_MAX_INPUT_BYTES: String(2 ** 31) };

/** One process, spawned the same way for every case, floors included (bench/measure-process.ts). */
function run(c: Case): Sample {
  const m = measureProcess({ ...c, cwd: c.cwd ?? ROOT, env: { ...baseEnv, ...c.env } }, work);
  return { seconds: m.wallMs / 1000, cpuSeconds: m.cpuSeconds, systemSeconds: m.systemSeconds, minorFaults: m.minorFaults, switches: m.switches, rssMiB: m.rssMiB };
}

interface Row {
  size: number;
  /** Objects in the input (the real-shape bundle holds whole fixtures, so a few more than `size`). */
  objects: number;
  name: string;
  seconds: number;
  cpuSeconds: number;
  /** Medians: system CPU seconds, minor page faults, context switches (bench/rss.cjs). */
  systemSeconds: number;
  minorFaults: number;
  switches: number;
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
}
const rows: Row[] = [];

/** How the real-shape stream of one size was read by streamDocuments. */
interface FastPath {
  size: number;
  documents: number;
  subset: number;
  yamlDocument: number;
  /** False when the stream fell back to being read whole. */
  perDocument: boolean;
}
const fastPath: FastPath[] = [];

function countReaders(size: number, text: string): FastPath {
  const counts: FastPath = { size, documents: 0, subset: 0, yamlDocument: 0, perDocument: false };
  const reader = streamDocuments(text, 'real-shapes.yaml');
  for (let next = reader.next(); ; next = reader.next()) {
    if (next.done) {
      counts.perDocument = next.value;
      return counts;
    }
    counts.documents++;
    if (next.value.readBy === 'subset') counts.subset++;
    else counts.yamlDocument++;
  }
}

const STREAM_FLOOR = 'floor: read + write (stream)';
const RL_FLOOR = 'floor: read + write (ResourceList)';
const REAL_FLOOR = 'floor: read + write (real shapes)';
const REAL_RL_FLOOR = 'floor: read + write (real shapes, ResourceList)';
const STAMP = 'rollstamp stamp -';
const FN = 'rollstamp fn';
const GENERATE = 'rollstamp generate';
const EXPLAIN = 'rollstamp explain -o json -';
const DIFF = 'rollstamp diff OLD NEW';
const REAL_STAMP = 'rollstamp stamp - (real shapes)';
const REAL_FN = 'rollstamp fn (real shapes)';
/** Modes held to the time and RSS targets. */
const MODES = [STAMP, FN, GENERATE, REAL_STAMP, REAL_FN];
/** Modes held to stamp's peak RSS (and whose time is printed beside stamp's). */
const PEERS = [EXPLAIN, DIFF];
const shapeFixtures = realShapeUnits().map((u) => u.fixture);

for (const size of sizes) {
  const docs = bundleDocuments(size);
  const realDocs = realShapeDocuments(size);
  const dir = join(work, String(size));
  mkdirSync(join(dir, 'app'), { recursive: true });
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const stream = file('stream.yaml', asStream(docs));
  const rl = file('rl.yaml', asResourceList(docs));
  const changed = file('changed.yaml', asStream(withChangedSecrets(docs)));
  writeFileSync(join(dir, 'app', 'all.yaml'), asStream(docs));
  const realText = asStream(realDocs);
  const real = file('real.yaml', realText);
  const realRl = file('real-rl.yaml', asResourceList(realDocs));
  fastPath.push(countReaders(size, realText));
  const floor = join(ROOT, 'bench/floor.mjs');
  const cases: Case[] = [
    { name: STREAM_FLOOR, argv: [floor], stdin: stream, repeat: 5 },
    { name: RL_FLOOR, argv: [floor], stdin: rl, repeat: 5 },
    ...(values.yaml ? [{ name: 'yaml parse + print (stream)', argv: [join(ROOT, 'bench/yaml-round-trip.mjs'), 'stream'], stdin: stream, floor: STREAM_FLOOR }] : []),
    { name: STAMP, argv: [BUNDLE, 'stamp', '-'], stdin: stream, floor: STREAM_FLOOR },
    { name: FN, argv: [BUNDLE, 'fn'], stdin: rl, floor: RL_FLOOR },
    // generate reads the same stream from a directory: its floor is the stream's. Its run deadline (45 s by
    // default, Argo CD's budget) is raised so a 50k-object run on a loaded machine measures rather than aborts.
    { name: GENERATE, argv: [BUNDLE, 'generate'], cwd: join(dir, 'app'), inputs: [stream], env: { ARGOCD_APP_NAME: 'bench', ARGOCD_APP_NAMESPACE: 'team-0', ROLLSTAMP_RENDER_TIMEOUT_SECONDS: String(BENCH_RENDER_TIMEOUT_SECONDS) }, floor: STREAM_FLOOR },
    { name: EXPLAIN, argv: [BUNDLE, 'explain', '-o', 'json', '-'], stdin: stream, floor: STREAM_FLOOR },
    // diff reads two renders (its input column counts both); exit 3 is its "something rolls", the expected answer here.
    { name: DIFF, argv: [BUNDLE, 'diff', stream, changed], inputs: [stream, changed], ok: [3], floor: STREAM_FLOOR },
    { name: REAL_FLOOR, argv: [floor], stdin: real, repeat: 5 },
    { name: REAL_RL_FLOOR, argv: [floor], stdin: realRl, repeat: 5 },
    { name: REAL_STAMP, argv: [BUNDLE, 'stamp', '-'], stdin: real, floor: REAL_FLOOR },
    { name: REAL_FN, argv: [BUNDLE, 'fn'], stdin: realRl, floor: REAL_RL_FLOOR },
  ];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) for (const c of cases) for (let k = 0; k < (c.repeat ?? 1); k++) samples.get(c.name)!.push(run(c)); // interleaved
  const med = (name: string): Sample => {
    const s = samples.get(name)!;
    return {
      seconds: median(s.map((x) => x.seconds)),
      cpuSeconds: median(s.map((x) => x.cpuSeconds)),
      systemSeconds: median(s.map((x) => x.systemSeconds)),
      minorFaults: median(s.map((x) => x.minorFaults)),
      switches: median(s.map((x) => x.switches)),
      rssMiB: Math.max(...s.map((x) => x.rssMiB)),
    };
  };
  for (const c of cases) {
    const m = med(c.name);
    const inputBytes = (c.inputs ?? [c.stdin!]).reduce((sum, f) => sum + statSync(f).size, 0);
    const objects = [real, realRl].includes(c.stdin ?? '') ? realDocs.length : size;
    const row: Row = { size, objects, name: c.name, seconds: m.seconds, cpuSeconds: m.cpuSeconds, systemSeconds: m.systemSeconds, minorFaults: m.minorFaults, switches: m.switches, usPerObject: (m.seconds / objects) * 1e6, rssMiB: m.rssMiB, inputMiB: inputBytes / 2 ** 20, inputBytes };
    if (c.floor) {
      row.ratio = m.seconds / med(c.floor).seconds;
      row.cpuRatio = m.cpuSeconds / med(c.floor).cpuSeconds;
      row.ratioTo = c.floor;
    }
    rows.push(row);
  }
  rmSync(dir, { recursive: true, force: true });
}

// Start-up: --version, and a stamp of one small object (what every command pays: the run's worker thread and
// the core), against bare node, interleaved, spawned like every other case.
const oneObject = join(work, 'one.yaml');
writeFileSync(oneObject, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  k: v\n');
const startup = { bare: [] as number[], version: [] as number[], stamp: [] as number[] };
for (let r = 0; r < Math.max(11, rounds * 3); r++) {
  startup.bare.push(run({ name: 'node -e 0', argv: ['-e', '0'] }).seconds);
  startup.version.push(run({ name: 'rollstamp --version', argv: [BUNDLE, '--version'] }).seconds);
  startup.stamp.push(run({ name: 'rollstamp stamp (one object)', argv: [BUNDLE, 'stamp', '--allow-no-targets', '-'], stdin: oneObject }).seconds);
}
const bareMs = median(startup.bare) * 1000;
const versionMs = median(startup.version) * 1000;
const stampOneMs = median(startup.stamp) * 1000;

const find = (name: string, size: number): Row | undefined => rows.find((r) => r.name === name && r.size === size);

/** What each object between two sizes adds: wall and CPU microseconds. */
function marginalUs(from: Row, to: Row): { wall: number; cpu: number } {
  const objects = to.objects - from.objects;
  return { wall: ((to.seconds - from.seconds) / objects) * 1e6, cpu: ((to.cpuSeconds - from.cpuSeconds) / objects) * 1e6 };
}

const REFERENCE = 'none (reference)';
type Verdict = 'PASS' | 'MISS' | 'reference' | 'not measured';
interface Target {
  mode: string;
  what: string;
  measured: string;
  target: string;
  verdict: Verdict;
  /** A line printed for reference: it has no goal. */
  reference: boolean;
}
const targets: Target[] = [];
/** A target, or the same line as not measured when its size was not run. */
function target(mode: string, what: string, goal: string, measured: { text: string; pass?: boolean } | undefined): void {
  const reference = goal === REFERENCE;
  if (!measured) targets.push({ mode, what, measured: '—', target: goal, verdict: 'not measured', reference });
  else targets.push({ mode, what, measured: measured.text, target: goal, verdict: reference || measured.pass === undefined ? 'reference' : measured.pass ? 'PASS' : 'MISS', reference });
}

for (const mode of MODES) {
  for (const { size, target: limit } of RATIO_TARGETS) {
    const r = find(mode, size);
    target(mode, `time at ${size} ÷ floor`, `≤ ${limit} ×`, r && { text: `${r.ratio!.toFixed(2)} × (CPU ${r.cpuRatio!.toFixed(2)} ×)`, pass: r.ratio! <= limit });
  }
  if (mode === STAMP || mode === FN) {
    const r = find(mode, CPU_RATIO_TARGET.size);
    target(mode, `CPU at ${CPU_RATIO_TARGET.size} ÷ floor's`, `≤ ${CPU_RATIO_TARGET.target} ×`, r && { text: `${r.cpuRatio!.toFixed(2)} ×`, pass: r.cpuRatio! <= CPU_RATIO_TARGET.target });
  }
  const big = find(mode, RSS_SIZE);
  target(mode, `peak RSS at ${RSS_SIZE}${big ? ` (input ${big.inputMiB.toFixed(1)} MiB)` : ''}`, `≤ ${big ? `${rssTargetMiB(big.inputBytes).toFixed(0)} MiB ` : ''}(8 × input + 100 MB)`, big && { text: `${big.rssMiB.toFixed(0)} MiB`, pass: big.rssMiB <= rssTargetMiB(big.inputBytes) });
  const from = find(mode, SCALING.from);
  const to = find(mode, SCALING.to);
  target(mode, `µs/object at ${SCALING.to} ÷ at ${SCALING.from}`, REFERENCE, from && to && { text: `${(to.usPerObject / from.usPerObject).toFixed(2)} (${to.usPerObject.toFixed(0)} / ${from.usPerObject.toFixed(0)} µs)` });
  const marginal = from && to ? marginalUs(from, to) : undefined;
  target(mode, `marginal µs/object, ${SCALING.from} → ${SCALING.to}`, `≤ ${MARGINAL_TARGET_US} µs (wall, idle core)`, marginal && { text: `${marginal.wall.toFixed(1)} µs (CPU ${marginal.cpu.toFixed(1)} µs)`, pass: marginal.wall <= MARGINAL_TARGET_US });
}
for (const f of fastPath) {
  const all = f.perDocument && f.subset === f.documents;
  target('real-shape stream', `documents read by the fast path at ${f.size}`, 'all (readBy subset)', { text: `${f.subset} of ${f.documents}${f.yamlDocument > 0 ? `, ${f.yamlDocument} by the yaml library` : ''}${f.perDocument ? '' : ', stream read whole'}`, pass: all });
}
for (const peer of PEERS) {
  const big = find(peer, RSS_SIZE);
  const stamp = find(STAMP, RSS_SIZE);
  target(peer, `peak RSS at ${RSS_SIZE} ÷ stamp's`, `≤ ${PEER_RSS_TARGET} ×`, big && stamp && { text: `${(big.rssMiB / stamp.rssMiB).toFixed(2)} × (${big.rssMiB.toFixed(0)} / ${stamp.rssMiB.toFixed(0)} MiB)`, pass: big.rssMiB <= PEER_RSS_TARGET * stamp.rssMiB });
  for (const { size } of RATIO_TARGETS) {
    const r = find(peer, size);
    const s = find(STAMP, size);
    target(peer, `time at ${size} ÷ stamp's`, REFERENCE, r && s && { text: `${(r.seconds / s.seconds).toFixed(2)} × (${r.seconds.toFixed(2)} / ${s.seconds.toFixed(2)} s)` });
  }
}
target('rollstamp --version', 'start-up − node -e 0', `≤ +${STARTUP_TARGET_MS} ms`, { text: `+${(versionMs - bareMs).toFixed(0)} ms (${versionMs.toFixed(0)} vs ${bareMs.toFixed(0)} ms)`, pass: versionMs - bareMs <= STARTUP_TARGET_MS });
target('rollstamp stamp (one object)', 'start-up − node -e 0', `≤ +${STARTUP_TARGET_MS} ms`, { text: `+${(stampOneMs - bareMs).toFixed(0)} ms (${stampOneMs.toFixed(0)} vs ${bareMs.toFixed(0)} ms)`, pass: stampOneMs - bareMs <= STARTUP_TARGET_MS });

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, node ${process.version}`;
const ratioCell = (r: Row): string => (r.ratio === undefined ? '1 (floor)' : `${r.ratio.toFixed(2)}`);
const cpuRatioCell = (r: Row): string => (r.cpuRatio === undefined ? '1 (floor)' : `${r.cpuRatio.toFixed(2)}`);
const objectsCell = (r: Row): string => (r.objects === r.size ? String(r.size) : `${r.size} (${r.objects})`);
const count = (n: number): string => `${n} ${n === 1 ? 'target' : 'targets'}`;
const tally = (v: Verdict): number => targets.filter((t) => !t.reference && t.verdict === v).length;
const references = targets.filter((t) => t.reference);
const lines = [
  `rollstamp benchmark — ${machine}; medians of ${rounds} interleaved run${rounds === 1 ? '' : 's'}; the floor is reading the input and writing it back unchanged in node (same spawn, same RSS probe)`,
  '',
  '| objects | command | median s | × floor | µs/object | CPU s | CPU × floor | of it system s | minor faults | context switches | peak RSS MiB | input MiB |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${objectsCell(r)} | ${r.name} | ${r.seconds.toFixed(2)} | ${ratioCell(r)} | ${r.usPerObject.toFixed(1)} | ${r.cpuSeconds.toFixed(2)} | ${cpuRatioCell(r)} | ${r.systemSeconds.toFixed(2)} | ${Math.round(r.minorFaults)} | ${Math.round(r.switches)} | ${r.rssMiB.toFixed(0)} | ${r.inputMiB.toFixed(1)} |`),
  '',
  `Targets use wall time. stamp, generate, explain and diff are divided by the stream floor, fn by the ResourceList floor, the real-shape rows by their own floors (real-shape fixtures: ${shapeFixtures.join(', ')}; the real-shape bundle holds whole fixtures, so its object count, in brackets, can pass the size by a few). diff reads two renders (its input column counts both)${values.yaml ? '; the yaml row is for reference' : ''}. System time, minor page faults and context switches are the whole process's, every thread's (getrusage as it exits); a floor's row is what reading and writing the input alone costs.`,
  '',
  '| mode | measure | measured | target | |',
  '|---|---|---:|---|---|',
  ...targets.map((t) => `| ${t.mode} | ${t.what} | ${t.measured} | ${t.target} | ${t.verdict} |`),
  '',
  `${count(tally('PASS'))} PASS, ${tally('MISS')} MISS, ${tally('not measured')} not measured${tally('not measured') > 0 ? ` (they need --sizes to include ${[...new Set([...RATIO_TARGETS.map((t) => t.size), RSS_SIZE])].filter((n) => !sizes.includes(n)).join(' and ')})` : ''}; ${references.filter((t) => t.verdict === 'reference').length} of ${references.length} reference lines measured.`,
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rounds, sizes, realShapeFixtures: shapeFixtures, rows, fastPath, startup: { bareMs, versionMs, stampOneMs }, targets }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
