// The kagent 1.x differential test (#35): a realistic 1.0.x bundle (fixtures/kagent/kagent1x-differential), every
// consumed Secret and ConfigMap key changed and removed one at a time, every object recreated (a new UID) and
// removed, spec, metadata, binaryData, reformat and credential-mode edits; for each single edit, `diff` in text,
// markdown and json gives, per Agent, the verdict the rule table in test/support/kagent1x-rules.ts derives from
// kagent's code, names the chain to what changed, and prints no value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parseAllDocuments, type Document } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runInProcess } from '../support/run-cli.ts';
import { KEY_RULES, OBJECT_RULES, onKeyRemoved, onObject, onRecreated, onSourceRemoved, onValue, type Verdict } from '../support/kagent1x-rules.ts';

const BUNDLE = readFileSync(join(ROOT, 'fixtures/kagent/kagent1x-differential/input.yaml'), 'utf8');
const validate = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas/stamp-diff.schema.json'), 'utf8')) as object);
const AGENTS = ['lead', 'researcher', 'summarizer', 'triage'];
const WORDS: Record<Verdict, string> = { 'will-not-compile': 'will not compile', recompiles: 'recompiles', 'applies-live': 'applies live', disappears: 'disappears' };

/** The bundle as documents, one edit applied to the one named `Kind/name`, back to text. */
function edited(target: string, change: (doc: Document) => void): string {
  const docs = parseAllDocuments(BUNDLE) as Document[];
  const doc = docs.find((d) => `${d.get('kind') as string}/${d.getIn(['metadata', 'name']) as string}` === target);
  assert.ok(doc, `the bundle holds ${target}`);
  change(doc!);
  return docs.map((d) => d.toString()).join('---\n');
}

const without = (target: string): string => {
  const docs = (parseAllDocuments(BUNDLE) as Document[]).filter((d) => `${d.get('kind') as string}/${d.getIn(['metadata', 'name']) as string}` !== target);
  return docs.map((d) => d.toString()).join('---\n');
};

const dataOf = (object: string): string[] => (object.startsWith('Secret/') ? ['stringData'] : ['data']);
const labelOf = (object: string): string => `${object.split('/')[0]} agents/${object.split('/')[1]}`;

