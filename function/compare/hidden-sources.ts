// Compare stage, renders that hide values (#38): a Secret masked as Argo CD's API shows it (`++++++++`, what
// argocd-diff-preview writes) or a source neither render holds cannot be compared by value. Which sources a
// target uses are hidden, what the stamps the renders carry say, and what unchanged stamps clear.
import type { ComparedSource, ComparedTarget } from './kept-reports.ts';
import { byteOrder } from '../model/order.ts';
import type { SourceChange } from './stamp-diff-model.ts';

const sourceId = (s: ComparedSource): string => `${s.cls}/${s.namespace}/${s.name}`;

function pick(oldDigest: string | undefined, newDigest: string | undefined): SourceChange['digest'] {
  return { ...(oldDigest ? { old: oldDigest } : {}), ...(newDigest ? { new: newDigest } : {}) };
}

/** A stamp as rollstamp writes it: a stamp of any other form is not compared. */
const STAMP = /^(sha256|hmac-sha256):[0-9a-f]{64}$/;

/** The stamps both renders carry on a target, when both are stamps rollstamp writes. */
export function stampsOf(o: ComparedTarget, n: ComparedTarget): { old: string; new: string } | undefined {
  return o.previous !== undefined && n.previous !== undefined && STAMP.test(o.previous) && STAMP.test(n.previous) ? { old: o.previous, new: n.previous } : undefined;
}

/** Which keys of a source (by id) are known unchanged: `whole`, or the keys named. */
export type Unchanged = Map<string, 'whole' | Set<string>>;

/**
 * What targets whose stamps did not change tell about the sources the renders hide: a target's stamp covers the
 * keys it selects, so equal stamps clear those keys of each hidden source it uses.
 */
export function unchangedSelections(pairs: ReadonlyArray<readonly [ComparedTarget, ComparedTarget]>): Unchanged {
  const out: Unchanged = new Map();
  for (const [o, n] of pairs) {
    const stamps = stampsOf(o, n);
    if (!stamps || stamps.old !== stamps.new) continue;
    for (const s of [...o.sources, ...n.sources]) {
      if (!s.masked && s.from !== 'missing') continue;
      const known = out.get(sourceId(s));
      if (s.whole) out.set(sourceId(s), 'whole');
      else if (known !== 'whole') out.set(sourceId(s), new Set([...(known ?? []), ...s.keys.map((k) => k.key)]));
    }
  }
  return out;
}

/** Whether every key `s` selects is known unchanged. */
export function isCleared(s: ComparedSource | undefined, unchanged: Unchanged): boolean {
  const known = s ? unchanged.get(sourceId(s)) : undefined;
  if (!s || !known) return false;
  return known === 'whole' || (!s.whole && s.keys.every((k) => known.has(k.key)));
}

export const isMasked = (s: SourceChange): boolean => s.unknown === 'masked' || (s.sources ?? []).some(isMasked);

/**
 * The sources of a target the renders hide, recursively for a ModelConfig: a Secret masked in either render,
 * or a source neither render holds (missing in both). Each as a `changed` entry with no keys: which changed
 * cannot be told.
 */
export function hiddenSources(oldSources: readonly ComparedSource[], newSources: readonly ComparedSource[]): SourceChange[] {
  const olds = new Map(oldSources.map((s) => [sourceId(s), s]));
  const news = new Map(newSources.map((s) => [sourceId(s), s]));
  const out: SourceChange[] = [];
  for (const id of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(id);
    const n = news.get(id);
    const some = (n ?? o)!;
    const unknown = o?.masked || n?.masked ? 'masked' : o?.from === 'missing' && n?.from === 'missing' ? 'absent' : undefined;
    const inner = o?.sources || n?.sources ? hiddenSources(o?.sources ?? [], n?.sources ?? []) : [];
    if (!unknown && inner.length === 0) continue;
    const from = { ...(o ? { old: o.from } : {}), ...(n ? { new: n.from } : {}) };
    const covers = [...new Set([...(o?.keys ?? []), ...(n?.keys ?? [])].filter((k) => k.present).map((k) => k.key))].sort(byteOrder);
    const hidden = unknown ? { unknown, ...(covers.length > 0 ? { covers } : {}) } : {};
    out.push({ kind: some.cls, namespace: some.namespace, name: some.name, change: 'changed', from, digest: pick(o?.digest, n?.digest), keys: [], ...hidden, ...(inner.length > 0 ? { sources: inner } : {}) });
  }
  return out;
}

/** The changed sources with the hidden ones added (a hidden source already listed is marked so), by id. */
export function withHidden(sources: readonly SourceChange[], hidden: readonly SourceChange[]): SourceChange[] {
  const id = (s: SourceChange): string => `${s.kind}/${s.namespace}/${s.name}`;
  const byId = new Map(sources.map((s) => [id(s), s]));
  for (const h of hidden) {
    const known = byId.get(id(h));
    byId.set(id(h), known ? { ...known, ...(h.unknown ? { unknown: h.unknown } : {}), ...(h.covers ? { covers: h.covers } : {}) } : h);
  }
  return [...byId.entries()].sort(([a], [b]) => byteOrder(a, b)).map(([, s]) => s);
}
