// Hash stage over planned targets: resolves each dependency the plan discovered, digests it (scheme v1), and
// combines the digests into the target's hash. A kagent ModelConfig is hashed once, as a unit, and enters each
// Agent as one dependency.
import { mergeRefs } from '../discover/index.ts';
import { formatDigest, sourceMessage, targetMessage, type Hasher, type SourceInput } from './scheme.ts';
import { kagentSecretHash, type KagentSecret } from './kagent-scheme.ts';
import { dataEntries } from '../resolve/bundle.ts';
import { resolveSource, type ResolveContext } from '../resolve/index.ts';
import { namespaceHint } from '../resolve/other-namespaces.ts';
import { errorResult, result, warningResult, type Subject } from '../model/results.ts';
import type { Config } from '../model/config.ts';
import type { ObjectRef, Resolution, SourceRef, SourceUse } from '../model/dependencies.ts';
import { type KObject, relatedId } from '../model/object.ts';
import type { ModelConfigPlan, PlannedTarget } from '../model/plan.ts';
import type { SourceReport, TargetReport } from '../model/reports.ts';
import { byteOrder } from '../model/order.ts';
import { stampField } from '../model/stamp-site.ts';

export interface HashContext extends ResolveContext {
  hasher: Hasher;
  config: Config;
  /** Each ModelConfig's references as planned; their results are reported when it is first hashed. */
  modelConfigPlans: ReadonlyMap<KObject, ModelConfigPlan>;
  /** ModelConfig hashes by object, so each is computed and reported once. */
  modelConfigs: Map<KObject, { digest: Buffer; sources: SourceReport[] }>;
  /** Agent reports, which rendered agent Deployments repeat. */
  agents: Map<PlannedTarget, TargetReport | undefined>;
  /** Also digest each selected key on its own (scheme v1 source message with that one key). Default: false. */
  keyDigests?: boolean;
}

/** The target's hash and report; undefined when the target itself is malformed (errors are in the results). */
export function hashTarget(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  switch (target.mode) {
    case 'agent':
      return agentReport(target, ctx);
    case 'agent-deployment': {
      // A Deployment rendered for an Agent carries exactly its Agent's hash (and the Agent reports any problem).
      const agent = agentReport(target.agent!, ctx);
      return agent && target.siteOk ? targetReport(target, agent.hash, agent.sources, ctx.config) : undefined;
    }
    case 'model-config': {
      if (!target.siteOk) return undefined;
      const before = ctx.results.length;
      const mc = modelConfigHash(target.obj!, ctx);
      if (errorsSince(ctx, before)) return undefined;
      const hasher = ctx.config.hashScheme === 'kagent' ? { ...ctx.hasher, algorithm: 'sha256' as const } : ctx.hasher;
      return targetReport(target, formatDigest(hasher, mc.digest), mc.sources, ctx.config);
    }
    case 'workload':
      return dependencyReport(target, ctx);
  }
}

/** An Agent's report, computed once (its rendered Deployments repeat it). */
function agentReport(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  if (!ctx.agents.has(target)) ctx.agents.set(target, dependencyReport(target, ctx));
  return ctx.agents.get(target);
}

/**
 * The target hash over everything the target depends on: its sources and the kagent objects it names. None
 * when the plan found its stamp site or its references wrong (the errors are in the plan's results).
 */
function dependencyReport(target: PlannedTarget, ctx: HashContext): TargetReport | undefined {
  const { deps } = target;
  if (!target.siteOk || !deps) return undefined;
  const used = digestUses(deps.uses, ctx, target.subject);
  const objects = digestObjects(deps.objects, ctx, target.subject);
  const hash = formatDigest(ctx.hasher, ctx.hasher.digest(targetMessage([...used.digests, ...objects.digests])));
  return targetReport(target, hash, [...used.reports, ...objects.reports], ctx.config);
}

/** Warnings do not stop a target; errors do. */
const errorsSince = (ctx: HashContext, before: number): boolean => ctx.results.slice(before).some((r) => r.severity === 'error');

function targetReport(target: PlannedTarget, hash: string, sources: SourceReport[], config: Config): TargetReport {
  const { subject, site, previous } = target;
  const out: TargetReport = { resourceRef: subject.ref!, field: stampField(site, config.annotationKey), hash, changed: previous !== hash, sources };
  if (subject.file) out.file = subject.file;
  if (previous !== undefined) out.previous = previous;
  return out;
}

type Digest = { id: string; digest: Buffer };

