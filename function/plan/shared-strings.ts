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
    use.fields = use.fields.map((field) => this.share(field));
    if (use.requiredField !== undefined) use.requiredField = this.share(use.requiredField);
    for (const keyUse of use.keys.values()) keyUse.field = this.share(keyUse.field);
    return use;
  }
}