interface Case {
  name: string;
  text: string;
  want: Map<string, Verdict>;
  /** The object whose change every non-failure verdict's chain must end in, and the key, when there is one. */
  changed?: { label: string; key?: string };
  /** A failure code every will-not-compile verdict must carry. */
  code?: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const r of KEY_RULES) {
    const value = r.use === 'schema' ? '{"type": "object", "properties": {"added": {"type": "boolean"}}}' : 'dummy-changed-value';
    out.push({ name: `${r.object} ${r.key}: a new value`, text: edited(r.object, (d) => d.setIn([...dataOf(r.object), r.key], value)), want: onValue(r), changed: { label: labelOf(r.object), key: r.key } });
    out.push({ name: `${r.object} ${r.key}: removed`, text: edited(r.object, (d) => d.deleteIn([...dataOf(r.object), r.key])), want: onKeyRemoved(r), ...(r.use === 'prompt' && !r.required ? { changed: { label: labelOf(r.object), key: r.key } } : { code: 'missing-key' }) });
  }
  for (const object of new Set(KEY_RULES.map((r) => r.object))) {
    const recreated = edited(object, (d) => d.setIn(['metadata', 'uid'], '0a1b0000-0000-4000-8000-0000000000ff'));
    out.push({ name: `${object}: deleted and created again`, text: recreated, want: onRecreated(object), changed: { label: labelOf(object) } });
    out.push({ name: `${object}: removed from the render`, text: without(object), want: onSourceRemoved(object), code: 'removed' });
    out.push({ name: `${object}: a label added`, text: edited(object, (d) => d.setIn(['metadata', 'labels'], { team: 'sre' })), want: new Map() });
  }
  for (const object of OBJECT_RULES.keys()) {
    out.push({ name: `${object}: deleted and created again`, text: edited(object, (d) => d.setIn(['metadata', 'uid'], '0a1b0000-0000-4000-8000-0000000000fe')), want: onObject(object, 'uid'), changed: { label: labelOf(object) } });
    out.push({ name: `${object}: removed from the render`, text: without(object), want: onObject(object, 'removed'), ...(object.startsWith('Agent/') ? {} : { code: 'removed' }) });
    out.push({ name: `${object}: an annotation added`, text: edited(object, (d) => d.setIn(['metadata', 'annotations'], { owner: 'sre' })), want: new Map() });
  }
  const spec: Array<[string, (d: Document) => void]> = [
    ['ModelConfig/gpt', (d) => d.setIn(['spec', 'model'], 'gpt-4o')],
    ['ModelConfig/claude', (d) => d.setIn(['spec', 'model'], 'claude-opus-4')],
    ['ModelConfig/bedrock', (d) => d.setIn(['spec', 'bedrock', 'region'], 'eu-west-1')],
    ['ModelConfig/foundry', (d) => d.setIn(['spec', 'foundry', 'deployment'], 'gpt-4o-2')],
    ['RemoteMCPServer/docs', (d) => d.setIn(['spec', 'url'], 'https://docs-mcp.example.com/v2')],
    ['AgentTemplate/triage', (d) => d.setIn(['spec', 'description'], 'Sorts alerts.')],
    ['AgentTemplate/lead', (d) => d.setIn(['spec', 'description'], 'Leads.')],
    ['AgentTemplate/researcher', (d) => d.setIn(['spec', 'systemPrompt'], 'Research deploys.')],
    ['Harness/standard', (d) => d.setIn(['spec', 'env', 0, 'prefix'], 'Token ')],
    ['Harness/minimal', (d) => d.setIn(['spec', 'env', 0, 'value'], 'debug')],
    ['Agent/researcher', (d) => d.setIn(['spec', 'harness', 'inline', 'env', 0, 'value'], 'info')],
    ['Agent/summarizer', (d) => d.setIn(['spec', 'template', 'inline', 'systemPrompt'], 'Summarize briefly.')],
  ];
  for (const [object, change] of spec) out.push({ name: `${object}: its spec`, text: edited(object, change), want: onObject(object, 'spec'), changed: { label: labelOf(object) } });
  const reordered = '{"properties": {"severity": {"type": "integer"}, "summary": {"type": "string"}},\n  "type": "object"}';
  out.push({ name: 'ConfigMap/report-schema schema.json: reformatted, keys reordered', text: edited('ConfigMap/report-schema', (d) => d.setIn(['data', 'schema.json'], reordered)), want: new Map() });
  out.push({ name: 'ConfigMap/report-schema schema.json: not JSON', text: edited('ConfigMap/report-schema', (d) => d.setIn(['data', 'schema.json'], '{"type": "object"')), want: new Map([['lead', 'will-not-compile']]), code: 'invalid-output-schema' });
  out.push({ name: 'ConfigMap/lead-prompt: binaryData only', text: edited('ConfigMap/lead-prompt', (d) => d.setIn(['binaryData', 'logo.png'], 'AAAAAAAA')), want: new Map() });
  out.push({ name: 'the whole bundle reformatted', text: (parseAllDocuments(BUNDLE) as Document[]).map((d) => d.toString({ collectionStyle: 'block', indent: 4 })).join('---\n'), want: new Map() });
  // Credential modes kagent 1.0's egress gateway cannot serve (kagent issue #2873).
  const unsupported: Array<[string, string, (d: Document) => void, string[]]> = [
    ['SAP AI Core', 'ModelConfig/claude', (d) => d.setIn(['spec', 'provider'], 'SAPAICore'), ['lead']],
    ['Vertex AI with apiKeySecret', 'ModelConfig/claude', (d) => d.setIn(['spec', 'provider'], 'AnthropicVertexAI'), ['lead']],
    ['a custom CA Secret', 'ModelConfig/gpt', (d) => d.setIn(['spec', 'tls'], { caCertSecretRef: 'corp-ca' }), ['lead', 'triage']],
    ['a Secret-backed env entry', 'Harness/minimal', (d) => d.setIn(['spec', 'env', 1], { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'git-creds', key: 'token' } } }), ['summarizer']],
    ['a Bedrock access key pair', 'Secret/bedrock-creds', (d) => d.set('stringData', { AWS_ACCESS_KEY_ID: 'dummy-id', AWS_SECRET_ACCESS_KEY: 'dummy-secret' }), ['researcher']],
  ];
  for (const [what, object, change, agents] of unsupported) {
    out.push({ name: `${what}: will not compile`, text: edited(object, change), want: new Map(agents.map((a) => [a, 'will-not-compile'])), code: 'unsupported-credential' });
  }
  return out;
}

