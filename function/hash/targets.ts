// Hash stage over planned targets: resolves each dependency the plan discovered, digests it (scheme v1), and
// combines the digests into the target's hash, as the target's kind says (kinds/ HashRule). An object hashed
// as a unit (a ModelConfig) is hashed once and enters each target that names it as one dependency.
import { mergeRefs } from '../discover/index.ts';
import { kindOf, unitKindFor } from '../kinds/index.ts';
import { formatDigest, sourceDigest, targetDigest, type Hasher } from './scheme.ts';
import type { SharedDigests } from './shared-digests.ts';
import type { Deadline } from '../model/deadline.ts';
import { kagentUnitDigest, unitHasher } from './kagent-scheme.ts';
import { dataEntries, maskedKeys } from '../resolve/bundle.ts';
import { releaseSource, resolveSource, slotOf, type ResolveContext } from '../resolve/index.ts';
import { namespaceHint } from '../resolve/other-namespaces.ts';
import { errorResult, hasErrorsSince, result, type Subject } from '../model/results.ts';
import type { Config } from '../model/config.ts';
import type { ObjectRef, Resolution, SourceSlot, SourceUse } from '../model/dependencies.ts';
import { type KObject, relatedId } from '../model/object.ts';
import type { UnitPlan, PlannedTarget } from '../model/plan.ts';
import type { SourceReport, TargetReport } from '../model/reports.ts';
import { itself, sortInByteOrder } from '../model/order.ts';
import { stampField } from '../model/stamp-site.ts';

export interface HashContext extends ResolveContext {
  hasher: Hasher;
  config: Config;
  /** The references of each object hashed as a unit, as planned; their results are reported when it is first hashed. */
  unitPlans: ReadonlyMap<KObject, UnitPlan>;
  /** Unit hashes by object, so each is computed and reported once. */
  unitHashes: Map<KObject, { digest: Buffer; sources: SourceReport[] }>;
  /** Reports of targets that are not local (an Agent), which the targets carrying their hash repeat. */
  sharedReports: Map<PlannedTarget, TargetReport | undefined>;
  /** Source digests by selection, shared between targets (and the key budget). */
  shared: SharedDigests;
  /**
   * Build each target's source reports (TargetReport.sources), which explain and diff print; without them
   * `sources` is empty and a source costs its digest alone (#37). The hashes and results are the same.
   */
  reports: boolean;
  /** Checked inside long loops. Default: none. */
  deadline?: Deadline;
}

/** The target's hash and report; undefined when the target itself is malformed (errors are in the results). */
export function hashTarget(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  switch (kindOf(target.mode).hash) {
    case 'dependencies':
      return sharedReport(target, ctx);
    case 'carried': {
      // Exactly the hash of the target it carries (a rendered Deployment, its Agent's; that one reports problems).
      const carried = sharedReport(target.carriedFrom!, ctx);
      return carried && target.siteOk ? targetReport(target, carried.hash, carried.sources, ctx.config) : undefined;
    }
    case 'unit': {
      if (!target.siteOk) return undefined;
      const before = ctx.results.length;
      const unit = unitHash(target.obj!, ctx);
      if (errorsSince(ctx, before)) return undefined;
      return targetReport(target, formatDigest(unitHasher(ctx), unit.digest), unit.sources, ctx.config);
    }
  }
}

/** A target's report over its dependencies; computed once for a target that is not local (others carry it). */
function sharedReport(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  if (kindOf(target.mode).local) return dependencyReport(target, ctx);
  if (!ctx.sharedReports.has(target)) ctx.sharedReports.set(target, dependencyReport(target, ctx));
  return ctx.sharedReports.get(target);
}

/**
 * The target hash over everything the target depends on: its sources and the objects it names. None
 * when the plan found its stamp site or its references wrong (the errors are in the plan's results).
 */
function dependencyReport(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  const { deps } = target;
  if (!target.siteOk || !deps) return undefined;
  const used = digestUses(deps.uses, ctx, target.subject, true);
  const objects = digestObjects(deps.objects, ctx, target.subject);
  const digests = objects.digests.length === 0 ? used.digests : [...used.digests, ...objects.digests];
  const hash = formatDigest(ctx.hasher, targetDigest(ctx.hasher, digests));
  // Without source reports (stamp, fn, generate) both lists are empty: one list for every target's report (#37).
  const sources = used.reports.length === 0 && objects.reports.length === 0 ? NO_SOURCES : [...used.reports, ...objects.reports];
  return targetReport(target, hash, sources, ctx.config);
}

