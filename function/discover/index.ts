// Discover stage entry: a target's references, merged per source object.
import { agentRefs, modelConfigRefs } from './kagent.ts';
import { errorResult, type Result } from '../model/results.ts';
import { NodeReader } from '../model/nodes.ts';
import { byteOrder } from '../model/order.ts';
import { annotationRefs } from './annotations.ts';
import { podSpecRefs } from './pod-spec.ts';
import type { Dependencies, SourceRef, SourceUse } from '../model/dependencies.ts';
import { type KObject, type SourceIndex, sourceId } from '../model/object.ts';
import type { Target } from '../model/target.ts';

/**
 * The dependencies of a target (for a rendered agent Deployment: its Agent's).
 * - More than `maxReferences` references (before merging) is one TOO_MANY_REFERENCES error and no
 *   dependencies: the work (and, with live reads, the requests) per target stays bounded (#12).
 */
export function discoverDependencies(target: Target, inventory: SourceIndex, results: Result[], maxReferences: number): Dependencies {
  const { obj } = target;
  const reader = new NodeReader(obj.subject, results);
  const capped = (refs: readonly SourceRef[], objects: Dependencies['objects']): Dependencies => {
    if (refs.length + objects.length <= maxReferences) return { uses: mergeRefs(obj, refs), objects };
    const message = `names more than ${maxReferences} Secrets, ConfigMaps and objects (pod spec, rollstamp.dev/secrets and rollstamp.dev/configmaps together); the limit is ROLLSTAMP_MAX_REFERENCES`;
    results.push(errorResult('TOO_MANY_REFERENCES', message, obj.subject));
    return { uses: [], objects: [] };
  };
  switch (target.mode) {
    case 'agent': {
      const found = agentRefs(obj, reader, inventory);
      return capped(found.refs, found.objects);
    }
    case 'model-config':
      return capped(modelConfigRefs(obj, reader), []);
    case 'agent-deployment':
      return discoverDependencies(target.agent!, inventory, results, maxReferences);
    case 'workload': {
      const templatePath = target.templatePath ?? [];
      const spec = reader.mapIn(obj.item.node, [], [...templatePath, 'spec']);
      const podRefs = spec ? podSpecRefs(spec, [...templatePath, 'spec'], reader) : [];
      return capped([...podRefs, ...annotationRefs(obj, results, Math.max(0, maxReferences - podRefs.length))], []);
    }
  }
}

/** Merges references to the same object: keys union, whole if any is whole, optional only if all are. */
export function mergeRefs(obj: KObject, refs: readonly SourceRef[]): SourceUse[] {
  const uses = new Map<string, SourceUse>();
  for (const ref of refs) {
    const namespace = ref.namespace || obj.namespace;
    const id = sourceId(ref.cls, namespace, ref.name);
    let use = uses.get(id);
    if (!use) {
      use = { id, cls: ref.cls, namespace, name: ref.name, whole: false, keys: new Map(), optional: true, fields: [], dataOnly: ref.dataOnly === true };
      uses.set(id, use);
    }
    use.dataOnly &&= ref.dataOnly === true;
    if (ref.keys === 'whole') use.whole = true;
    for (const k of ref.keys === 'whole' ? [] : ref.keys) {
      const known = use.keys.get(k);
      if (!known) use.keys.set(k, { optional: ref.optional, field: ref.field });
      else if (known.optional && !ref.optional) use.keys.set(k, { optional: false, field: ref.field });
    }
    use.optional &&= ref.optional;
    if (!ref.optional) use.requiredField ??= ref.field;
    use.fields.push(ref.field);
  }
  return [...uses.values()].sort((a, b) => byteOrder(a.id, b.id));
}
