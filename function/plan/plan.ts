// Plan stage: one visit of the input, item by item. Each item is indexed; a workload target's stamp site is
// checked, its current stamp read, its dependencies discovered and its text edit planned while its tree is at
// hand, so the tree can go with the item. What needs the whole input waits for `finish`: targets of kinds that
// are not local (kinds/; a kagent Agent's tools are other objects), objects hashed as units, and targets that
// carry another's hash. Plain Secrets and ConfigMaps are decoded when indexed (plan/inventory.ts), or scanned
// and decoded when resolved; only the trees of producers, SOPS Secrets and kagent objects stay (resolving reads
// them), and the trees of targets whose document can be printed again.
import { discoverDependencies, mergeRefs } from '../discover/index.ts';
import { declaredKindProblems, declaredPathWork, kindOf, LINKED_KINDS, unitKindFor, type TargetKind } from '../kinds/index.ts';
import { isKagent1x } from '../kinds/kagent1x-versions.ts';
import { wantsLiveRead } from '../resolve/index.ts';
import { emptyIndex, indexObject, indexScanned } from './inventory.ts';
import { isIdentityOnly, isScannableSource } from './identity-only.ts';
import { alsoReloadedWarning, selectTarget } from './targets.ts';
import { SharedStrings } from './shared-strings.ts';
import { byteOrder } from '../model/order.ts';
import { NodeReader, type MapNode } from '../model/nodes.ts';
import { isReprintable, isTreeless, isVouchedFor, type Item, type KObject, relatedId, type ScannedIdentity, type ScannedSource, type SourceIndex } from '../model/object.ts';
import { checkStampSite, currentStamp } from '../model/stamp-site.ts';
import { LIVE_RECORD_ANNOTATION } from '../model/constants.ts';
import { RECORD_SITE } from '../model/live-record.ts';
import { type Config, DEFAULT_MAX_KEY_WORK } from '../model/config.ts';
import type { Deadline } from '../model/deadline.ts';
import type { SourceUse } from '../model/dependencies.ts';
import type { LiveNeed, UnitPlan, Plan, PlannedTarget, RecordSite } from '../model/plan.ts';
import { errorResult, hasErrorsSince, type FileRef, type Result, type Subject } from '../model/results.ts';
import type { EditPlan, StampSite, Target } from '../model/target.ts';

/** Plans the text edit of a stamp from the tree as read (write/text-edit.ts; passed in: plan/ does not write). */
export type EditPlanner = (root: MapNode, site: StampSite, key: string) => EditPlan | undefined;

/** A target in input order: planned already, or waiting for the whole input. */
type Slot = { planned: PlannedTarget } | { target: Target };

/**
 * Builds a plan from items given in input order (`add`, any number of times), then `finish`.
 * - The results a target's checks and discovery give are exactly those a hash of it reports: a target whose
 *   stamp site is wrong is not discovered; a rendered agent Deployment's site is checked only when its Agent
 *   can be hashed. Results are in the order found (apply sorts them with its own).
 */
export class Planner {
  private readonly results: Result[] = [];
  private readonly index: SourceIndex = emptyIndex();
  private readonly slots: Slot[] = [];
  /** Objects that may carry another target's hash: planned only once every target is known. */
  private readonly candidates: KObject[] = [];
  private readonly units = new Map<KObject, UnitPlan>();
  private readonly planned = new Map<Target, PlannedTarget>();
  /** kagent 1.x objects: never targets; their trees stay for `diff` and `explain` (#20). */
  private readonly kagent1x: KObject[] = [];
  /** Objects that are not targets but carry a live-read record (the render replaces it). */
  private readonly strayRecords: RecordSite[] = [];
  /** Objects of a kind some target kind selects, chosen or not. */
  private selectable = 0;
  /** Once-per-run pass-through notes given so far (see selectTarget). */
  private readonly notesGiven = new Set<string>();
  /** Targets another tool reloads too (Target.alsoRolledBy): one warning names them at the end (#38). */
  private readonly alsoReloaded: Subject[] = [];
  /** Ids targets asked for (Target.handsTo): objects read with one of them are kept for linking. */
  private readonly wanted: Set<string>;
  /** Ids of objects read before any target asked for them, and not kept. */
  private readonly passed = new Set<string>();
  /** A target asked for an object already passed: the input must be planned again (Plan.replan). */
  private replan = false;
  private count = 0;
  /** Objects whose live-read record is planned (by the first of their targets). */
  private readonly recorded = new Set<number>();
  /** Spent of config.maxKeyWork by declared paths; past it, nothing more is selected (the run has failed). */
  private workSpent = 0;
  private overBudget = false;
  /** The strings the planned targets' dependencies repeat, one copy each (#37). */
  private readonly strings = new SharedStrings();

