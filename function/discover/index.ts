// Discover stage entry: a target's references, bounded and merged per source object. What each kind of
// target references is read by its kind (kinds/) with this stage's readers (pod-spec.ts, kagent.ts, …).
import { errorResult, type Result } from '../model/results.ts';
import { sortInByteOrder } from '../model/order.ts';
import type { FoundRefs, Dependencies, KeyUse, SourceRef, SourceUse } from '../model/dependencies.ts';
import { type KObject, sourceId } from '../model/object.ts';

/**
 * The dependencies of a target from the references its kind found (kinds/, TargetKind.dependencies).
 * - More than `maxReferences` references (before merging) is one TOO_MANY_REFERENCES error and no
 *   dependencies: the work (and, with live reads, the requests) per target stays bounded (#12).
 */
export function discoverDependencies(obj: KObject, found: FoundRefs, results: Result[], maxReferences: number): Dependencies {
  if (found.refs.length + found.objects.length <= maxReferences) return { uses: mergeRefs(obj, found.refs), objects: found.objects };
  const message = `names more than ${maxReferences} Secrets, ConfigMaps and objects (pod spec, rollstamp.dev/secrets and rollstamp.dev/configmaps together); the limit is ROLLSTAMP_MAX_REFERENCES`;
  results.push(errorResult('TOO_MANY_REFERENCES', message, obj.subject));
  return { uses: [], objects: [] };
}

/** The keys of a use that names none (envFrom, a whole volume): one map for all of them, never written to. */
const NO_KEYS: ReadonlyMap<string, KeyUse> = new Map();

/** A use while its references are merged: its key map is made when a reference first names a key. */
type MergingUse = Omit<SourceUse, 'keys'> & { keys: Map<string, KeyUse> };

/**
 * Merges references to the same object: keys union, whole if any is whole, optional only if all are.
 * - A plan keeps every target's uses to the end of the run (#37): a use that names no key shares one empty map.
 *   (What the plan keeps of `fields` is SharedStrings' copy, an array of its own length: plan/shared-strings.ts.)
 * - Each use is made once, as the literal it is returned as, and its id only when no use so far names its object:
 *   a copy of every use and an id per reference were a fifth of what merging allocated (#37).
 */
export function mergeRefs(obj: KObject, refs: readonly SourceRef[]): SourceUse[] {
  // A target names a few sources: they are searched in a list, and only a long one is also kept in a map
  // (a map per target, and its lookups, were a share of planning, #37).
  const uses: MergingUse[] = [];
  let byId: Map<string, MergingUse> | undefined;
  for (let r = 0; r < refs.length; r++) {
    const ref = refs[r]!;
    const namespace = ref.namespace || obj.namespace;
    let use = byId ? undefined : findUse(uses, ref.cls, namespace, ref.name);
    let made = false;
    if (!use) {
      // By id too: ids, not parts, say which uses are one (a `/` in a name can make two spellings of one id).
      const id = sourceId(ref.cls, namespace, ref.name);
      use = byId ? byId.get(id) : findId(uses, id);
      if (!use) {
        use = newUse(id, ref, namespace);
        made = true;
        uses.push(use);
        if (byId) byId.set(id, use);
        else if (uses.length > SEARCHED_USES) byId = new Map(uses.map((u) => [u.id, u]));
      }
    }
    if (!made) {
      use.dataOnly &&= ref.dataOnly === true;
      use.optional &&= ref.optional;
      // Added to a use made optional: rare, and the only use that takes a second layout.
      if (!ref.optional) use.requiredField ??= ref.field;
      use.fields.push(ref.field);
    }
    if (ref.keys === 'whole') use.whole = true;
    else for (const k of ref.keys) {
      if (use.keys === NO_KEYS) use.keys = new Map();
      const known = use.keys.get(k);
      if (!known) use.keys.set(k, { optional: ref.optional, field: ref.field });
      else if (known.optional && !ref.optional) use.keys.set(k, { optional: false, field: ref.field });
    }
  }
  return sortInByteOrder(uses as SourceUse[], idOf);
}

/** The use of one reference, in the field order every use has (one hidden class, #37). */
function newUse(id: string, ref: SourceRef, namespace: string): MergingUse {
  const { cls, name, optional, field } = ref;
  const dataOnly = ref.dataOnly === true;
  // requiredField in the literal: added afterwards, it gave each use a property array of its own (#37); so is the
  // slot planning gives it (plan/shared-strings.ts).
  return optional
    ? { id, slot: undefined, cls, namespace, name, whole: false, keys: NO_KEYS as Map<string, KeyUse>, optional, fields: [field], dataOnly }
    : { id, slot: undefined, cls, namespace, name, whole: false, keys: NO_KEYS as Map<string, KeyUse>, optional, fields: [field], dataOnly, requiredField: field };
}

/** The most uses searched in a list before a map of them is made. */
const SEARCHED_USES = 8;

function findId(uses: readonly MergingUse[], id: string): MergingUse | undefined {
  for (let i = 0; i < uses.length; i++) if (uses[i]!.id === id) return uses[i];
  return undefined;
}

/** The use naming this object, compared by its parts: the id is made only for a use not yet there. */
function findUse(uses: readonly MergingUse[], cls: SourceRef['cls'], namespace: string, name: string): MergingUse | undefined {
  for (let i = 0; i < uses.length; i++) {
    const use = uses[i]!;
    if (use.name === name && use.namespace === namespace && use.cls === cls) return use;
  }
  return undefined;
}

const idOf = (use: SourceUse): string => use.id;
