// SECURITY.md "Bounded work" for the kagent 1.x preview (#33 item 5): 1,000 Agents sharing a template graph that
// fans out (each template names two sub-agent templates, ten levels deep) made `diff` spend 13–20 s and 1.3–1.6 GB
// and `explain` overflow the stack rendering text. The walk now spends one run-wide row budget
// (ROLLSTAMP_MAX_PREVIEW_ROWS) and uses a stack: both commands fail closed with one line naming the setting, as
// cheaply as the yaml library parses the input; a graph as deep as the budget allows renders without recursion.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';
import { assertCheap, assertFailsClosed, cleanup, requireBundle, runMeasured, tempDir } from '../support/hostile.ts';
import { stream } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

const API = 'api.kagent.dev/v1alpha3';
/** Template `t<level>-<i>`: a model, and two sub-agents on the next level (the last level, `levels - 1`, has none). */
function template(level: number, i: number, levels: number): string {
  const subs = level + 1 < levels ? [0, 1].map((k) => `    - subAgent: {name: s${k}, description: d, templateRef: {name: t${level + 1}-${(i * 2 + k) % 4}}}`).join('\n') : '';
  return `apiVersion: ${API}\nkind: AgentTemplate\nmetadata: {name: t${level}-${i}, namespace: a}\nspec:\n  modelConfig: {name: m}\n  systemPrompt: p\n${subs ? `  tools:\n${subs}\n` : ''}`;
}

/** The attack: four templates per level, each naming two on the next, and `agents` Agents on the root. */
function fanOut(agents: number, levels = 10): string {
  const docs = [
    `apiVersion: v1\nkind: Secret\nmetadata: {name: k, namespace: a}\nstringData: {api-key: x}\n`,
    `apiVersion: ${API}\nkind: ModelConfig\nmetadata: {name: m, namespace: a}\nspec: {provider: OpenAI, model: g, apiKeySecret: k, apiKeySecretKey: api-key}\n`,
    `apiVersion: ${API}\nkind: Harness\nmetadata: {name: h, namespace: a}\nspec: {env: [{name: L, value: i}]}\n`,
  ];
  for (let level = 0; level < levels; level++) for (let i = 0; i < 4; i++) docs.push(template(level, i, levels));
  for (let n = 0; n < agents; n++) docs.push(`apiVersion: ${API}\nkind: Agent\nmetadata: {name: agent-${n}, namespace: a}\nspec: {template: {ref: {name: t0-${n % 4}}}, harness: {ref: {name: h}}}\n`);
  return stream(docs);
}

/** A chain of `depth` templates, each naming the next as its one sub-agent. */
function deepChain(depth: number): string {
  const docs = [`apiVersion: ${API}\nkind: Agent\nmetadata: {name: deep, namespace: a}\nspec: {template: {ref: {name: c0}}, harness: {inline: {env: []}}}\n`];
  for (let i = 0; i < depth; i++) {
    const sub = i + 1 < depth ? `  tools:\n    - subAgent: {name: s, description: d, templateRef: {name: c${i + 1}}}\n` : '';
    docs.push(`apiVersion: ${API}\nkind: AgentTemplate\nmetadata: {name: c${i}, namespace: a}\nspec:\n  systemPrompt: p\n${sub}`);
  }
  return stream(docs);
}

const ATTACK = fanOut(1000);

test('the attack is the issue\'s: 1,000 Agents on a fanned-out template graph, under 200 KB (#33)', () => {
  assert.ok(ATTACK.length < 200_000, `${ATTACK.length} bytes`);
});

for (const command of ['diff', 'explain'] as const) {
  test(`${command} over 1,000 Agents on a fanned-out template graph: one line naming ROLLSTAMP_MAX_PREVIEW_ROWS, as cheap as the yaml library (#33)`, () => {
    const dir = tempDir(`fanout-${command}`);
    writeFileSync(join(dir, 'in.yaml'), ATTACK);
    const argv = command === 'diff' ? ['diff', 'in.yaml', 'in.yaml'] : ['explain', 'in.yaml'];
    const r = assertCheap(() => runMeasured(argv, { cwd: dir }), ATTACK, command);
    // explain lists a run's errors on stdout too (as for ROLLSTAMP_MAX_KEY_WORK); diff prints nothing there.
    if (command === 'diff') assertFailsClosed(r, command);
    else assert.is(r.code, 1, r.stderr.slice(0, 300));
    assert.match(r.stderr, 'ROLLSTAMP_MAX_PREVIEW_ROWS');
    assert.match(r.stderr, 'the kagent 1.x preview has more than 500000 rows');
  });
}

test('ROLLSTAMP_MAX_PREVIEW_ROWS: a preview at the limit is shown, one row over is refused, a bad value is a usage error (#33)', async () => {
  const text = fanOut(1, 4);
  const explained = await runInProcess(['explain', '-o', 'json', '-'], { stdin: text });
  assert.is(explained.code, 0, explained.stderr);
  const agent = (JSON.parse(explained.stdout) as { kagent: { agents: Array<{ inputs: Array<{ chain: string[] }> }> } }).kagent.agents[0]!;
  const rows = agent.inputs.reduce((sum, i) => sum + i.chain.length, 0);
  const at = await runInProcess(['explain', '-'], { stdin: text, env: { ROLLSTAMP_MAX_PREVIEW_ROWS: String(rows) } });
  assert.is(at.code, 0, at.stderr);
  const over = await runInProcess(['explain', '-'], { stdin: text, env: { ROLLSTAMP_MAX_PREVIEW_ROWS: String(rows - 1) } });
  assert.is(over.code, 1);
  assert.match(over.stderr, `more than ${rows - 1} rows`);
  const bad = await runInProcess(['explain', '-'], { stdin: text, env: { ROLLSTAMP_MAX_PREVIEW_ROWS: '0' } });
  assert.is(bad.code, 2, bad.stderr);
});

test('a sub-agent chain 900 templates deep is walked and rendered without recursion: explain text and diff (#33)', async () => {
  const text = deepChain(900);
  const env = { ROLLSTAMP_MAX_REFERENCES: '5000' };
  const explained = await runInProcess(['explain', '-'], { stdin: text, env });
  assert.is(explained.code, 0, explained.stderr.slice(0, 300));
  assert.match(explained.stdout, 'AgentTemplate a/c899  spec');
  const changed = text.replace('metadata: {name: c899, namespace: a}\nspec:\n  systemPrompt: p', 'metadata: {name: c899, namespace: a}\nspec:\n  systemPrompt: q');
  const dir = tempDir('deep');
  writeFileSync(join(dir, 'old.yaml'), text);
  writeFileSync(join(dir, 'new.yaml'), changed);
  const d = await runInProcess(['diff', 'old.yaml', 'new.yaml'], { cwd: dir, env });
  assert.is(d.code, 3, d.stderr.slice(0, 300));
  assert.match(d.stdout, 'kagent 1.x: 1 agent recompiles.');
});

test.run();