/** Source digests (scheme v1) of Secrets and ConfigMaps; missing ones are reported to `reportTo`. */
function digestUses(uses: readonly SourceUse[], ctx: HashContext, reportTo: Subject): { reports: SourceReport[]; digests: Digest[] } {
  const reports: SourceReport[] = [];
  const digests: Digest[] = [];
  for (const use of uses) {
    const resolution = resolveFor(use, ctx);
    const report = reportSource(use, resolution);
    reports.push(report);
    if (resolution.from === 'ignored' || resolution.from === 'invalid') continue;
    const input = sourceInput(use, resolution);
    const digest = ctx.hasher.digest(sourceMessage(input));
    report.digest = formatDigest(ctx.hasher, digest);
    // Keyed like every digest; the source's identity is in each, so equal values of two keys differ.
    if (ctx.keyDigests) for (const k of report.keys) k.digest = formatDigest(ctx.hasher, ctx.hasher.digest(sourceMessage({ ...input, keys: [k.key] })));
    digests.push({ id: use.id, digest });
    reportMissing(use, report, ctx, reportTo, resolution.from === 'missing' && resolution.cluster === true);
  }
  return { reports, digests };
}

/** What one source's digest covers: the selected keys of its entries or of its producer's keyed fields. */
function sourceInput(use: SourceUse, resolution: Resolution): SourceInput {
  const id = { cls: use.cls, namespace: use.namespace, name: use.name };
  const selected = (all: Iterable<string> | undefined): string[] => (all && use.whole ? [...all, ...use.keys.keys()] : [...use.keys.keys()]);
  if ('produced' in resolution) {
    const { keyed } = resolution.produced;
    return { ...id, entries: undefined, produced: resolution.produced, keys: keyed ? selected(keyed.keys()) : [] };
  }
  const entries = 'entries' in resolution ? resolution.entries : undefined;
  return { ...id, entries, keys: selected(entries?.keys()) };
}

/**
 * kagent objects an Agent names: a ModelConfig enters with its own hash; a RemoteMCPServer's Secrets are
 * already among the uses. Any of them missing from the input enters as a "missing" marker (so its
 * appearance changes the hash) and follows onMissing.
 */
function digestObjects(objects: readonly ObjectRef[], ctx: HashContext, reportTo: Subject): { reports: SourceReport[]; digests: Digest[] } {
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
      reports.push({ ...base, from: 'invalid' });
      continue;
    }
    if (found) {
      if (ref.kind !== 'ModelConfig') continue; // its Secrets are among the uses; nothing else of it reaches the pod
      const mc = modelConfigHash(found[0]!, ctx);
      reports.push({ ...base, from: 'bundle', digest: formatDigest(ctx.hasher, mc.digest), sources: mc.sources });
      digests.push({ id, digest: mc.digest });
      continue;
    }
    const digest = ctx.hasher.digest(sourceMessage({ cls: ref.kind, namespace: ref.namespace, name: ref.name, entries: undefined, keys: [] }));
    reports.push({ ...base, from: 'missing', digest: formatDigest(ctx.hasher, digest) });
    digests.push({ id, digest });
    if (ctx.config.onMissing !== 'ignore') {
      const severity = ctx.config.onMissing === 'error' ? 'error' : 'warning';
      ctx.results.push(result(severity, 'MISSING_OBJECT', `${ref.kind} ${ref.namespace}/${ref.name} is not in the input`, reportTo, ref.field));
    }
  }
  return { reports, digests };
}

/**
 * A ModelConfig's hash: scheme v1 (the target hash over its own sources, keyed when a hash key is set), or
 * with `hashScheme: kagent` kagent's status.secretHash. Computed once per ModelConfig.
 */
function modelConfigHash(obj: KObject, ctx: HashContext): { digest: Buffer; sources: SourceReport[] } {
  const cached = ctx.modelConfigs.get(obj);
  if (cached) return cached;
  const planned = ctx.modelConfigPlans.get(obj);
  if (!planned) throw new Error('internal: a ModelConfig was hashed that the plan did not read');
  ctx.results.push(...planned.results);
  const { refs } = planned;
  const { reports, digests } = digestUses(mergeRefs(obj, refs), ctx, obj.subject);
  const digest = ctx.config.hashScheme === 'kagent' ? kagentSecretHash(kagentInputs(obj, refs, ctx)) : ctx.hasher.digest(targetMessage(digests));
  const out = { digest, sources: reports };
  ctx.modelConfigs.set(obj, out);
  return out;
}

