// Fuzz cases, kagent 1.x (#20; run by kagent1x.test.ts): a random graph of Agents, AgentTemplates (sub-agents
// included), Harnesses, ModelConfigs, RemoteMCPServers, Secrets and ConfigMaps, in either pre-release shape.
// For each case, with both readers (support.ts `run`):
// - `stamp` prints the input byte for byte and exits 0; `explain --json` keeps the contract, leaks no canary,
//   and reports the same inputs whatever the document order;
// - a rotated Secret key: `diff` applies live exactly the Agents whose explain inputs consume it (every Secret
//   is a gateway credential in kagent 1.0, #35), or says they will not compile when explain lists a failure; a rotated key no input
//   names recompiles nothing (exit 0).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import type { Rng } from './property-generate.ts';
import { canonical, checkContract, run, type CaseModule, type FuzzCase } from './fuzz.ts';

const NS = 'agents';
const API = 'api.kagent.dev/v1alpha3';
type Doc = Record<string, unknown>;

interface Graph {
  docs: Doc[];
  /** Secret name → key → value. */
  secrets: Map<string, Map<string, string>>;
  canaries: string[];
}

const obj = (apiVersion: string, kind: string, name: string, rest: Doc): Doc => ({ apiVersion, kind, metadata: { name, namespace: NS }, ...rest });

function genGraph(rng: Rng): Graph {
  const docs: Doc[] = [];
  const secrets = new Map<string, Map<string, string>>();
  const canaries: string[] = [];
  const nSecrets = rng.range(1, 3);
  for (let i = 0; i < nSecrets; i++) {
    const data = new Map<string, string>();
    for (let k = 0; k < rng.range(1, 3); k++) {
      const value = `CANARY-${rng.hex(16)}`;
      canaries.push(value);
      data.set(`k${k}`, value);
    }
    secrets.set(`s${i}`, data);
    docs.push(obj('v1', 'Secret', `s${i}`, { stringData: Object.fromEntries(data) }));
  }
  const secretKey = (): { name: string; key: string } => {
    const name = `s${rng.int(nSecrets)}`;
    return { name, key: rng.pick([...secrets.get(name)!.keys()]) };
  };
  docs.push(obj('v1', 'ConfigMap', 'c0', { data: { 'prompt.md': `p-${rng.hex(6)}`, extra: `e-${rng.hex(6)}` } }));
  const nModels = rng.range(1, 2);
  for (let i = 0; i < nModels; i++) {
    const ref = secretKey();
    docs.push(obj(API, 'ModelConfig', `m${i}`, { spec: { provider: 'OpenAI', model: 'gpt', apiKeySecret: ref.name, apiKeySecretKey: ref.key } }));
  }
  const header = secretKey();
  docs.push(obj(API, 'RemoteMCPServer', 'r0', { spec: { url: 'https://mcp.example', headersFrom: [{ name: 'Authorization', valueFrom: { type: 'Secret', ...header } }] } }));
  const templateSpec = (i: number): Doc => {
    const spec: Doc = { modelConfig: { name: `m${rng.int(nModels)}` } };
    if (rng.bool(0.3)) spec.systemPromptFrom = { name: 'c0', key: 'prompt.md' };
    const tools: Doc[] = [];
    if (rng.bool(0.4)) tools.push({ mcp: { server: { kind: 'RemoteMCPServer', name: 'r0' } } });
    // Sub-agents only point at lower-numbered templates: no cycle.
    if (i > 0 && rng.bool(0.5)) tools.push({ subAgent: { name: 'sub', description: 'd', templateRef: { name: `t${rng.int(i)}` } } });
    if (tools.length > 0) spec.tools = tools;
    if (rng.bool(0.2)) spec.skills = [{ name: 'sk', source: { git: { url: 'https://git.example/x', commit: 'a'.repeat(40), credentialRef: secretKey() } } }];
    return spec;
  };
  const nTemplates = rng.range(1, 3);
  for (let i = 0; i < nTemplates; i++) docs.push(obj(API, 'AgentTemplate', `t${i}`, { spec: templateSpec(i) }));
  const harnessSpec = (): Doc => {
    const spec: Doc = {};
    if (rng.bool(0.6)) spec.env = [{ name: 'TOKEN', credentialRef: { ...secretKey(), url: 'https://api.example', header: 'Authorization' } }];
    if (rng.bool(0.3)) spec.kagent = { memory: { modelConfigRef: { name: `m${rng.int(nModels)}` } } };
    return spec;
  };
  docs.push(obj(API, 'Harness', 'h0', { spec: harnessSpec() }));
  for (let i = 0; i < rng.range(1, 4); i++) {
    const nested = rng.bool(0.6);
    const template = rng.bool(0.75) ? { ref: { name: `t${rng.int(nTemplates)}` } } : { inline: templateSpec(nTemplates) };
    const harness = rng.bool(0.7) ? { ref: { name: 'h0' } } : { inline: harnessSpec() };
    const spec: Doc = nested
      ? { template, harness }
      : { ...('ref' in template ? { templateRef: template.ref } : { template: template.inline }), ...('ref' in harness ? { harnessRef: harness.ref } : { harness: harness.inline }) };
    docs.push(obj(rng.bool(0.8) ? API : 'kagent.dev/v1alpha3', 'Agent', `a${i}`, { spec }));
  }
  return { docs, secrets, canaries };
}

