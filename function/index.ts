// The core API: read → index → select targets → discover → resolve → hash → stamp. Synchronous and pure:
// no files, no env, no clock. `planStamp` says which sources only the cluster could supply; the plugin reads
// them and passes them to `applyStamp`, which edits the item nodes in place.
import { ENV_STAMP_NAME } from './model/constants.ts';
import { byteOrder } from './model/order.ts';
import { discoverDependencies } from './discover/index.ts';
import { makeHasher } from './hash/scheme.ts';
import { hashTarget, type HashContext } from './hash/targets.ts';
import { buildInventory } from './plan/inventory.ts';
import { wantsLiveRead } from './resolve/index.ts';
import { errorResult, hasErrors, infoResult, sortResults, type Result } from './model/results.ts';
import { writeStamp } from './write/stamp.ts';
import { selectTargets } from './plan/targets.ts';
import { planStampEdit } from './write/text-edit.ts';
import type { Config, LiveMode } from './model/config.ts';
import type { FetchedSources } from './model/dependencies.ts';
import type { Inventory, Item } from './model/object.ts';
import type { SourceReport, TargetReport } from './model/reports.ts';
import type { TextEdit } from './model/target.ts';
import type { MapNode } from './model/nodes.ts';

export interface StampOptions {
  config: Config;
  /** HMAC key; absent means plain SHA-256. */
  hashKey?: Uint8Array;
  /** Sources read from the cluster for the ids `planStamp` returned. */
  fetched?: FetchedSources;
  /** Report a digest per selected key too (see SourceReport.keys). Default: false. */
  keyDigests?: boolean;
}

export interface StampOutcome {
  results: Result[];
  targets: TargetReport[];
  /**
   * Item nodes that were stamped, each with the text edit that writes the stamp into its source (undefined
   * when only a fresh rendering can). Empty when there are errors: then nothing is stamped.
   */
  changed: Map<MapNode, TextEdit | undefined>;
}

/** A Secret or ConfigMap the plugin should read from the cluster. */
export interface LiveNeed {
  /** `Secret/namespace/name`: the key of `fetched`. */
  id: string;
  cls: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
}

export interface StampPlan {
  /** Sources to read live, by id (`Secret/ns/name`), sorted. */
  needs: LiveNeed[];
  results: Result[];
}

/**
 * Which Secrets and ConfigMaps to read from the cluster under `config.live` (see wantsLiveRead). Reads only;
 * changes nothing.
 */
export function planStamp(items: readonly Item[], config: Config): StampPlan {
  const results: Result[] = [];
  const inventory = buildInventory(items, config, results);
  const needs = new Map<string, StampPlan['needs'][number]>();
  for (const target of selectTargets(inventory, config, results)) {
    for (const use of discoverDependencies(target, inventory, results, config.maxReferences).uses) {
      if (use.cls !== 'SecretProviderClass' && wantsLiveRead(use, inventory, config.live)) {
        needs.set(use.id, { id: use.id, cls: use.cls, namespace: use.namespace, name: use.name });
      }
    }
  }
  const sorted = [...needs.values()].sort((a, b) => byteOrder(a.id, b.id));
  return { needs: sorted, results: sortResults(results) };
}

/**
 * Computes every target's hash and, when no error was found, stamps the pod templates.
 * - Results are sorted; an `error` means the caller must write nothing.
 */
export function applyStamp(items: readonly Item[], options: StampOptions): StampOutcome {
  const { config } = options;
  const results: Result[] = [];
  const inventory = buildInventory(items, config, results);
  if (config.hashScheme === 'kagent' && options.hashKey) {
    return { results: [errorResult('INVALID_CONFIG', 'hashScheme kagent reproduces kagent\'s unkeyed hash and cannot be used with a hash key')], targets: [], changed: new Map() };
  }
  const targets = selectTargets(inventory, config, results);
  const ctx: HashContext = {
    inventory,
    results,
    cache: new Map(),
    hasher: makeHasher(options.hashKey),
    config,
    modelConfigs: new Map(),
    agents: new Map(),
    ...(options.fetched ? { fetched: options.fetched } : {}),
    ...(options.keyDigests ? { keyDigests: true } : {}),
  };
  const reports = targets.map((t) => hashTarget(t, ctx));
  const changed = new Map<MapNode, TextEdit | undefined>();
  if (!hasErrors(results)) {
    targets.forEach((t, i) => {
      const report = reports[i];
      if (!report?.changed) return;
      const edit = planStampEdit(t.obj.item.node, t.site, config.annotationKey, report.hash);
      writeStamp(t.obj.item.node, t.site, config.annotationKey, report.hash);
      changed.set(t.obj.item.node, edit);
      const what = t.site.kind === 'env' ? `env ${ENV_STAMP_NAME}` : config.annotationKey;
      results.push(infoResult('STAMPED', `stamped ${what}`, t.obj.subject, report.field));
    });
  }
  return { results: sortResults(results), targets: reports.filter((r): r is TargetReport => r !== undefined), changed };
}

export type { Config, Inventory, LiveMode, FetchedSources };
export type { SourceReport, TargetReport };

// What the plugin uses besides the stamp API: reading and writing inputs, settings, results, and diff.
export { diffStamps, type KeyChange, type SourceChange, type StampDiff, type TargetDiff } from './compare/stamp-diff.ts';
export { locateSettings, readConfig, readLocatedConfig, type LocatedSettings, type RawSettings } from './config/config.ts';
export { findUnsafeNode, toPlain } from './model/nodes.ts';
export { fromYaml } from './read/from-yaml.ts';
export { type Item } from './model/object.ts';
export { formatResult, hasErrors, infoResult, oneLine, resourceId, sortResults, type Result } from './model/results.ts';
export { jsonStreamAsYaml } from './read/json-stream.ts';
export { parseYamlDocument, type ReadMode } from './read/parse-yaml.ts';
export { parseResourceList } from './read/resource-list.ts';
export { serializeResourceList } from './write/resource-list.ts';
export { isLocalConfigDoc, parseStream, streamItems, type StreamDoc } from './read/stream.ts';
export { serializeStream } from './write/stream.ts';
export { decodeUtf8 } from './read/text.ts';
export { decodeBase64Strict } from './resolve/base64.ts';
export { markBinaryDataKeys } from './resolve/bundle.ts';
export { toKubernetesJson } from './write/kubernetes-json.ts';
