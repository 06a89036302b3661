// examples/kagent-1x (#20, #35): `npm run start:kagent` changes the example and shows the `diff` saying what
// kagent 1.0 does with each agent, exactly examples/kagent-1x/expected-diff.txt; the manifests pass through
// stamp unchanged.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runBundle } from '../support/run-cli.ts';

const FILES = ['secrets.yaml', 'models.yaml', 'agents.yaml'].map((f) => `examples/kagent-1x/${f}`);
const EXPECTED = readFileSync(join(ROOT, 'examples/kagent-1x/expected-diff.txt'), 'utf8');

test('start:kagent shows the 1.x change with exactly the expected diff: will not compile, recompiles, applies live (#35)', () => {
  const run = spawnSync(process.execPath, ['examples/run-example.mjs', 'kagent'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const shown = run.stdout.split('$ rollstamp diff old.yaml new.yaml\n')[1];
  assert.ok(shown, 'the example runs diff');
  assert.ok(shown.startsWith(EXPECTED), `the example shows:\n${shown}`);
  assert.match(EXPECTED, /agents\/lead +will not compile +Agent agents\/lead › AgentTemplate agents\/lead › ModelConfig agents\/claude › Secret agents\/anthropic-key +key "api-key" is not in Secret agents\/anthropic-key \(field spec\.apiKeySecret\)/);
  assert.match(EXPECTED, /recompiles +Agent agents\/lead › AgentTemplate agents\/lead › ConfigMap agents\/lead-prompt/);
  assert.match(EXPECTED, /agents\/triage +applies live +Agent agents\/triage › AgentTemplate agents\/triage › ModelConfig agents\/openai › Secret agents\/openai-key/);
  assert.match(EXPECTED, /agents\/reviewer +will not compile/);
  assert.not.match(EXPECTED, 'sk-');
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