  constructor(
    private readonly config: Config,
    private readonly planEdit: EditPlanner,
    /** The run's deadline, for the loops over items and targets. Default: none. */
    readonly deadline?: Deadline,
    /** Ids asked for by targets, known from an earlier plan of the same input (Plan.replan). Default: none. */
    wanted?: readonly string[],
  ) {
    this.wanted = new Set(wanted);
    // A declared kind that collides with a built-in one fails the run before anything is read (#24).
    this.results.push(...declaredKindProblems(config));
  }

  /** How many items were added: the index the next one gets. */
  get items(): number {
    return this.count;
  }

  add(items: readonly Item[]): void {
    for (const item of items) {
      if (this.count % 64 === 63) this.deadline?.check('planning');
      const obj = indexObject(this.index, item, this.count++, this.config, this.results);
      if (obj) this.place(obj);
    }
  }

  /**
   * Adds a Secret or ConfigMap `scansSource` said yes to, read without a tree, as `add` adds its tree. It is indexed
   * and not placed: placing a plain Secret or ConfigMap that carries no rollstamp annotation finds nothing under any
   * config (test/unit/scanned-sources.test.ts), and a large render's thousands of them, placed ahead of its first
   * workload, had V8 optimize `place` and selecting on them alone, to be thrown away at that workload (#37).
   */
  addScanned(source: ScannedSource, file: FileRef): void {
    if (this.count % 64 === 63) this.deadline?.check('planning');
    indexScanned(this.index, source, file, this.count++, this.config);
  }

  /** What `add` does with an object once it is indexed. */
  private place(obj: KObject): void {
    if (isKagent1x(obj)) this.kagent1x.push(obj);
    let candidate = false;
    for (const k of LINKED_KINDS) {
      if (k.candidate?.(obj, this.wanted)) {
        candidate = true; // (a loop: `some` made a closure per object)
        break;
      }
    }
    if (candidate) this.candidates.push(obj);
    else for (const k of LINKED_KINDS) this.pass(k.linkId?.(obj));
    if (this.overBudget) return;
    const { targets, selectable } = selectTarget(obj, this.config, this.results, this.notesGiven);
    if (selectable) this.selectable++;
    // A record only the render may write (#34): one the input carries on any object whose tree is still at hand
    // (not a decoded or scanned Secret or ConfigMap, which nothing reads records from) is replaced.
    if (!targets?.length && !isTreeless(obj) && obj.annotations.has(LIVE_RECORD_ANNOTATION)) this.strayRecords.push(this.planRecord(obj));
    for (const target of targets ?? []) {
      if (!this.spend(target)) break;
      if (target.alsoRolledBy) this.alsoReloaded.push(target.obj.subject);
      if (target.handsTo) {
        // An object asked for after it went by cannot be linked from this reading: read the input again (#38).
        if (this.passed.has(target.handsTo.id)) this.replan = true;
        this.wanted.add(target.handsTo.id);
      }
      // A local kind's plan needs nothing but its own tree; a candidate may yet carry another's hash.
      this.slots.push(kindOf(target.mode).local && !candidate ? { planned: this.planOne(target) } : { target });
    }
  }

  /**
   * Whether a document is one the planner needs only the identity of (plan/identity-only.ts): a run then skims
   * it and adds it with `addIdentityOnly` instead of reading it into a tree.
   */
  needsOnlyIdentity(identity: ScannedIdentity, text: string): boolean {
    return isIdentityOnly(identity, text, this.config);
  }

  /** Whether a run may scan this Secret or ConfigMap (read/scan-source.ts) and add it with `addScanned`. */
  scansSource(identity: ScannedIdentity, text: string): boolean {
    return isScannableSource(identity, text, this.config);
  }

  /**
   * Adds an object `needsOnlyIdentity` said yes to, in its place in input order: it takes the next index, and
   * nothing else (indexing files nothing of it, selecting it finds nothing, as `add` does with its tree).
   */
  addIdentityOnly(): void {
    if (this.count % 64 === 63) this.deadline?.check('planning');
    this.count++;
  }

