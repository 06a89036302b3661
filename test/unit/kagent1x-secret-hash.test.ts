// kagent 1.x ModelConfig status.secretHash computed offline (#20), pinned with worked examples recomputed by
// sha256sum: kagent's controller (modelconfig.go `hashModelConfigValues`) hashes each referenced object in
// order of `namespace/name` — that string, then each data key followed by its raw value — a Secret's whole
// data, a ConfigMap only the referenced key; an object that does not exist is left out.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const sha256sum = (input: string): string => execFileSync('sha256sum', { input, encoding: 'utf8' }).split(' ')[0]!;

interface ModelConfigJson {
  resourceRef: { name: string };
  secretHash?: string;
  unknown?: string;
  covers: string[];
}

async function modelConfigs(yaml: string): Promise<Map<string, ModelConfigJson>> {
  const run = await runInProcess(['explain', '-o', 'json', '-'], { stdin: yaml });
  assert.is(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as { kagent: { modelConfigs: ModelConfigJson[] } };
  return new Map(doc.kagent.modelConfigs.map((m) => [m.resourceRef.name, m]));
}

const MODELS = `apiVersion: api.kagent.dev/v1alpha3
kind: ModelConfig
metadata: {name: openai, namespace: agents}
spec: {provider: OpenAI, model: gpt-4o, apiKeySecret: openai-key, apiKeySecretKey: api-key}
---
apiVersion: api.kagent.dev/v1alpha3
kind: ModelConfig
metadata: {name: foundry, namespace: agents}
spec:
  provider: Foundry
  model: gpt-4o
  apiKeySecret: foundry-key
  apiKeySecretKey: key
  foundry: {deployment: d, endpointFrom: {name: endpoints, key: url}}
---
apiVersion: api.kagent.dev/v1alpha3
kind: ModelConfig
metadata: {name: absent, namespace: agents}
spec: {provider: OpenAI, model: gpt-4o, apiKeySecret: nowhere, apiKeySecretKey: api-key}
---
apiVersion: v1
kind: Secret
metadata: {name: openai-key, namespace: agents}
data: {api-key: c2stMQ==}
stringData: {zz-note: unread}
---
apiVersion: v1
kind: Secret
metadata: {name: foundry-key, namespace: agents}
stringData: {key: fk}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: endpoints, namespace: agents}
data: {url: "https://f.example", other: ignored}
`;

test('a Secret counts whole: every data key, stringData folded in, in key order (#20)', async () => {
  const got = (await modelConfigs(MODELS)).get('openai')!;
  assert.is(got.secretHash, sha256sum('agents/openai-keyapi-keysk-1zz-noteunread'));
  assert.equal(got.covers, ['Secret agents/openai-key (all of data)']);
});

test('a Foundry endpointFrom ConfigMap counts only its key, sorted with the Secret by namespace/name (#20)', async () => {
  const got = (await modelConfigs(MODELS)).get('foundry')!;
  assert.is(got.secretHash, sha256sum('agents/endpointsurlhttps://f.exampleagents/foundry-keykeyfk'));
});

test('a ConfigMap without the key counts the key with an empty value; a Secret not in the input is not known offline, never the hash of nothing (#20, #35)', async () => {
  const without = (await modelConfigs(MODELS.replace('data: {url: "https://f.example", other: ignored}', 'data: {other: ignored}'))).get('foundry')!;
  assert.is(without.secretHash, sha256sum('agents/endpointsurlagents/foundry-keykeyfk'));
  const absent = (await modelConfigs(MODELS)).get('absent')!;
  assert.is(absent.secretHash, undefined);
  assert.not.equal(absent.secretHash, sha256sum(''));
  assert.match(absent.unknown ?? '', 'is not in the input: only the cluster knows it');
});

test('a Secret only a producer makes: the hash is not known offline, and says why (#20)', async () => {
  const produced = `${MODELS}---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: nowhere, namespace: agents}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target: {name: nowhere}
  data: [{secretKey: api-key, remoteRef: {key: openai}}]
`;
  const got = (await modelConfigs(produced)).get('absent')!;
  assert.is(got.secretHash, undefined);
  assert.match(got.unknown!, 'made by ExternalSecret agents/nowhere');
});

test('Bedrock and SAPAICore hash their Secret whole, once (#20)', async () => {
  const bedrock = `apiVersion: api.kagent.dev/v1alpha3
kind: ModelConfig
metadata: {name: bedrock, namespace: agents}
spec: {provider: Bedrock, model: m, apiKeySecret: aws, bedrock: {region: us-east-1}}
---
apiVersion: v1
kind: Secret
metadata: {name: aws, namespace: agents}
stringData: {AWS_SECRET_ACCESS_KEY: s, AWS_ACCESS_KEY_ID: a}
`;
  assert.is((await modelConfigs(bedrock)).get('bedrock')!.secretHash, sha256sum('agents/awsAWS_ACCESS_KEY_IDaAWS_SECRET_ACCESS_KEYs'));
});

test.run();
