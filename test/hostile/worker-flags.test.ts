// The V8 flags a large run's worker starts with (#37, LARGE_RUN_V8_FLAGS in plugin/main.ts): an input read and found
// over the size gate runs in a worker that compiles its optimized code itself (no concurrent recompilation); a run
// on the main thread, and a kustomize render moved to the worker before its size is known, keep V8's concurrent
// compiling. Read from node's --trace-opt lines ("compiling method … mode: ConcurrencyMode::kSynchronous"), which
// V8 prints to stdout beside the output.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { deployment, secret, stream } from '../support/objects.ts';
import { IN_PROCESS_MAX_BYTES } from '../../plugin/run-gate.ts';
import { LARGE_RUN_V8_FLAGS } from '../../plugin/process/worker-flags.ts';

test.before(requireBundle);
test.after(cleanup);

const TRACE = { nodeArgs: ['--trace-opt'] };
const WORKER = /^rollstamp: debug: run in a worker thread/m;
const MAIN = /^rollstamp: debug: run on the main thread/m;

/** `n` Secrets, each read by its own Deployment: enough work for V8 to optimize the run's hot functions. */
function pairs(n: number): string {
  const docs = [];
  for (let i = 0; i < n; i++) docs.push(secret(`s${i}`, `  password: ${Buffer.from(`pass-${i}`).toString('base64')}`), deployment(`d${i}`, { secret: `s${i}` }));
  return stream(docs);
}

/** How many optimizing compiles the run's --trace-opt lines name, concurrent and synchronous. */
function compiles(stdout: string): { concurrent: number; synchronous: number } {
  const modes = [...stdout.matchAll(/^\[compiling method .*mode: ConcurrencyMode::k(Concurrent|Synchronous)\]$/gm)].map((m) => m[1]);
  return { concurrent: modes.filter((m) => m === 'Concurrent').length, synchronous: modes.filter((m) => m === 'Synchronous').length };
}

test('the flags are the ones measured (#37)', () => {
  assert.equal(LARGE_RUN_V8_FLAGS, ['--no-concurrent-recompilation']);
});

test('a large input read from stdin runs in a worker that compiles synchronously; the main thread compiled concurrently before it started (#37)', () => {
  const text = pairs(1500);
  assert.ok(Buffer.byteLength(text) > IN_PROCESS_MAX_BYTES, 'the input is over the gate');
  const run = runBundle(['--debug', 'stamp', '-'], { ...TRACE, stdin: text });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  const c = compiles(run.stdout);
  // The main thread's few compiles come as node loads the CLI, before the worker exists.
  assert.ok(c.synchronous >= 20 && c.synchronous > 5 * c.concurrent, `worker compiles synchronous: ${JSON.stringify(c)}`);
});

test('a run on the main thread keeps concurrent compiling (#37)', () => {
  const text = pairs(400);
  assert.ok(Buffer.byteLength(text) < IN_PROCESS_MAX_BYTES, 'the input is under the gate');
  const run = runBundle(['--debug', 'stamp', '-'], { ...TRACE, stdin: text });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, MAIN);
  const c = compiles(run.stdout);
  assert.ok(c.concurrent >= 5 && c.synchronous === 0, JSON.stringify(c));
});

test('a kustomize render, moved to the worker before its size is known, keeps concurrent compiling (#37)', () => {
  const root = tempDir('worker-flags');
  const app = join(root, 'app');
  const bin = join(root, 'bin');
  for (const d of [app, bin]) mkdirSync(d);
  writeFileSync(join(app, 'kustomization.yaml'), 'resources: [app.yaml]\n');
  writeFileSync(join(root, 'rendered.yaml'), pairs(1500));
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\ncat "${join(root, 'rendered.yaml')}"\n`);
  chmodSync(join(bin, 'kustomize'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, ARGOCD_APP_NAME: 'app', ARGOCD_APP_NAMESPACE: 'default' };
  const run = runBundle(['--debug', 'generate'], { ...TRACE, cwd: app, env });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  const c = compiles(run.stdout);
  assert.ok(c.concurrent >= 20 && c.synchronous === 0, JSON.stringify(c));
});

test.run();
