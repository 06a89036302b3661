// Discover stage, kagent 1.x: where Secrets and ConfigMaps enter through ModelConfigs, RemoteMCPServers,
// Harnesses and EgressPolicies, and which credential modes kagent 1.0.x cannot compile (#35). Since kagent PR
// #2868 (before 1.0.0) credentials are egress-gateway bindings, read live and kept out of revision identity:
// go/core/internal/translator/credentials.go@da5d9e6d `CompileCredentials` (the bindings, and "any other
// Secret-backed env" refused), translator/revision.go@092a61b4, translator/credentialref_test.go@8e6ec3d2 (a
// rotated value and UID give the same revision), go/api/v1alpha3/modelconfig_types.go@f62c66fd (providers), and
// kagent issue #2873 (the modes the gateway cannot serve).
import { child, formatPath, isMapNode, isSeqNode, stringValue, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import { errorResult } from '../model/results.ts';
import type { Kagent1xEdge } from './kagent1x-refs.ts';
import { entries, keyRef, localRef } from './util-kagent1x-fields.ts';

/** Providers whose `apiKeySecret` key the gateway injects as a header (CompileCredentials, modelCredentialTarget). */
const GATEWAY_PROVIDERS: ReadonlySet<string> = new Set(['OpenAI', 'Anthropic', 'AzureOpenAI', 'Gemini', 'Foundry']);

/** The one Bedrock key the gateway serves; an access key pair needs request signing in the runtime. */
export const BEDROCK_BEARER_KEY = 'AWS_BEARER_TOKEN_BEDROCK';

/** Why a provider's Secret cannot be served (kagent issue #2873): signing or token exchange inside the runtime. */
const UNSUPPORTED_PROVIDERS: ReadonlyMap<string, string> = new Map([
  ['SAPAICore', 'SAP AI Core reads an OAuth2 client id and secret'],
  ['GeminiVertexAI', 'Vertex AI with apiKeySecret reads a service-account credential'],
  ['AnthropicVertexAI', 'Vertex AI with apiKeySecret reads a service-account credential'],
]);

const GATEWAY = "kagent 1.0's egress gateway cannot serve it (kagent issue #2873)";

/**
 * A ModelConfig spec's references.
 * - `apiKeySecret` + `apiKeySecretKey` (OpenAI, Anthropic, AzureOpenAI, Gemini, Foundry), Bedrock's
 *   `AWS_BEARER_TOKEN_BEDROCK`: applies live. `apiKeyPassthrough` reads no Secret.
 * - Will not compile: SAPAICore or Vertex AI with `apiKeySecret`, OpenAI `tokenExchange`, a `tls.caCertSecretRef`.
 * - `foundry.endpointFrom`: a ConfigMap key compiled into the agent's config: recompiles.
 */
export function modelConfigEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const secret = reader.str(child(spec, 'apiKeySecret'), [...base, 'apiKeySecret']);
  const key = reader.str(child(spec, 'apiKeySecretKey'), [...base, 'apiKeySecretKey']);
  const provider = reader.str(child(spec, 'provider'), [...base, 'provider']) ?? '';
  const passthrough = reader.bool(child(spec, 'apiKeyPassthrough'), [...base, 'apiKeyPassthrough']) === true;
  const field = formatPath([...base, 'apiKeySecret']);
  if (secret !== undefined && secret !== '' && !passthrough) {
    const unsupported = UNSUPPORTED_PROVIDERS.get(provider);
    const exchange = provider === 'OpenAI' && reader.mapIn(spec, base, ['openAI'])?.items.some((p) => stringValue(p.key) === 'tokenExchange');
    if (unsupported) out.push({ to: 'unsupported', field, reason: `${unsupported}: ${GATEWAY}` });
    else if (exchange) out.push({ to: 'unsupported', field: formatPath([...base, 'openAI', 'tokenExchange']), reason: `OpenAI tokenExchange reads a service-account Secret: ${GATEWAY}` });
    else if (provider === 'Bedrock') out.push({ to: 'source', cls: 'Secret', name: secret, keys: [BEDROCK_BEARER_KEY], bedrock: true, field, effect: 'applies-live' });
    else if (GATEWAY_PROVIDERS.has(provider)) {
      if (key !== undefined && key !== '') out.push({ to: 'source', cls: 'Secret', name: secret, keys: [key], field, effect: 'applies-live' });
      else reader.required([...base, 'apiKeySecretKey'], 'a non-empty string (apiKeySecret is set)');
    }
  }
  const tls = reader.map(child(spec, 'tls'), [...base, 'tls']);
  if (tls && child(tls, 'caCertSecretRef') !== undefined) {
    out.push({ to: 'unsupported', field: formatPath([...base, 'tls', 'caCertSecretRef']), reason: `a custom CA Secret: ${GATEWAY}` });
  }
  const foundry = reader.map(child(spec, 'foundry'), [...base, 'foundry']);
  const endpoint = foundry ? keyRef(reader, child(foundry, 'endpointFrom'), [...base, 'foundry', 'endpointFrom']) : undefined;
  if (endpoint) out.push({ to: 'source', cls: 'ConfigMap', name: endpoint.name, keys: [endpoint.key], field: formatPath([...base, 'foundry', 'endpointFrom']), effect: 'recompiles' });
  return out;
}

