// Plan stage: one copy of each string the plan keeps over and over. A plan lives until the run ends, and its
// targets' dependencies repeat the same field paths and source ids: 20,000 workloads reading
// `spec.template.spec.containers[0].envFrom[0].secretRef` each held their own copy of it (#37).
import type { Dependencies, SourceSlot, SourceUse } from '../model/dependencies.ts';
import { slotIn } from '../resolve/index.ts';

/** Objects a target names (kagent's ModelConfigs, tools): none for a workload, one array for all of them. */
const NO_OBJECTS: Dependencies['objects'] = Object.freeze([]);

/**
 * Equal strings given as one: the first one given; and one slot per source id (model/dependencies.ts SourceSlot).
 * - One per plan: it goes with the planner, so a long-running process keeps nothing from one run to the next.
 */
export class SharedStrings {
  /** Field paths: a few, each repeated by many uses. */
  private readonly known = new Map<string, string>();
  /** Each source id's slot, holding the id's shared copy: looked up here once per use, so apply need not (#37). */
  readonly slots = new Map<string, SourceSlot>();

  /** `text`, or the equal string given before it. */
  share(text: string): string {
    const known = this.known.get(text);
    if (known !== undefined) return known;
    this.known.set(text, text);
    return text;
  }

  /**
   * The same dependencies, as the plan keeps them: each use's id and field paths shared with every other target's,
   * its fields in an array of their own length (one grown by push keeps room for 17), and no array of its own for a
   * target that names no kagent object. Equal in every value to `deps`, which it changes and returns: the uses and
   * their fields are the merge's own (discover/index.ts), so only arrays grown by push are copied (#37).
   */
  dependencies(deps: Dependencies): Dependencies {
    const { uses } = deps;
    // A list of its own length, as the plan keeps it; the uses themselves are changed in place.
    // (slice, not an array made at its length: that one is holey, a second kind of array for their readers.)
    const kept = uses.slice();
    for (let i = 0; i < kept.length; i++) this.use(kept[i]!);
    deps.uses = kept;
    if (deps.objects.length === 0) deps.objects = NO_OBJECTS;
    return deps;
  }

  private use(use: SourceUse): void {
    const slot = slotIn(this.slots, use.id);
    use.id = slot.id;
    use.slot = slot;
    const given = use.fields;
    // A use of one reference holds its field in an array made at its length (mergeRefs), shared in place.
    const fields = given.length === 1 ? given : given.slice();
    for (let i = 0; i < given.length; i++) fields[i] = this.share(given[i]!);
    use.fields = fields;
    // The required field and each key's field are the field of a reference the use merged, so the same string is
    // among the fields: its shared copy is taken from there, not looked up again in a map of every path (#37).
    if (use.requiredField !== undefined) use.requiredField = this.sharedField(use.requiredField, given, fields);
    if (use.keys.size > 0) for (const keyUse of use.keys.values()) keyUse.field = this.sharedField(keyUse.field, given, fields);
  }

  /** `field`'s shared copy, found among a use's fields (`given`, shared as `fields`); a long list looks it up. */
  private sharedField(field: string, given: readonly string[], fields: readonly string[]): string {
    if (given.length > SCANNED_FIELDS) return this.share(field);
    // `given` may be `fields`, shared in place: an equal string is the shared one then.
    for (let i = 0; i < given.length; i++) if (given[i] === field) return fields[i]!;
    return this.share(field);
  }
}

/** The most fields searched for a field's shared copy before it is looked up in the map instead. */
const SCANNED_FIELDS = 8;