  private pass(id: string | undefined): void {
    if (id !== undefined) this.passed.add(id);
  }

  /**
   * The plan. With `replan` set, nothing else in it counts: a target asked for an object read before it, and
   * the caller plans the input again with those ids (`new Planner(…, replan)`), which then keeps the objects.
   */
  finish(): Plan {
    if (this.replan) return { config: this.config, index: emptyIndex(), slots: new Map(), targets: [], units: new Map(), needs: [], results: [], items: this.count, selectable: 0, workSpent: 0, strayRecords: [], replan: [...this.wanted] };
    const waiting = this.slots.flatMap((s) => ('target' in s ? [s.target] : []));
    let linked: Array<Target | undefined> = waiting;
    for (const kind of LINKED_KINDS) linked = kind.link!(linked, this.candidates, this.results, this.config);
    // Linking replaces a waiting target in place, drops one (undefined) or appends one: put them back among
    // the planned ones.
    let next = 0;
    const targets: PlannedTarget[] = [];
    this.slots.forEach((s, i) => {
      if (i % 64 === 63) this.deadline?.check('planning');
      if ('planned' in s) targets.push(s.planned);
      else {
        const target = linked[next++];
        if (target) targets.push(this.planOne(target));
      }
    });
    for (const extra of linked.slice(next)) if (extra) targets.push(this.planOne(extra));
    const reloaded = alsoReloadedWarning(this.alsoReloaded);
    if (reloaded) this.results.push(reloaded);
    const { config, index, units, results, kagent1x, selectable, workSpent, strayRecords } = this;
    return { config, index, slots: this.strings.slots, targets, units, needs: liveNeeds(targets, units, index, config), results, items: this.count, selectable, kagent1x, workSpent, strayRecords };
  }

  /**
   * Charges a target's declared paths to the run's work budget (#33): one entry listing 100,000 paths over
   * 10,000 objects must end with one line naming the limit, not at the deadline. False once it is spent.
   */
  private spend(target: Target): boolean {
    const cost = target.row ? declaredPathWork(target.row) : 0;
    if (cost === 0) return true;
    const limit = this.config.maxKeyWork ?? DEFAULT_MAX_KEY_WORK;
    this.workSpent += cost;
    if (this.workSpent <= limit) return true;
    this.overBudget = true;
    const message = `more than ${limit} keys and declared paths to read: each path of ${target.row!.declaredAt} (${cost}) counts once in every object it is read in; the limit is ROLLSTAMP_MAX_KEY_WORK`;
    this.results.push(errorResult('TOO_MUCH_KEY_WORK', message, target.obj.subject));
    return false;
  }

  /**
   * Where the object's live-read record goes. When the stamp goes into the same annotations map (a ModelConfig's
   * informational hash), two planned inserts would each create the map: the record is then written by a fresh
   * rendering.
   */
  private planRecord(obj: KObject, stampSite?: StampSite): RecordSite {
    const site: RecordSite = { item: obj.index, subject: obj.subject };
    const previous = obj.annotations.get(LIVE_RECORD_ANNOTATION);
    if (previous !== undefined) site.previous = previous;
    const sameMap = stampSite?.kind === 'annotation' && stampSite.path.join('\0') === RECORD_SITE.path.join('\0');
    const edit = sameMap ? undefined : this.editAt(obj, RECORD_SITE, LIVE_RECORD_ANNOTATION);
    if (edit) site.edit = edit;
    if (isReprintable(obj.item.readBy)) site.node = obj.item.node;
    return site;
  }

  /**
   * The text edit at `site` of `obj`. Its window (TextEdit.window) is kept only where the subset reader read the
   * object: a window stands for a block map of the subset reader's tree, and a list read item by item may hold
   * items the yaml library read (read/resource-list-items.ts).
   */
  private editAt(obj: KObject, site: StampSite, key: string): EditPlan | undefined {
    const edit = this.planEdit(obj.item.node, site, key);
    if (edit?.window && !isVouchedFor(obj.item.readBy)) delete edit.window;
    return edit;
  }

  /** An object hashed as a unit (a ModelConfig): its references, read once. */
  private planUnit(obj: KObject, kind: TargetKind): void {
    if (this.units.has(obj)) return;
    const found: Result[] = [];
    this.units.set(obj, { refs: kind.unitRefs!(obj, new NodeReader(obj.subject, found)), results: found });
  }

