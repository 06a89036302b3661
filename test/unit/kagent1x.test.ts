// kagent 1.x (#20): objects pass through every command byte for byte with one result per run; `diff` lists
// the Agents a change recompiles or applies live (text, markdown, json), precise as kagent's BuildProvenance;
// `explain` shows their inputs; bad input follows onMissing or fails naming the field. Inputs are the
// examples/kagent-1x manifests, edited per case.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runInProcess, type CliRun } from '../support/run-cli.ts';

const EXAMPLE = ['secrets.yaml', 'models.yaml', 'agents.yaml'].map((f) => readFileSync(join(ROOT, 'examples/kagent-1x', f), 'utf8')).join('---\n');
const validate = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas/stamp-diff.schema.json'), 'utf8')) as object);
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-kagent1x-'));
let n = 0;

function edit(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the input holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

async function diff(oldText: string, newText: string, flags: string[] = []): Promise<CliRun> {
  const oldFile = join(dir, `old-${++n}.yaml`);
  const newFile = join(dir, `new-${n}.yaml`);
  writeFileSync(oldFile, oldText);
  writeFileSync(newFile, newText);
  return runInProcess(['diff', ...flags, oldFile, newFile]);
}

interface AgentJson {
  resourceRef: { name: string };
  change: string;
  inputs: Array<{ chain: string[]; effect: string; change: string; spec?: true; whole?: true; keys: Array<{ key: string; change: string }> }>;
}

async function agents(oldText: string, newText: string): Promise<{ code: number; agents: AgentJson[] }> {
  const run = await diff(oldText, newText, ['-o', 'json']);
  assert.ok(run.code === 0 || run.code === 3, run.stderr);
  const doc = JSON.parse(run.stdout) as { kagent?: { agents: AgentJson[] } };
  assert.ok(validate(doc), JSON.stringify(validate.errors));
  return { code: run.code, agents: doc.kagent?.agents ?? [] };
}

const names = (list: AgentJson[], change?: string): string[] => list.filter((a) => change === undefined || a.change === change).map((a) => a.resourceRef.name);

test('stamp and stamp --check pass kagent 1.x objects through byte for byte, with one result per run (#20)', async () => {
  const run = await runInProcess(['stamp', '-'], { stdin: EXAMPLE });
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, EXAMPLE);
  // No target by design, so --check passes without --allow-no-targets; a workload nothing selects still fails it.
  const check = await runInProcess(['stamp', '--check', '-'], { stdin: EXAMPLE });
  assert.is(check.code, 0, check.stderr);
  const unselected = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: agents}\nspec: {template: {spec: {containers: [{name: c, image: x}]}}}\n';
  const mixed = await runInProcess(['stamp', '--check', '-'], { stdin: `${EXAMPLE}---\n${unselected}` });
  assert.is(mixed.code, 1, 'a workload beside them that nothing selects is still a mistyped selector');
  assert.match(mixed.stderr, '--check found no target workloads');
  // The pre-releases' kagent.dev/v1alpha3 Agent is never written either, though 0.x Agents share its group and kind.
  const preRelease = EXAMPLE.replaceAll('api.kagent.dev/v1alpha3', 'kagent.dev/v1alpha3');
  const pre = await runInProcess(['stamp', '--check', '-'], { stdin: preRelease });
  assert.is(pre.code, 0, pre.stderr);
  const explained = await runInProcess(['explain', '--json', '-'], { stdin: EXAMPLE });
  const results = (JSON.parse(explained.stdout) as { results: Array<{ tags: { code: string }; message: string }> }).results;
  const notes = results.filter((r) => r.tags.code === 'KAGENT_1X_NOT_STAMPED');
  assert.is(notes.length, 1, 'eleven 1.x objects, one result');
  assert.ok(notes[0]!.message.startsWith('api.kagent.dev/v1alpha3 (kagent 1.x) objects pass through unchanged'));
});

