// Read stage: list wrappers. Argo CD (and kubectl) apply each entry of any object whose top-level `items` is
// a list as an object of its own, whatever the wrapper's kind (`v1/List`, `SecretList`, …), so rollstamp
// reads those entries as objects too: a Secret inside a SecretList is a source, a Deployment inside a List
// is a target, stamped in place inside its wrapper. What cannot be read safely is refused, never passed on.
//
// Argo CD's rule (argoproj/argo-cd reposerver/repository/repository.go, GenerateManifests: `obj.IsList()` →
// `EachListItem`, else `isNullList` → nothing, else the object itself; apimachinery's Unstructured.IsList is
// "top-level `items` holds a JSON array", EachListItem fails on an entry that is not an object). Entries are
// not unwrapped again: a list inside a list reaches the API server as an object, which has no such kind.
import { LOCAL_CONFIG_ANNOTATION } from '../model/constants.ts';
import { errorResult, type FileRef, type ResourceRef, type Result, type Subject } from '../model/results.ts';
import { child, childPair, isAlias, isMapNode, isNullish, isSeqNode, stringValue, type MapNode } from '../model/nodes.ts';

/** What a document's root map stands for. */
export type Unwrapped =
  /** An ordinary object. */
  | { objects: [MapNode] }
  /** A list wrapper: its entries, in order (none for `items: []` or a null `items`). */
  | { objects: MapNode[]; wrapper: MapNode }
  /** A wrapper rollstamp cannot read as Argo CD would: an error result. */
  | { objects: []; result: Result };

/**
 * The objects a root map stands for under Argo CD's unwrapping rule.
 * - `items` is a list: each entry, which must be a map that is not itself a wrapper nor marked local-config.
 * - `items` is null and there is no `spec` or `status`: no objects (Argo CD drops it).
 * - `items` is an alias, or the map has a top-level merge key (`<<`): refused — a YAML 1.1 reader such as
 *   Kubernetes' would expand it, possibly into a list nobody here has read.
 * - `items` is anything else on a kind named `List` or `…List`: refused (no API server reads it).
 * - Otherwise: the map itself.
 */
export function unwrapList(root: MapNode, file: FileRef | undefined): Unwrapped {
  // The subject is named only when refusing: most documents are ordinary objects.
  const refuse = (message: string, code: Result['tags']['code'] = 'INVALID_OBJECT'): Unwrapped => ({
    objects: [],
    result: errorResult(code, message, subjectOf(root, file)),
  });
  if (hasMergeKey(root)) return refuse('a merge key (<<) at the top level of an object could add list items; write the keys out', 'MERGE_KEY_NOT_ALLOWED');
  const pair = childPair(root, 'items');
  if (!pair) return { objects: [root] };
  const items = pair.value;
  if (isAlias(items)) return refuse('the items of a list are an alias; write them out', 'ALIAS_NOT_ALLOWED');
  if (isSeqNode(items)) {
    const objects: MapNode[] = [];
    for (const [i, entry] of items.items.entries()) {
      if (isAlias(entry)) return refuse(`items[${i}] of a list is an alias; write it out`, 'ALIAS_NOT_ALLOWED');
      if (!isMapNode(entry)) return refuse(`items[${i}] of a list is not an object`);
      if (hasMergeKey(entry)) return refuse(`items[${i}] of a list has a merge key (<<) at its top level; write the keys out`, 'MERGE_KEY_NOT_ALLOWED');
      const inner = child(entry, 'items');
      if (isSeqNode(inner) || isAlias(inner)) return refuse(`items[${i}] of a list is a list itself; give its items directly`);
      if (isLocalConfig(entry)) {
        // A wrapper is applied whole, so a local-config entry would reach the cluster while the inventory
        // skipped it as a source (its value would change no hash).
        return refuse(`items[${i}] of a list is marked ${LOCAL_CONFIG_ANNOTATION}; a list is applied whole, so move it out of the list`);
      }
      objects.push(entry);
    }
    return { objects, wrapper: root };
  }
  if (isNullish(items) && child(root, 'spec') === undefined && child(root, 'status') === undefined) return { objects: [], wrapper: root };
  const kind = stringValue(child(root, 'kind'));
  if (kind !== undefined && kind.endsWith('List')) return refuse('the items of a list must be a list');
  return { objects: [root] };
}

/** The wrapper as results name it: its file, and its apiVersion/kind/name when those are strings. */
function subjectOf(root: MapNode, file: FileRef | undefined): Subject {
  const apiVersion = stringValue(child(root, 'apiVersion'));
  const kind = stringValue(child(root, 'kind'));
  const meta = child(root, 'metadata');
  const name = (isMapNode(meta) ? stringValue(child(meta, 'name')) : undefined) ?? '';
  const ref: ResourceRef | undefined = apiVersion && kind ? { apiVersion, kind, name } : undefined;
  return { ...(file ? { file } : {}), ...(ref ? { ref } : {}) };
}

function hasMergeKey(map: MapNode): boolean {
  return childPair(map, '<<') !== undefined;
}

/** True for an object marked `config.kubernetes.io/local-config: "true"` (KRM: configuration, not an object to apply). */
export function isLocalConfig(entry: MapNode): boolean {
  const meta = child(entry, 'metadata');
  const annotations = isMapNode(meta) ? child(meta, 'annotations') : undefined;
  return isMapNode(annotations) && stringValue(child(annotations, LOCAL_CONFIG_ANNOTATION)) === 'true';
}
