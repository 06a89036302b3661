// What rollstamp tells the user about kagent objects it does not stamp or stamps elsewhere (#13, #20): unknown
// API versions pass through byte for byte with a warning naming the apiVersion, kagent 1.x with one result; an AgentHarness
// gets an info result; a SandboxAgent's stamp is the env entry explain names.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Rng } from '../support/property-generate.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { runInProcess } from '../support/run-cli.ts';

interface Explanation {
  targets: Array<{ resourceRef: { kind: string; name: string }; field: string; hash: string }>;
  results: Array<{ message: string; severity: string; tags: { code: string }; resourceRef?: { apiVersion: string; kind: string; name: string } }>;
}

async function explain(fixture: string): Promise<Explanation> {
  const run = await runInProcess(['explain', '--json', 'input.yaml'], { cwd: join(FIXTURES, 'kagent', fixture) });
  assert.is(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Explanation;
}

test('unknown kagent API versions: one warning each, naming the apiVersion, and no target', async () => {
  const out = await explain('unreleased-api-versions');
  const warned = out.results.filter((r) => r.tags.code === 'UNSUPPORTED_KAGENT_VERSION');
  assert.equal(
    warned.map((r) => `${r.resourceRef!.apiVersion} ${r.resourceRef!.kind}`),
    ['kagent.dev/v1alpha1 SandboxAgent'],
  );
  assert.is(warned[0]!.severity, 'warning');
  assert.ok(warned[0]!.message.includes('passed through unchanged'), warned[0]!.message);
  assert.equal(out.targets.map((t) => t.resourceRef.kind), ['Agent'], 'only the v1alpha2 Agent is a target');
});

test('kagent.dev/v1alpha3 (the 1.0 pre-releases): one result per run, naming no object, says why nothing is stamped (#20)', async () => {
  const out = await explain('unreleased-api-versions');
  const notes = out.results.filter((r) => r.tags.code === 'KAGENT_1X_NOT_STAMPED');
  assert.is(notes.length, 1, 'five v1alpha3 objects, one result');
  assert.is(notes[0]!.severity, 'info');
  assert.is(notes[0]!.resourceRef, undefined);
  assert.ok(notes[0]!.message.startsWith('kagent.dev/v1alpha3 (a kagent 1.0 pre-release) objects pass through unchanged'), notes[0]!.message);
  assert.ok(notes[0]!.message.includes('its egress gateway reads credentials live, so a stamp would roll nothing'), notes[0]!.message);
});

test('an AgentHarness is not stamped; an info result says its rollouts are not automatic and why', async () => {
  const out = await explain('agent-harness-not-stamped');
  const notes = out.results.filter((r) => r.resourceRef?.kind === 'AgentHarness');
  assert.is(notes.length, 1);
  assert.is(notes[0]!.severity, 'info');
  assert.is(notes[0]!.tags.code, 'NO_AUTOMATIC_ROLLOUT');
  assert.ok(notes[0]!.message.includes('rollouts are not automatic'), notes[0]!.message);
  assert.ok(notes[0]!.message.includes('one shared Substrate actor'), notes[0]!.message);
  assert.equal(out.targets.map((t) => t.resourceRef.kind), ['ModelConfig']);
});

test('explain names the env entry a SandboxAgent is stamped in', async () => {
  const out = await explain('sandbox-agent');
  const sandbox = out.targets.find((t) => t.resourceRef.kind === 'SandboxAgent')!;
  assert.is(sandbox.field, 'spec.declarative.deployment.env[name=ROLLSTAMP_HASH].value');
  const dropped = out.results.filter((r) => r.tags.code === 'DROPPED_BY_KAGENT').map((r) => r.message.split(': ').at(-1));
  assert.equal(dropped.sort(), ['ConfigMap features is not hashed', 'Secret client-cert is not hashed', 'Secret extra-env is not hashed', 'Secret sidecar is not hashed']);
});

// Property: whatever an object of an unreleased kagent version holds (deployment sections, annotations, env,
// flow or block style), stamping leaves the stream byte for byte as it was.
const KINDS = ['Agent', 'SandboxAgent', 'ModelConfig', 'AgentHarness', 'AgentTemplate', 'Harness'];
const VERSIONS = ['v1alpha3', 'v1alpha4', 'v1beta1', 'v1', 'v2alpha1'];

function unreleasedObject(rng: Rng, i: number): string {
  const kind = rng.pick(KINDS);
  const version = rng.pick(VERSIONS);
  const section = rng.pick(['declarative', 'byo']);
  const body = rng.pick([
    `spec:\n  type: ${section === 'byo' ? 'BYO' : 'Declarative'}\n  ${section}:\n    modelConfig: m\n    env:\n    - {name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}\n`,
    `spec:\n  ${section}:\n    deployment:\n      annotations: {rollstamp.dev/hash: "sha256:old"}\n      env: [{name: ROLLSTAMP_HASH, value: old}]\n`,
    `spec: {provider: OpenAI, apiKeySecret: s, apiKeySecretKey: k}\n`,
    'spec: {}\n',
  ]);
  const meta = rng.bool(0.5) ? `metadata: {name: o${i}, namespace: ns}\n` : `metadata:\n  name: o${i}\n  namespace: ns\n  annotations:\n    note: "x"\n`;
  // kagent 1.x (api.kagent.dev, any version) passes through too, without a per-object warning (#20).
  const group = rng.bool(0.3) ? 'api.kagent.dev' : 'kagent.dev';
  return `apiVersion: ${group}/${version}\nkind: ${kind}\n${meta}${body}`;
}

test('property: objects of unreleased kagent versions and of kagent 1.x pass through byte for byte (#20)', async () => {
  const rng = new Rng(0x13);
  for (let n = 0; n < 40; n++) {
    const docs = Array.from({ length: 1 + rng.int(4) }, (_, i) => unreleasedObject(rng, i));
    const input = `${docs.join('---\n')}---\napiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\ndata: {k: dg==}\n`;
    const run = await runInProcess(['stamp', '-'], { stdin: input });
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, input, `case ${n}`);
    const warned = docs.filter((d) => d.startsWith('apiVersion: kagent.dev/') && !d.startsWith('apiVersion: kagent.dev/v1alpha3\n')).length;
    assert.is(run.stderr.split('\n').filter((l) => l.includes('is not supported yet')).length, warned, `case ${n}: one warning per object of an unknown 0.x version`);
  }
});

test.run();