test('fn passes kagent 1.x objects through with one result naming the API (#20)', async () => {
  const items = parseAllDocuments(EXAMPLE).map((d) => d.toJS() as unknown);
  const list = JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items });
  const run = await runInProcess(['fn'], { stdin: list });
  assert.is(run.code, 0, run.stderr);
  assert.not.match(run.stdout, 'rollstamp.dev/hash');
  assert.is(run.stdout.split('KAGENT_1X_NOT_STAMPED').length - 1, 1, run.stdout.slice(-800));
});

test('generate (Argo CD) passes kagent 1.x objects through byte for byte (#20)', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-kagent1x-app-'));
  writeFileSync(join(app, 'agents.yaml'), EXAMPLE);
  const run = await runInProcess(['generate'], { cwd: app, env: { ARGOCD_APP_NAMESPACE: 'agents' } });
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, EXAMPLE);
});

test('a rotated API key applies live for exactly the agents that consume it, with the chain (#35)', async () => {
  const run = await diff(EXAMPLE, edit(EXAMPLE, 'sk-example-openai-key-1', 'sk-example-openai-key-2'));
  assert.is(run.code, 3, run.stderr);
  assert.match(run.stdout, 'kagent 1.x: 2 agents apply a credential live.');
  assert.match(run.stdout, /api\.kagent\.dev\/v1alpha3\/Agent\/agents\/lead +applies live +Agent agents\/lead › AgentTemplate agents\/lead › AgentTemplate agents\/triage › ModelConfig agents\/openai › Secret agents\/openai-key +bundle +changed: api-key/);
  assert.match(run.stdout, 'a Secret does not (the egress gateway reads it live)');
  assert.not.match(run.stdout, 'recompile');
  assert.not.match(run.stdout, 'reviewer');
  assert.not.match(run.stdout, 'sk-example');
});

test('a key no agent consumes recompiles nothing, and a metadata-only change neither: exit 0 (#20)', async () => {
  const unused = await agents(EXAMPLE, edit(EXAMPLE, 'consumed by no agent', 'still consumed by no agent'));
  assert.equal(unused, { code: 0, agents: [] });
  const meta = await agents(EXAMPLE, edit(EXAMPLE, '  name: standard\n  namespace: agents\n', '  name: standard\n  namespace: agents\n  labels: {team: sre}\n'));
  assert.equal(meta, { code: 0, agents: [] });
});

test('a gateway-injected credential applies live, apart from recompiles; exit 3 (#20)', async () => {
  const out = await agents(EXAMPLE, edit(EXAMPLE, 'example-search-token-1', 'example-search-token-2'));
  assert.is(out.code, 3);
  assert.equal(names(out.agents, 'applies-live'), ['lead', 'triage']);
  assert.equal(out.agents[0]!.inputs[0]!.chain, ['Agent agents/lead', 'Harness agents/standard', 'Secret agents/search-api']);
  assert.equal(out.agents[0]!.inputs[0]!.keys, [{ key: 'token', change: 'changed' }]);
});

test('a ConfigMap kagent hashes whole counts for any data key, never for binaryData (#20)', async () => {
  const style = await agents(EXAMPLE, edit(EXAMPLE, 'Keep answers short.', 'Keep answers very short.'));
  assert.equal(names(style.agents, 'recompiles'), ['lead'], 'style.md is not the key systemPromptFrom names, but the whole data counts');
  assert.equal(style.agents[0]!.inputs[0]!.keys, [{ key: 'style.md', change: 'changed' }]);
  assert.ok(style.agents[0]!.inputs[0]!.whole);
  const withBinary = edit(EXAMPLE, '  style.md: Keep answers short.\n', '  style.md: Keep answers short.\nbinaryData:\n  logo.png: AAAA\n');
  assert.equal(await agents(withBinary, edit(withBinary, 'logo.png: AAAA', 'logo.png: BBBB')), { code: 0, agents: [] });
});

