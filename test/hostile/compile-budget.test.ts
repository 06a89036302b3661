// The inlining budget a run compiles with (#37, plugin/process/compile-budget.ts): once main.ts knows the command,
// V8's cumulative inlining budget is set to a quarter of its default for `stamp`, `fn`, `explain`, `diff` and
// `generate`, on the main thread or in their worker, unless the operator gave node an inlining flag of their own;
// `refresh` keeps V8's defaults. What it saves is measured, not asserted (docs/performance.md): here, where it is set (the --debug
// line) and that this node knows the flag (V8 says on stderr when it does not).
import { writeFileSync } from 'node:fs';
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

/** `n` Secrets, each read by its own Deployment. */
function pairs(n: number): string {
  const docs = [];
  for (let i = 0; i < n; i++) docs.push(secret(`s${i}`, `  password: ${Buffer.from(`pass-${i}`).toString('base64')}`), deployment(`d${i}`, { secret: `s${i}` }));
  return stream(docs);
}

const large = pairs(1500);

test('the flags are the ones measured (#37)', () => {
  assert.equal(RUN_COMPILE_FLAGS, ['--max-inlined-bytecode-size-cumulative=230']);
});

test("set for a render; not for refresh, nor over an operator's inlining flag, in either spelling (#37)", () => {
  assert.equal(runCompileFlags(false, []), RUN_COMPILE_FLAGS);
  assert.equal(runCompileFlags(false, ['', '--max-old-space-size=512', '--trace-turbo-inlining', '--stack-size=900']), RUN_COMPILE_FLAGS);
  assert.equal(runCompileFlags(true, []), [], 'refresh');
  for (const given of ['--max-inlined-bytecode-size-cumulative=920', '--max_inlined_bytecode_size=100', '--no-turbo-inlining', '--turbo-inlining', '--no_turbo_inlining']) {
    assert.equal(runCompileFlags(false, ['--max-old-space-size=512', given]), [], given);
  }
});

test('a large input runs in its worker with the budget set, and this node knows the flag (#37)', () => {
  assert.ok(Buffer.byteLength(large) > IN_PROCESS_MAX_BYTES, 'the input is over the gate');
  const run = runBundle(['--debug', 'stamp', '-'], { stdin: large });
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, WORKER);
  assert.match(run.stderr, SET);
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

test('the same large input from a file runs with it too (#37)', () => {
  const dir = tempDir('compile-budget');
  const file = join(dir, 'large.yaml');
  writeFileSync(file, large);
  const run = runBundle(['--debug', 'stamp', file]);
  assert.is(run.code, 0, run.stderr.slice(0, 300));
  assert.match(run.stderr, SET);
});

test.run();
