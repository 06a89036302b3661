// `npm run bench:snapshot [-- --node PATH]`: what a V8 startup snapshot of the CLI saves a render (#37), in
// instructions of the whole process (callgrind, node --predictable: repeatable on a loaded machine; `--single-threaded`
// counts under that flag, as this bench did until 2026-12-07, which makes node reject its built-ins' code cache:
// bench/render.ts). In a temp
// copy of dist/ it builds the blob with that node (build-snapshot.mjs) and, on node 22.1 and later, a code cache
// as the image's build warms it; then it counts `stamp`, `fn` and `generate` at 3 and 300 objects, interleaved with
// the floor, three ways: the bundle alone, the bundle with the code cache, the blob. Every blob run's output must
// be byte-identical to the bundle's. `--rounds N` (default 3), `--sizes 3,300`, `--json FILE`, `--no-plain` (where a
// code cache is kept: leave out the bundle without it). Beside them, for reference, the least a render does
// (bench/least-render.mjs) as a plain process and started from a blob of an empty script: what any render that
// starts from a startup snapshot pays before rollstamp's own code.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { asResourceList, asStream, bundleDocuments } from './generate-bundle.ts';
import { median } from './measure-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { node: { type: 'string' }, rounds: { type: 'string', default: '3' }, sizes: { type: 'string', default: '3,300' }, json: { type: 'string' }, 'no-plain': { type: 'boolean', default: false }, 'single-threaded': { type: 'boolean', default: false } } });
/** node's V8 flags for every run, the blob's making too. */
const NODE_FLAGS = values['single-threaded'] ? ['--single-threaded'] : ['--predictable'];
const NODE = values.node ?? process.execPath;
const rounds = Number(values.rounds);
const sizes = values.sizes.split(',').map(Number);
const work = mkdtempSync(join(tmpdir(), 'rollstamp-snapshot-bench-'));
const app = join(work, 'app');
const version = spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();

