// The size gate (#37): an ordinary input runs on the process's own thread, with the same output as in the
// worker; an input over the gate, or any input under a heap too small for the gate, keeps the worker (#21), whose
// out of heap is one line; a SIGTERM on the main thread still ends the run with nothing on stdout. Where a run
// happened is read from the line --debug prints, not from timing.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle, runInProcess } from '../support/run-cli.ts';
import { BUNDLE, cleanup, requireBundle, tempDir, termIn } from '../support/hostile.ts';
import { deployment, secret, stampsIn, stream } from '../support/objects.ts';
import { HEAP_HEADROOM_BYTES, HEAP_PER_INPUT_BYTE, IN_PROCESS_MAX_BYTES } from '../../plugin/run-gate.ts';

test.before(requireBundle);
test.after(cleanup);

const MAIN = /^rollstamp: debug: run on the main thread \(\d+ bytes of input; up to \d+ here\)$/m;
const WORKER = /^rollstamp: debug: run in a worker thread \(\d+ bytes of input: over what the main thread takes\)$/m;
/** A heap too small for any input on the main thread: the worker always runs. */
const TINY_HEAP = { NODE_OPTIONS: '--max-old-space-size=16' };
const withoutDebug = (stderr: string): string => stderr.replace(/^rollstamp: debug: .*\n/gm, '');

const small = stream([secret('db', '  password: cGFzcw=='), deployment('web', { secret: 'db' }), deployment('api', { secret: 'db' })]);

/** `n` ConfigMaps of 20 keys each and a Deployment using the first: about 500 bytes an object. */
function configMaps(n: number): string {
  const docs = Array.from({ length: n }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n${Array.from({ length: 20 }, (_, k) => `  key${k}: value-${i}-${k}`).join('\n')}\n`);
  return stream([...docs, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        envFrom:\n        - configMapRef: {name: cm0}\n`]);
}

