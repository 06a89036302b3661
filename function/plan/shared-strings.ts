// Plan stage: one copy of each string the plan keeps over and over. A plan lives until the run ends, and its
// targets' dependencies repeat the same field paths and source ids: 20,000 workloads reading
// `spec.template.spec.containers[0].envFrom[0].secretRef` each held their own copy of it (#37).
import type { Dependencies, SourceUse } from '../model/dependencies.ts';

/** Objects a target names (kagent's ModelConfigs, tools): none for a workload, one array for all of them. */
const NO_OBJECTS: Dependencies['objects'] = Object.freeze([]);

/**
 * Equal strings given as one: the first one given.
 * - One per plan: it goes with the planner, so a long-running process keeps nothing from one run to the next.
 */
export class SharedStrings {
  private readonly known = new Map<string, string>();

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
   * target that names no kagent object. Equal in every value to `deps`.
   */
  dependencies(deps: Dependencies): Dependencies {
    return { uses: deps.uses.map((use) => this.use(use)), objects: deps.objects.length > 0 ? deps.objects : NO_OBJECTS };
  }

  private use(use: SourceUse): SourceUse {
    use.id = this.share(use.id);
    const given = use.fields;
    const fields = given.map((field) => this.share(field));
    use.fields = fields;
    // The required field and each key's field are the field of a reference the use merged, so the same string is
    // among `given`: its shared copy is taken from there, not looked up again in a map of every path (#37). Only
    // in a short list: a use merged from thousands of references looks each up.
    const shared = (field: string): string => {
      const at = given.length <= SCANNED_FIELDS ? given.indexOf(field) : -1;
      return at >= 0 ? fields[at]! : this.share(field);
    };
    if (use.requiredField !== undefined) use.requiredField = shared(use.requiredField);
    for (const keyUse of use.keys.values()) keyUse.field = shared(keyUse.field);
    return use;
  }
}

/** The most fields searched for a field's shared copy before it is looked up in the map instead. */
const SCANNED_FIELDS = 8;
