// Hash stage, kagent 1.x (#20, #35): the `status.secretHash` kagent 1.x's controller reports for a ModelConfig,
// computed offline, and the preview of a run's 1.x objects. kagent (go/core/internal/controller/modelconfig.go@7576fea0,
// `hashModelConfigValues`; not changed by kagent PR #2868): SHA-256 over the referenced objects in byte order of
// `namespace/name`; for each, that string, then every data key in byte order followed by its raw value — the
// `apiKeySecret`'s whole `.data`, for `foundry.endpointFrom` only the referenced key (`Data[key]`, empty when
// absent, never binaryData). kagent leaves out an object that does not exist; offline, one that is not in the
// input may exist in the cluster, so the hash is then not known offline (never the hash of nothing).
import { kagentSecretHash, type KagentSecret } from './kagent-scheme.ts';
import { dataEntries } from '../resolve/bundle.ts';
import { resolveSource } from '../resolve/index.ts';
import { child, NodeReader } from '../model/nodes.ts';
import { errorResult } from '../model/results.ts';
import { sourceId, type KObject } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import { keyRef } from '../discover/util-kagent1x-fields.ts';
import type { Kagent1xModelConfig, Kagent1xReport } from '../model/kagent1x.ts';
import { lookupOf, previewAgents, PreviewBudgetSpent, type PreviewContext } from './kagent1x-preview.ts';

/** The Secret and ConfigMap keys status.secretHash covers: the API-key Secret whole, the Foundry endpoint key. */
function secretHashRefs(obj: KObject): Array<{ cls: 'Secret' | 'ConfigMap'; name: string; key?: string; field: string }> {
  // Its references were read (and their problems reported) by the Agent walk already; read them quietly here.
  const reader = new NodeReader(obj.subject, []);
  const spec = reader.mapIn(obj.item.node, [], ['spec']);
  if (!spec) return [];
  const out: Array<{ cls: 'Secret' | 'ConfigMap'; name: string; key?: string; field: string }> = [];
  const secret = reader.str(child(spec, 'apiKeySecret'), ['spec', 'apiKeySecret']);
  if (secret) out.push({ cls: 'Secret', name: secret, field: 'spec.apiKeySecret' });
  const foundry = reader.map(child(spec, 'foundry'), ['spec', 'foundry']);
  const endpoint = foundry ? keyRef(reader, child(foundry, 'endpointFrom'), ['spec', 'foundry', 'endpointFrom']) : undefined;
  if (endpoint) out.push({ cls: 'ConfigMap', name: endpoint.name, key: endpoint.key, field: 'spec.foundry.endpointFrom' });
  return out;
}

/** The 1.x ModelConfig's status.secretHash, or why it cannot be known offline (a producer, an object not in the input). */
export function modelConfigSecretHash(obj: KObject, ctx: PreviewContext): Kagent1xModelConfig | undefined {
  if (!isSafeToRead(obj, ctx.results)) return undefined;
  const values: KagentSecret[] = [];
  const covers: string[] = [];
  let unknown: string | undefined;
  for (const ref of secretHashRefs(obj)) {
    const id = sourceId(ref.cls, obj.namespace, ref.name);
    const namespacedName = `${obj.namespace}/${ref.name}`;
    const resolution = resolveSource({ id, cls: ref.cls, namespace: obj.namespace, name: ref.name, whole: true, keys: new Map(), optional: false, fields: [ref.field] }, ctx);
    covers.push(ref.key === undefined ? `Secret ${namespacedName} (all of data)` : `ConfigMap ${namespacedName} key ${ref.key}`);
    if ('entries' in resolution) {
      if (ref.key === undefined) values.push({ namespacedName, data: resolution.entries });
      else values.push({ namespacedName, data: new Map([[ref.key, dataEntries(resolution.entries).get(ref.key) ?? new Uint8Array()]]) });
    } else if ('produced' in resolution) unknown ??= `${ref.cls} ${namespacedName} is made by ${resolution.produced.producer}: only the cluster has its values`;
    else if (resolution.from === 'missing') unknown ??= `${ref.cls} ${namespacedName} is not in the input: only the cluster knows it`;
    else if (resolution.from === 'ignored') unknown ??= `${ref.cls} ${namespacedName} is ignored (rollstamp.dev/ignore)`;
    else unknown ??= `${ref.cls} ${namespacedName} could not be read`;
  }
  const check = `kubectl get modelconfigs.${obj.group} ${obj.name} -n ${obj.namespace} -o jsonpath='{.status.secretHash}'`;
  const base = { resourceRef: obj.subject.ref!, ...(obj.subject.file ? { file: obj.subject.file } : {}), covers, check };
  return unknown ? { ...base, unknown } : { ...base, secretHash: kagentSecretHash(values).toString('hex') };
}

/**
 * Every 1.x Agent's inputs and failures and every 1.x ModelConfig's status.secretHash, from a plan's kagent 1.x
 * objects; past the run's preview rows, one TOO_MUCH_PREVIEW_WORK error and an empty report.
 */
export function previewKagent1x(objects: readonly KObject[], ctx: PreviewContext): Kagent1xReport {
  try {
    const agents = previewAgents(objects, lookupOf(objects), ctx);
    const modelConfigs = objects.filter((o) => o.kind === 'ModelConfig').flatMap((o) => modelConfigSecretHash(o, ctx) ?? []);
    return { agents, modelConfigs };
  } catch (err) {
    if (!(err instanceof PreviewBudgetSpent)) throw err;
    ctx.results.push(errorResult('TOO_MUCH_PREVIEW_WORK', err.message));
    return { agents: [], modelConfigs: [] };
  }
}
