// The image's V8 startup snapshot (#37; build-snapshot.mjs, plugin/snapshot-entry.ts, image/rollstamp.sh), made
// here with this machine's node in a copy of dist/: a process started from the blob behaves as the bundle does, byte
// for byte (stdout, stderr, exit status) — the golden cases, every command a render runs, errors, --debug, help,
// the worker thread, SIGTERM on either thread, out of heap — and reads its settings when it runs, never when the blob
// was made. Nothing of the warm-up that compiled the CLI in the blob is left for a run to reach, and a stack from the
// blob maps back to the sources. The image's launcher runs the blob when it is there and the bundle when it is not.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCases, stampArgs, type GoldenCase } from '../support/fixtures.ts';
import { asResourceList, configMap, deployment, secret, stampsIn, stream } from '../support/objects.ts';
import { BUNDLE, inParallel, ROOT, runProcess, runProcessAsync, type ProcessOpts, type ProcessRun } from '../support/run-cli.ts';
import { sized } from '../support/sizes.ts';
import { removeTempDirs, requireBundle, tempDir } from '../support/tools.ts';
import { WARMUP_MARK } from '../../plugin/snapshot-warmup.ts';

requireBundle();
const SCRIPT = join(ROOT, 'build', 'snapshot', 'rollstamp.cjs');
/** A heap too small for any input on the main thread: every run has its worker, and a large report runs out. */
const TIGHT_HEAP = '--max-old-space-size=32';

/** A copy of dist/ with a blob made in it by build-snapshot.mjs (`--fixed-flags`: node 20 here). */
function install(name: string): string {
  const dir = tempDir(name);
  cpSync(join(BUNDLE, '..'), dir, { recursive: true });
  const made = runProcess(process.execPath, [join(ROOT, 'build-snapshot.mjs'), '--fixed-flags', dir]);
  assert.is(made.code, 0, `build-snapshot.mjs: ${made.stderr}`);
  return dir;
}

/**
 * A copy of dist/ with a blob made by node directly, under TIGHT_HEAP (node 20 runs a blob only under the flags it
 * was made with) and with settings in the environment that a run must not see: a blob holds what its script did
 * when it was made, and nothing of that may be a setting.
 */
function installWithBuildEnv(name: string): string {
  const dir = tempDir(name);
  cpSync(join(BUNDLE, '..'), dir, { recursive: true });
  copyFileSync(SCRIPT, join(dir, 'rollstamp-snapshot.cjs'));
  const env = { ROLLSTAMP_HASH_KEY: 'made-with-this-key', ROLLSTAMP_MAX_INPUT_BYTES: '10', ROLLSTAMP_OUTPUT: 'json', ARGOCD_APP_NAMESPACE: 'build-time' };
  const made = runProcess(process.execPath, [TIGHT_HEAP, '--snapshot-blob', join(dir, 'rollstamp.blob'), '--build-snapshot', join(dir, 'rollstamp-snapshot.cjs')], { env });
  assert.is(made.code, 0, `--build-snapshot: ${made.stderr}`);
  rmSync(join(dir, 'rollstamp-snapshot.cjs'));
  return dir;
}

const app = install('snapshot');
const tight = installWithBuildEnv('snapshot-env');
test.after(removeTempDirs);

/** `rollstamp argv` from the install `dir`: from its blob (`blob`), else its bundle; node's own flags first. */
function rollstamp(dir: string, blob: boolean, argv: readonly string[], opts: ProcessOpts & { nodeArgs?: readonly string[] } = {}): Promise<ProcessRun> {
  const node = [...(opts.nodeArgs ?? []), ...(blob ? ['--snapshot-blob', join(dir, 'rollstamp.blob')] : []), join(dir, 'rollstamp.js')];
  return runProcessAsync(process.execPath, [...node, ...argv], opts);
}

/** Runs `argv` both ways and holds them equal; returns the blob's run. */
async function same(what: string, argv: readonly string[], opts: ProcessOpts & { nodeArgs?: readonly string[]; dir?: string } = {}): Promise<ProcessRun> {
  const dir = opts.dir ?? app;
  const [bundle, blob] = await Promise.all([rollstamp(dir, false, argv, opts), rollstamp(dir, true, argv, opts)]);
  assert.is(blob.stderr, bundle.stderr, `${what}: stderr`);
  assert.is(blob.stdout, bundle.stdout, `${what}: stdout`);
  assert.is(blob.code, bundle.code, `${what}: exit status`);
  return blob;
}

const MANIFESTS = stream([secret('db', '  password: cGFzcw==', { namespace: 'shop' }), configMap('cfg', '  mode: fast', { namespace: 'shop' }), deployment('web', { namespace: 'shop', secret: 'db' })]);
const ARGOCD = { ARGOCD_APP_NAME: 'web', ARGOCD_APP_NAMESPACE: 'shop' };

