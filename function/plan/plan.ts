// Plan stage: one visit of the input. Indexes the items, selects the targets and, for each, checks its stamp
// site, reads its current stamp, discovers its dependencies and plans its text edit; reads each ModelConfig an
// Agent or its own target hashes; lists what only the cluster can supply. After this, apply needs the trees
// of Secrets, ConfigMaps, producers and kagent objects only (and of targets whose document may be printed again).
import { discoverDependencies, mergeRefs } from '../discover/index.ts';
import { modelConfigRefs } from '../discover/kagent.ts';
import { wantsLiveRead } from '../resolve/index.ts';
import { buildInventory } from './inventory.ts';
import { selectTargets } from './targets.ts';
import { byteOrder } from '../model/order.ts';
import { NodeReader, type MapNode } from '../model/nodes.ts';
import { type Inventory, type Item, type KObject, relatedId } from '../model/object.ts';
import { checkStampSite, currentStamp } from '../model/stamp-site.ts';
import type { Config } from '../model/config.ts';
import type { SourceUse } from '../model/dependencies.ts';
import type { LiveNeed, ModelConfigPlan, Plan, PlannedTarget } from '../model/plan.ts';
import type { Result } from '../model/results.ts';
import type { EditPlan, StampSite, Target } from '../model/target.ts';

/** Plans the text edit of a stamp from the tree as read (write/text-edit.ts; passed in: plan/ does not write). */
export type EditPlanner = (root: MapNode, site: StampSite, key: string) => EditPlan | undefined;

/**
 * The plan of a run. Results are in the order they were found (apply sorts them with its own).
 * - The results a target's checks and discovery give are exactly those a hash of it reports: a target whose
 *   stamp site is wrong is not discovered; a rendered agent Deployment's site is checked only when its Agent
 *   can be hashed.
 */
export function planTargets(items: readonly Item[], config: Config, planEdit: EditPlanner): Plan {
  const results: Result[] = [];
  const inventory = buildInventory(items, config, results);
  const modelConfigs = new Map<KObject, ModelConfigPlan>();
  const planned = new Map<Target, PlannedTarget>();
  const planModelConfig = (obj: KObject): void => {
    if (modelConfigs.has(obj)) return;
    const found: Result[] = [];
    modelConfigs.set(obj, { refs: modelConfigRefs(obj, new NodeReader(obj.subject, found)), results: found });
  };
  const planOne = (target: Target): PlannedTarget => {
    const known = planned.get(target);
    if (known) return known;
    const { obj, mode, site } = target;
    const out: PlannedTarget = { mode, subject: obj.subject, site, item: obj.index, siteOk: false };
    planned.set(target, out);
    if (mode === 'agent-deployment') {
      const agent = planOne(target.agent!);
      out.agent = agent;
      // The Agent reports its own problems; its Deployment is checked only when the Agent can be hashed.
      if (agent.deps) out.siteOk = checkSite(target, results);
    } else {
      out.siteOk = checkSite(target, results);
    }
    if (out.siteOk && (mode === 'workload' || mode === 'agent')) {
      const before = results.length;
      const deps = discoverDependencies(target, inventory, results, config.maxReferences);
      if (!results.slice(before).some((r) => r.severity === 'error')) out.deps = deps;
      for (const ref of out.deps?.objects ?? []) {
        const found = ref.kind === 'ModelConfig' ? inventory.related.get(relatedId(ref.kind, ref.namespace, ref.name)) : undefined;
        if (found?.length === 1) planModelConfig(found[0]!);
      }
    }
    if (mode === 'model-config') {
      out.obj = obj;
      planModelConfig(obj);
    }
    if (out.siteOk) {
      const previous = currentStamp(obj.item.node, site, config.annotationKey);
      if (previous !== undefined) out.previous = previous;
      const edit = planEdit(obj.item.node, site, config.annotationKey);
      if (edit) out.edit = edit;
      // A stamp without a text edit is written by printing the document again: only a reprintable one can be.
      if (obj.item.reprintable) out.node = obj.item.node;
    }
    return out;
  };
  const targets = selectTargets(inventory, config, results).map(planOne);
  const { sources, related, producers } = inventory;
  return { config, index: { sources, related, producers }, targets, modelConfigs, needs: liveNeeds(targets, modelConfigs, inventory, config), results, items: items.length };
}

/** Every node on the way to the stamp must be what a stamp can be written into before anything is written. */
function checkSite(target: Target, results: Result[]): boolean {
  return checkStampSite(target.obj.item.node, target.site, new NodeReader(target.obj.subject, results));
}

/**
 * Which Secrets and ConfigMaps to read from the cluster under `config.live` (see wantsLiveRead): those the
 * targets use. A ModelConfig with more references than ROLLSTAMP_MAX_REFERENCES allows asks for none.
 */
function liveNeeds(targets: readonly PlannedTarget[], modelConfigs: ReadonlyMap<KObject, ModelConfigPlan>, inventory: Inventory, config: Config): LiveNeed[] {
  if (config.live === 'never') return [];
  const needs = new Map<string, LiveNeed>();
  const add = (uses: readonly SourceUse[]): void => {
    for (const use of uses) {
      if (use.cls !== 'SecretProviderClass' && wantsLiveRead(use, inventory, config.live)) {
        needs.set(use.id, { id: use.id, cls: use.cls, namespace: use.namespace, name: use.name });
      }
    }
  };
  for (const t of targets) {
    if (t.mode === 'model-config') {
      const refs = modelConfigs.get(t.obj!)?.refs ?? [];
      if (t.siteOk && refs.length <= config.maxReferences) add(mergeRefs(t.obj!, refs));
    } else add((t.agent ?? t).deps?.uses ?? []);
  }
  return [...needs.values()].sort((a, b) => byteOrder(a.id, b.id));
}