interface AgentJson {
  resourceRef: { name: string };
  change: string;
  inputs: Array<{ chain: string[]; keys: Array<{ key: string }> }>;
  failures: Array<{ code: string; chain: string[]; field: string; reason: string }>;
}

const ALL = cases();

test('the differential bundle: more than 100 single edits, each with verdicts from the rule table (#35)', () => {
  assert.ok(ALL.length > 100, `${ALL.length} cases`);
  assert.ok(ALL.some((c) => [...c.want.values()].includes('applies-live')) && ALL.some((c) => [...c.want.values()].includes('will-not-compile')));
});

for (const c of ALL) {
  test(`diff: ${c.name} → ${[...c.want].map(([a, v]) => `${a} ${v}`).join(', ') || 'nothing'} (#35)`, async () => {
    const json = await runNew('json', c.text);
    const text = await runNew('text', c.text);
    const md = await runNew('markdown', c.text);
    const code = [...c.want.values()].includes('will-not-compile') ? 4 : c.want.size > 0 ? 3 : 0;
    for (const run of [json, text, md]) {
      assert.is(run.code, code, run.stderr);
      assert.not.match(`${run.stdout}${run.stderr}`, 'dummy-', 'no value is printed');
    }
    const doc = JSON.parse(json.stdout) as { kagent: { agents: AgentJson[] } };
    assert.ok(validate(doc), JSON.stringify(validate.errors));
    const got = new Map(doc.kagent.agents.map((a) => [a.resourceRef.name, a.change]));
    assert.equal([...got].sort(), [...c.want].sort(), 'the verdict per agent');
    for (const a of doc.kagent.agents) {
      if (a.change === 'will-not-compile') {
        assert.ok(a.failures.length > 0 && a.failures.every((f) => f.field !== '' && f.reason !== ''), 'what fails names the field');
        if (c.code) assert.ok(a.failures.some((f) => f.code === c.code), `${a.resourceRef.name}: a ${c.code} failure: ${JSON.stringify(a.failures)}`);
      } else if (c.changed && a.change !== 'disappears') {
        const via = a.inputs.filter((i) => i.chain.at(-1) === c.changed!.label);
        assert.ok(via.length > 0 && via.every((i) => i.chain[0] === `Agent agents/${a.resourceRef.name}`), `${a.resourceRef.name}: the chain from the Agent to ${c.changed.label}`);
        if (c.changed.key) assert.ok(via.some((i) => i.keys.some((k) => k.key === c.changed!.key)), `${a.resourceRef.name}: names the key ${c.changed.key}`);
      }
    }
    for (const agent of AGENTS) {
      const id = `api.kagent.dev/v1alpha3/Agent/agents/${agent}`;
      const verdict = c.want.get(agent);
      const line = text.stdout.split('\n').find((l) => l.startsWith(`${id} `));
      const row = md.stdout.split('\n').find((l) => l.startsWith(`| \`${id}\` |`));
      if (verdict === undefined) {
        assert.is(line, undefined, `text lists ${agent}`);
        assert.is(row, undefined, `markdown lists ${agent}`);
      } else {
        assert.ok(line?.includes(`  ${WORDS[verdict]}  `) || line?.trimEnd().endsWith(WORDS[verdict]), `text: ${agent} ${WORDS[verdict]}: ${line}`);
        assert.ok(row?.includes(verdict === 'will-not-compile' ? '**will not compile**' : `| ${WORDS[verdict]}`), `markdown: ${agent} ${WORDS[verdict]}: ${row}`);
      }
    }
  });
}

/** `diff -o FORMAT BUNDLE -` with the edited render on stdin. */
function runNew(format: string, text: string): ReturnType<typeof runInProcess> {
  return runInProcess(['diff', '-q', '-o', format, join(ROOT, 'fixtures/kagent/kagent1x-differential/input.yaml'), '-'], { stdin: text });
}

test.run();
