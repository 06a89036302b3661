// Compare stage: what `rollstamp diff` keeps of its first render while it reads and stamps the second (#37) —
// per target only what the comparison reads (identity, stamp field, hash, the stamp it carried, how it rolls, and
// per source its resolution, digests and keys), every string once and flat, apart from the input text. V8 keeps
// a substring of 13 or more characters as a slice of the whole string it was cut from, so one name kept from a
// render's reports kept that render's whole input text (24 MB at 50,000 objects) alive; and a digest as the
// two strings it was joined of.
import type { SourceReport, TargetReport } from '../model/reports.ts';

/** What the comparison reads of a source report (compare/stamp-diff.ts, compare/hidden-sources.ts). */
export type ComparedSource = Pick<SourceReport, 'cls' | 'namespace' | 'name' | 'from' | 'whole' | 'keys' | 'producedBy' | 'masked' | 'digest'> & {
  sources?: readonly ComparedSource[];
};

/** What the comparison reads of a target report; a TargetReport is one. */
export type ComparedTarget = Pick<TargetReport, 'resourceRef' | 'component' | 'field' | 'hash' | 'previous' | 'rollout'> & {
  sources: readonly ComparedSource[];
};

/**
 * The targets, and lines to print (a render's warnings), sharing no memory with the render's input text, plan or
 * other reports, which can go once this returns. A key list several targets' reports share (equal selections
 * of one source) is kept once, and so is each string however many reports repeat it.
 */
export function keepForComparison(targets: readonly ComparedTarget[], lines: readonly string[]): { targets: ComparedTarget[]; lines: string[] } {
  const keep = new Keeper();
  return { targets: targets.map((t) => keep.target(t)), lines: lines.map(ownText) };
}

/**
 * A string as a new, flat string that shares nothing with what it was cut from or joined of (JSON's round trip
 * makes one of any string). V8 copies a substring shorter than 13 characters and joins none flat, so only
 * longer strings can hold on to another.
 */
function ownText(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

class Keeper {
  /** Key lists by the list reported, as kept. */
  private readonly keyLists = new Map<ComparedSource['keys'], ComparedSource['keys']>();
  /** Each string, once, by its text. */
  private readonly texts = new Map<string, string>();

  target(t: ComparedTarget): ComparedTarget {
    const out: ComparedTarget = { resourceRef: this.strings(t.resourceRef), field: this.text(t.field), hash: this.text(t.hash), sources: t.sources.map((s) => this.source(s)) };
    if (t.component !== undefined) out.component = this.text(t.component);
    if (t.previous !== undefined) out.previous = this.text(t.previous);
    if (t.rollout !== undefined) out.rollout = this.strings(t.rollout);
    return out;
  }

  private source(s: ComparedSource): ComparedSource {
    const out: ComparedSource = { cls: this.text(s.cls), namespace: this.text(s.namespace), name: this.text(s.name), from: s.from, whole: s.whole, keys: this.keys(s.keys) };
    if (s.producedBy !== undefined) out.producedBy = this.text(s.producedBy);
    if (s.masked) out.masked = true;
    if (s.digest !== undefined) out.digest = this.text(s.digest);
    if (s.sources !== undefined) out.sources = s.sources.map((inner) => this.source(inner));
    return out;
  }

  private keys(list: ComparedSource['keys']): ComparedSource['keys'] {
    let kept = this.keyLists.get(list);
    if (kept === undefined) {
      kept = list.map((k) => (k.digest === undefined ? { key: this.text(k.key), present: k.present } : { key: this.text(k.key), present: k.present, digest: this.text(k.digest) }));
      this.keyLists.set(list, kept);
    }
    return kept;
  }

  /** A string once however many reports repeat it (a source's name in every target that uses it). */
  private text(s: string): string {
    let kept = this.texts.get(s);
    if (kept === undefined) {
      kept = ownText(s);
      // Keyed by the copy: the table holds nothing of the input either.
      this.texts.set(kept, kept);
    }
    return kept;
  }

  /** A flat record of strings (a resource ref, a rollout), in its own key order, which JSON output keeps. */
  private strings<T extends object>(record: T): T {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) out[k] = typeof v === 'string' ? this.text(v) : v;
    return out as T;
  }
}
