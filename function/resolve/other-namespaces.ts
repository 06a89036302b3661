// Resolve stage, for messages only: a reference nothing resolves may be a namespace mix-up. `helm template
// --namespace X` writes no metadata.namespace on a chart's objects unless its templates do, so rollstamp
// files them under the default namespace while workloads that name .Release.Namespace sit in X.
import type { SourceClass, SourceIndex } from '../model/object.ts';

/** An object (or a producer's output) of the same class and name in another namespace. */
export interface Elsewhere {
  namespace: string;
  /** True when the object had no metadata.namespace and took the configured default. */
  defaulted: boolean;
}

const indexes = new WeakMap<SourceIndex, Map<string, Elsewhere[]>>();

/** Every other namespace where the input holds `cls` `name` (Secret, ConfigMap or a producer of one), sorted. */
export function namespacesElsewhere(inventory: SourceIndex, cls: SourceClass, namespace: string, name: string): Elsewhere[] {
  let index = indexes.get(inventory);
  if (!index) {
    index = buildIndex(inventory);
    indexes.set(inventory, index);
  }
  return (index.get(`${cls}/${name}`) ?? []).filter((e) => e.namespace !== namespace);
}

/**
 * `; the input has Secret default/db without metadata.namespace …: pass -n shop`, or '' when the input has
 * no such object in another namespace. Names and namespaces only, never a value.
 */
export function namespaceHint(inventory: SourceIndex, cls: SourceClass, namespace: string, name: string): string {
  const [first] = namespacesElsewhere(inventory, cls, namespace, name);
  if (!first) return '';
  if (first.defaulted) {
    return `; the input has ${cls} ${first.namespace}/${name} without metadata.namespace (helm template --namespace writes none): give rollstamp the same namespace, -n ${namespace}`;
  }
  return `; the input has ${cls} ${first.namespace}/${name}, in another namespace (references are same-namespace)`;
}

function buildIndex(inventory: SourceIndex): Map<string, Elsewhere[]> {
  const index = new Map<string, Map<string, Elsewhere>>();
  const add = (cls: string, name: string, namespace: string, defaulted: boolean): void => {
    const key = `${cls}/${name}`;
    let byNs = index.get(key);
    if (!byNs) index.set(key, (byNs = new Map()));
    // An object without metadata.namespace is the one helm left bare: say so when any is.
    const seen = byNs.get(namespace);
    if (!seen || (defaulted && !seen.defaulted)) byNs.set(namespace, { namespace, defaulted });
  };
  for (const objs of inventory.sources.values()) {
    for (const o of objs) add(o.kind, o.name, o.namespace, o.subject.ref?.namespace === undefined);
  }
  for (const entries of inventory.producers.values()) {
    for (const { obj, output } of entries) add(output.cls, output.name, obj.namespace, obj.subject.ref?.namespace === undefined);
  }
  const out = new Map<string, Elsewhere[]>();
  for (const [key, byNs] of index) out.set(key, [...byNs.values()].sort((a, b) => Number(b.defaulted) - Number(a.defaulted) || (a.namespace < b.namespace ? -1 : 1)));
  return out;
}
