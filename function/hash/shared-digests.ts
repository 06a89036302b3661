// Hash stage: source digests shared between targets. Each (source, selected key set) is encoded and digested
// once, however many targets select it (one Secret of 20,000 keys read whole by 400 Deployments is one digest,
// #21); per-key report rows are built only when asked (explain, diff), once per selection. What sharing cannot
// save — distinct key sets of one large source, rows a report repeats per target — counts against a key budget.
import { formatDigest, type Hasher, sourceDigest, type SourceInput } from './scheme.ts';
import type { Resolution, SourceSlot, SourceUse } from '../model/dependencies.ts';
import type { SourceEntries } from '../model/object.ts';
import { itself, sortInByteOrder } from '../model/order.ts';
import type { SourceReport } from '../model/reports.ts';
import { Slabs } from '../model/slabs.ts';

/** Thrown when the key budget is spent; apply turns it into one TOO_MUCH_KEY_WORK error. */
export class KeyBudgetSpent extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} keys to hash or report`);
  }
}

/** One selection's digest and its report rows. */
export interface SharedDigest {
  digest: Buffer;
  /** The report's rows: every selected key with `detail`, else only the keys the target names. */
  keys: SourceReport['keys'];
}

type Rows = SourceReport['keys'];

/**
 * One selection of a source: its view (a `data`-only reader sees fewer keys), how it is keyed (a read of one key
 * by that key, any other by selectionKey), its digest and rows, and the source's selection made before it. A run
 * keeps every selection until apply ends, so each is one object, not a view, a selection list and a map (#37).
 */
interface Shared {
  readonly dataOnly: boolean;
  readonly oneKey: boolean;
  readonly key: string;
  readonly digest: Buffer;
  rows: Rows | undefined;
  readonly next: Shared | undefined;
}

/** A source's selections once its list is longer than a short search: by view, keying and key. */
class ManySelections {
  readonly byKey = new Map<string, Shared>();
  /** Whether the view has a selection: the first of each view is free (SharedDigests.limit). */
  data = false;
  all = false;
}

/** Past this many selections of one source, a list search gives way to a map (one large source read many ways). */
const LIST_MAX = 8;

/**
 * Digests by selection, for one apply.
 * - `limit`: most keys encoded beyond each source's first selection (a further selection of the same source
 *   costs its size), plus, with `detail`, report rows beyond each selection's first report (explain and diff
 *   print or compare them per target). Spending more throws KeyBudgetSpent. What is free is bounded by the input.
 * - `detail`: report every selected key, not only the named ones; `keyDigests`: with a digest each (scheme v1
 *   message of that one key, computed once per source and key).
 */
export class SharedDigests {
  // A source's selections are kept on its slot (resolve/index.ts slotOf): its latest selection (the others follow
  // it), or past LIST_MAX a map; no signature string is built and hashed per use, and no map of every source id is
  // looked up (#37). A view with a selection is digested.
  private readonly perKey = new Map<string, string>();
  /** The selections' digests, kept until apply ends: views of slabs they share, not buffers of their own (#37). */
  private readonly kept = new Slabs();
  constructor(
    private readonly hasher: Hasher,
    private readonly limit: number,
    private readonly detail: boolean,
    private readonly keyDigests: boolean,
    /** What the run spent of `limit` before hashing (planning's declared paths, #33). */
    private spent = 0,
  ) {}

  /**
   * The digest of what `use` selects of `resolution` (not ignored, not invalid), and its report rows.
   * - `slot`: the source's slot for this apply (resolve/index.ts slotOf), which holds its selections.
   */
  digest(use: SourceUse, resolution: Resolution, slot: SourceSlot): SharedDigest {
    const known = knownKeys(resolution);
    const shared = this.selection(use, resolution, known, slot);
    if (!this.detail) return { digest: shared.digest, keys: namedRows(use, resolution, known) };
    if (!known) {
      // Missing or unkeyed: one digest whatever is selected, but the rows are the keys this target names, so
      // they are not shared (building them is linear in the references, as reading them was).
      return { digest: shared.digest, keys: this.rows(use, resolution, known) };
    }
    if (shared.rows) this.spend(shared.rows.length); // the same rows again, for another target
    else shared.rows = this.rows(use, resolution, known);
    return { digest: shared.digest, keys: shared.rows };
  }

  /** Only the digest of what `use` selects of `resolution`: a run that prints no reports builds no rows (#37). */
  digestOnly(use: SourceUse, resolution: Resolution, slot: SourceSlot): Buffer {
    return this.selection(use, resolution, knownKeys(resolution), slot).digest;
  }

  /** The selection's shared digest, encoded and digested on first use. */
  private selection(use: SourceUse, resolution: Resolution, known: SourceEntries | undefined, slot: SourceSlot): Shared {
    const dataOnly = use.dataOnly === true;
    // The read of one key of a Secret or ConfigMap in the bundle, the commonest selection, is found by that key.
    const oneKey = !use.whole && use.keys.size === 1 && resolution.from === 'bundle' && !('produced' in resolution);
    const key = oneKey ? use.keys.keys().next().value! : selectionKey(use, resolution, known);
    const held = slot.selections as Shared | ManySelections | undefined;
    let viewed = false;
    let count = 0;
    if (held instanceof ManySelections) {
      const found = held.byKey.get(manyKey(dataOnly, oneKey, key));
      if (found) return found;
      viewed = dataOnly ? held.data : held.all;
    } else {
      for (let s = held; s !== undefined; s = s.next, count++) {
        if (s.dataOnly !== dataOnly) continue;
        if (s.oneKey === oneKey && s.key === key) return s;
        viewed = true;
      }
    }
    const input = sourceInput(use, resolution, known);
    // A source's first selection costs what reading it did (linear in the input): only further ones count.
    if (viewed) this.spend(input.keys.length);
    const list = held instanceof ManySelections ? undefined : held;
    const shared: Shared = { dataOnly, oneKey, key, digest: this.kept.copy(sourceDigest(this.hasher, input)), rows: undefined, next: list };
    if (held instanceof ManySelections) addMany(held, shared);
    else if (count < LIST_MAX) slot.selections = shared;
    else {
      const many = new ManySelections();
      for (let s: Shared | undefined = shared; s !== undefined; s = s.next) addMany(many, s);
      slot.selections = many;
    }
    return shared;
  }

  /** Every selected key in byte order, present or not, with its own digest when asked. */
  private rows(use: SourceUse, resolution: Resolution, known: SourceEntries | undefined): Rows {
    const names = new Set(known && use.whole ? [...known.keys(), ...use.keys.keys()] : use.keys.keys());
    const rows: Rows = sortInByteOrder([...names], itself).map((key) => ({ key, present: isPresent(key, resolution, known) }));
    if (!this.keyDigests || resolution.from === 'missing') return rows;
    const input = sourceInput(use, resolution, known);
    for (const row of rows) {
      // As JSON, not joined with NUL: a name and a key may hold one, and Secret "a" key "k\0all\0z" joined was
      // Secret "a\0all\0k" key "z", so diff named no changed key of the one that changed.
      const id = JSON.stringify([use.id, use.dataOnly === true, row.key]);
      let digest = this.perKey.get(id);
      // Keyed like every digest; the source's identity is in each, so equal values of two keys differ.
      if (digest === undefined) this.perKey.set(id, (digest = formatDigest(this.hasher, sourceDigest(this.hasher, { ...input, keys: [row.key] }))));
      row.digest = digest;
    }
    return rows;
  }

  private spend(keys: number): void {
    this.spent += keys;
    if (this.spent > this.limit) throw new KeyBudgetSpent(this.limit);
  }
}

/** A selection's key among a source's many: its view and keying, then its key (the two letters keep them apart). */
const manyKey = (dataOnly: boolean, oneKey: boolean, key: string): string => `${dataOnly ? 'd' : 'a'}${oneKey ? '1' : 'n'}${key}`;

function addMany(many: ManySelections, shared: Shared): void {
  many.byKey.set(manyKey(shared.dataOnly, shared.oneKey, shared.key), shared);
  if (shared.dataOnly) many.data = true;
  else many.all = true;
}

/** The keys the source is known to have: its entries, or a keyed producer's keys; none when missing or unkeyed. */
function knownKeys(resolution: Resolution): SourceEntries | undefined {
  if ('produced' in resolution) return resolution.produced.keyed;
  return 'entries' in resolution ? resolution.entries : undefined;
}

function isPresent(key: string, resolution: Resolution, known: SourceEntries | undefined): boolean {
  return known ? known.has(key) : 'produced' in resolution; // an unkeyed producer's keys are reported present
}

/** Rows of the keys a target names, in byte order (what results and the cheap report need). */
function namedRows(use: SourceUse, resolution: Resolution, known: SourceEntries | undefined): Rows {
  return sortInByteOrder([...use.keys.keys()], itself).map((key) => ({ key, present: isPresent(key, resolution, known) }));
}

/**
 * Identifies a selection within one view of a source: either "every known key" plus the named keys the source
 * lacks, or exactly the named keys. Two targets with the same key get the same digest. A whole-object read of a
 * source that has every named key is keyed without building a string. Key names are listed as JSON, not joined
 * with NUL: a key may hold one, and ["a\0b", "c"] and ["a", "b\0c"] joined were one selection.
 */
function selectionKey(use: SourceUse, resolution: Resolution, known: SourceEntries | undefined): string {
  const from = resolution.from;
  if ('produced' in resolution && !resolution.produced.keyed) return `${from}\0unkeyed`;
  if (from === 'missing') return 'missing\0missing';
  if (use.whole && known) {
    let lacking: string[] | undefined;
    for (const key of use.keys.keys()) if (!known.has(key)) (lacking ??= []).push(key);
    return lacking ? `${from}\0whole\0${JSON.stringify(sortInByteOrder(lacking, itself))}` : WHOLE[from];
  }
  return `${from}\0named\0${JSON.stringify(sortInByteOrder([...use.keys.keys()], itself))}`;
}

/** The key of a whole-object selection with nothing named that the source lacks, by where the source came from. */
const WHOLE: Record<Resolution['from'], string> = {
  bundle: 'bundle\0whole\0',
  cluster: 'cluster\0whole\0',
  producer: 'producer\0whole\0',
  ignored: 'ignored\0whole\0',
  missing: 'missing\0whole\0',
  invalid: 'invalid\0whole\0',
};

/** What one source's digest covers: the selected keys of its entries or of its producer's keyed fields, each once. */
function sourceInput(use: SourceUse, resolution: Resolution, known: SourceEntries | undefined): SourceInput {
  const { cls, namespace, name } = use;
  let keys: string[];
  if (known && use.whole) {
    keys = Array.from(known.keys());
    for (const key of use.keys.keys()) if (!known.has(key)) keys.push(key);
  } else keys = Array.from(use.keys.keys());
  // Literals, not an identity spread into each: one object per message, not two (#37).
  if ('produced' in resolution) {
    return { cls, namespace, name, distinct: true, entries: undefined, produced: resolution.produced, keys: resolution.produced.keyed ? keys : [] };
  }
  return { cls, namespace, name, distinct: true, entries: 'entries' in resolution ? resolution.entries : undefined, keys };
}