  private planOne(target: Target): PlannedTarget {
    const known = this.planned.get(target);
    if (known) return known;
    const { config, results } = this;
    const { obj, mode, site } = target;
    const kind = kindOf(mode);
    const out: PlannedTarget = { mode, subject: obj.subject, site, item: obj.index, siteOk: false };
    if (target.rollout) out.rollout = target.rollout;
    if (target.component) out.component = target.component;
    if (!kind.local) this.planned.set(target, out); // planned once for all targets that carry its hash
    if (kind.hash === 'carried') {
      const carriedFrom = this.planOne(target.carriedFrom!);
      out.carriedFrom = carriedFrom;
      // The carried target reports its own problems; this one is checked only when that one can be hashed.
      if (carriedFrom.deps) out.siteOk = checkSite(target, results);
    } else {
      out.siteOk = checkSite(target, results);
    }
    if (out.siteOk && kind.dependencies) {
      const before = results.length;
      const found = kind.dependencies(target, new NodeReader(obj.subject, results), this.index, config.maxReferences);
      const deps = discoverDependencies(obj, found, results, config.maxReferences);
      if (!hasErrorsSince(results, before)) {
        out.deps = this.strings.dependencies(deps);
        // Its planned readers, counted once per target whose report is made from its own dependencies (each planned
        // once): apply lets a source's values go after the last of them (hash/targets.ts).
        if (kind.hash === 'dependencies') for (const use of out.deps.uses) use.slot!.readers++;
      }
      for (const ref of out.deps?.objects ?? []) {
        const unit = unitKindFor(ref.kind);
        const named = unit ? this.index.related.get(relatedId(ref.kind, ref.namespace, ref.name)) : undefined;
        if (unit && named?.length === 1) this.planUnit(named[0]!, unit);
      }
    }
    if (kind.hash === 'unit') {
      out.obj = obj;
      this.planUnit(obj, kind);
    }
    if (out.siteOk) {
      const previous = currentStamp(obj.item.node, site, config.annotationKey);
      if (previous !== undefined) out.previous = previous;
      const edit = this.editAt(obj, site, config.annotationKey);
      if (edit) out.edit = edit;
      // A stamp without a text edit is written by printing the document again: only a reprintable one can be.
      if (isReprintable(obj.item.readBy)) out.node = obj.item.node;
      // One record per object, however many of its pod templates are stamped (a kind with components). Under
      // `live: never` nothing is read live, so only a record the input carries is written (replaced): an object
      // without one needs no record site, which would be kept to the end of the run for nothing (#37).
      // Whether a record is wanted is the object's, asked first: most runs then keep no set of every object.
      if ((config.live !== 'never' || obj.annotations.has(LIVE_RECORD_ANNOTATION)) && !this.recorded.has(obj.index)) {
        this.recorded.add(obj.index);
        out.record = this.planRecord(obj, site);
      }
    }
    return out;
  }
}

/** Every node on the way to the stamp must be what a stamp can be written into before anything is written. */
function checkSite(target: Target, results: Result[]): boolean {
  return checkStampSite(target.obj.item.node, target.site, new NodeReader(target.obj.subject, results));
}

/**
 * Which Secrets and ConfigMaps to read from the cluster under `config.live` (see wantsLiveRead): those the
 * targets use. A ModelConfig with more references than ROLLSTAMP_MAX_REFERENCES allows asks for none.
 */
function liveNeeds(targets: readonly PlannedTarget[], units: ReadonlyMap<KObject, UnitPlan>, index: SourceIndex, config: Config): LiveNeed[] {
  if (config.live === 'never') return [];
  const needs = new Map<string, LiveNeed>();
  const add = (uses: readonly SourceUse[]): void => {
    for (const use of uses) {
      if (use.cls !== 'SecretProviderClass' && wantsLiveRead(use, index, config.live, config.reloader === 'enabled')) {
        needs.set(use.id, { id: use.id, cls: use.cls, namespace: use.namespace, name: use.name });
      }
    }
  };
  for (const t of targets) {
    if (kindOf(t.mode).hash === 'unit') {
      const refs = units.get(t.obj!)?.refs ?? [];
      if (t.siteOk && refs.length <= config.maxReferences) add(mergeRefs(t.obj!, refs));
    } else add((t.carriedFrom ?? t).deps?.uses ?? []);
  }
  return [...needs.values()].sort((a, b) => byteOrder(a.id, b.id));
}
