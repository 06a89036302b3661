// The inlining budget a run compiles with (#37, plugin/process/compile-budget.ts): before a run of `stamp`, `fn`,
// `explain`, `diff` or `generate` starts on the main thread, V8's cumulative inlining budget is set to a quarter of
// its default, unless the operator gave node an inlining flag of their own; a worker keeps it for an input read and
// found large, and starts with V8's default again otherwise (a kustomize or helm render, moved to the worker before
// its size is known); `refresh` keeps V8's defaults. What it saves is measured, not asserted (docs/performance.md): here, where it is set (the --debug
// line) and that this node knows the flag (V8 says on stderr when it does not).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { deployment, secret, stream } from '../support/objects.ts';
import { IN_PROCESS_MAX_BYTES } from '../../plugin/run-gate.ts';
import { RUN_COMPILE_FLAGS, runCompileFlags } from '../../plugin/process/compile-budget.ts';

test.before(requireBundle);
test.after(cleanup);

const WORKER = /^rollstamp: debug: run in a worker thread/m;
const MAIN = /^rollstamp: debug: run on the main thread/m;
const SET = /^rollstamp: debug: V8 compiles with --max-inlined-bytecode-size-cumulative=230 from here on$/m;
const UNSET = /^rollstamp: debug: V8 compiles with --max-inlined-bytecode-size-cumulative=920 from here on$/m;

/** `n` Secrets, each read by its own Deployment. */
function pairs(n: number): string {
  const docs = [];
  for (let i = 0; i < n; i++) docs.push(secret(`s${i}`, `  password: ${Buffer.from(`pass-${i}`).toString('base64')}`), deployment(`d${i}`, { secret: `s${i}` }));
  return stream(docs);
}

const large = pairs(1500);

test('the flags are the ones measured, and V8 defaults for them (#37)', () => {
  assert.equal(RUN_COMPILE_FLAGS, { set: ['--max-inlined-bytecode-size-cumulative=230'], unset: ['--max-inlined-bytecode-size-cumulative=920'] });
});

test("set for a render; not for refresh, nor over an operator's inlining flag, in either spelling (#37)", () => {
  const none = { set: [], unset: [] };
  assert.equal(runCompileFlags(false, []), RUN_COMPILE_FLAGS);
  assert.equal(runCompileFlags(false, ['', '--max-old-space-size=512', '--trace-turbo-inlining', '--stack-size=900']), RUN_COMPILE_FLAGS);
  assert.equal(runCompileFlags(true, []), none, 'refresh');
  for (const given of ['--max-inlined-bytecode-size-cumulative=920', '--max_inlined_bytecode_size=100', '--no-turbo-inlining', '--turbo-inlining', '--no_turbo_inlining']) {
    assert.equal(runCompileFlags(false, ['--max-old-space-size=512', given]), none, given);
  }
});

test('a large input runs in its worker with the budget set, and this node knows the flag (#37)', () => {
  assert.ok(Buffer.byteLength(large) > IN_PROCESS_MAX_BYTES, 'the input is over the gate');
  const run = runBundle(['--debug', 'stamp', '-'], { stdin: large });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  assert.match(run.stderr, SET);
  assert.not.match(run.stderr, UNSET);
  // V8 refuses a flag it does not know with a line on stderr (`Error: unrecognized flag`), and goes on.
  assert.not.match(run.stderr, /unrecognized flag|Try --help/);
});

test("an operator's inlining flag is kept: nothing is set (#37)", () => {
  const run = runBundle(['--debug', 'stamp', '-'], { stdin: large, nodeArgs: ['--max-inlined-bytecode-size-cumulative=920'] });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  assert.not.match(run.stderr, /V8 compiles with/);
});

test('a run on the main thread is given it too (#37)', () => {
  const run = runBundle(['--debug', 'stamp', '-'], { stdin: pairs(50) });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, MAIN);
  assert.match(run.stderr, SET);
  assert.not.match(run.stderr, /unrecognized flag|Try --help/);
});

test('a kustomize render moves to its worker with V8 as it was, before its size is known (#37)', () => {
  const root = tempDir('compile-budget');
  const app = join(root, 'app');
  const bin = join(root, 'bin');
  for (const d of [app, bin]) mkdirSync(d);
  writeFileSync(join(app, 'kustomization.yaml'), 'resources: [app.yaml]\n');
  writeFileSync(join(root, 'rendered.yaml'), pairs(3));
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\ncat "${join(root, 'rendered.yaml')}"\n`);
  chmodSync(join(bin, 'kustomize'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, ARGOCD_APP_NAME: 'app', ARGOCD_APP_NAMESPACE: 'default' };
  const run = runBundle(['--debug', 'generate'], { cwd: app, env });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  // Set for the main thread, then back to V8's default before the worker starts.
  const set = run.stderr.search(SET);
  const unset = run.stderr.search(UNSET);
  assert.ok(set >= 0 && unset > set, run.stderr.slice(0, 600));
  assert.ok(unset < run.stderr.search(WORKER), 'set back before the worker starts');
});

test('the same large input from a file runs with it too (#37)', () => {
  const dir = tempDir('compile-budget');
  const file = join(dir, 'large.yaml');
  writeFileSync(file, large);
  const run = runBundle(['--debug', 'stamp', file]);
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  assert.match(run.stderr, SET);
  assert.not.match(run.stderr, UNSET);
});

test.run();