/**
 * kagent's inputs, in its order (API key, CA, Foundry endpoint; one entry per reference, so a Secret named
 * twice counts twice): every data key of each Secret it finds, only the selected key of the ConfigMap.
 */
function kagentInputs(obj: KObject, refs: readonly SourceRef[], ctx: HashContext): KagentSecret[] {
  const out: KagentSecret[] = [];
  for (const use of refs.map((ref) => mergeRefs(obj, [ref])[0]!)) {
    if (use.fields[0] === 'spec.apiKeySecretRef') {
      // kagent reads ModelConfigs through its v1alpha2 type, which has no apiKeySecretRef and no conversion
      // (go/api/v1alpha2/modelconfig_types.go; kagent.dev_modelconfigs.yaml has no spec.conversion).
      const why = "hashScheme kagent: kagent reads ModelConfigs as kagent.dev/v1alpha2, which has no apiKeySecretRef, so its status.secretHash leaves that Secret out";
      ctx.results.push(warningResult('UNMATCHABLE_KAGENT_HASH', why, obj.subject, use.fields[0]));
      continue;
    }
    const resolution = resolveFor(use, ctx);
    if ('produced' in resolution) {
      const why = `hashScheme kagent: ${use.cls} ${use.namespace}/${use.name} is made by ${resolution.produced.producer}, whose values are not in the input; kagent's hash covers them (read them with live: always)`;
      ctx.results.push(warningResult('UNMATCHABLE_KAGENT_HASH', why, obj.subject, use.requiredField ?? use.fields[0]));
    }
    if (!('entries' in resolution)) continue; // kagent skips objects it cannot find
    const namespacedName = `${use.namespace}/${use.name}`;
    if (use.cls === 'Secret') out.push({ namespacedName, data: resolution.entries });
    else out.push({ namespacedName, data: new Map([...use.keys.keys()].map((k) => [k, resolution.entries.get(k) ?? new Uint8Array()])) });
  }
  return out;
}

/** The source as this use reads it: a `data`-only reader does not see keys that are only in binaryData. */
function resolveFor(use: SourceUse, ctx: HashContext): Resolution {
  const resolution = resolveSource(use, ctx);
  return use.dataOnly && 'entries' in resolution ? { ...resolution, entries: dataEntries(resolution.entries) } : resolution;
}

function reportSource(use: SourceUse, resolution: Resolution): SourceReport {
  const produced = 'produced' in resolution ? resolution.produced : undefined;
  // An unkeyed producer's keys are not known from the input: report the named ones as present.
  const entries = produced ? produced.keyed : 'entries' in resolution ? resolution.entries : undefined;
  const names = new Set(entries && use.whole ? [...entries.keys(), ...use.keys.keys()] : use.keys.keys());
  const report: SourceReport = {
    cls: use.cls,
    namespace: use.namespace,
    name: use.name,
    from: resolution.from,
    whole: use.whole,
    optional: use.optional,
    keys: [...names].sort(byteOrder).map((key) => ({ key, present: entries ? entries.has(key) : produced !== undefined })),
    fields: use.fields,
  };
  if (produced) report.producedBy = produced.producer;
  return report;
}

/**
 * A missing object or key follows onMissing, unless every reference to it is optional; the result points
 * at the first reference that requires it.
 */
function reportMissing(use: SourceUse, report: SourceReport, ctx: HashContext, subject: Subject, cluster = false): void {
  const { config, results } = ctx;
  if (config.onMissing === 'ignore') return;
  const severity = config.onMissing === 'error' ? 'error' : 'warning';
  const what = `${use.cls} ${use.namespace}/${use.name}`;
  if (report.from === 'missing') {
    if (use.optional) return;
    const tail = severity === 'warning' ? '; its absence is hashed, so its appearance will change the hash' : '';
    const where = cluster ? 'the input or the cluster' : 'the input';
    const hint = namespaceHint(ctx.inventory, use.cls, use.namespace, use.name);
    results.push(result(severity, 'MISSING_SOURCE', `${what} is not in ${where}${tail}${hint}`, subject, use.requiredField));
    return;
  }
  for (const k of report.keys) {
    const keyUse = use.keys.get(k.key);
    if (!k.present && keyUse && !keyUse.optional) {
      const made = report.producedBy && report.from === 'producer' ? ` (made by ${report.producedBy})` : use.dataOnly ? ' (kagent reads data, not binaryData)' : '';
      results.push(result(severity, 'MISSING_KEY', `key "${k.key}" is not in ${what}${made}`, subject, keyUse.field));
    }
  }
}
