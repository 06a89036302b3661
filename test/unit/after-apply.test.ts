// A run says when it has let go of its plan (RunStart.afterApply, #37): once, after applying and before writing,
// in a stream run and a list run alike, and the worker's collection it triggers exposes nothing (collect-garbage.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_CONFIG, startListRun, startStreamRun } from '../../function/index.ts';
import { setFlagsFromString } from 'node:v8';
import { collectGarbage, exposedGc } from '../../plugin/process/collect-garbage.ts';

const STREAM = `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {mode: fast}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  template:
    spec:
      containers:
      - name: web
        envFrom:
        - configMapRef: {name: settings}
`;

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
${STREAM.split('---\n').map((doc) => `- ${doc.trimEnd().replace(/\n/g, '\n  ')}\n`).join('')}`;

/** The calls a run makes, in order: `afterApply` and each phase `trace` reports. */
function calls(): { said: string[]; hooks: { afterApply: () => void; trace: (phase: string) => void } } {
  const said: string[] = [];
  return { said, hooks: { afterApply: () => void said.push('afterApply'), trace: (phase) => void said.push(phase) } };
}

test('a stream run calls afterApply once, after hashing and before writing', () => {
  const { said, hooks } = calls();
  const outcome = startStreamRun([{ path: 'in.yaml', text: STREAM }], { config: DEFAULT_CONFIG, ...hooks }).finish();
  assert.ok(outcome.outputPieces.join('').includes('rollstamp.dev/hash'));
  assert.equal(said.slice(-3), ['hashing', 'afterApply', 'writing']);
  assert.is(said.filter((s) => s === 'afterApply').length, 1);
});

test('a stream run that writes nothing (explain, diff) calls afterApply once too', () => {
  const { said, hooks } = calls();
  startStreamRun([{ path: 'in.yaml', text: STREAM }], { config: DEFAULT_CONFIG, write: false, ...hooks }).finish();
  assert.equal(said.slice(-2), ['hashing', 'afterApply']);
});

test('a list run calls afterApply once, and writes the list stamped', () => {
  const { said, hooks } = calls();
  const run = startListRun(LIST, { afterApply: hooks.afterApply });
  if ('refused' in run) throw new Error('the list was refused');
  assert.equal(said, []);
  const outcome = run.finish();
  assert.equal(said, ['afterApply']);
  assert.ok(outcome.outputPieces.join('').includes('rollstamp.dev/hash'));
});

test('the worker\'s collection can be asked for again and leaves no gc function behind', () => {
  const before = typeof (globalThis as { gc?: unknown }).gc;
  collectGarbage();
  collectGarbage();
  assert.is(typeof (globalThis as { gc?: unknown }).gc, before);
});

test('a context made after another thread set the flag back has no gc: the collection is skipped, not an error', () => {
  assert.type(exposedGc(), 'function');
  // The other thread (the main thread and the run's worker both collect) sets the process's flag back between this
  // thread's setting it and making its context.
  const raced = (flags: string): void => setFlagsFromString(flags === '--expose-gc' ? '--no-expose-gc' : flags);
  assert.is(exposedGc(raced), undefined);
  assert.type(exposedGc(), 'function');
});

test.run();