/** A target's source reports when it has none, as `stamp` makes them: shared, never added to. */
const NO_SOURCES: SourceReport[] = Object.freeze([]) as unknown as SourceReport[];

/** Warnings do not stop a target; errors do. */
const errorsSince = (ctx: HashContext, before: number): boolean => hasErrorsSince(ctx.results, before);

function targetReport(target: PlannedTarget, hash: string, sources: SourceReport[], config: Config): TargetReport {
  const { subject, site, previous } = target;
  const out: TargetReport = { resourceRef: subject.ref!, ...(target.component ? { component: target.component } : {}), field: stampField(site, config.annotationKey), hash, changed: previous !== hash, sources };
  if (subject.file) out.file = subject.file;
  if (previous !== undefined) out.previous = previous;
  if (target.rollout) out.rollout = target.rollout;
  return out;
}

type Digest = { id: string; digest: Buffer };

/**
 * Source digests (scheme v1) of Secrets and ConfigMaps, shared between targets; missing ones are reported to `reportTo`.
 * - `release`: the uses are a target's planned readers (SourceSlot.readers, counted by the plan): each source is
 *   released once digested. The uses are merged per source, so no later use of the target reads it again.
 */
function digestUses(uses: readonly SourceUse[], ctx: HashContext, reportTo: Subject, release: boolean): { reports: SourceReport[]; digests: Digest[] } {
  // Added to only with ctx.reports: without, one empty list serves every target (#37).
  const reports: SourceReport[] = ctx.reports ? [] : NO_SOURCES;
  const digests: Digest[] = [];
  for (const use of uses) {
    ctx.deadline?.check('hashing'); // one use may digest a whole large source
    // The source's slot holds its resolution, its readers left and its selections: no map of every source id (#37).
    const slot = slotOf(use, ctx);
    const resolution = resolveFor(use, ctx, slot);
    const report = ctx.reports ? reportSource(use, resolution) : undefined;
    if (report) reports.push(report);
    if (resolution.from !== 'ignored' && resolution.from !== 'invalid') {
      if (report) {
        const shared = ctx.shared.digest(use, resolution, slot);
        report.keys = shared.keys;
        report.digest = formatDigest(ctx.hasher, shared.digest);
        digests.push({ id: use.id, digest: shared.digest });
      } else digests.push({ id: use.id, digest: ctx.shared.digestOnly(use, resolution, slot) });
      reportMissing(use, resolution, ctx, reportTo);
    }
    if (release) releaseSource(slot);
  }
  return { reports, digests };
}

/** What a target that names no kagent object gets from digestObjects: nothing, in arrays nobody adds to. */
const NO_OBJECTS: { reports: SourceReport[]; digests: Digest[] } = Object.freeze({ reports: [], digests: [] });

/**
 * Objects a target names: one hashed as a unit (a ModelConfig) enters with its own hash; the Secrets of
 * others (a RemoteMCPServer) are already among the uses. Any of them missing from the input enters as a
 * "missing" marker (so its appearance changes the hash) and follows onMissing.
 */
function digestObjects(objects: readonly ObjectRef[], ctx: HashContext, reportTo: Subject): { reports: SourceReport[]; digests: Digest[] } {
  if (objects.length === 0) return NO_OBJECTS; // a workload: no arrays and no set per target
  const reports: SourceReport[] = [];
  const digests: Digest[] = [];
  const seen = new Set<string>();
  for (const ref of objects) {
    const id = relatedId(ref.kind, ref.namespace, ref.name);
    if (seen.has(id)) continue;
    seen.add(id);
    const found = ctx.inventory.related.get(id);
    const base = { cls: ref.kind, namespace: ref.namespace, name: ref.name, whole: true, optional: false, keys: [], fields: [ref.field] };
    if (found && found.length > 1) {
      ctx.results.push(errorResult('DUPLICATE_SOURCE', `${ref.kind} ${ref.namespace}/${ref.name} appears ${found.length} times in the input`, reportTo, ref.field));
      if (ctx.reports) reports.push({ ...base, from: 'invalid' });
      continue;
    }
    if (found) {
      if (!unitKindFor(ref.kind)) continue; // its Secrets are among the uses; nothing else of it reaches the pod
      const mc = unitHash(found[0]!, ctx);
      if (ctx.reports) reports.push({ ...base, from: 'bundle', digest: formatDigest(ctx.hasher, mc.digest), sources: mc.sources });
      digests.push({ id, digest: mc.digest });
      continue;
    }
    const digest = sourceDigest(ctx.hasher, { cls: ref.kind, namespace: ref.namespace, name: ref.name, entries: undefined, keys: [] });
    if (ctx.reports) reports.push({ ...base, from: 'missing', digest: formatDigest(ctx.hasher, digest) });
    digests.push({ id, digest });
    if (ctx.config.onMissing !== 'ignore') {
      const severity = ctx.config.onMissing === 'error' ? 'error' : 'warning';
      ctx.results.push(result(severity, 'MISSING_OBJECT', `${ref.kind} ${ref.namespace}/${ref.name} is not in the input`, reportTo, ref.field));
    }
  }
  return { reports, digests };
}

