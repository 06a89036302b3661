// Compare stage: the one matcher both diffs use (stamp-diff.ts, kagent1x-diff.ts) to pair what two renders hold —
// targets and Agents by their identity across API versions, sources and inputs by their id, keys by name — in
// byte order of the id, so the two diffs cannot come to disagree on what "the same object" is (#36).
import { byteOrder } from '../model/order.ts';
import type { ResourceRef } from '../model/results.ts';
import type { KeyChange } from './stamp-diff-model.ts';

/**
 * An object's identity across two renders: group, kind, namespace and name, without the version (a new API
 * version of the same object is the same object). `sameGroup` maps a group to the one it stands for.
 */
export function identityOf(ref: ResourceRef, sameGroup: (group: string) => string = (g) => g): string {
  const { apiVersion, kind, namespace, name } = ref;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `${sameGroup(group)}/${kind}/${namespace ?? ''}/${name}`;
}

/** One id and what each render holds under it (at least one side does). */
export interface Matched<T> {
  id: string;
  old: T | undefined;
  new: T | undefined;
}

/**
 * What one id names when a render holds it more than once:
 * - `in-order`: each copy on its own, matched copy by copy in input order (ids `id`, `id#2`, …);
 * - `first` or `last`: that copy only.
 */
export type Duplicates = 'in-order' | 'first' | 'last';

/** `olds` and `news` paired by `idOf`, in byte order of the id. */
export function matchById<T>(olds: readonly T[], news: readonly T[], idOf: (item: T) => string, duplicates: Duplicates): Matched<T>[] {
  const o = indexById(olds, idOf, duplicates);
  const n = indexById(news, idOf, duplicates);
  return [...new Set([...o.keys(), ...n.keys()])].sort(byteOrder).map((id) => ({ id, old: o.get(id), new: n.get(id) }));
}

function indexById<T>(items: readonly T[], idOf: (item: T) => string, duplicates: Duplicates): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) {
    const id = idOf(item);
    if (duplicates === 'last') out.set(id, item);
    else if (duplicates === 'first') {
      if (!out.has(id)) out.set(id, item);
    } else {
      let copy = 1;
      while (out.has(copy === 1 ? id : `${id}#${copy}`)) copy++;
      out.set(copy === 1 ? id : `${id}#${copy}`, item);
    }
  }
  return out;
}

/**
 * The keys of one source or input in two renders, each present key with its digest (undefined: none known):
 * only in NEW → added, only in OLD → removed, in both with different digests → changed; in byte order.
 */
export function diffKeyMaps(olds: ReadonlyMap<string, string | undefined>, news: ReadonlyMap<string, string | undefined>): KeyChange[] {
  const out: KeyChange[] = [];
  for (const key of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    if (olds.has(key) && news.has(key)) {
      if (olds.get(key) !== news.get(key)) out.push({ key, change: 'changed' });
    } else out.push({ key, change: news.has(key) ? 'added' : 'removed' });
  }
  return out;
}
