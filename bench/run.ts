// `npm run bench`: times whole processes side by side on synthetic bundles and prints medians, ratios to
// the YAML floor, time per object and peak RSS. `--sizes 1000,10000`, `--rounds 3`, `--json FILE`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { asResourceList, asStream, bundleDocuments } from './generate-bundle.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUNDLE = join(ROOT, 'dist/rollstamp.js');
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000,50000' }, rounds: { type: 'string', default: '3' }, json: { type: 'string' } } });
const sizes = values.sizes.split(',').map(Number);
const rounds = Number(values.rounds);
const work = mkdtempSync(join(tmpdir(), 'rollstamp-bench-'));

interface Case {
  name: string;
  argv: string[];
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
}
interface Sample {
  seconds: number;
  rssMiB: number;
}

const baseEnv = { PATH: process.env.PATH ?? '', ROLLSTAMP_MAX_INPUT_BYTES: String(2 ** 31) };

function run(c: Case): Sample {
  const rssFile = join(work, 'rss');
  rmSync(rssFile, { force: true });
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/rss.cjs'), ...c.argv], {
    cwd: c.cwd ?? ROOT,
    input: c.stdin === undefined ? '' : readFileSync(c.stdin),
    env: { ...baseEnv, ...c.env, BENCH_RSS_FILE: rssFile },
    maxBuffer: 2 ** 31,
  });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${c.name} failed (exit ${r.status}): ${r.stderr.toString().slice(0, 300)}`);
  return { seconds, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  size: number;
  name: string;
  seconds: number;
  ratio?: number;
  ratioTo?: string;
  usPerObject: number;
  rssMiB: number;
  inputMiB: number;
}
const rows: Row[] = [];

for (const size of sizes) {
  const docs = bundleDocuments(size);
  const dir = join(work, String(size));
  mkdirSync(join(dir, 'app'), { recursive: true });
  const stream = join(dir, 'stream.yaml');
  const rl = join(dir, 'rl.yaml');
  writeFileSync(stream, asStream(docs));
  writeFileSync(rl, asResourceList(docs));
  writeFileSync(join(dir, 'app', 'all.yaml'), asStream(docs));
  const streamMiB = readFileSync(stream).length / 2 ** 20;
  const rlMiB = readFileSync(rl).length / 2 ** 20;
  const cases: Case[] = [
    { name: 'floor (stream)', argv: [join(ROOT, 'bench/floor.mjs'), 'stream'], stdin: stream },
    { name: 'floor (ResourceList)', argv: [join(ROOT, 'bench/floor.mjs'), 'rl'], stdin: rl },
    { name: 'rollstamp fn', argv: [BUNDLE, 'fn'], stdin: rl },
    { name: 'rollstamp stamp -', argv: [BUNDLE, 'stamp', '-'], stdin: stream },
    { name: 'rollstamp generate', argv: [BUNDLE, 'generate'], cwd: join(dir, 'app'), env: { ARGOCD_APP_NAME: 'bench', ARGOCD_APP_NAMESPACE: 'team-0' } },
  ];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) for (const c of cases) samples.get(c.name)!.push(run(c)); // interleaved
  const med = (name: string): Sample => {
    const s = samples.get(name)!;
    return { seconds: median(s.map((x) => x.seconds)), rssMiB: Math.max(...s.map((x) => x.rssMiB)) };
  };
  const floors: Record<string, string> = { 'rollstamp fn': 'floor (ResourceList)', 'rollstamp stamp -': 'floor (stream)', 'rollstamp generate': 'floor (stream)' };
  for (const c of cases) {
    const m = med(c.name);
    const row: Row = { size, name: c.name, seconds: m.seconds, usPerObject: (m.seconds / size) * 1e6, rssMiB: m.rssMiB, inputMiB: c.stdin === rl ? rlMiB : streamMiB };
    const floor = floors[c.name];
    if (floor) {
      row.ratio = m.seconds / med(floor).seconds;
      row.ratioTo = floor;
    }
    rows.push(row);
  }
}

// Start-up: --version against bare node.
const startup = { name: 'startup', bare: [] as number[], version: [] as number[] };
for (let r = 0; r < Math.max(5, rounds * 3); r++) {
  startup.bare.push(run({ name: 'node -e 0', argv: ['-e', '0'] }).seconds);
  startup.version.push(run({ name: 'rollstamp --version', argv: [BUNDLE, '--version'] }).seconds);
}
const bareMs = median(startup.bare) * 1000;
const versionMs = median(startup.version) * 1000;

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, node ${process.version}`;
const lines = [
  `rollstamp benchmark — ${machine}; medians of ${rounds} interleaved runs`,
  '',
  '| objects | command | median s | ratio | µs/object | peak RSS MiB | input MiB |',
  '|---:|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.size} | ${r.name} | ${r.seconds.toFixed(2)} | ${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)} × ${r.ratioTo}`} | ${r.usPerObject.toFixed(0)} | ${r.rssMiB.toFixed(0)} | ${r.inputMiB.toFixed(1)} |`),
  '',
  `start-up: rollstamp --version ${versionMs.toFixed(0)} ms, node -e 0 ${bareMs.toFixed(0)} ms (+${(versionMs - bareMs).toFixed(0)} ms)`,
];
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, rounds, rows, startup: { bareMs, versionMs } }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
