// Resolve stage entry: a SourceUse → what its digest covers, asked in this order: a plain Secret or ConfigMap
// in the bundle; the live cluster, for what the plugin read (live: missing | always); a SOPS Secret
// or a producer in the bundle; else missing. The core never reads the cluster itself: the plugin passes
// what it read as `fetched`.
import { IGNORE_ANNOTATION, RELOADER } from '../model/constants.ts';
import { formatPath } from '../model/nodes.ts';
import { errorResult, type Result } from '../model/results.ts';
import { decodeSourceObject, treelessEntries } from './bundle.ts';
import { isSopsSecret, readProduced, readSops } from './producers.ts';
import type { LiveMode } from '../model/config.ts';
import type { FetchedSources, Resolution, SourceSlot, SourceUse } from '../model/dependencies.ts';
import { isTreeless, type KObject, type SourceIndex } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';

export interface ResolveContext {
  inventory: SourceIndex;
  results: Result[];
  fetched?: FetchedSources;
  /**
   * Each source's slot by id (Plan.slots), for a use that has none of its own (a unit's, kagent 1.x's); a source
   * no planned use reads gets one in `unplanned`. A slot holds the source's resolution, so each object is decoded
   * and reported once, and lets it go once its planned readers have read it (`releaseSource`): the decoded values
   * of 20,000 Secrets are not all alive at once (#37).
   */
  slots: ReadonlyMap<string, SourceSlot>;
  unplanned: Map<string, SourceSlot>;
  /** `reloader.stakater.com/ignore: "true"` leaves an object out too (`reloader: enabled`, #38). Default: false. */
  reloaderIgnore?: boolean;
}

/** Readies the plan's slots for one apply: every planned reader left, nothing resolved or digested yet. */
export function resetSlots(slots: ReadonlyMap<string, SourceSlot>): void {
  for (const slot of slots.values()) {
    slot.left = slot.readers;
    slot.resolution = undefined;
    slot.kept = false;
    slot.selections = undefined;
  }
}

/** A source's slot as first made: no planned reader counted yet, nothing resolved or digested (one layout for all). */
export const newSlot = (id: string): SourceSlot => ({ id, readers: 0, left: 0, resolution: undefined, kept: false, selections: undefined });

/** The slot of source `id` in `slots`, made there when the id is first seen. */
export function slotIn(slots: Map<string, SourceSlot>, id: string): SourceSlot {
  let slot = slots.get(id);
  if (slot === undefined) slots.set(id, (slot = newSlot(id)));
  return slot;
}

/** The use's slot: its own, the plan's for its id, or one made for an id no planned use reads. */
export function slotOf(use: SourceUse, ctx: ResolveContext): SourceSlot {
  return use.slot ?? ctx.slots.get(use.id) ?? slotIn(ctx.unplanned, use.id);
}

/**
 * Resolves a source (once per id while it is held; see releaseSource).
 * - `slot`: the use's slot, when the caller has it already (to release it after, #37).
 */
export function resolveSource(use: SourceUse, ctx: ResolveContext, slot: SourceSlot = slotOf(use, ctx)): Resolution {
  let resolution = slot.resolution;
  if (!resolution) {
    const before = ctx.results.length;
    resolution = resolveUncached(use, ctx);
    slot.resolution = resolution;
    // What was read live stays: the live-read records are made from it afterwards (hash/live-records.ts). What
    // reported something stays, so it is reported once; and so does what no planned reader is left to let go.
    if (slot.left <= 0 || ctx.results.length > before || isLive(resolution)) slot.kept = true;
  }
  return resolution;
}

/**
 * One planned reader of the source is done with it. Once none is left, its resolution is let go unless kept; one
 * asked for again (a reader no plan counted) is resolved again: the same input gives the same values, and it
 * reported nothing the first time, so it reports nothing now.
 */
export function releaseSource(slot: SourceSlot): void {
  if (slot.left > 0 && --slot.left === 0 && !slot.kept) slot.resolution = undefined;
}

/** The resolution a source has now, if any (a live one is kept to the end of the apply). */
export const heldResolution = (id: string, ctx: ResolveContext): Resolution | undefined => (ctx.slots.get(id) ?? ctx.unplanned.get(id))?.resolution;

/** No object or producer by that id: one empty list for every such lookup. */
const NONE: readonly never[] = Object.freeze([]);

