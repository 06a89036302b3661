// Resolve stage entry: a resolver chain from SourceUse to bytes. The bundle answers first; producers
// (SealedSecret, ExternalSecret …) and the live cluster are further links, added without touching the rest.
import { IGNORE_ANNOTATION } from '../constants.ts';
import type { Inventory } from '../inventory.ts';
import { formatPath } from '../yaml-nodes.ts';
import { errorResult, type Result } from '../results.ts';
import type { SourceUse } from '../discover/index.ts';
import { decodeSourceObject, type SourceEntries } from './bundle.ts';

/** Where a source's bytes came from. */
export type Resolution =
  | { from: 'bundle' | 'cluster'; entries: SourceEntries }
  | { from: 'ignored' }
  | { from: 'missing' }
  /** The object exists but could not be read; the errors are already in the results. */
  | { from: 'invalid' };

/** Sources read outside the core (the live cluster): id → entries, or null for "not found". */
export type FetchedSources = ReadonlyMap<string, SourceEntries | null>;

export interface ResolveContext {
  inventory: Inventory;
  results: Result[];
  fetched?: FetchedSources;
  /** Resolutions by source id, so each object is decoded and reported once. */
  cache: Map<string, Resolution>;
}

type Resolver = (use: SourceUse, ctx: ResolveContext) => Resolution | undefined;

const resolveFromBundle: Resolver = (use, ctx) => {
  const found = ctx.inventory.sources.get(use.id);
  if (!found) return undefined;
  const first = found[0]!;
  if (found.length > 1) {
    ctx.results.push(errorResult('DUPLICATE_SOURCE', `${use.cls} ${use.namespace}/${use.name} appears ${found.length} times in the input`, first.subject));
    return { from: 'invalid' };
  }
  if (first.metadataProblems.length > 0) {
    ctx.results.push(...first.metadataProblems);
    return { from: 'invalid' };
  }
  const ignore = first.annotations.get(IGNORE_ANNOTATION);
  if (ignore !== undefined && ignore !== 'true' && ignore !== 'false') {
    ctx.results.push(errorResult('BAD_ANNOTATION', `${IGNORE_ANNOTATION} must be "true" or "false"`, first.subject, formatPath(['metadata', 'annotations', IGNORE_ANNOTATION])));
    return { from: 'invalid' };
  }
  if (ignore === 'true') return { from: 'ignored' };
  const entries = decodeSourceObject(first, ctx.results);
  return entries ? { from: 'bundle', entries } : { from: 'invalid' };
};

const resolveFromFetched: Resolver = (use, ctx) => {
  const entries = ctx.fetched?.get(use.id);
  return entries ? { from: 'cluster', entries } : undefined;
};

const CHAIN: readonly Resolver[] = [resolveFromBundle, resolveFromFetched];

/** Resolves a source through the chain; `missing` when no link knows it. */
export function resolveSource(use: SourceUse, ctx: ResolveContext): Resolution {
  const cached = ctx.cache.get(use.id);
  if (cached) return cached;
  let resolution: Resolution = { from: 'missing' };
  for (const resolver of CHAIN) {
    const r = resolver(use, ctx);
    if (r) {
      resolution = r;
      break;
    }
  }
  ctx.cache.set(use.id, resolution);
  return resolution;
}

/** True when the bundle holds the object (even if ignored or invalid): no live read is needed. */
export function isInBundle(use: SourceUse, inventory: Inventory): boolean {
  return inventory.sources.has(use.id);
}
