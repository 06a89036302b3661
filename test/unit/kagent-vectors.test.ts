// `hashScheme: kagent` against kagent's own test vectors and the Foundry endpointFrom cases of its reconciler
// tests (kagent-dev/kagent release/v0.10.x, go/core/internal/controller/reconciler/reconciler_test.go:
// TestComputeStatusSecretHash_Output, TestReconcileKagentModelConfig_FoundryEndpointFrom), plus a key that is
// only in binaryData (kagent reads cm.Data[key], #13). Each golden case under fixtures/kagent stamps one
// ModelConfig; here its stamp is recomputed by hand: `sha256sum` over the bytes kagent writes
// (computeStatusSecretHash: namespace/name, then each key and value, no separators).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { FIXTURES } from '../support/fixtures.ts';
import { runInProcess } from '../support/run-cli.ts';

const sha256sum = (input: string): string => execFileSync('sha256sum', { input, encoding: 'utf8' }).split(' ')[0]!;

/** The ModelConfig's stamp in a stamped stream. */
function modelConfigStamp(text: string): string | undefined {
  for (const doc of parseAllDocuments(text)) {
    const obj = doc.toJS() as { kind?: string; metadata?: { annotations?: Record<string, string> } };
    if (obj.kind === 'ModelConfig') return obj.metadata?.annotations?.['rollstamp.dev/hash'];
  }
  return undefined;
}

const expectedStamp = (fixture: string): string | undefined => modelConfigStamp(readFileSync(join(FIXTURES, 'kagent', fixture, 'expected.yaml'), 'utf8'));

const URL = 'https://aso.cognitiveservices.azure.com/';

/** fixture, what kagent hashes (written from the Go tests' inputs), and the digest kagent's test expects. */
const vectors: Array<[string, string, string | undefined]> = [
  ['kagent-vector-no-secrets', '', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['kagent-vector-one-secret-no-keys', 'test/secret1', '68a268d3f02147004cfa8b609966ec4cba7733f8c652edb80be8071eb1b91574'],
  ['kagent-vector-one-secret-one-key', 'test/secret1key1value1', '62dc22ecd609281a5939efd60fae775e6b75b641614c523c400db994a09902ff'],
  ['kagent-vector-one-secret-two-keys', 'test/secret1key1value1key2value2', 'ba6798ec591d129f78322cdae569eaccdb2f5a8343c12026f0ed6f4e156cd52e'],
  ['kagent-vector-two-secrets', 'test/secret1key1value1test/secret2key2value2', 'f174f0e21a4427a87a23e4f277946a27f686d023cbe42f3000df94a4df94f7b5'],
  ['kagent-foundry-endpoint-resolved', `default/foundry-endpointendpoint${URL}`, undefined],
  ['kagent-foundry-endpoint-missing-key', 'default/foundry-endpointendpoint', undefined],
  ['kagent-foundry-endpoint-missing-optional-key', 'default/foundry-endpointendpoint', undefined],
  ['kagent-foundry-endpoint-missing-configmap', '', undefined],
  ['kagent-foundry-endpoint-binary-data', 'default/foundry-endpointendpoint', undefined],
  // kagent reads a v1alpha1 ModelConfig through its v1alpha2 type: no apiKeySecretRef, nothing hashed.
  ['hash-scheme-kagent-v1alpha1-model-config', '', undefined],
];

for (const [fixture, preimage, kagentWant] of vectors) {
  test(`hashScheme kagent: ${fixture} equals sha256sum of what kagent hashes`, () => {
    const byHand = sha256sum(preimage);
    if (kagentWant !== undefined) assert.is(byHand, kagentWant, "the hand computation reproduces kagent's own vector");
    assert.is(expectedStamp(fixture), `sha256:${byHand}`);
  });
}

test('scheme v1: a Foundry endpoint key only in binaryData counts as absent, whatever its bytes (#13)', async () => {
  const stampV1 = async (fixture: string, input?: string): Promise<string | undefined> => {
    const run = await runInProcess(['stamp', input === undefined ? 'input.yaml' : '-'], { cwd: join(FIXTURES, 'kagent', fixture), ...(input === undefined ? {} : { stdin: input }) });
    assert.is(run.code, 0, run.stderr);
    return modelConfigStamp(run.stdout);
  };
  const binary = await stampV1('kagent-foundry-endpoint-binary-data');
  const missing = await stampV1('kagent-foundry-endpoint-missing-key');
  const resolved = await stampV1('kagent-foundry-endpoint-resolved');
  assert.ok(binary?.startsWith('sha256:'));
  assert.is(binary, missing, 'the same as a missing key');
  assert.is.not(binary, resolved);
  const text = readFileSync(join(FIXTURES, 'kagent', 'kagent-foundry-endpoint-binary-data', 'input.yaml'), 'utf8');
  const rotated = text.replace(/binaryData: \{endpoint: [^}]*\}/, `binaryData: {endpoint: ${Buffer.from('https://other.example/').toString('base64')}}`);
  assert.is.not(rotated, text);
  assert.is(await stampV1('kagent-foundry-endpoint-binary-data', rotated), binary, 'binaryData bytes kagent never reads change nothing');
});

test.run();
