// The core API: read → index → select targets → discover → resolve → hash → stamp. Synchronous and pure:
// no files, no env, no clock. `planStamp` says which sources only the cluster could supply; the plugin reads
// them and passes them to `applyStamp`, which edits the item nodes in place.
import type { YAMLMap } from 'yaml';
import type { Config } from './config.ts';
import { discoverSources, type SourceUse } from './discover/index.ts';
import { byteOrder, formatDigest, makeHasher, sourceMessage, targetMessage, type Hasher } from './hash.ts';
import { buildInventory, type Inventory } from './inventory.ts';
import { isInBundle, resolveSource, type FetchedSources, type Resolution, type ResolveContext } from './resolve/index.ts';
import type { Item } from './resource-list.ts';
import { hasErrors, infoResult, result, sortResults, type FileRef, type ResourceRef, type Result } from './results.ts';
import { currentStamp, stampAnnotation } from './stamp.ts';
import { selectTargets, type Target } from './targets.ts';
import { planStampEdit, type TextEdit } from './text-edit.ts';
import { formatPath, NodeReader } from './yaml-nodes.ts';

export interface StampOptions {
  config: Config;
  /** HMAC key; absent means plain SHA-256. */
  hashKey?: Uint8Array;
  /** Sources read from the cluster for the ids `planStamp` returned. */
  fetched?: FetchedSources;
}

/** What one source contributed to one target (names, keys and digests only: never a value). */
export interface SourceReport {
  cls: string;
  namespace: string;
  name: string;
  from: Resolution['from'];
  whole: boolean;
  optional: boolean;
  keys: Array<{ key: string; present: boolean }>;
  fields: string[];
  /** Prefixed digest of this source's selected bytes; absent for ignored sources. */
  digest?: string;
}

export interface TargetReport {
  resourceRef: ResourceRef;
  file?: FileRef;
  /** Field that holds the stamp. */
  field: string;
  hash: string;
  previous?: string;
  changed: boolean;
  sources: SourceReport[];
}

export interface StampOutcome {
  results: Result[];
  targets: TargetReport[];
  /**
   * Item nodes that were stamped, each with the text edit that writes the stamp into its source (undefined
   * when only a fresh rendering can). Empty when there are errors: then nothing is stamped.
   */
  changed: Map<YAMLMap, TextEdit | undefined>;
}

export interface StampPlan {
  /** Sources no object in the input resolves, by id (`Secret/ns/name`): what a live read could supply. */
  needs: Array<Pick<SourceUse, 'id' | 'cls' | 'namespace' | 'name'>>;
  results: Result[];
}

/** Which sources the bundle cannot resolve. Reads only; changes nothing. */
export function planStamp(items: readonly Item[], config: Config): StampPlan {
  const results: Result[] = [];
  const inventory = buildInventory(items, config, results);
  const needs = new Map<string, StampPlan['needs'][number]>();
  for (const target of selectTargets(inventory, config, results)) {
    for (const use of discoverSources(target, results)) {
      if (!isInBundle(use, inventory)) needs.set(use.id, { id: use.id, cls: use.cls, namespace: use.namespace, name: use.name });
    }
  }
  return { needs: [...needs.values()], results: sortResults(results) };
}

/**
 * Computes every target's hash and, when no error was found, stamps the pod templates.
 * - Results are sorted; an `error` means the caller must write nothing.
 */
export function applyStamp(items: readonly Item[], options: StampOptions): StampOutcome {
  const { config } = options;
  const results: Result[] = [];
  const inventory = buildInventory(items, config, results);
  const targets = selectTargets(inventory, config, results);
  const ctx: ResolveContext = { inventory, results, cache: new Map(), ...(options.fetched ? { fetched: options.fetched } : {}) };
  const hasher = makeHasher(options.hashKey);
  const reports = targets.map((t) => hashTarget(t, ctx, hasher, config));
  const changed = new Map<YAMLMap, TextEdit | undefined>();
  if (!hasErrors(results)) {
    targets.forEach((t, i) => {
      const report = reports[i];
      if (!report?.changed) return;
      const edit = planStampEdit(t.obj.item.node, t.annotationsPath, config.annotationKey, report.hash);
      stampAnnotation(t.obj.item.node, t.annotationsPath, config.annotationKey, report.hash);
      changed.set(t.obj.item.node, edit);
      results.push(infoResult('STAMPED', `stamped ${config.annotationKey}`, t.obj.subject, report.field));
    });
  }
  return { results: sortResults(results), targets: reports.filter((r): r is TargetReport => r !== undefined), changed };
}