test('a changed spec of a Harness, a ModelConfig or a RemoteMCPServer recompiles its agents (#20)', async () => {
  const harness = await agents(EXAMPLE, edit(EXAMPLE, 'prefix: "Bearer "}', 'prefix: "Token "}'));
  assert.equal(names(harness.agents, 'recompiles'), ['lead', 'triage']);
  assert.ok(harness.agents[0]!.inputs.some((i) => i.spec && i.chain.at(-1) === 'Harness agents/standard'));
  const model = await agents(EXAMPLE, edit(EXAMPLE, 'model: claude-sonnet-4', 'model: claude-opus-4'));
  assert.equal(names(model.agents, 'recompiles'), ['lead', 'reviewer']);
  const mcp = await agents(EXAMPLE, edit(EXAMPLE, 'https://docs-mcp.example.com/mcp', 'https://docs-mcp.example.com/v2'));
  assert.equal(names(mcp.agents, 'recompiles'), ['lead', 'triage']);
});

test('EgressPolicy credentials apply live; a Harness memory ModelConfig recompiles (#20)', async () => {
  const extra = `---
apiVersion: api.kagent.dev/v1alpha3
kind: EgressPolicy
metadata: {name: web, namespace: agents}
spec:
  destinations:
    - host: api.example.com
      credential: {credentialRef: {name: search-api, key: token}}
`;
  const withEgress = edit(EXAMPLE, 'template: {ref: {name: reviewer}}', 'template: {ref: {name: reviewer}}\n  egressPolicyRefs: [{name: web}]') + extra;
  const live = await agents(withEgress, edit(withEgress, 'example-search-token-1', 'example-search-token-2'));
  assert.equal(names(live.agents, 'applies-live'), ['lead', 'reviewer', 'triage']);
  const reviewer = live.agents.find((a) => a.resourceRef.name === 'reviewer')!;
  assert.equal(reviewer.inputs.map((i) => i.chain.join(' › ')), ['Agent agents/reviewer › EgressPolicy agents/web › Secret agents/search-api']);
  const memory = edit(EXAMPLE, '      - {name: LOG_LEVEL, value: info}', '      - {name: LOG_LEVEL, value: info}\n      kagent: {memory: {modelConfigRef: {name: openai}}}');
  const rotated = await agents(memory, edit(memory, 'sk-example-openai-key-1', 'sk-example-openai-key-2'));
  assert.equal(names(rotated.agents, 'applies-live'), ['lead', 'reviewer', 'triage'], 'the memory model is bound to the gateway too');
  const respec = await agents(memory, edit(memory, 'model: gpt-4o-mini', 'model: gpt-4o'));
  assert.equal(names(respec.agents, 'recompiles'), ['lead', 'reviewer', 'triage'], "the Harness memory ModelConfig's spec recompiles");
});

test('markdown names the agents that apply a credential live and escapes nothing into a value (#20)', async () => {
  const run = await diff(EXAMPLE, edit(EXAMPLE, 'sk-ant-example-key-1', 'sk-ant-example-key-2'), ['-o', 'markdown']);
  assert.is(run.code, 3);
  assert.match(run.stdout, '**kagent 1.x: 2 agents apply a credential live.**');
  assert.match(run.stdout, '| `api.kagent.dev/v1alpha3/Agent/agents/reviewer` | applies live |');
  assert.not.match(run.stdout, 'sk-ant');
});

test('both shapes of the pre-releases are read; inline and ref together is an error naming the Agent (#20)', async () => {
  const flat = edit(EXAMPLE, 'template: {ref: {name: lead}}\n  harness: {ref: {name: standard}}', 'templateRef: {name: lead}\n  harnessRef: {name: standard}');
  const out = await agents(flat, edit(flat, 'model: gpt-4o-mini', 'model: gpt-4o'));
  assert.equal(names(out.agents, 'recompiles'), ['lead', 'triage']);
  const both = edit(EXAMPLE, 'template: {ref: {name: lead}}', 'template: {ref: {name: lead}, inline: {systemPrompt: hi}}');
  const run = await diff(both, both);
  assert.is(run.code, 1);
  assert.match(run.stderr, 'api.kagent.dev/v1alpha3/Agent/agents/lead');
  assert.match(run.stderr, 'spec.template');
  const mixed = edit(EXAMPLE, 'template: {ref: {name: lead}}', 'template: {ref: {name: lead}}\n  templateRef: {name: lead}');
  assert.is((await diff(mixed, mixed)).code, 1);
});

