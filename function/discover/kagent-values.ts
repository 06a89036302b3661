// Discover stage for kagent: the reference shapes kagent shares between kinds — a ValueSource
// (`{type: Secret|ConfigMap, name, key}`), headersFrom lists, and a TLS CA Secret.
import { child, formatPath, type FieldPath, type NodeReader } from '../model/nodes.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { SourceClass } from '../model/object.ts';
import type { MapNode } from '../model/nodes.ts';

/** `tls.caCertSecretRef` + `caCertSecretKey` (shared by ModelConfig and RemoteMCPServer). */
export function caRef(tls: MapNode, path: FieldPath, reader: NodeReader): SourceRef | undefined {
  const name = reader.str(child(tls, 'caCertSecretRef'), [...path, 'caCertSecretRef']);
  if (!name) return undefined;
  const key = reader.str(child(tls, 'caCertSecretKey'), [...path, 'caCertSecretKey']);
  if (!key) return reader.required([...path, 'caCertSecretKey'], 'the key of the CA Secret');
  return { cls: 'Secret', namespace: '', name, keys: [key], optional: false, field: formatPath([...path, 'caCertSecretRef']) };
}

/** `headersFrom[].valueFrom` entries (ValueRef) as keyed references in `namespace` ('' = the reader's object's). */
export function headersFromRefs(node: unknown, path: FieldPath, namespace: string, reader: NodeReader): SourceRef[] {
  const refs: SourceRef[] = [];
  reader.seq(node, path)?.items.forEach((h, i) => {
    const header = reader.map(h, [...path, i]);
    const ref = header ? valueSourceRef(child(header, 'valueFrom'), [...path, i, 'valueFrom'], namespace, reader) : undefined;
    if (ref) refs.push(ref);
  });
  return refs;
}

/** A kagent ValueSource `{type: ConfigMap|Secret, name, key}`: that one key. */
export function valueSourceRef(node: unknown, path: FieldPath, namespace: string, reader: NodeReader): SourceRef | undefined {
  const source = reader.map(node, path);
  if (!source) return undefined;
  const type = reader.str(child(source, 'type'), [...path, 'type']);
  const name = reader.str(child(source, 'name'), [...path, 'name']);
  const key = reader.str(child(source, 'key'), [...path, 'key']);
  if (type !== 'Secret' && type !== 'ConfigMap') return reader.required([...path, 'type'], 'Secret or ConfigMap');
  if (!name || !key) return reader.required([...path, name ? 'key' : 'name'], 'a non-empty string');
  return { cls: type as SourceClass, namespace, name, keys: [key], optional: false, field: formatPath(path) };
}

export function wholeRef(cls: SourceClass, namespace: string, name: string, field: string): SourceRef {
  return { cls, namespace, name, keys: 'whole', optional: false, field };
}