/** One ConfigMap of keys behind an anchor (read by the yaml library: the most heap and time per byte known), of about `bytes`. */
function anchoredKeys(bytes: number): string {
  const lines = ['  k0: &a v0'];
  let size = 60;
  for (let i = 1; size < bytes; i++) {
    const line = `  k${i}: v${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${lines.join('\n')}\n`;
}

test('stamp, fn, explain and diff of a small input run on the main thread, with the same stdout, stderr and exit status as in the worker (#37)', () => {
  const dir = tempDir('gate');
  writeFileSync(join(dir, 'a.yaml'), small);
  writeFileSync(join(dir, 'b.yaml'), small.replace('cGFzcw==', 'b3RoZXI='));
  const rl = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${small.split('---\n').map((d) => `- ${d.trimEnd().replace(/\n/g, '\n  ')}`).join('\n')}\n`;
  const runs: { argv: string[]; stdin?: string }[] = [
    { argv: ['stamp', 'a.yaml'] },
    { argv: ['stamp', '-'], stdin: small },
    { argv: ['fn'], stdin: rl },
    { argv: ['explain', '-o', 'json', 'a.yaml'] },
    { argv: ['diff', 'a.yaml', 'b.yaml'] },
  ];
  for (const { argv, stdin } of runs) {
    const here = runBundle(['--debug', ...argv], { cwd: dir, ...(stdin ? { stdin } : {}) });
    const worker = runBundle(['--debug', ...argv], { cwd: dir, env: TINY_HEAP, ...(stdin ? { stdin } : {}) });
    const what = argv.join(' ');
    assert.match(here.stderr, MAIN, `${what}: on the main thread (${here.stderr.slice(0, 300)})`);
    assert.match(worker.stderr, WORKER, `${what}: in the worker under a tiny heap (${worker.stderr.slice(0, 300)})`);
    assert.ok([0, 3].includes(here.code), `${what}: exit ${here.code} (${here.stderr.slice(0, 300)})`);
    assert.is(here.code, worker.code, `${what}: same exit status`);
    assert.is(here.stdout, worker.stdout, `${what}: same stdout`);
    assert.is(withoutDebug(here.stderr), withoutDebug(worker.stderr), `${what}: same stderr`);
  }
  assert.is(stampsIn(runBundle(['stamp', 'a.yaml'], { cwd: dir }).stdout).length, 2);
});

test('generate of a plain directory runs on the main thread; a kustomization moves to the worker before its renderer runs, which runs once (#37)', () => {
  const root = tempDir('gate');
  const plain = join(root, 'plain');
  const kustomized = join(root, 'kustomized');
  const bin = join(root, 'bin');
  for (const d of [plain, kustomized, bin]) mkdirSync(d);
  writeFileSync(join(plain, 'app.yaml'), small);
  writeFileSync(join(kustomized, 'kustomization.yaml'), 'resources: [app.yaml]\n');
  // A stand-in kustomize: prints the app and counts its runs.
  writeFileSync(join(root, 'app.yaml'), small);
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\necho run >> "${join(root, 'runs')}"\ncat "${join(root, 'app.yaml')}"\n`);
  chmodSync(join(bin, 'kustomize'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, ARGOCD_APP_NAME: 'app', ARGOCD_APP_NAMESPACE: 'default' };
  const direct = runBundle(['--debug', 'generate'], { cwd: plain, env });
  assert.is(direct.code, 0, direct.stderr.slice(0, 300));
  assert.match(direct.stderr, MAIN);
  const rendered = runBundle(['--debug', 'generate'], { cwd: kustomized, env });
  assert.is(rendered.code, 0, rendered.stderr.slice(0, 300));
  assert.match(rendered.stderr, WORKER);
  assert.not.match(rendered.stderr, MAIN);
  assert.is(readFileSync(join(root, 'runs'), 'utf8'), 'run\n', 'kustomize ran once');
  assert.is(rendered.stdout, direct.stdout, 'the same stamped stream either way');
  assert.is(stampsIn(direct.stdout).length, 2);
});

test('an input over 256 KiB on stdin runs in the worker, which is handed the bytes already read (#37)', () => {
  const text = configMaps(600);
  assert.ok(Buffer.byteLength(text) > IN_PROCESS_MAX_BYTES, 'the input is over the gate');
  const dir = tempDir('gate');
  writeFileSync(join(dir, 'big.yaml'), text);
  const piped = runBundle(['--debug', 'stamp', '-'], { cwd: dir, stdin: text });
  assert.is(piped.code, 0, piped.stderr.slice(0, 300));
  assert.match(piped.stderr, WORKER);
  assert.not.match(piped.stderr, MAIN);
  // The run on the main thread gave up before it printed anything: each phase is said once, by the worker.
  assert.is([...piped.stderr.matchAll(/^rollstamp: debug: reading$/gm)].length, 1, piped.stderr);
  const fromFile = runBundle(['stamp', 'big.yaml'], { cwd: dir });
  assert.is(piped.stdout, fromFile.stdout, 'the same stream as from the file');
  assert.is(stampsIn(piped.stdout).length, 1);
});

test('the worker writes an output of several 4 MiB parts whole, with no character cut where a part ends (#37)', () => {
  // Two- and four-byte characters throughout, so the ends of the parts fall next to them; nothing is stamped, so
  // the stream comes back as it was read.
  const value = 'é😀x'.repeat(40);
  const docs = Array.from({ length: 25_000 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  v: "${value}"\n`);
  const text = stream(docs);
  assert.ok(Buffer.byteLength(text) > 2 * 4 * 1024 * 1024, `more than two parts (${Buffer.byteLength(text)} bytes)`);
  const run = runBundle(['--debug', 'stamp', '-'], { stdin: text });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  assert.ok(run.stdout === text, 'the output is the input, byte for byte');
});

test('the worker writes a stamped stream of several 4 MiB parts, given as its pieces, as the stream joined on the main thread writes it (#37)', async () => {
  // A stamped workload every 50 documents: the output is slices of the input around many inserts, and the ends
  // of the parts fall inside pieces, next to two- and four-byte characters.
  const value = 'é😀x'.repeat(40);
  const docs = Array.from({ length: 25_000 }, (_, i) =>
    i % 50 === 49 ? deployment(`web${i}`, { secret: 'db' }) : `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  v: "${value}"\n`,
  );
  const text = stream([secret('db', '  password: cGFzcw=='), ...docs]);
  const worker = runBundle(['--debug', 'stamp', '-'], { stdin: text });
  assert.is(worker.code, 0, worker.stderr.slice(0, 300));
  assert.match(worker.stderr, WORKER);
  assert.ok(Buffer.byteLength(worker.stdout) > 2 * 4 * 1024 * 1024, 'more than two parts');
  assert.is(stampsIn(worker.stdout).length, 500);
  const joined = await runInProcess(['stamp', '-'], { stdin: text });
  assert.is(joined.code, 0, joined.stderr);
  assert.ok(worker.stdout === joined.stdout, 'the same bytes');
});

test('two renders of diff count together: each under the gate, both over it, runs in the worker (#37)', () => {
  const dir = tempDir('gate');
  const half = configMaps(300);
  assert.ok(Buffer.byteLength(half) < IN_PROCESS_MAX_BYTES && 2 * Buffer.byteLength(half) > IN_PROCESS_MAX_BYTES);
  writeFileSync(join(dir, 'a.yaml'), half);
  writeFileSync(join(dir, 'b.yaml'), half.replace('value-0-0', 'changed'));
  const r = runBundle(['--debug', 'diff', 'a.yaml', 'b.yaml'], { cwd: dir });
  assert.is(r.code, 3, r.stderr.slice(0, 300));
  assert.match(r.stderr, WORKER);
  assert.match(r.stdout, /web/);
});

test('out of heap under a tiny heap (NODE_OPTIONS) is still one line: explain of key rows the gate counts for a 100 KB input runs in the worker (#37, #21)', () => {
  // 4,000 keys read by 124 Deployments, each with a key set of its own: explain holds about 500,000 key rows,
  // some 70 MiB, from 100 KB of input.
  const keys = Array.from({ length: 4000 }, (_, i) => `  k${i}: dg==`).join('\n');
  const readers = Array.from({ length: 124 }, (_, i) =>
    deployment(`w${i}`, { secret: 'big' }).replace('        envFrom:', `        env:\n        - name: X\n          valueFrom: {secretKeyRef: {name: big, key: absent${i}, optional: true}}\n        envFrom:`),
  );
  const dir = tempDir('gate');
  writeFileSync(join(dir, 'keys.yaml'), stream([secret('big', keys), ...readers]));
  const r = runBundle(['--debug', 'explain', 'keys.yaml'], { cwd: dir, env: { NODE_OPTIONS: '--max-old-space-size=32' } });
  assert.match(r.stderr, WORKER, r.stderr.slice(0, 400));
  assert.is(r.code, 1, r.stderr.slice(0, 400));
  assert.is(r.stdout, '');
  assert.not.match(r.stderr, /FATAL ERROR|heap out of memory|node::|v8::/);
  assert.match(withoutDebug(r.stderr), /^rollstamp: error: out of memory: the run needed more than the JavaScript heap limit of 32 MiB .*; nothing was written\n$/);
});

test('the heaviest input known, at the gate\'s edge, runs on the main thread without running out of heap (#37)', () => {
  const text = anchoredKeys(IN_PROCESS_MAX_BYTES - 4096);
  const bytes = Buffer.byteLength(text);
  // The smallest --max-old-space-size whose heap limit admits this input: V8 adds its young generation to it.
  const limitAt = (mb: number): number => Number(spawnSync(process.execPath, [`--max-old-space-size=${mb}`, '-p', 'require("v8").getHeapStatistics().heap_size_limit'], { encoding: 'utf8' }).stdout);
  const young = limitAt(64) - 64 * 2 ** 20;
  const mb = Math.ceil((bytes * HEAP_PER_INPUT_BYTE + HEAP_HEADROOM_BYTES - young) / 2 ** 20) + 1;
  const dir = tempDir('gate');
  writeFileSync(join(dir, 'big.yaml'), text);
  const r = runBundle(['--debug', 'stamp', '--allow-no-targets', 'big.yaml'], { cwd: dir, nodeArgs: [`--max-old-space-size=${mb}`] });
  assert.match(r.stderr, MAIN, `at --max-old-space-size=${mb}: ${r.stderr.slice(0, 300)}`);
  assert.is(r.code, 0, r.stderr.slice(0, 400));
  assert.is(r.stdout, text);
});

test('SIGTERM while the main thread computes: ends within 2 s (or the uninterrupted run, on a loaded machine), nothing on stdout, one line saying so (#37, #21)', async () => {
  // 160 KB, the size of a 300-object render, of the slowest input known: about half a second of reading.
  const text = anchoredKeys(160_000);
  // SIGTERM is answered between synchronous steps, so its latency is at most the longest step: 2 s on an idle
  // machine; on a loaded one the bound grows with the same run left uninterrupted, measured here.
  const whole = await termIn('reading', text, {}, ['--allow-no-targets'], false);
  assert.is(whole.code, 0, whole.stderr.slice(0, 300));
  const boundMs = Math.max(2000, 1.5 * whole.afterTermMs);
  const { code, signal, stdout, stderr, afterTermMs } = await termIn('reading', text, {}, ['--allow-no-targets']);
  assert.ok(!Number.isNaN(afterTermMs), `reading began: ${stderr.slice(0, 300)}`);
  assert.match(stderr, MAIN);
  assert.ok(code === 143 || signal === 'SIGTERM', `ended by SIGTERM (code ${code}, signal ${signal})`);
  assert.ok(afterTermMs < boundMs, `ended ${afterTermMs} ms after SIGTERM (bound ${boundMs} ms; the uninterrupted run took ${whole.afterTermMs} ms from reading to its end)`);
  assert.is(stdout, '');
  assert.match(stderr, /^rollstamp: terminated \(SIGTERM\)$/m);
});

test.run();