test('a template or harness not in the input follows onMissing and names the field (#20)', async () => {
  const missing = edit(EXAMPLE, 'harness: {ref: {name: standard}}', 'harness: {ref: {name: elsewhere}}');
  const warned = await diff(missing, missing);
  assert.is(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /warning: .*Agent\/agents\/lead spec\.harness\.ref\.name: Harness agents\/elsewhere is not in the input/);
  const failed = await diff(missing, missing, ['--on-missing', 'error']);
  assert.is(failed.code, 1);
  assert.match(failed.stderr, 'spec.harness.ref.name');
});

test('a value a 1.x field cannot hold is an error naming the field; a sub-agent cycle names the cycle (#20)', async () => {
  const wrong = edit(EXAMPLE, 'modelConfig: {name: openai}', 'modelConfig: openai');
  const run = await diff(wrong, wrong);
  assert.is(run.code, 1);
  assert.match(run.stderr, 'spec.modelConfig');
  const cycle = edit(EXAMPLE, '  systemPrompt: Sort incoming alerts by severity.\n', '  systemPrompt: Sort incoming alerts by severity.\n  tools:\n    - subAgent: {name: lead, description: back, templateRef: {name: lead}}\n');
  const fixed = cycle.replace('  tools:\n    - mcp:', '    - mcp:');
  const looped = await diff(fixed, fixed);
  assert.is(looped.code, 1);
  assert.match(looped.stderr, 'sub-agent cycle');
});

test('a fan-out of shared sub-agent templates is bounded: one error names the Agent (#20)', async () => {
  const templates = Array.from({ length: 40 }, (_, i) => {
    const tools = i === 0 ? '' : `\n  tools:\n    - subAgent: {name: a, description: d, templateRef: {name: t${i - 1}}}\n    - subAgent: {name: b, description: d, templateRef: {name: t${Math.max(0, i - 2)}}}`;
    return `apiVersion: api.kagent.dev/v1alpha3\nkind: AgentTemplate\nmetadata: {name: t${i}, namespace: agents}\nspec:\n  systemPrompt: x${tools}\n`;
  });
  const agent = 'apiVersion: api.kagent.dev/v1alpha3\nkind: Agent\nmetadata: {name: a, namespace: agents}\nspec: {template: {ref: {name: t39}}, harness: {inline: {}}}\n';
  const run = await runInProcess(['explain', '-'], { stdin: [...templates, agent].join('---\n') });
  assert.is(run.code, 1);
  const lines = run.stderr.trimEnd().split('\n');
  assert.is(lines.length, 1, run.stderr);
  assert.match(lines[0]!, /Agent\/agents\/a: the Agent has more than 1000 revision inputs/);
});

test('explain shows every 1.x Agent input and ModelConfig secretHash, never a value or a per-key digest (#20)', async () => {
  const run = await runInProcess(['explain', '-'], { stdin: EXAMPLE });
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /applies live +Agent agents\/lead › Harness agents\/standard › Secret agents\/search-api +keys: token/);
  assert.match(run.stdout, "check: kubectl get modelconfigs.api.kagent.dev openai -n agents -o jsonpath='{.status.secretHash}'");
  const json = await runInProcess(['explain', '-o', 'json', '-'], { stdin: EXAMPLE });
  const hexes = json.stdout.match(/[0-9a-f]{64}/g) ?? [];
  const doc = JSON.parse(json.stdout) as { kagent: { modelConfigs: Array<{ secretHash: string }> } };
  assert.equal([...new Set(hexes)].sort(), doc.kagent.modelConfigs.map((m) => m.secretHash).sort(), 'the only digests are the status hashes');
  for (const value of ['sk-example-openai-key-1', 'sk-ant-example-key-1', 'example-search-token-1', 'example-docs-token-1']) {
    assert.not.match(run.stdout + json.stdout, value);
  }
});

test.run();
