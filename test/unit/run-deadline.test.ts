// The run's deadline is one object (plugin/process/run-deadline.ts): the renderer's child, the live reads and the core
// all ask the same `RunDeadline`, and its clock is injected, so a test moves time and counts the readings.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../../plugin/process/exec.ts';
import { liveDeadlineMs } from '../../plugin/live/live-sources.ts';
import { RunDeadline } from '../../plugin/process/run-deadline.ts';
import { startStreamRun } from '../../function/index.ts';
import { configOf } from '../support/config.ts';

/** A clock a test sets by hand, counting how often it is read. */
function manualClock(start: number): { now: number; reads: number; clock: () => number } {
  const c = {
    now: start,
    reads: 0,
    clock: (): number => {
      c.reads++;
      return c.now;
    },
  };
  return c;
}

const STREAM = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec: {template: {spec: {containers: [{name: web, envFrom: [{secretRef: {name: db}}]}]}}}
---
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
stringData: {password: CANARY-d3ad}
`;

test('a run deadline reads its clock once when made and once per question', () => {
  const c = manualClock(1_000_000);
  const deadline = new RunDeadline(45, c.clock);
  assert.is(c.reads, 1);
  assert.is(deadline.at, 1_000_000 + 45_000);
  c.now += 44_000;
  assert.is(deadline.leftMs(), 1000);
  deadline.check('rendering helm');
  assert.is(c.reads, 3);
  c.now += 2000;
  assert.is(deadline.remainingMs(), -1000);
  assert.is(deadline.leftMs(), 1, 'a timer built from it fires at once');
  assert.throws(() => deadline.check('stamping'), /stamping ran past the deadline of the whole run: 45 s \(ROLLSTAMP_RENDER_TIMEOUT_SECONDS\)/);
  assert.is(c.reads, 6);
});

test('the renderer, the live reads and the core see the same deadline and its one clock', async () => {
  const c = manualClock(5_000_000);
  const deadline = new RunDeadline(45, c.clock);
  c.now += 45_000 - 200; // 200 ms left of the run

  // Live reads: their own 30 s deadline is cut to what is left of the run's.
  assert.is(liveDeadlineMs(30_000, deadline), 200);
  assert.is(liveDeadlineMs(100, deadline), 100);

  // The renderer: a child given a minute of its own is stopped at the run's deadline.
  const readsBefore = c.reads;
  const child = runCommand([process.execPath, '-e', 'setTimeout(() => {}, 30000)'], 'rendering helm in .', {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    timeoutMs: 60_000,
    maxOutputBytes: 1024,
    deadline,
  });
  await child.then(
    () => assert.unreachable('the child outlived the run'),
    (err: Error) => assert.match(err.message, 'rendering helm in .: timed out at the deadline of the whole run (ROLLSTAMP_RENDER_TIMEOUT_SECONDS)'),
  );
  assert.ok(c.reads > readsBefore, 'the child asked the run deadline, not a clock of its own');

  // The core: hashing asks the same object, which now says the run is over.
  const config = configOf();
  const run = startStreamRun([{ path: 'in.yaml', text: STREAM }], { config, deadline });
  const early = run.finish();
  assert.match(early.outputPieces.join(''), /rollstamp\.dev\/hash: "sha256:/);
  c.now += 1000; // past the deadline
  const late = startStreamRun([{ path: 'in.yaml', text: STREAM }], { config, deadline });
  assert.throws(() => late.finish(), /hashing ran past the deadline of the whole run: 45 s/);
});

test('without a run deadline a child keeps its own timeout and the live reads their own deadline', async () => {
  assert.is(liveDeadlineMs(30_000, undefined), 30_000);
  const err = await runCommand([process.execPath, '-e', 'setTimeout(() => {}, 30000)'], 'x', {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    timeoutMs: 50,
    maxOutputBytes: 1024,
  }).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(err?.message ?? '', 'x: timed out after 0 s');
});

test.run();