/** About `n` × 2.2 KB of ConfigMaps of 100 keys, each used by a Deployment. */
function configMaps(n: number): string {
  const keys = (i: number): string => Array.from({ length: 100 }, (_, k) => `  k${k}: value-${i}-${k}`).join('\n');
  return stream(Array.from({ length: n }, (_, i) => [configMap(`cm${i}`, keys(i)), deployment(`web${i}`, { configMap: `cm${i}` })]).flat());
}

const cases = loadCases();
/** Every case under CI; elsewhere the first of each area (the golden suite runs the bundle on every third). */
const sampled = sized(cases, cases.filter((c, i) => cases.findIndex((o) => o.name.split('/')[0] === c.name.split('/')[0]) === i));

test(`golden cases from the blob: the expected output, warnings and errors (${sampled.length} of ${cases.length}) (#37)`, async () => {
  const runs = await inParallel(sampled, (c: GoldenCase) => rollstamp(app, true, stampArgs(c), { cwd: c.dir }));
  sampled.forEach((c, i) => {
    const r = runs[i]!;
    assert.is(r.code, c.errors !== undefined ? 1 : 0, `${c.name}: exit status (${r.stderr.slice(0, 300)})`);
    assert.is(r.stdout, c.expected ?? '', `${c.name}: stdout`);
    assert.is(r.stderr, c.errors ?? c.warnings, `${c.name}: stderr`);
  });
});

test('stamp, --check, fn, generate, explain and diff from the blob are the bundle\'s, byte for byte (#37)', async () => {
  const dir = tempDir('snapshot-cases');
  writeFileSync(join(dir, 'a.yaml'), MANIFESTS);
  writeFileSync(join(dir, 'b.yaml'), MANIFESTS.replace('cGFzcw==', 'b3RoZXI='));
  const stamped = await same('stamp -', ['stamp', '-'], { stdin: MANIFESTS });
  assert.is(stampsIn(stamped.stdout).length, 1);
  writeFileSync(join(dir, 'stamped.yaml'), stamped.stdout);
  assert.is((await same('stamp --check (stale)', ['stamp', '--check', 'a.yaml'], { cwd: dir })).code, 3);
  assert.is((await same('stamp --check (current)', ['stamp', '--check', 'stamped.yaml'], { cwd: dir })).code, 0);
  const docs = MANIFESTS.split('---\n');
  await same('fn', ['fn'], { stdin: asResourceList(docs) });
  await same('no command (fn)', [], { stdin: asResourceList(docs, '{apiVersion: rollstamp.dev/v1alpha1, kind: RollstampConfig, spec: {annotationKey: example.com/hash}}') });
  const appDir = join(dir, 'app');
  mkdirSync(appDir);
  writeFileSync(join(appDir, 'all.yaml'), MANIFESTS);
  const gen = await same('generate', ['generate'], { cwd: appDir, env: ARGOCD, stdin: 'closed' });
  assert.is(gen.code, 0, gen.stderr);
  await same('explain -o json', ['explain', '-o', 'json', 'a.yaml'], { cwd: dir });
  assert.is((await same('diff', ['diff', 'a.yaml', 'b.yaml'], { cwd: dir })).code, 3);
});

test('--version, help, usage and input errors, and --debug from the blob are the bundle\'s (#37)', async () => {
  for (const argv of [['--version'], ['-V'], ['--debug', '--version'], ['version', '-o', 'json'], ['--help'], ['stamp', '--help'], ['completion', 'bash']]) {
    assert.is((await same(argv.join(' '), argv)).code, 0);
  }
  assert.is((await same('an unknown flag', ['stamp', '--nope'])).code, 2);
  assert.is((await same('an unknown command', ['stampp'])).code, 2);
  assert.is((await same('a missing file', ['stamp', 'no-such.yaml'])).code, 1);
  assert.is((await same('malformed YAML', ['stamp', '-'], { stdin: 'a: [\n' })).code, 1);
  assert.is((await same('duplicate keys', ['stamp', '-'], { stdin: 'kind: Secret\nkind: Secret\n' })).code, 1);
  // The one difference: a run from the blob leaves V8's inlining budget as it is on the main thread, whose code the
  // blob compiled (plugin/process/compile-budget.ts).
  const [bundle, blob] = await Promise.all([rollstamp(app, false, ['--debug', 'stamp', '-'], { stdin: MANIFESTS }), rollstamp(app, true, ['--debug', 'stamp', '-'], { stdin: MANIFESTS })]);
  const budget = /^rollstamp: debug: V8 compiles with .*\n/m;
  assert.match(bundle.stderr, budget);
  assert.not.match(blob.stderr, budget);
  assert.is(blob.stderr, bundle.stderr.replace(budget, ''), '--debug stamp: stderr');
  assert.is(blob.stdout, bundle.stdout, '--debug stamp: stdout');
  assert.match(blob.stderr, /^rollstamp: debug: run on the main thread /m);
});

