// Hash stage, kagent 1.x (#20): the `status.secretHash` kagent 1.x's controller reports for a ModelConfig,
// computed offline. kagent (go/core/internal/controller/modelconfig.go@7576fea0, `hashModelConfigValues`):
// SHA-256 over the referenced objects in byte order of `namespace/name`; for each, that string, then every
// data key in byte order followed by its raw value — a Secret's whole `.data` (each Secret once), a
// ConfigMap only the referenced key (`Data[key]`, empty when absent, never binaryData). A referenced object
// that does not exist is left out. Hex, no prefix. Not a revision input: the one offline-vs-live check.
import { kagentSecretHash, type KagentSecret } from './kagent-scheme.ts';
import { modelConfigEdges } from '../discover/kagent1x-refs.ts';
import { dataEntries } from '../resolve/bundle.ts';
import { resolveSource } from '../resolve/index.ts';
import { NodeReader } from '../model/nodes.ts';
import { sourceId, type KObject } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { Kagent1xModelConfig, Kagent1xReport } from '../model/kagent1x.ts';
import { lookupOf, previewAgents, type PreviewContext } from './kagent1x-preview.ts';

/** The 1.x ModelConfig's status.secretHash, or why it cannot be known offline (a producer or no values). */
export function modelConfigSecretHash(obj: KObject, ctx: PreviewContext): Kagent1xModelConfig | undefined {
  if (!isSafeToRead(obj, ctx.results)) return undefined;
  // Its references were read (and their problems reported) by the Agent walk already; read them quietly here.
  const reader = new NodeReader(obj.subject, []);
  const spec = reader.mapIn(obj.item.node, [], ['spec']);
  const edges = spec ? modelConfigEdges(spec, ['spec'], reader) : [];
  const values: KagentSecret[] = [];
  const covers: string[] = [];
  const seen = new Set<string>();
  let unknown: string | undefined;
  for (const edge of edges) {
    if (edge.to !== 'source') continue;
    const id = sourceId(edge.cls, obj.namespace, edge.name);
    const namespacedName = `${obj.namespace}/${edge.name}`;
    if (edge.cls === 'Secret' && seen.has(id)) continue; // kagent hashes each Secret once
    seen.add(id);
    const resolution = resolveSource({ id, cls: edge.cls, namespace: obj.namespace, name: edge.name, whole: true, keys: new Map(), optional: false, fields: [edge.field] }, ctx);
    covers.push(edge.cls === 'Secret' ? `Secret ${namespacedName} (all of data)` : `ConfigMap ${namespacedName} key ${edge.keys![0]!}`);
    if ('entries' in resolution) {
      if (edge.cls === 'Secret') values.push({ namespacedName, data: resolution.entries });
      else {
        const key = edge.keys![0]!;
        values.push({ namespacedName, data: new Map([[key, dataEntries(resolution.entries).get(key) ?? new Uint8Array()]]) });
      }
    } else if ('produced' in resolution) unknown ??= `${edge.cls} ${namespacedName} is made by ${resolution.produced.producer}: only the cluster has its values`;
    else if (resolution.from !== 'missing' && resolution.from !== 'ignored') unknown ??= `${edge.cls} ${namespacedName} could not be read`;
    else if (resolution.from === 'ignored') unknown ??= `${edge.cls} ${namespacedName} is ignored (rollstamp.dev/ignore)`;
  }
  const check = `kubectl get modelconfigs.${obj.group} ${obj.name} -n ${obj.namespace} -o jsonpath='{.status.secretHash}'`;
  const base = { resourceRef: obj.subject.ref!, ...(obj.subject.file ? { file: obj.subject.file } : {}), covers, check };
  return unknown ? { ...base, unknown } : { ...base, secretHash: kagentSecretHash(values).toString('hex') };
}

/** Every 1.x Agent's inputs and every 1.x ModelConfig's status.secretHash, from a plan's kagent 1.x objects. */
export function previewKagent1x(objects: readonly KObject[], ctx: PreviewContext): Kagent1xReport {
  const agents = previewAgents(objects, lookupOf(objects), ctx);
  const modelConfigs = objects.filter((o) => o.kind === 'ModelConfig').flatMap((o) => modelConfigSecretHash(o, ctx) ?? []);
  return { agents, modelConfigs };
}
