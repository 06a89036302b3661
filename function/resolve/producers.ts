// Resolve stage: the digest inputs of a producer's output (its row in kinds/producers.ts says which fields),
// with the results of a spec that cannot be read or a deprecated apiVersion; and SOPS-encrypted Secrets,
// whose values are ciphertext.
import { canonicalObject } from '../model/canonical.ts';
import { warningResult, type Result } from '../model/results.ts';
import { child, childIn, isMapNode, NodeReader } from '../model/nodes.ts';
import type { KObject, Produced, ProducerOutput } from '../model/object.ts';
import { producerKindOf } from '../kinds/producers.ts';

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/**
 * The digest inputs of one producer output. Call only after isSafeToRead(obj).
 * - A spec that is not a map, or a deprecated apiVersion, is a result (error, warning).
 */
export function readProduced(obj: KObject, output: ProducerOutput, results: Result[]): Produced | undefined {
  const kind = producerKindOf(obj)!;
  const reader = new NodeReader(obj.subject, results);
  const before = results.length;
  const spec = reader.map(child(obj.item.node, 'spec'), ['spec']);
  if (results.length > before) return undefined;
  const deprecation = kind.deprecated?.[obj.apiVersion];
  if (deprecation) results.push(warningResult('DEPRECATED_API', deprecation, obj.subject, 'apiVersion'));
  return { kind: `${kind.group}/${kind.kind}`, producer: `${kind.kind} ${obj.namespace}/${obj.name}`, ...kind.read(spec, obj, output) };
}

/** A SOPS-encrypted Secret (a top-level `sops` map): its values are ciphertext, never base64-decoded. */
export function isSopsSecret(obj: KObject): boolean {
  return obj.group === '' && obj.kind === 'Secret' && isMapNode(child(obj.item.node, 'sops'));
}

/**
 * A SOPS Secret's digest inputs: each key's ciphertext as written (from `data` or `stringData`), and
 * `sops.mac`, the MAC over every value, which changes whenever any value does.
 */
export function readSops(obj: KObject, results: Result[]): Produced | undefined {
  const reader = new NodeReader(obj.subject, results);
  const before = results.length;
  const keyed = new Map<string, Uint8Array>();
  for (const field of ['data', 'stringData'] as const) {
    const map = reader.map(child(obj.item.node, field), [field]);
    for (const [key, value] of map ? reader.stringEntries(map, [field]) : []) keyed.set(key, utf8(JSON.stringify({ [field]: value })));
  }
  const mac = reader.str(childIn(obj.item.node, ['sops', 'mac']), ['sops', 'mac']);
  if (results.length > before) return undefined;
  return { kind: 'sops', producer: `Secret ${obj.namespace}/${obj.name}`, common: canonicalObject({ mac: JSON.stringify(mac ?? null) }), keyed };
}

