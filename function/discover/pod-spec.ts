// Discover stage: the Secret and ConfigMap references inside one pod spec — env keyRefs (that key only),
// envFrom (whole), secret/configMap volumes and projected sources (listed items, else whole), and the
// SecretProviderClass of a Secrets Store CSI volume; also the env lists and name lists operators hold outside
// a pod spec (kinds/workload-rows.ts).
// imagePullSecrets are pull-time credentials, not runtime inputs, so they never count.
import type { FieldPath, NodeReader } from '../model/nodes.ts';
import { child, formatPath, isMapNode, isNullish } from '../model/nodes.ts';
import { fieldPath } from './field-paths.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { SourceClass } from '../model/object.ts';
import type { MapNode, SeqNode } from '../model/nodes.ts';

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

const KEY_REFS = [['secretKeyRef', 'Secret'], ['configMapKeyRef', 'ConfigMap']] as const;
const ENV_FROM_REFS = [['secretRef', 'Secret'], ['configMapRef', 'ConfigMap']] as const;
const PROJECTED_REFS = [['secret', 'Secret'], ['configMap', 'ConfigMap']] as const;
const CSI_ATTRIBUTES = ['csi', 'volumeAttributes'] as const;

// Where the walk is, as one array per walk: a segment is pushed on the way down and popped on the way back
// (every function leaves `at` as it found it). NodeReader reads a path only to name a wrong value, there and
// then, so the walk's own array serves: a path copied per field, for fields that are almost never wrong, was
// about two fifths of what planning allocated (#37). Only a reference's `field` is formatted, once.
type Walk = (string | number)[];

/** Every reference in the pod spec at `path` (a map), in document order. */
export function podSpecRefs(spec: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  podSpecRefsInto(spec, path, reader, refs);
  return refs;
}

/** podSpecRefs, added to `refs`. */
export function podSpecRefsInto(spec: MapNode, path: FieldPath, reader: NodeReader, refs: SourceRef[]): void {
  podSpecInto(spec, [...path], reader, refs);
}

export function containerRefs(container: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  containerInto(container, [...path], reader, refs);
  return refs;
}

/** The keyRefs of an env list (a container's `env`, or an operator's own list such as VMAgent `spec.extraEnvs`). */
export function envRefs(env: SeqNode | undefined, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  if (env) envInto(env, [...path], reader, refs);
  return refs;
}

/** The whole-object references of an envFrom list. */
export function envFromRefs(envFrom: SeqNode | undefined, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  if (envFrom) envFromInto(envFrom, [...path], reader, refs);
  return refs;
}

export function volumeRefs(volume: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  volumeInto(volume, [...path], reader, refs);
  return refs;
}

/**
 * One map naming a key of one object (`{name, key, optional}`, a Kubernetes SecretKeySelector) outside a
 * container: an operator field whose key its pods read (a VMSingle's `vmBackup.credentialsSecret`).
 */
export function keyRef(node: unknown, path: FieldPath, cls: SourceClass, reader: NodeReader): SourceRef | undefined {
  return objectRef(node, [...path], cls, 'name', reader, true);
}

/**
 * A list of object names an operator mounts whole (Prometheus `spec.secrets`, `spec.configMaps`).
 * - An entry that is not a non-empty string is a WRONG_TYPE error: the operator's schema would refuse it too.
 */
export function nameListRefs(names: SeqNode | undefined, path: FieldPath, cls: 'Secret' | 'ConfigMap', reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  names?.items.forEach((n, i) => {
    const name = reader.str(n, [...path, i]);
    if (name === '' || isNullish(n)) missingField(reader, [...path, i]);
    if (name === undefined || name === '') return;
    refs.push({ cls, namespace: '', name, keys: 'whole', optional: false, field: formatPath([...path, i]) });
  });
  return refs;
}

function podSpecInto(spec: MapNode, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  for (const list of CONTAINER_LISTS) {
    const node = child(spec, list);
    if (node === undefined) continue;
    at.push(list);
    const containers = reader.seq(node, at);
    for (let i = 0; containers && i < containers.items.length; i++) {
      at.push(i);
      const container = reader.map(containers.items[i], at);
      if (container) containerInto(container, at, reader, refs);
      at.pop();
    }
    at.pop();
  }
  const node = child(spec, 'volumes');
  if (node === undefined) return;
  at.push('volumes');
  const volumes = reader.seq(node, at);
  for (let i = 0; volumes && i < volumes.items.length; i++) {
    at.push(i);
    const volume = reader.map(volumes.items[i], at);
    if (volume) volumeInto(volume, at, reader, refs);
    at.pop();
  }
  at.pop();
}

function containerInto(container: MapNode, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  const env = child(container, 'env');
  if (env !== undefined) {
    at.push('env');
    const list = reader.seq(env, at);
    if (list) envInto(list, at, reader, refs);
    at.pop();
  }
  const envFrom = child(container, 'envFrom');
  if (envFrom !== undefined) {
    at.push('envFrom');
    const list = reader.seq(envFrom, at);
    if (list) envFromInto(list, at, reader, refs);
    at.pop();
  }
}

