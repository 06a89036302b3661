// Discover stage: the Secret and ConfigMap references inside one pod spec — env keyRefs (that key only),
// envFrom (whole), secret/configMap volumes and projected sources (listed items, else whole), and the
// SecretProviderClass of a Secrets Store CSI volume; also the env lists and name lists operators hold outside
// a pod spec (kinds/workload-rows.ts).
// imagePullSecrets are pull-time credentials, not runtime inputs, so they never count.
import type { FieldPath, NodeReader } from '../model/nodes.ts';
import { child, formatPath, isMapNode, isNullish } from '../model/nodes.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { SourceClass } from '../model/object.ts';
import type { MapNode, SeqNode } from '../model/nodes.ts';

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

const KEY_REFS = [['secretKeyRef', 'Secret'], ['configMapKeyRef', 'ConfigMap']] as const;
const ENV_FROM_REFS = [['secretRef', 'Secret'], ['configMapRef', 'ConfigMap']] as const;
const PROJECTED_REFS = [['secret', 'Secret'], ['configMap', 'ConfigMap']] as const;

// A field's path is built only when the field is there: the reader needs it only to name a wrong value, and an
// absent field is never wrong (NodeReader answers undefined for it at once). A 10k-object stream has hundreds
// of thousands of fields that could hold a reference and do not.

/** Every reference in the pod spec at `path` (a map), in document order. */
export function podSpecRefs(spec: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  for (const list of CONTAINER_LISTS) {
    const node = child(spec, list);
    const containers = node === undefined ? undefined : reader.seq(node, [...path, list]);
    containers?.items.forEach((c, i) => {
      const cPath = [...path, list, i];
      const container = reader.map(c, cPath);
      if (container) refs.push(...containerRefs(container, cPath, reader));
    });
  }
  const node = child(spec, 'volumes');
  const volumes = node === undefined ? undefined : reader.seq(node, [...path, 'volumes']);
  volumes?.items.forEach((v, i) => {
    const vPath = [...path, 'volumes', i];
    const volume = reader.map(v, vPath);
    if (volume) refs.push(...volumeRefs(volume, vPath, reader));
  });
  return refs;
}

export function containerRefs(container: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  const env = child(container, 'env');
  if (env !== undefined) {
    const envPath = [...path, 'env'];
    refs.push(...envRefs(reader.seq(env, envPath), envPath, reader));
  }
  const envFrom = child(container, 'envFrom');
  if (envFrom !== undefined) {
    const envFromPath = [...path, 'envFrom'];
    refs.push(...envFromRefs(reader.seq(envFrom, envFromPath), envFromPath, reader));
  }
  return refs;
}

/** The keyRefs of an env list (a container's `env`, or an operator's own list such as VMAgent `spec.extraEnvs`). */
export function envRefs(env: SeqNode | undefined, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  env?.items.forEach((e, i) => {
    if (isMapNode(e) && child(e, 'valueFrom') === undefined) return; // `value:`, the usual entry
    const ePath = [...path, i];
    const valueFrom = reader.mapIn(e, ePath, ['valueFrom']);
    if (!valueFrom) return;
    for (const [field, cls] of KEY_REFS) {
      const node = child(valueFrom, field);
      const ref = node === undefined ? undefined : objectRef(node, [...ePath, 'valueFrom', field], cls, 'name', reader, true);
      if (ref) refs.push(ref);
    }
  });
  return refs;
}