/**
 * The hash of an object hashed as a unit (a ModelConfig): scheme v1 (the target hash over its own sources,
 * keyed when a hash key is set), or with `hashScheme: kagent` kagent's status.secretHash. Computed once.
 */
function unitHash(obj: KObject, ctx: HashContext): { digest: Buffer; sources: SourceReport[] } {
  const cached = ctx.unitHashes.get(obj);
  if (cached) return cached;
  const planned = ctx.unitPlans.get(obj);
  if (!planned) throw new Error('internal: a unit was hashed that the plan did not read');
  ctx.results.push(...planned.results);
  const { refs } = planned;
  const { reports, digests } = digestUses(mergeRefs(obj, refs), ctx, obj.subject, false);
  const digest = kagentUnitDigest(obj, refs, ctx, (use) => resolveFor(use, ctx)) ?? targetDigest(ctx.hasher, digests);
  const out = { digest, sources: reports };
  ctx.unitHashes.set(obj, out);
  return out;
}

/** The source as this use reads it: a `data`-only reader does not see keys that are only in binaryData. */
function resolveFor(use: SourceUse, ctx: HashContext, slot?: SourceSlot): Resolution {
  const resolution = resolveSource(use, ctx, slot);
  return use.dataOnly && 'entries' in resolution ? { ...resolution, entries: dataEntries(resolution.entries) } : resolution;
}

/** The report of one use; its key rows come from the shared digest (none for ignored or invalid sources). */
function reportSource(use: SourceUse, resolution: Resolution): SourceReport {
  const report: SourceReport = {
    cls: use.cls,
    namespace: use.namespace,
    name: use.name,
    from: resolution.from,
    whole: use.whole,
    optional: use.optional,
    keys: [],
    fields: use.fields,
  };
  if ('produced' in resolution) report.producedBy = resolution.produced.producer;
  if ('entries' in resolution && maskedKeys(resolution.entries).size > 0) report.masked = true;
  return report;
}

/**
 * A missing object or key follows onMissing, unless every reference to it is optional; the result points
 * at the first reference that requires it.
 */
function reportMissing(use: SourceUse, resolution: Resolution, ctx: HashContext, subject: Subject): void {
  const { config, results } = ctx;
  if (config.onMissing === 'ignore') return;
  const severity = config.onMissing === 'error' ? 'error' : 'warning';
  if (resolution.from === 'missing') {
    if (use.optional) return;
    const what = `${use.cls} ${use.namespace}/${use.name}`;
    const tail = severity === 'warning' ? '; its absence is hashed, so its appearance will change the hash' : '';
    const where = resolution.cluster === true ? 'the input or the cluster' : 'the input';
    const hint = namespaceHint(ctx.inventory, use.cls, use.namespace, use.name);
    results.push(result(severity, 'MISSING_SOURCE', `${what} is not in ${where}${tail}${hint}`, subject, use.requiredField));
    return;
  }
  // Only the keys a target names can be missing: a whole-object read takes what is there (#21: not per key of it).
  const produced = 'produced' in resolution ? resolution.produced : undefined;
  const known = produced ? produced.keyed : 'entries' in resolution ? resolution.entries : undefined;
  // The missing keys are found first, in any order, and only they are sorted: nearly every use has all its keys.
  let missing: string[] | undefined;
  for (const [key, keyUse] of use.keys) {
    const present = known ? known.has(key) : produced !== undefined;
    if (!present && !keyUse.optional) (missing ??= []).push(key);
  }
  if (missing === undefined) return;
  const what = `${use.cls} ${use.namespace}/${use.name}`;
  for (const key of sortInByteOrder(missing, itself)) {
    const made = produced && resolution.from === 'producer' ? ` (made by ${produced.producer})` : use.dataOnly ? ' (kagent reads data, not binaryData)' : '';
    results.push(result(severity, 'MISSING_KEY', `key "${key}" is not in ${what}${made}`, subject, use.keys.get(key)!.field));
  }
}