// The install as the image lays it out: dist/ with the blob beside it, and a code cache where node keeps one.
cpSync(join(ROOT, 'dist'), app, { recursive: true });
// Made under the flags the runs are counted with: node 20 refuses a blob under V8 flags other than its own.
const built = spawnSync(NODE, [...NODE_FLAGS, join(ROOT, 'build-snapshot.mjs'), '--fixed-flags', app], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(`build-snapshot.mjs failed: ${built.stderr}`);
const BLOB = join(app, 'rollstamp.blob');
// The smallest startup snapshot: a blob of an empty script, made the same way.
writeFileSync(join(work, 'empty.cjs'), '');
const EMPTY_BLOB = join(work, 'empty.blob');
const builtEmpty = spawnSync(NODE, [...NODE_FLAGS, '--snapshot-blob', EMPTY_BLOB, '--build-snapshot', join(work, 'empty.cjs')], { encoding: 'utf8' });
if (builtEmpty.status !== 0) throw new Error(`the empty blob failed: ${builtEmpty.stderr}`);

interface Way {
  name: string;
  /** node's arguments before the command's. */
  prefix: string[];
}
const ways: Way[] = [{ name: 'bundle', prefix: [join(app, 'rollstamp.js')] }, { name: 'snapshot', prefix: ['--snapshot-blob', BLOB, join(app, 'rollstamp.js')] }];
const canCache = spawnSync(NODE, ['-p', "typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).stdout.trim() === 'function';
const cached = join(work, 'cached');
if (canCache) {
  cpSync(app, cached, { recursive: true });
  mkdirSync(join(cached, 'compile-cache'));
  ways.splice(1, 0, { name: 'bundle + code cache', prefix: [join(cached, 'rollstamp.js')] });
  // --no-plain: the image's way (with the cache) and the blob only, a third fewer runs.
  if (values['no-plain']) ways.shift();
}

interface Case {
  name: string;
  args: string[];
  stdin?: string;
  cwd: string;
  env: Record<string, string>;
  size: number;
}
const cases: Case[] = [];
for (const size of sizes) {
  const docs = bundleDocuments(size);
  const stream = join(work, `stream-${size}.yaml`);
  const rl = join(work, `rl-${size}.yaml`);
  const dir = join(work, `app-${size}`);
  mkdirSync(dir);
  writeFileSync(stream, asStream(docs));
  writeFileSync(rl, asResourceList(docs));
  writeFileSync(join(dir, 'all.yaml'), asStream(docs));
  // The render's own deadline is lifted: under callgrind a run takes 30-50 × its time.
  const env = { ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '3600' };
  cases.push(
    { name: `stamp - (${size})`, args: ['stamp', '-'], stdin: stream, cwd: work, env, size },
    { name: `fn (${size})`, args: ['fn'], stdin: rl, cwd: work, env, size },
    { name: `generate (${size})`, args: ['generate'], cwd: dir, env: { ...env, ARGOCD_APP_NAME: 'bench', ARGOCD_APP_NAMESPACE: 'team-0' }, size },
  );
}

/** One process: its stdout, and its instruction count when `count`. */
function runOnce(argv: string[], c: Omit<Case, 'name' | 'args' | 'size'>, count: boolean): { stdout: Buffer; instructions?: number } {
  const cmd = count ? 'valgrind' : NODE;
  const args = count ? ['--tool=callgrind', '--callgrind-out-file=/dev/null', NODE, ...NODE_FLAGS, ...argv] : [...NODE_FLAGS, ...argv];
  const r = spawnSync(cmd, args, { cwd: c.cwd, input: c.stdin ? readFileSync(c.stdin) : '', env: { PATH: process.env.PATH ?? '', ...c.env }, maxBuffer: 2 ** 28 });
  const m = /Collected : (\d+)/.exec(r.stderr.toString());
  if (r.status !== 0 || (count && !m)) throw new Error(`node ${argv.join(' ')} failed (exit ${r.status ?? r.signal}): ${r.stderr.toString().slice(-300)}`);
  return { stdout: r.stdout, ...(m ? { instructions: Number(m[1]) } : {}) };
}

// The code cache is written by a first run of each command, as the image's build does.
if (canCache) for (const c of cases) runOnce([join(cached, 'rollstamp.js'), ...c.args], c, false);
const identical: string[] = [];
for (const c of cases) {
  const expected = runOnce([join(app, 'rollstamp.js'), ...c.args], c, false).stdout;
  const got = runOnce(['--snapshot-blob', BLOB, join(app, 'rollstamp.js'), ...c.args], c, false).stdout;
  if (!got.equals(expected)) throw new Error(`${c.name}: the snapshot's output differs from the bundle's`);
  identical.push(c.name);
}

const counts = new Map<string, number[]>();
const add = (key: string, n: number): void => void counts.set(key, [...(counts.get(key) ?? []), n]);
const FLOOR = join(ROOT, 'bench/floor.mjs');
const LEAST = join(ROOT, 'bench/least-render.mjs');
for (let r = 0; r < rounds; r++) {
  for (const size of sizes) {
    const input = { stdin: join(work, `stream-${size}.yaml`), cwd: work, env: {} };
    add(`floor (${size})`, runOnce([FLOOR], input, true).instructions!);
    add(`least (${size})`, runOnce([LEAST], input, true).instructions!);
    add(`least (${size}) empty blob`, runOnce(['--snapshot-blob', EMPTY_BLOB, LEAST], input, true).instructions!);
  }
  for (const c of cases) for (const w of ways) add(`${c.name} ${w.name}`, runOnce([...w.prefix, ...c.args], c, true).instructions!);
}

const M = (n: number): string => (n / 1e6).toFixed(0);
/** Per case: the floor's median and each way's, by the way's name. */
const rows = cases.map((c) => ({
  name: c.name,
  floor: median(counts.get(`floor (${c.size})`)!),
  ways: Object.fromEntries(ways.map((w) => [w.name, median(counts.get(`${c.name} ${w.name}`)!)])) as Record<string, number>,
}));
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, node ${version}, load average ${loadavg()[0]!.toFixed(1)} at the end`;
const baseline = canCache ? 'bundle + code cache' : 'bundle';
console.log(
  [
    `rollstamp startup-snapshot benchmark — ${machine}; medians of ${rounds} callgrind rounds (M instructions of every thread, node ${NODE_FLAGS.join(' ')}; × the floor of the same size); the snapshot's output byte-identical to the bundle's on ${identical.length} cases`,
    '',
    `| case | floor | ${ways.map((w) => w.name).join(' | ')} | snapshot vs ${baseline} |`,
    `|---|---:|${ways.map(() => '---:|').join('')}---:|`,
    ...rows.map((r) => {
      const cells = ways.map((w) => `${M(r.ways[w.name]!)} (${(r.ways[w.name]! / r.floor).toFixed(2)} ×)`);
      const saved = 1 - r.ways.snapshot! / r.ways[baseline]!;
      return `| ${r.name} | ${M(r.floor)} | ${cells.join(' | ')} | −${(saved * 100).toFixed(0)} % |`;
    }),
    '',
    ...sizes.map((size) => {
      const floor = median(counts.get(`floor (${size})`)!);
      const least = median(counts.get(`least (${size})`)!);
      const fromBlob = median(counts.get(`least (${size}) empty blob`)!);
      return `the least a render does (${size} objects: stdin through the stream's events, one SHA-256 by node:crypto, the input written back): ${M(least)} (${(least / floor).toFixed(2)} ×) as a plain process, ${M(fromBlob)} (${(fromBlob / floor).toFixed(2)} ×) started from a blob of an empty script`;
    }),
  ].join('\n'),
);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ machine, node: version, rounds, nodeFlags: NODE_FLAGS, samples: Object.fromEntries(counts), rows }, null, 2)}\n`);
if (existsSync(work)) rmSync(work, { recursive: true, force: true });