test('an input over the main thread\'s gate runs in a worker that loads main.mjs from the install, as without the blob (#37)', async () => {
  const big = configMaps(150);
  assert.ok(big.length > 300_000, `${big.length} bytes`);
  const r = await same('--debug stamp of a large input', ['--debug', 'stamp', '-'], { stdin: big });
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.match(r.stderr, /^rollstamp: debug: run in a worker thread /m);
  assert.is(stampsIn(r.stdout).length, 150);
});

test('settings are read when the blob runs, not when it was made: the environment of the build reaches no run, a run\'s own wins (#37)', async () => {
  const heap = { nodeArgs: [TIGHT_HEAP] };
  const plain = await same('stamp without settings', ['stamp', '-'], { ...heap, dir: tight, stdin: MANIFESTS });
  assert.is(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /rollstamp\.dev\/hash: "sha256:/, 'no hash key from the build');
  const keyed = await same('stamp with a hash key', ['stamp', '-'], { ...heap, dir: tight, stdin: MANIFESTS, env: { ROLLSTAMP_HASH_KEY: 'key-of-this-run' } });
  assert.match(keyed.stdout, /rollstamp\.dev\/hash: "hmac-sha256:/);
  const reference = await rollstamp(app, false, ['stamp', '-'], { stdin: MANIFESTS, env: { ROLLSTAMP_HASH_KEY: 'key-of-this-run' } });
  assert.equal(stampsIn(keyed.stdout), stampsIn(reference.stdout), 'the key given at run time, as the bundle hashes with it');
  const dir = tempDir('snapshot-env');
  writeFileSync(join(dir, 'a.yaml'), MANIFESTS);
  const gen = await same('generate in another namespace', ['generate'], { ...heap, dir: tight, cwd: dir, env: { ARGOCD_APP_NAME: 'web', ARGOCD_APP_NAMESPACE: 'other' }, stdin: 'closed' });
  assert.is(gen.code, 0, gen.stderr);
  assert.not.match(gen.stdout + gen.stderr, /build-time|^\{/m, 'neither the build\'s namespace nor its output format');
});

test('out of heap from the blob is still one line, as from the bundle (#37, #21)', async () => {
  // Key rows of explain: about 500,000 from 100 KB of input, more than a 32 MiB heap holds (hostile/run-gate.test.ts).
  const keys = Array.from({ length: 4000 }, (_, i) => `  k${i}: dg==`).join('\n');
  const readers = Array.from({ length: 124 }, (_, i) =>
    deployment(`w${i}`, { secret: 'big' }).replace('        envFrom:', `        env:\n        - name: X\n          valueFrom: {secretKeyRef: {name: big, key: absent${i}, optional: true}}\n        envFrom:`),
  );
  const r = await same('explain out of heap', ['explain', '-'], { nodeArgs: [TIGHT_HEAP], dir: tight, stdin: stream([secret('big', keys), ...readers]) });
  assert.is(r.code, 1);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /^rollstamp: error: out of memory: the run needed more than the JavaScript heap limit of 32 MiB .*; nothing was written\n$/);
});

/** Starts `rollstamp --debug stamp -` from the blob on `input`, sends SIGTERM when the `phase` line comes. */
function terminatedIn(phase: string, input: string): Promise<{ code: number | null; stdout: string; stderr: string; signalled: boolean }> {
  const child = spawn(process.execPath, ['--snapshot-blob', join(app, 'rollstamp.blob'), join(app, 'rollstamp.js'), '--debug', 'stamp', '-'], { env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    if (!signalled && stderr.includes(`rollstamp: debug: ${phase}\n`)) signalled = child.kill('SIGTERM');
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(guard), resolve({ code, stdout, stderr, signalled }))));
}

test('SIGTERM while a run from the blob reads its input ends it with 143, one line and nothing on stdout, on the main thread and in the worker (#37, #21)', async () => {
  for (const [where, input] of [['main thread', configMaps(100)], ['worker', configMaps(400)]] as const) {
    const r = await terminatedIn('reading', input);
    assert.ok(r.signalled, `${where}: the reading phase began (${r.stderr.slice(0, 300)})`);
    assert.match(r.stderr, where === 'worker' ? /^rollstamp: debug: run in a worker thread /m : /^rollstamp: debug: run on the main thread /m);
    assert.is(r.code, 143, `${where}: ${r.stderr.slice(-300)}`);
    assert.is(r.stdout, '', `${where}: nothing on stdout`);
    assert.match(r.stderr, /^rollstamp: terminated \(SIGTERM\)$/m);
  }
});

test('the image\'s launcher runs the blob when it is there and the bundle when it is not, with the same output (#37)', async () => {
  const launcher = (dir: string): string => {
    const bin = tempDir('snapshot-bin');
    writeFileSync(join(bin, 'rollstamp'), readFileSync(join(ROOT, 'image', 'rollstamp.sh'), 'utf8').replaceAll('/app/', `${dir}/`).replaceAll('exec node ', `exec ${process.execPath} `), { mode: 0o755 }); // the node that made the blob
    return join(bin, 'rollstamp');
  };
  const bare = tempDir('snapshot-bare');
  cpSync(join(BUNDLE, '..'), bare, { recursive: true });
  const fromBundle = await runProcessAsync(launcher(bare), ['stamp', '-'], { stdin: MANIFESTS });
  assert.is(fromBundle.code, 0, fromBundle.stderr);
  // Without main.mjs only a run from the blob, which holds the CLI, can stamp (a small input: no worker thread).
  renameSync(join(app, 'main.mjs'), join(app, 'main.mjs.away'));
  try {
    const fromBlob = await runProcessAsync(launcher(app), ['stamp', '-'], { stdin: MANIFESTS });
    assert.is(fromBlob.code, 0, fromBlob.stderr);
    assert.is(fromBlob.stdout, fromBundle.stdout);
    assert.is(fromBlob.stderr, '');
  } finally {
    renameSync(join(app, 'main.mjs.away'), join(app, 'main.mjs'));
  }
  // `--version` alone is the entry's own answer, without the blob (smaller than deserializing it); with more, the blob's.
  for (const argv of [['--version'], ['-V'], ['--debug', '--version'], ['version']]) {
    const r = await runProcessAsync(launcher(app), argv);
    assert.is(r.stdout, (await rollstamp(app, false, argv)).stdout, argv.join(' '));
  }
});

test('a process started from the blob reaches nothing of the warm-up that compiled the CLI in it, and hashes with node:crypto (#37)', () => {
  const file = join(tempDir('snapshot-heap'), 'blob.heapsnapshot');
  const script = `if (globalThis[Symbol.for('rollstamp.builtin-stand-in')] !== undefined) process.exit(5); require('node:v8').writeHeapSnapshot(${JSON.stringify(file)});`;
  const r = runProcess(process.execPath, ['--snapshot-blob', join(app, 'rollstamp.blob'), '-e', script]);
  assert.is(r.code, 0, `no stand-in for node:crypto is left on globalThis (exit 5): ${r.stderr}`);
  const { strings } = JSON.parse(readFileSync(file, 'utf8')) as { strings: string[] };
  // The made-up namespaces are `${WARMUP_MARK}-<n>` (the script's own text holds the mark alone); the CLI is there.
  assert.equal(strings.filter((t) => t.includes(`${WARMUP_MARK}-`)), [], 'nothing the warm-up read or made');
  assert.ok(strings.some((t) => t.includes('runCli')), 'the heap holds the CLI');
});

test('a stack from the blob maps back to the sources with build/sourcemap/rollstamp-snapshot.cjs.map (#37)', () => {
  // start() of snapshot-entry.ts, given no directory to start from, throws where it makes the worker's URL.
  const script = "try { globalThis[Symbol.for('rollstamp.snapshot')].start(Symbol('no directory')); } catch (err) { console.log(err.stack); }";
  const r = runProcess(process.execPath, ['--snapshot-blob', join(app, 'rollstamp.blob'), '-e', script]);
  const frame = /\((.*)\/rollstamp-snapshot\.cjs:(\d+):(\d+)\)/.exec(r.stdout);
  assert.ok(frame, `a frame in the blob's script: ${r.stdout}${r.stderr}`);
  assert.is(frame[1], app, 'named where the blob was made');
  const entry = new SourceMap(JSON.parse(readFileSync(join(ROOT, 'build', 'sourcemap', 'rollstamp-snapshot.cjs.map'), 'utf8'))).findEntry(Number(frame[2]) - 1, Number(frame[3]) - 1) as { originalSource?: string; originalLine?: number };
  assert.match(entry.originalSource ?? '', /plugin\/snapshot-entry\.ts$/);
  assert.match(readFileSync(join(ROOT, 'plugin', 'snapshot-entry.ts'), 'utf8').split('\n')[entry.originalLine!] ?? '', /__rollstampMainUrl/, 'the line that makes the URL');
});

test('build-snapshot.mjs refuses a directory that is not a copy of dist/, in one line, and writes nothing (#37)', () => {
  const dir = tempDir('snapshot-empty');
  mkdirSync(join(dir, 'sub'));
  const r = runProcess(process.execPath, [join(ROOT, 'build-snapshot.mjs'), '--fixed-flags', dir]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^rollstamp build-snapshot: DIR must be a copy of dist\/, and has no main\.mjs: .*\n$/);
});

test.run();
