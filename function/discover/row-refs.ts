// Discover stage: the references a workload row's fields hold in one object (kinds/workload-rows.ts, or a row
// declared under `spec.kinds`): its pod specs (`*` in a path stands for every item of a list), env and envFrom
// lists outside a container, single-key Secret selectors, and the lists of names an operator mounts whole.
import { envFromRefs, envRefs, keyRef, nameListRefs, podSpecRefsInto } from './pod-spec.ts';
import { child, isSeqNode, ROOT_PATH, type FieldPath, type MapNode, type NodeReader } from '../model/nodes.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { KObject } from '../model/object.ts';
import type { KeyPath, WorkloadRow } from '../model/workload-row.ts';

/** Every reference the row's fields hold in the object, in the row's order: a list of its own, for the caller to add to. */
export function rowRefs(obj: KObject, row: WorkloadRow, reader: NodeReader): SourceRef[] {
  const root = obj.item.node;
  const refs: SourceRef[] = [];
  for (const path of row.podSpecs) {
    // A path without `*` names one pod spec: no list of them is made (the built-in rows' paths, #37).
    if (!path.includes('*')) {
      const spec = reader.mapIn(root, ROOT_PATH, path);
      if (spec) podSpecRefsInto(spec, path, reader, refs);
    } else for (const { spec, at } of podSpecsAt(root, path, reader)) podSpecRefsInto(spec, at, reader, refs);
  }
  // The lists below are absent from the built-in rows: no empty list made for each (#37).
  if (row.env) for (const path of row.env) refs.push(...envRefs(listAt(root, path, reader), path, reader));
  if (row.envFrom) for (const path of row.envFrom) refs.push(...envFromRefs(listAt(root, path, reader), path, reader));
  if (row.keyRefs) for (const path of row.keyRefs) {
    const parent = reader.mapIn(root, ROOT_PATH, path.slice(0, -1));
    const node = parent ? child(parent, path.at(-1)!) : undefined;
    const ref = node === undefined ? undefined : keyRef(node, path, 'Secret', reader);
    if (ref) refs.push(ref);
  }
  if (row.secretNames) for (const path of row.secretNames) refs.push(...nameListRefs(listAt(root, path, reader), path, 'Secret', reader));
  if (row.configMapNames) for (const path of row.configMapNames) refs.push(...nameListRefs(listAt(root, path, reader), path, 'ConfigMap', reader));
  return refs;
}

/** The list at `path` in the object, if its parent maps are there. */
function listAt(root: MapNode, path: KeyPath, reader: NodeReader) {
  const parent = reader.mapIn(root, ROOT_PATH, path.slice(0, -1));
  return parent ? reader.seq(child(parent, path.at(-1)!), path) : undefined;
}

/**
 * The pod spec maps a row path with a `*` names in the object: `*` steps into each item of the list there (one `*` at
 * most; an absent list names none, and so does one of another type: the operator's schema refuses it).
 */
function podSpecsAt(root: MapNode, path: KeyPath, reader: NodeReader): Array<{ spec: MapNode; at: FieldPath }> {
  const star = path.indexOf('*');
  const listPath = path.slice(0, star);
  const parent = reader.mapIn(root, ROOT_PATH, listPath.slice(0, -1));
  const list = parent ? child(parent, listPath.at(-1)!) : undefined;
  if (!isSeqNode(list)) return [];
  const rest = path.slice(star + 1);
  return list.items.flatMap((item, i) => {
    const spec = reader.mapIn(item, [...listPath, i], rest);
    return spec ? [{ spec, at: [...listPath, i, ...rest] }] : [];
  });
}