const render = (docs: readonly Doc[]): string => docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');

interface AgentReport {
  resourceRef: { name: string };
  inputs: Array<{ kind: string; name: string; effect: string; whole: boolean; keys: Array<{ key: string; present: boolean }> }>;
  failures: unknown[];
}

/** Agents that consume Secret `name` key `key`, by what a change of it does (will-not-compile, then recompiles, wins). */
function expected(agents: readonly AgentReport[], name: string, key: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of agents) {
    const uses = a.inputs.filter((i) => i.kind === 'Secret' && i.name === name && i.keys.some((k) => k.key === key && k.present));
    if (uses.length > 0 && a.failures.length > 0) out.set(a.resourceRef.name, 'will-not-compile');
    else if (uses.some((i) => i.effect === 'recompiles')) out.set(a.resourceRef.name, 'recompiles');
    else if (uses.length > 0) out.set(a.resourceRef.name, 'applies-live');
  }
  return out;
}

async function graphCase(c: FuzzCase): Promise<void> {
  const { docs, secrets, canaries } = genGraph(c.rng);
  const input = render(docs);
  c.keep('input.yaml', input);
  const stamped = await run(['stamp', '-'], input);
  checkContract(stamped, 'stamp', 'stamp', input, canaries);
  assert.is(stamped.code, 0, stamped.stderr);
  assert.is(stamped.stdout, input, 'kagent 1.x objects pass through byte for byte');
  const explained = await run(['explain', '--json', '-'], input);
  checkContract(explained, 'explain-json', 'explain --json', input, canaries);
  assert.is(explained.code, 0, explained.stderr);
  const agents = (JSON.parse(explained.stdout) as { kagent: { agents: AgentReport[] } }).kagent.agents;
  const shuffled = await run(['explain', '--json', '-'], render(c.rng.shuffle(docs)));
  const inputsOf = (text: string): string[] => (JSON.parse(text) as { kagent: { agents: AgentReport[] } }).kagent.agents.map((a) => canonical(a.inputs)).sort();
  assert.equal(inputsOf(shuffled.stdout), inputsOf(explained.stdout), 'the inputs do not depend on document order');

  const name = c.rng.pick([...secrets.keys()]);
  const key = c.rng.pick([...secrets.get(name)!.keys()]);
  const value = secrets.get(name)!.get(key)!;
  const rotated = input.replace(value, `${value}-rotated`);
  const unused = input.replace(`  ${key}: ${value}\n`, `  ${key}: ${value}\n  unused-${c.rng.hex(4)}: x\n`);
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-fuzz-kagent1x-'));
  try {
    for (const [file, text] of [['old.yaml', input], ['new.yaml', rotated], ['unused.yaml', unused]] as const) writeFileSync(join(dir, file), text);
    const d = await run(['diff', '-o', 'json', 'old.yaml', 'new.yaml'], '', { cwd: dir });
    const want = expected(agents, name, key);
    assert.is(d.code, [...want.values()].includes('will-not-compile') ? 4 : want.size > 0 ? 3 : 0, d.stderr);
    for (const canary of canaries) assert.not.ok(d.stdout.includes(canary) || d.stderr.includes(canary), 'diff printed a value');
    const got = new Map((JSON.parse(d.stdout) as { kagent: { agents: Array<{ resourceRef: { name: string }; change: string }> } }).kagent.agents.map((a) => [a.resourceRef.name, a.change]));
    assert.equal([...got].sort(), [...want].sort(), `rotating ${name}.${key}`);
    const u = await run(['diff', 'old.yaml', 'unused.yaml'], '', { cwd: dir });
    assert.is(u.code, 0, `a key no agent consumes recompiles nothing: ${u.stdout}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const CASES: CaseModule['CASES'] = { kagent1x: graphCase };
