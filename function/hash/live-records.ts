// Hash stage: each target's live-read record (model/live-record.ts), from what hashing resolved — every Secret and
// ConfigMap it consumed that the plugin read from the cluster (found or not), the keys it consumed, the version
// the plugin saw and, under the operator's hash key, the record digest (record-digest.ts). A ModelConfig's sources
// count for the Agents that name it; a target that carries another's hash carries its record too.
import { mergeRefs } from '../discover/index.ts';
import { kindOf, unitKindFor } from '../kinds/index.ts';
import { binaryDataKeys } from '../resolve/bundle.ts';
import { heldResolution } from '../resolve/index.ts';
import { encodeRecord, MAX_RECORD_BYTES, type RecordEntry } from '../model/live-record.ts';
import { errorResult } from '../model/results.ts';
import { relatedId } from '../model/object.ts';
import type { LiveVersions, SourceUse } from '../model/dependencies.ts';
import type { PlannedTarget } from '../model/plan.ts';
import { keyDigests, recordDigest, type KeyDigestView } from './record-digest.ts';
import type { HashContext } from './targets.ts';

/**
 * The record text of each target that consumed something read from the cluster (absent: it consumed nothing
 * live). A record over MAX_RECORD_BYTES is a RECORD_TOO_LARGE error on its target.
 * - Digests only when `ctx.hasher` is keyed: an unkeyed digest of a short value would be an offline oracle.
 */
export function liveRecords(targets: readonly PlannedTarget[], ctx: HashContext, versions: LiveVersions | undefined): Map<PlannedTarget, string> {
  const out = new Map<PlannedTarget, string>();
  // Only a source the plugin read from the cluster enters a record: with nothing read, no target has one.
  if (ctx.fetched === undefined || ctx.fetched.size === 0) return out;
  const views = new Map<string, KeyDigestView>();
  const digests = new Map<string, string>();
  // An object stamped in several pod templates (a kind with components) has one record, covering them all.
  const usesByItem = new Map<number, SourceUse[]>();
  for (const target of targets) {
    const uses = usesByItem.get(target.item);
    if (uses) uses.push(...usesOf(target, ctx));
    else usesByItem.set(target.item, usesOf(target, ctx));
  }
  for (const target of targets) {
    if (!target.record) continue;
    const entries = recordEntries(usesByItem.get(target.item)!, ctx, versions, views, digests);
    if (entries.length === 0) continue;
    const text = encodeRecord(entries);
    if (text.length > MAX_RECORD_BYTES) {
      const message = `its live-read record would be ${text.length} bytes (${entries.length} objects read from the cluster), more than ${MAX_RECORD_BYTES}; read fewer objects live, or split the workload's references`;
      ctx.results.push(errorResult('RECORD_TOO_LARGE', message, target.subject));
      continue;
    }
    out.set(target, text);
  }
  return out;
}

/** Every use a target's hash covers: its own, those of the ModelConfigs it names, or those of the target it carries. */
function usesOf(target: PlannedTarget, ctx: HashContext): SourceUse[] {
  const from = target.carriedFrom ?? target;
  const kind = kindOf(from.mode);
  if (kind.hash === 'unit') return from.obj ? mergeRefs(from.obj, ctx.unitPlans.get(from.obj)?.refs ?? []) : [];
  const uses = [...(from.deps?.uses ?? [])];
  for (const ref of from.deps?.objects ?? []) {
    if (!unitKindFor(ref.kind)) continue;
    const named = ctx.inventory.related.get(relatedId(ref.kind, ref.namespace, ref.name));
    if (named?.length === 1) uses.push(...mergeRefs(named[0]!, ctx.unitPlans.get(named[0]!)?.refs ?? []));
  }
  return uses;
}

/** One entry per object read live, merging the uses of the same object (keys joined; whole if any is). */
function recordEntries(
  uses: readonly SourceUse[],
  ctx: HashContext,
  versions: LiveVersions | undefined,
  views: Map<string, KeyDigestView>,
  digests: Map<string, string>,
): RecordEntry[] {
  const byId = new Map<string, RecordEntry>();
  for (const use of uses) {
    if (use.cls === 'SecretProviderClass') continue;
    const resolution = heldResolution(use.id, ctx);
    const live = resolution?.from === 'cluster' || (resolution?.from === 'missing' && resolution.cluster === true);
    if (!live) continue;
    const known = byId.get(use.id);
    const entry: RecordEntry = known ?? { kind: use.cls, namespace: use.namespace, name: use.name, keys: [] };
    entry.keys = [...new Set([...entry.keys, ...use.keys.keys()])];
    if (use.whole) entry.whole = true;
    // Only when every use reads ConfigMap data alone: a reader of binaryData too sees more.
    if (use.dataOnly && (known === undefined || known.dataOnly)) entry.dataOnly = true;
    else delete entry.dataOnly;
    byId.set(use.id, entry);
  }
  for (const [id, entry] of byId) {
    const resolution = heldResolution(id, ctx)!;
    if (resolution.from === 'missing') entry.missing = true;
    else {
      const version = versions?.get(id);
      if (version) {
        entry.uid = version.uid;
        entry.resourceVersion = version.resourceVersion;
      }
    }
    if (ctx.hasher.algorithm === 'hmac-sha256') {
      // One digest per selection, however many targets make it (a Secret read whole by 400 Deployments).
      const consumed = { keys: [...entry.keys].sort(), whole: entry.whole === true, dataOnly: entry.dataOnly === true };
      const signature = `${id}\0${consumed.whole}\0${consumed.dataOnly}\0${consumed.keys.join('\0')}`;
      let digest = digests.get(signature);
      if (digest === undefined) {
        const view = 'entries' in resolution ? viewOf(id, entry, resolution.entries, ctx, views) : undefined;
        digests.set(signature, (digest = recordDigest(ctx.hasher, entry.kind, entry.namespace, entry.name, consumed, view)));
      }
      entry.digest = digest;
    }
  }
  return [...byId.values()];
}

/** The per-key digests of a live object, computed once per run. */
function viewOf(id: string, entry: RecordEntry, entries: ReadonlyMap<string, Uint8Array>, ctx: HashContext, views: Map<string, KeyDigestView>): KeyDigestView {
  let view = views.get(id);
  if (!view) {
    view = { digests: keyDigests(ctx.hasher, entry.kind, entry.namespace, entry.name, entries), binaryKeys: binaryDataKeys(entries) };
    views.set(id, view);
  }
  return view;
}