function envInto(env: SeqNode, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  for (let i = 0; i < env.items.length; i++) {
    const e = env.items[i];
    if (isMapNode(e) && child(e, 'valueFrom') === undefined) continue; // `value:`, the usual entry
    at.push(i);
    const entry = reader.map(e, at);
    at.push('valueFrom');
    const valueFrom = entry ? reader.map(child(entry, 'valueFrom'), at) : undefined;
    for (let k = 0; valueFrom && k < KEY_REFS.length; k++) {
      const field = KEY_REFS[k]![0];
      const cls = KEY_REFS[k]![1];
      const node = child(valueFrom, field);
      if (node === undefined) continue;
      at.push(field);
      const ref = objectRef(node, at, cls, 'name', reader, true);
      at.pop();
      if (ref) refs.push(ref);
    }
    at.pop();
    at.pop();
  }
}

function envFromInto(envFrom: SeqNode, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  for (let i = 0; i < envFrom.items.length; i++) {
    at.push(i);
    const source = reader.map(envFrom.items[i], at);
    if (source) sourcesInto(source, ENV_FROM_REFS, at, reader, refs);
    at.pop();
  }
}

/** The references of one envFrom entry or projected source: one `field` per class it may name. */
function sourcesInto(source: MapNode, fields: typeof ENV_FROM_REFS | typeof PROJECTED_REFS, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k]![0];
    const cls = fields[k]![1];
    const node = child(source, field);
    if (node === undefined) continue;
    at.push(field);
    const ref = objectRef(node, at, cls, 'name', reader, false);
    at.pop();
    if (ref) refs.push(ref);
  }
}

function volumeInto(volume: MapNode, at: Walk, reader: NodeReader, refs: SourceRef[]): void {
  const secretNode = child(volume, 'secret');
  let secret: SourceRef | undefined;
  if (secretNode !== undefined) {
    at.push('secret');
    secret = objectRef(secretNode, at, 'Secret', 'secretName', reader, false);
    at.pop();
  }
  const configMapNode = child(volume, 'configMap');
  let configMap: SourceRef | undefined;
  if (configMapNode !== undefined) {
    at.push('configMap');
    configMap = objectRef(configMapNode, at, 'ConfigMap', 'name', reader, false);
    at.pop();
  }
  if (secret) refs.push(secret);
  if (configMap) refs.push(configMap);
  const csi = child(volume, 'csi');
  const projectedNode = child(volume, 'projected');
  if (csi === undefined && projectedNode === undefined) return;
  // A Secrets Store CSI volume mounts what its SecretProviderClass fetches: the class stands for the files.
  const attributes = reader.mapIn(volume, at, CSI_ATTRIBUTES);
  if (attributes) {
    at.push('csi', 'volumeAttributes', 'secretProviderClass');
    const providerClass = reader.str(child(attributes, 'secretProviderClass'), at);
    if (providerClass) refs.push({ cls: 'SecretProviderClass', namespace: '', name: providerClass, keys: 'whole', optional: false, field: formatPath(at) });
    at.length -= 3;
  }
  at.push('projected');
  const projected = reader.map(projectedNode, at);
  at.push('sources');
  const sources = projected ? reader.seq(child(projected, 'sources'), at) : undefined;
  for (let i = 0; sources && i < sources.items.length; i++) {
    at.push(i);
    const source = reader.map(sources.items[i], at);
    if (source) sourcesInto(source, PROJECTED_REFS, at, reader, refs);
    at.pop();
  }
  at.length -= 2;
}

/**
 * Reads one reference object (`secretKeyRef`, `secretRef`, `secret` volume …) at `at`, which it leaves as found.
 * - `keyed`: a keyRef selects its `key`; otherwise listed `items[].key` select, else the whole object.
 * - A missing name (or key, for a keyRef) is a WRONG_TYPE error: the API server would refuse it too.
 */
function objectRef(node: unknown, at: Walk, cls: SourceClass, nameField: 'name' | 'secretName', reader: NodeReader, keyed: boolean): SourceRef | undefined {
  const ref = reader.map(node, at);
  if (!ref) return undefined;
  const before = reader.results.length;
  at.push(nameField);
  const name = reader.str(child(ref, nameField), at);
  at.pop();
  const optionalNode = child(ref, 'optional');
  let optional = false;
  if (optionalNode !== undefined) {
    at.push('optional');
    optional = reader.bool(optionalNode, at) ?? false;
    at.pop();
  }
  let keys: SourceRef['keys'] = 'whole';
  if (keyed) {
    at.push('key');
    const key = reader.str(child(ref, 'key'), at);
    if (key === undefined || key === '') missingField(reader, at);
    at.pop();
    if (key === undefined || key === '') return undefined;
    keys = [key];
  } else {
    const itemsNode = child(ref, 'items');
    if (itemsNode !== undefined) {
      at.push('items');
      const items = reader.seq(itemsNode, at);
      if (items && items.items.length > 0) keys = itemKeys(items, at, reader);
      at.pop();
    }
  }
  if (reader.results.length > before) return undefined;
  if (name === undefined || name === '') {
    at.push(nameField);
    missingField(reader, at);
    at.pop();
    return undefined;
  }
  return { cls, namespace: '', name, keys, optional, field: fieldPath(at) };
}

/** The keys a volume's or projected source's `items` list, at `at`. */
function itemKeys(items: SeqNode, at: Walk, reader: NodeReader): string[] {
  const keys: string[] = [];
  for (let i = 0; i < items.items.length; i++) {
    at.push(i);
    const item = reader.map(items.items[i], at);
    at.push('key');
    const key = item ? reader.str(child(item, 'key'), at) : undefined;
    if (item && key === undefined) missingField(reader, at);
    if (key !== undefined) keys.push(key);
    at.length -= 2;
  }
  return keys;
}

function missingField(reader: NodeReader, path: FieldPath): undefined {
  reader.required(path, 'a non-empty string');
  return undefined;
}
