// examples/kagent-1x (#20): `npm run start:kagent` rotates a key and shows the `diff` naming the agents kagent
// 1.x recompiles, exactly examples/kagent-1x/expected-diff.txt; the manifests pass through stamp unchanged.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runBundle } from '../support/run-cli.ts';

const FILES = ['secrets.yaml', 'models.yaml', 'agents.yaml'].map((f) => `examples/kagent-1x/${f}`);
const EXPECTED = readFileSync(join(ROOT, 'examples/kagent-1x/expected-diff.txt'), 'utf8');

test('start:kagent shows the 1.x rotation with exactly the expected diff (#20)', () => {
  const run = spawnSync(process.execPath, ['examples/run-example.mjs', 'kagent'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const shown = run.stdout.split('$ rollstamp diff old.yaml new.yaml\n')[1];
  assert.ok(shown, 'the example runs diff');
  assert.ok(shown.startsWith(EXPECTED), `the example shows:\n${shown}`);
  assert.match(EXPECTED, /agents\/lead +recompiles +Agent agents\/lead › AgentTemplate agents\/lead › AgentTemplate agents\/triage › ModelConfig agents\/openai › Secret agents\/openai-key/);
  assert.match(EXPECTED, /agents\/triage +recompiles/);
  assert.not.match(EXPECTED, 'reviewer');
  assert.match(EXPECTED, 'applies live');
});

test('the built bundle passes the 1.x manifests through byte for byte (#20)', () => {
  const run = runBundle(['stamp', ...FILES]);
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, FILES.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('---\n'));
});

test('docs/kagent.md shows the example diff as it is (#20)', () => {
  const page = readFileSync(join(ROOT, 'docs/kagent.md'), 'utf8');
  const table = EXPECTED.split('\n\n').slice(0, 2).join('\n\n');
  assert.ok(page.includes(table), `docs/kagent.md shows:\n${table}`);
});

test.run();
