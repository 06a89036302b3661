// Compare stage for `rollstamp diff` (#16): two runs' target reports in, which targets roll and why out.
// Pure: it reads only reports (names, keys, digests), so nothing it returns can hold a value.
import type { ResourceRef } from '../model/results.ts';
import type { SourceReport, TargetReport } from '../model/reports.ts';
import type { Rollout } from '../model/workload-row.ts';
import { byteOrder } from '../model/order.ts';

/** How a target's stamp differs: a new hash, or the target is only in NEW (appears) or only in OLD. */
export type TargetChange = 'rolls' | 'appears' | 'disappears';

/** How a source of a rolling target differs: only in NEW (`added`), only in OLD (`removed`), or its digest. */
export type SourceChangeKind = 'added' | 'removed' | 'changed';

/** A consumed key whose digest differs (`changed`), that only NEW has (`added`), or only OLD (`removed`). */
export interface KeyChange {
  key: string;
  change: SourceChangeKind;
}

export interface SourceChange {
  /** Secret, ConfigMap, ModelConfig … (named `kind`, as in `explain -o json`). */
  kind: string;
  namespace: string;
  name: string;
  change: SourceChangeKind;
  /** Where the source resolved in OLD and in NEW (`bundle`, `producer`, `cluster`, `missing`, …). */
  from: { old?: string; new?: string };
  digest: { old?: string; new?: string };
  /** The producer that stands for the value in NEW (else in OLD), e.g. `ExternalSecret shop/db`. */
  producedBy?: string;
  keys: KeyChange[];
  /** For a ModelConfig: which of its own sources changed. */
  sources?: SourceChange[];
}

export interface TargetDiff {
  resourceRef: ResourceRef;
  change: TargetChange;
  /** The field that holds the stamp (as in NEW, else OLD). */
  field: string;
  hash: { old?: string; new?: string };
  /** Workloads: how the stamp rolls the pods (as in NEW, else OLD). */
  rollout?: Rollout;
  /** Empty for targets that appear or disappear. */
  sources: SourceChange[];
}

export interface StampDiff {
  targets: TargetDiff[];
  summary: Record<TargetChange, number>;
}

/**
 * Every target whose stamp differs between two runs over the same config, in byte order of its identity.
 * - Targets match on group, kind, namespace and name (a new apiVersion of the same kind is the same target);
 *   an object that occurs twice is matched copy by copy, in input order.
 * - For a rolling target: each source added, removed, or with another digest (or resolution), recursively
 *   for a ModelConfig; and for each source the keys whose per-key digest differs, or that appear or vanish.
 *   Key digests come from `apply(plan, {keyDigests: true})`; without them a key is compared by presence.
 */
export function diffStamps(oldTargets: readonly TargetReport[], newTargets: readonly TargetReport[]): StampDiff {
  const olds = byIdentity(oldTargets);
  const news = byIdentity(newTargets);
  const out: TargetDiff[] = [];
  for (const id of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(id);
    const n = news.get(id);
    if (o && n) {
      if (o.hash !== n.hash) out.push({ resourceRef: n.resourceRef, change: 'rolls', field: n.field, hash: { old: o.hash, new: n.hash }, ...rolloutOf(n), sources: diffSources(o.sources, n.sources) });
    } else if (n) out.push({ resourceRef: n.resourceRef, change: 'appears', field: n.field, hash: { new: n.hash }, ...rolloutOf(n), sources: [] });
    else if (o) out.push({ resourceRef: o.resourceRef, change: 'disappears', field: o.field, hash: { old: o.hash }, ...rolloutOf(o), sources: [] });
  }
  const summary = { rolls: 0, appears: 0, disappears: 0 };
  for (const t of out) summary[t.change]++;
  return { targets: out, summary };
}

const rolloutOf = (t: TargetReport): { rollout?: Rollout } => (t.rollout ? { rollout: t.rollout } : {});

/**
 * An object's identity across two renders: group, kind, namespace and name, without the version (a new API
 * version of the same object is the same object). `sameGroup` maps a group to the one it stands for.
 */
export function identityOf(ref: ResourceRef, sameGroup: (group: string) => string = (g) => g): string {
  const { apiVersion, kind, namespace, name } = ref;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `${sameGroup(group)}/${kind}/${namespace ?? ''}/${name}`;
}

function byIdentity(targets: readonly TargetReport[]): Map<string, TargetReport> {
  const out = new Map<string, TargetReport>();
  for (const t of targets) {
    const id = identityOf(t.resourceRef);
    // The core accepts an object twice (kubectl applies both, the last wins): match copies in order.
    let copy = 1;
    while (out.has(copy === 1 ? id : `${id}#${copy}`)) copy++;
    out.set(copy === 1 ? id : `${id}#${copy}`, t);
  }
  return out;
}

const sourceId = (s: SourceReport): string => `${s.cls}/${s.namespace}/${s.name}`;

function diffSources(oldSources: readonly SourceReport[], newSources: readonly SourceReport[]): SourceChange[] {
  const olds = new Map(oldSources.map((s) => [sourceId(s), s]));
  const news = new Map(newSources.map((s) => [sourceId(s), s]));
  const out: SourceChange[] = [];
  for (const id of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(id);
    const n = news.get(id);
    const some = (n ?? o)!;
    const base = { kind: some.cls, namespace: some.namespace, name: some.name };
    const producedBy = n?.producedBy ?? o?.producedBy;
    const withProducer = producedBy ? { producedBy } : {};
    if (o && n) {
      if (o.digest === n.digest && o.from === n.from) continue;
      const inner = o.sources || n.sources ? { sources: diffSources(o.sources ?? [], n.sources ?? []) } : {};
      out.push({ ...base, change: 'changed', from: { old: o.from, new: n.from }, digest: pick(o.digest, n.digest), ...withProducer, keys: diffKeys(o, n), ...inner });
    } else if (n) {
      out.push({ ...base, change: 'added', from: { new: n.from }, digest: pick(undefined, n.digest), ...withProducer, keys: presentKeys(n, 'added') });
    } else if (o) {
      out.push({ ...base, change: 'removed', from: { old: o.from }, digest: pick(o.digest, undefined), ...withProducer, keys: presentKeys(o, 'removed') });
    }
  }
  return out;
}

function pick(oldDigest: string | undefined, newDigest: string | undefined): SourceChange['digest'] {
  return { ...(oldDigest ? { old: oldDigest } : {}), ...(newDigest ? { new: newDigest } : {}) };
}

/** Every present key of a source that is used only on one side. */
function presentKeys(s: SourceReport, change: SourceChangeKind): KeyChange[] {
  return s.keys.filter((k) => k.present).map((k) => ({ key: k.key, change }));
}

/** Keys of one source in both runs: present only in NEW → added, only in OLD → removed, both → by digest. */
function diffKeys(o: SourceReport, n: SourceReport): KeyChange[] {
  const olds = new Map(o.keys.filter((k) => k.present).map((k) => [k.key, k]));
  const news = new Map(n.keys.filter((k) => k.present).map((k) => [k.key, k]));
  const out: KeyChange[] = [];
  for (const key of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const ok = olds.get(key);
    const nk = news.get(key);
    if (ok && nk) {
      if (ok.digest !== nk.digest) out.push({ key, change: 'changed' });
    } else out.push({ key, change: nk ? 'added' : 'removed' });
  }
  return out;
}