/** The whole-object references of an envFrom list. */
export function envFromRefs(envFrom: SeqNode | undefined, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  envFrom?.items.forEach((e, i) => {
    const ePath = [...path, i];
    const source = reader.map(e, ePath);
    if (!source) return;
    for (const [field, cls] of ENV_FROM_REFS) {
      const node = child(source, field);
      const ref = node === undefined ? undefined : objectRef(node, [...ePath, field], cls, 'name', reader, false);
      if (ref) refs.push(ref);
    }
  });
  return refs;
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

export function volumeRefs(volume: MapNode, path: FieldPath, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  const secretNode = child(volume, 'secret');
  const secret = secretNode === undefined ? undefined : objectRef(secretNode, [...path, 'secret'], 'Secret', 'secretName', reader, false);
  const configMapNode = child(volume, 'configMap');
  const configMap = configMapNode === undefined ? undefined : objectRef(configMapNode, [...path, 'configMap'], 'ConfigMap', 'name', reader, false);
  for (const ref of [secret, configMap]) if (ref) refs.push(ref);
  if (child(volume, 'csi') === undefined && child(volume, 'projected') === undefined) return refs;
  // A Secrets Store CSI volume mounts what its SecretProviderClass fetches: the class stands for the files.
  const attributes = reader.mapIn(volume, path, ['csi', 'volumeAttributes']);
  const providerClass = attributes ? reader.str(child(attributes, 'secretProviderClass'), [...path, 'csi', 'volumeAttributes', 'secretProviderClass']) : undefined;
  if (providerClass) {
    refs.push({ cls: 'SecretProviderClass', namespace: '', name: providerClass, keys: 'whole', optional: false, field: formatPath([...path, 'csi', 'volumeAttributes', 'secretProviderClass']) });
  }
  const projected = reader.map(child(volume, 'projected'), [...path, 'projected']);
  const sources = projected ? reader.seq(child(projected, 'sources'), [...path, 'projected', 'sources']) : undefined;
  sources?.items.forEach((s, i) => {
    const sPath = [...path, 'projected', 'sources', i];
    const source = reader.map(s, sPath);
    if (!source) return;
    for (const [field, cls] of PROJECTED_REFS) {
      const node = child(source, field);
      const ref = node === undefined ? undefined : objectRef(node, [...sPath, field], cls, 'name', reader, false);
      if (ref) refs.push(ref);
    }
  });
  return refs;
}

/**
 * One map naming a key of one object (`{name, key, optional}`, a Kubernetes SecretKeySelector) outside a
 * container: an operator field whose key its pods read (a VMSingle's `vmBackup.credentialsSecret`).
 */
export function keyRef(node: unknown, path: FieldPath, cls: SourceClass, reader: NodeReader): SourceRef | undefined {
  return objectRef(node, path, cls, 'name', reader, true);
}

/**
 * Reads one reference object (`secretKeyRef`, `secretRef`, `secret` volume …).
 * - `keyed`: a keyRef selects its `key`; otherwise listed `items[].key` select, else the whole object.
 * - A missing name (or key, for a keyRef) is a WRONG_TYPE error: the API server would refuse it too.
 */
function objectRef(
  node: unknown,
  path: FieldPath,
  cls: SourceClass,
  nameField: 'name' | 'secretName',
  reader: NodeReader,
  keyed: boolean,
): SourceRef | undefined {
  const ref = reader.map(node, path);
  if (!ref) return undefined;
  const before = reader.results.length;
  const name = reader.str(child(ref, nameField), [...path, nameField]);
  const optionalNode = child(ref, 'optional');
  const optional = (optionalNode === undefined ? undefined : reader.bool(optionalNode, [...path, 'optional'])) ?? false;
  let keys: SourceRef['keys'] = 'whole';
  if (keyed) {
    const key = reader.str(child(ref, 'key'), [...path, 'key']);
    if (key === undefined || key === '') return missingField(reader, [...path, 'key']);
    keys = [key];
  } else {
    const itemsNode = child(ref, 'items');
    const items = itemsNode === undefined ? undefined : reader.seq(itemsNode, [...path, 'items']);
    if (items && items.items.length > 0) {
      keys = [];
      items.items.forEach((it, i) => {
        const item = reader.map(it, [...path, 'items', i]);
        const key = item ? reader.str(child(item, 'key'), [...path, 'items', i, 'key']) : undefined;
        if (item && key === undefined) missingField(reader, [...path, 'items', i, 'key']);
        if (key !== undefined) (keys as string[]).push(key);
      });
    }
  }
  if (reader.results.length > before) return undefined;
  if (name === undefined || name === '') return missingField(reader, [...path, nameField]);
  return { cls, namespace: '', name, keys, optional, field: formatPath(path) };
}

function missingField(reader: NodeReader, path: FieldPath): undefined {
  reader.required(path, 'a non-empty string');
  return undefined;
}