const isLive = (resolution: Resolution): boolean => resolution.from === 'cluster' || (resolution.from === 'missing' && resolution.cluster === true);

function resolveUncached(use: SourceUse, ctx: ResolveContext): Resolution {
  const plain = ctx.inventory.sources.get(use.id) ?? NONE;
  const producers = ctx.inventory.producers.get(use.id) ?? NONE;
  if (plain.length + producers.length > 1) {
    const what = `${use.cls} ${use.namespace}/${use.name}`;
    const subject = (plain[0] ?? producers[0]!.obj).subject;
    if (producers.length === 0) ctx.results.push(errorResult('DUPLICATE_SOURCE', `${what} appears ${plain.length} times in the input`, subject));
    else {
      const makers = [...plain.map((o) => `${o.kind} ${o.namespace}/${o.name}`), ...producers.map((p) => `${p.obj.kind} ${p.obj.namespace}/${p.obj.name}`)];
      ctx.results.push(errorResult('AMBIGUOUS_SOURCE', `${what} is defined by more than one object: ${makers.join(', ')}`, subject));
    }
    return { from: 'invalid' };
  }
  const obj: KObject | undefined = plain[0] ?? producers[0]?.obj;
  if (obj) {
    const state = readable(obj, ctx.results, ctx.reloaderIgnore === true);
    if (state) return state;
    if (plain.length === 1 && (isTreeless(obj) || !isSopsSecret(obj))) {
      const entries = isTreeless(obj) ? treelessEntries(obj, ctx.results) : decodeSourceObject(obj, ctx.results);
      return entries ? { from: 'bundle', entries } : { from: 'invalid' };
    }
  }
  const live = ctx.fetched?.get(use.id);
  if (live !== undefined) return live === null ? { from: 'missing', cluster: true } : { from: 'cluster', entries: live };
  if (!obj) return { from: 'missing' };
  if (!isSafeToRead(obj, ctx.results)) return { from: 'invalid' };
  const produced = plain.length === 1 ? readSops(obj, ctx.results) : readProduced(obj, producers[0]!.output, ctx.results);
  if (!produced) return { from: 'invalid' };
  return plain.length === 1 ? { from: 'bundle', produced } : { from: 'producer', produced };
}

/**
 * Metadata problems make an object invalid; `rollstamp.dev/ignore: "true"` makes it contribute nothing, and so
 * does Reloader's `reloader.stakater.com/ignore: "true"` when `reloader` says so (Reloader reads only "true").
 */
function readable(obj: KObject, results: Result[], reloaderIgnore: boolean): Resolution | undefined {
  if (obj.metadataProblems.length > 0) {
    results.push(...obj.metadataProblems);
    return { from: 'invalid' };
  }
  const ignore = obj.annotations.get(IGNORE_ANNOTATION);
  if (ignore !== undefined && ignore !== 'true' && ignore !== 'false') {
    results.push(errorResult('BAD_ANNOTATION', `${IGNORE_ANNOTATION} must be "true" or "false"`, obj.subject, formatPath(['metadata', 'annotations', IGNORE_ANNOTATION])));
    return { from: 'invalid' };
  }
  return ignore === 'true' || (reloaderIgnore && obj.annotations.get(RELOADER.ignore) === 'true') ? { from: 'ignored' } : undefined;
}

/**
 * Whether the plugin should read this source from the cluster: with `missing`, when nothing in the bundle
 * defines it; with `always`, also when only a producer or a SOPS Secret does (the live bytes then decide).
 * A plain Secret or ConfigMap in the bundle, and a SecretProviderClass mount, are never read live.
 */
export function wantsLiveRead(use: SourceUse, inventory: SourceIndex, mode: LiveMode, reloaderIgnore = false): boolean {
  if (mode === 'never' || use.cls === 'SecretProviderClass') return false;
  const plain = inventory.sources.get(use.id) ?? [];
  const producers = inventory.producers.get(use.id) ?? [];
  if (plain.length + producers.length === 0) return true;
  if (mode !== 'always' || plain.length + producers.length > 1) return false;
  const obj = plain[0] ?? producers[0]!.obj;
  if (obj.annotations.get(IGNORE_ANNOTATION) === 'true' || (reloaderIgnore && obj.annotations.get(RELOADER.ignore) === 'true')) return false;
  return plain.length === 0 || (!isTreeless(obj) && isSopsSecret(obj));
}