/**
 * A RemoteMCPServer spec's `headersFrom[]` (`valueFrom.type` Secret or ConfigMap, `name`, `key`): a Secret is a
 * gateway binding (applies live); a ConfigMap value is compiled into the agent's config (recompiles). A
 * `tls.caCertSecretRef` will not compile.
 */
export function remoteMcpEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  for (const [header, path] of entries(reader, child(spec, 'headersFrom'), [...base, 'headersFrom'])) {
    const from = reader.map(child(header, 'valueFrom'), [...path, 'valueFrom']);
    if (!from) continue;
    const type = reader.str(child(from, 'type'), [...path, 'valueFrom', 'type']);
    if (type !== 'Secret' && type !== 'ConfigMap') {
      if (type !== undefined) reader.results.push(errorResult('WRONG_TYPE', 'expected Secret or ConfigMap', reader.subject, formatPath([...path, 'valueFrom', 'type'])));
      continue;
    }
    const ref = keyRef(reader, from, [...path, 'valueFrom']);
    const effect = type === 'Secret' ? 'applies-live' : 'recompiles';
    if (ref) out.push({ to: 'source', cls: type, name: ref.name, keys: [ref.key], field: formatPath([...path, 'valueFrom']), effect });
  }
  const tls = reader.map(child(spec, 'tls'), [...base, 'tls']);
  if (tls && child(tls, 'caCertSecretRef') !== undefined) {
    out.push({ to: 'unsupported', field: formatPath([...base, 'tls', 'caCertSecretRef']), reason: `a custom CA Secret: ${GATEWAY}` });
  }
  return out;
}

/**
 * A Harness spec's references: `env[].credentialRef` (a gateway binding with the current Secret value: applies
 * live, credentialref_test.go@8e6ec3d2), an env entry backed by a Secret any other way (will not compile), and the
 * ModelConfigs of `kagent.memory.modelConfigRef` and `kagent.compaction.summarizer.modelConfigRef` (recompile).
 */
export function harnessEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  for (const [env, path] of entries(reader, child(spec, 'env'), [...base, 'env'])) {
    const ref = keyRef(reader, child(env, 'credentialRef'), [...path, 'credentialRef']);
    if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, 'credentialRef']), effect: 'applies-live' });
    const from = child(env, 'valueFrom');
    if (isMapNode(from) && child(from, 'secretKeyRef') !== undefined) {
      out.push({ to: 'unsupported', field: formatPath([...path, 'valueFrom', 'secretKeyRef']), reason: 'a Secret-backed env entry other than credentialRef: kagent 1.0 compiles only gateway credentials' });
    }
  }
  for (const keys of [['kagent', 'memory'], ['kagent', 'compaction', 'summarizer']]) {
    const holder = reader.mapIn(spec, base, keys);
    const n = holder ? localRef(reader, child(holder, 'modelConfigRef'), [...base, ...keys, 'modelConfigRef']) : undefined;
    if (n !== undefined) out.push({ to: 'object', kind: 'ModelConfig', name: n, field: formatPath([...base, ...keys, 'modelConfigRef', 'name']) });
  }
  return out;
}

/**
 * An EgressPolicy's credentials: every `credentialRef` or `secretRef` holding a Secret `name` and `key`, at any
 * depth of its spec (kagent's docs, agents/egress-policies: the gateway adds a credential from a Secret to each
 * request; "the credential never enters the agent's sandbox"): applies live. Walked with a stack, not recursion.
 */
export function egressEdges(spec: MapNode, base: FieldPath, reader: NodeReader): Kagent1xEdge[] {
  const out: Kagent1xEdge[] = [];
  const stack: Array<[MapNode, FieldPath]> = [[spec, base]];
  while (stack.length > 0) {
    const [map, path] = stack.pop()!;
    const nested: Array<[MapNode, FieldPath]> = [];
    for (const pair of map.items) {
      const key = stringValue(pair.key);
      if (key === undefined) continue;
      const value = pair.value;
      if ((key === 'credentialRef' || key === 'secretRef') && isMapNode(value) && child(value, 'key') !== undefined) {
        const ref = keyRef(reader, value, [...path, key]);
        if (ref) out.push({ to: 'source', cls: 'Secret', name: ref.name, keys: [ref.key], field: formatPath([...path, key]), effect: 'applies-live' });
      } else if (isMapNode(value)) nested.push([value, [...path, key]]);
      else if (isSeqNode(value)) value.items.forEach((item, i) => isMapNode(item) && nested.push([item, [...path, key, i]]));
    }
    // Depth first, in document order: the reversed children go on the stack.
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]!);
  }
  return out;
}
