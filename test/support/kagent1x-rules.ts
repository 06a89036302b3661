// The rule table of the kagent 1.x differential test (#35): what kagent 1.0.x as released does to each Agent of
// fixtures/kagent/kagent1x-differential when one input changes, written from kagent's code, not from rollstamp's.
// Each row cites the kagent file (kagent-dev/kagent, path@commit) its rule comes from. The test derives every
// expected verdict of every single edit from these rows (kagent1x-differential.test.ts).

export type Verdict = 'will-not-compile' | 'recompiles' | 'applies-live' | 'disappears';

/**
 * How kagent uses one key of a Secret or ConfigMap:
 * - `credential`: an egress-gateway binding; a new value or a recreated Secret applies live, a missing key fails.
 * - `prompt`: a ConfigMap whose whole `data` and UID are provenance; `required` keys are the ones a field names.
 * - `compiled`: a ConfigMap key whose value is compiled into the agent's config; its UID is not provenance.
 * - `schema`: the root template's outputSchemaFrom key, compared as canonical JSON.
 * - `unconsumed`: read by no Agent.
 */
export type KeyUse = 'credential' | 'prompt' | 'compiled' | 'schema' | 'unconsumed';

export interface KeyRule {
  object: string;
  key: string;
  use: KeyUse;
  /** A prompt ConfigMap key a field names (systemPromptFrom): removing it fails the compile. */
  required?: true;
  /** The Agents whose revision reads it. */
  agents: string[];
  rule: string;
}

const PROVENANCE = 'go/core/internal/translator/adkconfig/builder.go@015961a6 BuildProvenance';
const CREDENTIALS = 'go/core/internal/translator/credentials.go@da5d9e6d CompileCredentials; revision.go@092a61b4';
const SCHEMA = 'go/core/internal/translator/outputschema.go@25bc8a04 resolveOutputSchema';

export const KEY_RULES: readonly KeyRule[] = [
  { object: 'Secret/openai-key', key: 'api-key', use: 'credential', agents: ['lead', 'triage'], rule: `${CREDENTIALS}: ModelConfig apiKeySecret (OpenAI; triage, and the Harness memory model of lead and triage)` },
  { object: 'Secret/openai-key', key: 'rotation-note', use: 'unconsumed', agents: [], rule: `${CREDENTIALS}: only apiKeySecretKey is bound` },
  { object: 'Secret/anthropic-key', key: 'api-key', use: 'credential', agents: ['lead'], rule: `${CREDENTIALS}: ModelConfig apiKeySecret (Anthropic)` },
  { object: 'Secret/bedrock-creds', key: 'AWS_BEARER_TOKEN_BEDROCK', use: 'credential', agents: ['researcher'], rule: `${CREDENTIALS}: Bedrock binds AWS_BEARER_TOKEN_BEDROCK` },
  { object: 'Secret/foundry-key', key: 'api-key', use: 'credential', agents: ['summarizer'], rule: `${CREDENTIALS}: ModelConfig apiKeySecret (Foundry)` },
  { object: 'Secret/docs-mcp-auth', key: 'authorization', use: 'credential', agents: ['lead', 'researcher', 'triage'], rule: `${CREDENTIALS}: RemoteMCPServer headersFrom Secret` },
  { object: 'Secret/git-creds', key: 'token', use: 'credential', agents: ['researcher'], rule: `${CREDENTIALS}: skills git credentialRef` },
  { object: 'Secret/search-api', key: 'token', use: 'credential', agents: ['lead', 'triage'], rule: 'go/core/internal/translator/credentialref_test.go@8e6ec3d2: Harness env credentialRef' },
  { object: 'ConfigMap/lead-prompt', key: 'prompt.md', use: 'prompt', required: true, agents: ['lead'], rule: `${PROVENANCE}: systemPromptFrom, whole data and UID` },
  { object: 'ConfigMap/lead-prompt', key: 'style.md', use: 'prompt', agents: ['lead'], rule: `${PROVENANCE}: systemPromptFrom, whole data and UID` },
  { object: 'ConfigMap/incident-data', key: 'runbook.md', use: 'prompt', agents: ['lead', 'triage'], rule: `${PROVENANCE}: promptTemplate.dataSources of every template, sub-agents' too` },
  { object: 'ConfigMap/report-schema', key: 'schema.json', use: 'schema', agents: ['lead'], rule: `${SCHEMA}: the root template only` },
  { object: 'ConfigMap/report-schema', key: 'notes.txt', use: 'unconsumed', agents: [], rule: `${SCHEMA}: only the named key` },
  { object: 'ConfigMap/triage-schema', key: 'schema.json', use: 'schema', agents: ['triage'], rule: `${SCHEMA}: not lead's, where triage is a sub-agent` },
  { object: 'ConfigMap/mcp-settings', key: 'tenant', use: 'compiled', agents: ['lead', 'researcher', 'triage'], rule: 'adkconfig/builder.go@015961a6 resolveValueRef: a ConfigMap header value in the config' },
  { object: 'ConfigMap/mcp-settings', key: 'region', use: 'unconsumed', agents: [], rule: 'adkconfig/builder.go@015961a6 resolveValueRef: only the named key' },
  { object: 'ConfigMap/foundry-endpoint', key: 'url', use: 'compiled', agents: ['summarizer'], rule: 'adkconfig/builder.go@015961a6 credentialModel: foundry.endpointFrom' },
];

