// Discover stage: the references a workload row's fields hold in one object (kinds/workload-rows.ts, or a row
// declared under `spec.kinds`): its pod specs (`*` in a path stands for every item of a list), env and envFrom
// lists outside a container, single-key Secret selectors, and the lists of names an operator mounts whole.
import { envFromRefs, envRefs, keyRef, nameListRefs, podSpecRefs } from './pod-spec.ts';
import { child, isSeqNode, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { KObject } from '../model/object.ts';
import type { KeyPath, WorkloadRow } from '../model/workload-row.ts';

/** Every reference the row's fields hold in the object, in the row's order. */
export function rowRefs(obj: KObject, row: WorkloadRow, reader: NodeReader): SourceRef[] {
  const root = obj.item.node;
  const refs: SourceRef[] = [];
  for (const path of row.podSpecs) for (const { spec, at } of podSpecsAt(root, path, reader)) refs.push(...podSpecRefs(spec, at, reader));
  const list = (path: KeyPath) => {
    const parent = reader.mapIn(root, [], path.slice(0, -1));
    return parent ? reader.seq(child(parent, path.at(-1)!), path) : undefined;
  };
  for (const path of row.env ?? []) refs.push(...envRefs(list(path), path, reader));
  for (const path of row.envFrom ?? []) refs.push(...envFromRefs(list(path), path, reader));
  for (const path of row.keyRefs ?? []) {
    const parent = reader.mapIn(root, [], path.slice(0, -1));
    const node = parent ? child(parent, path.at(-1)!) : undefined;
    const ref = node === undefined ? undefined : keyRef(node, path, 'Secret', reader);
    if (ref) refs.push(ref);
  }
  for (const path of row.secretNames ?? []) refs.push(...nameListRefs(list(path), path, 'Secret', reader));
  for (const path of row.configMapNames ?? []) refs.push(...nameListRefs(list(path), path, 'ConfigMap', reader));
  return refs;
}

/**
 * The pod spec maps a row path names in the object: `*` steps into each item of the list there (one `*` at
 * most; an absent list names none, and so does one of another type: the operator's schema refuses it).
 */
function podSpecsAt(root: MapNode, path: KeyPath, reader: NodeReader): Array<{ spec: MapNode; at: FieldPath }> {
  const star = path.indexOf('*');
  if (star < 0) {
    const spec = reader.mapIn(root, [], path);
    return spec ? [{ spec, at: path }] : [];
  }
  const listPath = path.slice(0, star);
  const parent = reader.mapIn(root, [], listPath.slice(0, -1));
  const list = parent ? child(parent, listPath.at(-1)!) : undefined;
  if (!isSeqNode(list)) return [];
  const rest = path.slice(star + 1);
  return list.items.flatMap((item, i) => {
    const spec = reader.mapIn(item, [...listPath, i], rest);
    return spec ? [{ spec, at: [...listPath, i, ...rest] }] : [];
  });
}
