// Target kinds: the interface each kind of stamped object implements. Selecting, planning and hashing ask
// the kind (kinds/index.ts has the registry); they do not name kinds. A new kind is one module and one row.
import type { Config } from '../model/config.ts';
import type { FoundRefs, SourceRef } from '../model/dependencies.ts';
import type { NodeReader } from '../model/nodes.ts';
import type { KObject, SourceIndex } from '../model/object.ts';
import type { Result } from '../model/results.ts';
import type { Target, TargetMode } from '../model/target.ts';

/**
 * How a target's hash is made:
 * - `dependencies`: over the Secrets, ConfigMaps and objects `dependencies` finds;
 * - `unit`: over the object's own references (`unitRefs`), once per object; a target that names the object
 *   among its dependencies takes that hash as one dependency;
 * - `carried`: exactly the hash of another target (`Target.carriedFrom`), linked once the whole input is read.
 */
export type HashRule = 'dependencies' | 'unit' | 'carried';


export interface TargetKind {
  readonly mode: TargetMode;
  readonly hash: HashRule;
  /** Planned from its own tree as it is read; false: planned once the whole input is read (other objects count). */
  readonly local: boolean;
  /** How objects are selected as targets of this kind; none for `carried` kinds, which are linked (`link`). */
  readonly select?: Selection;
  /** `dependencies` kinds: the references the hash covers; `maxReferences` bounds what annotations may add. */
  dependencies?(target: Target, reader: NodeReader, inventory: SourceIndex, maxReferences: number): FoundRefs;
  /** `unit` kinds: the object kind a dependency names, and the references of one such object. */
  readonly unitKind?: string;
  unitRefs?(obj: KObject, reader: NodeReader): SourceRef[];
  /**
   * Linked kinds (see Planner.finish): whether an object is kept for linking — `wanted` holds the ids targets
   * asked for (Target.handsTo) so far — and the linking, which may drop a target (undefined) and report.
   */
  candidate?(obj: KObject, wanted: ReadonlySet<string>): boolean;
  link?(targets: Array<Target | undefined>, candidates: readonly KObject[], results: Result[], config: Config): Array<Target | undefined>;
  /**
   * Linked kinds whose targets ask for objects by id: the id an object would be asked for by (undefined: never).
   * An object asked for after it was read is not kept: the input is planned again knowing the id (Plan.replan).
   */
  linkId?(obj: KObject): string | undefined;
}

export interface Selection {
  /** Whether the object is of this kind (the first kind in the registry that matches decides). */
  matches(obj: KObject, config: Config): boolean;
  /** Whether an object of this kind without a `rollstamp.dev/enabled` label or annotation is selected. */
  byDefault(obj: KObject, config: Config): boolean;
  /**
   * The target: its stamp site, with what the object's caveats report; undefined when it is not stamped. An
   * object with several pod templates (a workload row's components) gives one target each.
   */
  read(obj: KObject, results: Result[], config: Config): Target | readonly Target[] | undefined;
}

/**
 * An object never written whatever its labels say: the result that says why (not reported when opted out).
 * - `oncePerRun`: the result names no object and is reported once per run, however many objects it covers.
 */
export type PassThrough = ((obj: KObject, config: Config) => Result | undefined) & { readonly oncePerRun?: true };