/** Each kagent object and the Agents whose revision covers its spec and UID (BuildProvenance). */
export const OBJECT_RULES: ReadonlyMap<string, string[]> = new Map([
  ['ModelConfig/gpt', ['lead', 'triage']],
  ['ModelConfig/claude', ['lead']],
  ['ModelConfig/bedrock', ['researcher']],
  ['ModelConfig/foundry', ['summarizer']],
  ['RemoteMCPServer/docs', ['lead', 'researcher', 'triage']],
  ['AgentTemplate/triage', ['lead', 'triage']],
  ['AgentTemplate/lead', ['lead']],
  ['AgentTemplate/researcher', ['researcher']],
  ['Harness/standard', ['lead', 'triage']],
  ['Harness/minimal', ['summarizer']],
  ['Agent/lead', ['lead']],
  ['Agent/triage', ['triage']],
  ['Agent/researcher', ['researcher']],
  ['Agent/summarizer', ['summarizer']],
]);

const every = (agents: readonly string[], verdict: Verdict): Map<string, Verdict> => new Map(agents.map((a) => [a, verdict]));

/** A key's value changes. */
export function onValue(r: KeyRule): Map<string, Verdict> {
  return r.use === 'unconsumed' ? new Map() : every(r.agents, r.use === 'credential' ? 'applies-live' : 'recompiles');
}

/** A key is removed (or renamed): what reads it by name fails; a prompt ConfigMap's other keys are data. */
export function onKeyRemoved(r: KeyRule): Map<string, Verdict> {
  if (r.use === 'unconsumed') return new Map();
  return every(r.agents, r.use === 'prompt' && !r.required ? 'recompiles' : 'will-not-compile');
}

/** The Secret or ConfigMap is deleted and created again with the same data (a new UID). */
export function onRecreated(object: string): Map<string, Verdict> {
  const rules = KEY_RULES.filter((r) => r.object === object);
  const out = new Map<string, Verdict>();
  for (const r of rules) for (const a of r.agents) if (r.use === 'prompt') out.set(a, 'recompiles');
  for (const r of rules) for (const a of r.agents) if (r.use === 'credential' && !out.has(a)) out.set(a, 'applies-live');
  return out;
}

/** The Secret or ConfigMap is removed from the render: every Agent that reads a key of it fails. */
export function onSourceRemoved(object: string): Map<string, Verdict> {
  return every(KEY_RULES.filter((r) => r.object === object && r.use !== 'unconsumed').flatMap((r) => r.agents), 'will-not-compile');
}

/** A kagent object's spec or UID changes, or it is removed (an Agent removed disappears). */
export function onObject(object: string, edit: 'spec' | 'uid' | 'removed'): Map<string, Verdict> {
  const agents = OBJECT_RULES.get(object)!;
  if (edit !== 'removed') return every(agents, 'recompiles');
  return every(agents, object.startsWith('Agent/') ? 'disappears' : 'will-not-compile');
}
