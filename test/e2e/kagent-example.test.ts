// examples/kagent: its stamped output is exactly examples/kagent/expected-output.txt (the SandboxAgent's
// ROLLSTAMP_HASH env entry included), with no result, and rotations roll exactly what kagent would pass the
// new value to.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runBundle, runInProcess } from '../support/run-cli.ts';

const FILES = ['secrets.yaml', 'modelconfigs.yaml', 'agents.yaml', 'sandbox-agents.yaml'].map((f) => `examples/kagent/${f}`);
const EXPECTED = readFileSync(join(ROOT, 'examples/kagent/expected-output.txt'), 'utf8');
const INPUT = FILES.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('---\n');
const SANDBOX_STAMP = 'sha256:dd907a5edf247131c129494691c134644b5af9c52dc8234a74003611211daa3e';

/** The SandboxAgent's ROLLSTAMP_HASH value in a stamped stream. */
const sandboxStamp = (text: string): string | undefined => /- name: ROLLSTAMP_HASH\n\s+value: "([^"]+)"/.exec(text)?.[1];

async function stamp(text: string): Promise<string> {
  const run = await runInProcess(['stamp', '-'], { stdin: text });
  assert.is(run.code, 0, run.stderr);
  return run.stdout;
}

test('stamping examples/kagent gives exactly the expected output', async () => {
  const run = await runInProcess(['stamp', ...FILES]);
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.fixture(run.stdout, EXPECTED);
  assert.is(sandboxStamp(run.stdout), SANDBOX_STAMP, 'the SandboxAgent is stamped in its env');
  assert.ok(!/web-researcher[\s\S]*annotations:[\s\S]*rollstamp\.dev\/hash/.test(run.stdout.split('name: web-researcher')[1]!.split('\n---')[0]!), 'no annotation on the SandboxAgent');
});

test('the built bundle gives the same output', () => {
  const run = runBundle(['stamp', ...FILES]);
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, EXPECTED);
});

test('stamping the expected output again changes nothing', async () => {
  assert.fixture(await stamp(EXPECTED), EXPECTED);
});

test('rotations: the SandboxAgent rolls on its Secret and its ModelConfig, nothing else', async () => {
  const base = sandboxStamp(await stamp(INPUT));
  assert.is(base, SANDBOX_STAMP);
  const rotate = async (from: string, to: string): Promise<string | undefined> => {
    assert.ok(INPUT.includes(from), from);
    return sandboxStamp(await stamp(INPUT.replace(from, to)));
  };
  assert.is.not(await rotate('example-search-key-1', 'example-search-key-2'), base, 'its secretKeyRef Secret');
  assert.is.not(await rotate('sk-ant-example-key-1', 'sk-ant-example-key-2'), base, 'its ModelConfig (claude) key');
  // A literal value is part of the ActorTemplate's spec already: kagent makes a new template by itself.
  assert.is(await rotate('value: eu', 'value: us'), base, 'a literal env value');
  assert.is(await rotate('sk-example-openai-key-1', 'sk-example-openai-key-2'), base, 'a ModelConfig it does not use');
});

test("docs/kagent.md's 'Try it' shows the example's real output", () => {
  const readme = readFileSync(join(ROOT, 'docs/kagent.md'), 'utf8');
  assert.ok(readme.includes(`        - name: ROLLSTAMP_HASH\n          value: "${SANDBOX_STAMP}"\n`), 'the SandboxAgent stamp');
  const run = spawnSync(process.execPath, ['examples/run-example.mjs', 'kagent'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const rotation = /Rotating the Anthropic[^\n]*\n(?: {2}.*\n)+/.exec(run.stdout)![0];
  assert.ok(readme.includes(rotation), `docs/kagent.md shows:\n${rotation}`);
});

test.run();