function hashTarget(target: Target, ctx: ResolveContext, hasher: Hasher, config: Config): TargetReport | undefined {
  const { obj, annotationsPath } = target;
  const before = ctx.results.length;
  // Every map on the way to the annotations must be a map (or absent) before anything is written.
  new NodeReader(obj.subject, ctx.results).mapIn(obj.item.node, [], annotationsPath);
  const uses = discoverSources(target, ctx.results);
  if (ctx.results.length > before) return undefined; // the target itself is malformed: no report
  const sources: SourceReport[] = [];
  const digests: Array<{ id: string; digest: Buffer }> = [];
  for (const use of uses) {
    const resolution = resolveSource(use, ctx);
    const report = reportSource(use, resolution);
    sources.push(report);
    if (resolution.from === 'ignored' || resolution.from === 'invalid') continue;
    const entries = resolution.from === 'missing' ? undefined : resolution.entries;
    const keys = entries && use.whole ? [...entries.keys(), ...use.keys.keys()] : [...use.keys.keys()];
    const digest = hasher.digest(sourceMessage({ cls: use.cls, namespace: use.namespace, name: use.name, entries, keys }));
    report.digest = formatDigest(hasher, digest);
    digests.push({ id: use.id, digest });
    reportMissing(use, report, ctx.results, target, config);
  }
  const field = formatPath([...annotationsPath, config.annotationKey]);
  const hash = formatDigest(hasher, hasher.digest(targetMessage(digests)));
  const previous = currentStamp(obj.item.node, annotationsPath, config.annotationKey);
  const out: TargetReport = { resourceRef: obj.subject.ref!, field, hash, changed: previous !== hash, sources };
  if (obj.subject.file) out.file = obj.subject.file;
  if (previous !== undefined) out.previous = previous;
  return out;
}

function reportSource(use: SourceUse, resolution: Resolution): SourceReport {
  const entries = 'entries' in resolution ? resolution.entries : undefined;
  const names = new Set(entries && use.whole ? [...entries.keys(), ...use.keys.keys()] : use.keys.keys());
  return {
    cls: use.cls,
    namespace: use.namespace,
    name: use.name,
    from: resolution.from,
    whole: use.whole,
    optional: use.optional,
    keys: [...names].sort(byteOrder).map((key) => ({ key, present: entries?.has(key) ?? false })),
    fields: use.fields,
  };
}

/**
 * A missing object or key follows onMissing, unless every reference to it is optional; the result points
 * at the first reference that requires it.
 */
function reportMissing(use: SourceUse, report: SourceReport, results: Result[], target: Target, config: Config): void {
  if (config.onMissing === 'ignore') return;
  const severity = config.onMissing === 'error' ? 'error' : 'warning';
  const what = `${use.cls} ${use.namespace}/${use.name}`;
  const subject = target.obj.subject;
  if (report.from === 'missing') {
    if (use.optional) return;
    const tail = severity === 'warning' ? '; its absence is hashed, so its appearance will roll this workload' : '';
    results.push(result(severity, 'MISSING_SOURCE', `${what} is not in the input${tail}`, subject, use.requiredField));
    return;
  }
  for (const k of report.keys) {
    const keyUse = use.keys.get(k.key);
    if (!k.present && keyUse && !keyUse.optional) {
      results.push(result(severity, 'MISSING_KEY', `key "${k.key}" is not in ${what}`, subject, keyUse.field));
    }
  }
}

export type { Config, Inventory };
