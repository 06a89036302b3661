// Compare stage for `rollstamp diff` (#16): two runs' target reports in, which targets roll and why out.
// Pure: it reads only reports (names, keys, digests), so nothing it returns can hold a value. Where the renders
// hide what a target uses (values masked as Argo CD's API shows them, or a source neither render holds), the
// stamps the renders already carry decide (#38).
import type { ComparedSource, ComparedTarget } from './kept-reports.ts';
import type { Rollout } from '../model/workload-row.ts';
import { diffKeyMaps, identityOf, matchById } from './match-identity.ts';
import { hiddenSources, isCleared, isMasked, stampsOf, unchangedSelections, withHidden, type Unchanged } from './hidden-sources.ts';
import type { KeyChange, SourceChange, SourceChangeKind, StampDiff, TargetDiff } from './stamp-diff-model.ts';

export type { KeyChange, SourceChange, SourceChangeKind, StampDiff, TargetChange, TargetDiff } from './stamp-diff-model.ts';

/**
 * Every target whose stamp differs between two runs over the same config, in byte order of its identity.
 * - Targets match on group, kind, namespace and name (a new apiVersion of the same kind is the same target);
 *   an object that occurs twice is matched copy by copy, in input order.
 * - For a rolling target: each source added, removed, or with another digest (or resolution), recursively
 *   for a ModelConfig; and for each source the keys whose per-key digest differs, or that appear or vanish.
 *   Key digests come from `apply(plan, {keyDigests: true})`; without them a key is compared by presence.
 * - A target using a source the renders hide (hiddenSources) also rolls when the stamps both renders carry
 *   differ (`basis: stamps` when only they do), with the hidden sources listed; when a source is masked and a
 *   render has no stamp, it `may-roll`.
 */
export function diffStamps(oldTargets: readonly ComparedTarget[], newTargets: readonly ComparedTarget[]): StampDiff {
  // The core accepts an object twice (kubectl applies both, the last wins): copies are matched in order.
  const pairs = matchById(oldTargets, newTargets, targetId, 'in-order');
  const unchanged = unchangedSelections(pairs.flatMap((p) => (p.old && p.new ? [[p.old, p.new] as const] : [])));
  const out: TargetDiff[] = [];
  for (const { old: o, new: n } of pairs) {
    if (o && n) {
      const diff = diffPair(o, n, unchanged);
      if (diff) out.push(diff);
    } else if (n) out.push({ resourceRef: n.resourceRef, ...componentOf(n), change: 'appears', field: n.field, hash: { new: n.hash }, ...rolloutOf(n), sources: [] });
    else if (o) out.push({ resourceRef: o.resourceRef, ...componentOf(o), change: 'disappears', field: o.field, hash: { old: o.hash }, ...rolloutOf(o), sources: [] });
  }
  const summary = { rolls: 0, appears: 0, disappears: 0, 'may-roll': 0 };
  for (const t of out) summary[t.change]++;
  return { targets: out, summary };
}

/** How one target present in both runs differs, if it does (see diffStamps). */
function diffPair(o: ComparedTarget, n: ComparedTarget, unchanged: Unchanged): TargetDiff | undefined {
  const base = { resourceRef: n.resourceRef, ...componentOf(n), field: n.field, ...rolloutOf(n) };
  const hidden = hiddenSources(o.sources, n.sources);
  const stamps = stampsOf(o, n);
  const stampsDiffer = hidden.length > 0 && stamps !== undefined && stamps.old !== stamps.new;
  if (o.hash !== n.hash) {
    const sources = diffSources(o.sources, n.sources);
    return { ...base, change: 'rolls', hash: { old: o.hash, new: n.hash }, sources: stampsDiffer ? withHidden(sources, hidden) : sources };
  }
  if (stampsDiffer) {
    // Hidden sources whose selected keys another target shows unchanged are not the cause: when that leaves
    // some, those are the Secrets the changed stamp covers (#38); when it leaves none, all are listed.
    const find = (h: SourceChange): ComparedSource | undefined => [...n.sources, ...o.sources].find((s) => s.cls === h.kind && s.namespace === h.namespace && s.name === h.name);
    const suspects = hidden.filter((h) => !isCleared(find(h), unchanged));
    return { ...base, change: 'rolls', hash: stamps, basis: 'stamps', sources: suspects.length > 0 ? suspects : hidden };
  }
  if (stamps === undefined && hidden.some(isMasked)) return { ...base, change: 'may-roll', hash: { old: o.hash, new: n.hash }, sources: hidden.filter(isMasked) };
  return undefined;
}

const rolloutOf = (t: ComparedTarget): { rollout?: Rollout } => (t.rollout ? { rollout: t.rollout } : {});
const componentOf = (t: ComparedTarget): { component?: string } => (t.component ? { component: t.component } : {});

/** A target's id: its identity, and its component when an object's components are targets of their own (a VMCluster's vmselect and vmstorage). */
const targetId = (t: ComparedTarget): string => `${identityOf(t.resourceRef)}${t.component ? `\u0000${t.component}` : ''}`;

const sourceId = (s: ComparedSource): string => `${s.cls}/${s.namespace}/${s.name}`;

function diffSources(oldSources: readonly ComparedSource[], newSources: readonly ComparedSource[]): SourceChange[] {
  const out: SourceChange[] = [];
  for (const { old: o, new: n } of matchById(oldSources, newSources, sourceId, 'last')) {
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
function presentKeys(s: ComparedSource, change: SourceChangeKind): KeyChange[] {
  return s.keys.filter((k) => k.present).map((k) => ({ key: k.key, change }));
}

/** Keys of one source in both runs: present only in NEW → added, only in OLD → removed, both → by digest. */
function diffKeys(o: ComparedSource, n: ComparedSource): KeyChange[] {
  const present = (s: ComparedSource): Map<string, string | undefined> => new Map(s.keys.filter((k) => k.present).map((k) => [k.key, k.digest]));
  return diffKeyMaps(present(o), present(n));
}
