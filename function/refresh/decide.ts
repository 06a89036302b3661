// Refresh stage: the decision `rollstamp refresh` makes on every pass, pure and level-triggered — given the
// workloads' live-read records, the live Secrets and ConfigMaps (as per-key digests), the Applications and what was
// already requested of each, which Applications to hard-refresh and why. One request per Application however many
// keys and workloads changed together; a change already requested (its fingerprint is on the Application) is not
// requested again, so a restart, Argo CD clearing its refresh annotation, or a render that keeps failing loops
// nothing. Records naming objects outside the scope are refused, never followed (#33 item 11).
import { formatDigest, makeHasher, type Hasher } from '../hash/scheme.ts';
import { entryId, parseRecord, type RecordEntry } from '../model/live-record.ts';
import { byteOrder } from '../model/order.ts';
import { resourceId, result, type Result } from '../model/results.ts';
import type { LiveSource, RefreshDecision, RefreshInput, RefreshRequest, LiveChange, WorkloadView } from '../model/refresh.ts';
import { baselineKey, compareEntry } from './compare-entry.ts';
import { managingApplication } from './tracking.ts';

/** One change and what the fingerprint holds of it: names and versions, never digests. */
interface Seen {
  change: LiveChange;
  line: string;
}

/**
 * The refreshes to request now.
 * - A workload without a record, or with the empty one, is skipped silently; a record that does not read, or
 *   whose workload no Application in scope manages, is a problem (a result) and nothing else.
 * - An entry naming a namespace other than the workload's own and the shared ones, or one not watched, is refused.
 * - `baselines` out: the per-key digests of each source at a version some record names, where it is at that
 *   version now (kept from before otherwise), for the next pass.
 */
export function decideRefreshes(input: RefreshInput): RefreshDecision {
  const hasher: Hasher | undefined = input.hashKey ? makeHasher(input.hashKey) : undefined;
  const problems: Result[] = [];
  const baselines = new Map<string, LiveSource>();
  const byApp = new Map<string, Seen[]>();
  const workloads = [...input.workloads].sort((a, b) => byteOrder(resourceId(a.ref), resourceId(b.ref)));
  for (const w of workloads) {
    const entries = recordOf(w, problems);
    if (!entries || entries.length === 0) continue;
    const managed = managingApplication(w, input.scope, input.applications);
    if ('problem' in managed) {
      problems.push(managed.problem);
      continue;
    }
    const appKey = `${managed.app.namespace}/${managed.app.name}`;
    for (const entry of entries) {
      if (!inScope(w, entry, input, problems)) continue;
      const id = entryId(entry);
      const live = input.sources.get(id);
      keepBaseline(entry, live, input, baselines);
      const state = compareEntry(entry, live, input.baselines, hasher);
      if ('keyMismatch' in state) {
        const message = `the record's digest of ${entry.kind} ${entry.namespace}/${entry.name} differs at the resourceVersion it names: the render used another hash key than the refresher (ROLLSTAMP_HASH_KEY, ROLLSTAMP_HASH_KEY_FILE)`;
        problems.push(result('warning', 'HASH_KEY_MISMATCH', message, { ref: w.ref }));
        continue;
      }
      if (!state.changed) continue;
      const change: LiveChange = { workload: w.ref, kind: entry.kind, namespace: entry.namespace, name: entry.name, reason: state.reason, keys: state.keys, whole: entry.whole === true, exact: state.exact };
      const versions = [entry.uid ?? '', entry.resourceVersion ?? '', live?.uid ?? '-', live?.resourceVersion ?? '-'];
      const seen = byApp.get(appKey) ?? [];
      seen.push({ change, line: [resourceId(w.ref), id, ...versions].join('\0') });
      byApp.set(appKey, seen);
    }
  }
  const requests: RefreshRequest[] = [];
  const alreadyRequested: RefreshDecision['alreadyRequested'] = [];
  for (const [appKey, seen] of [...byApp].sort((a, b) => byteOrder(a[0], b[0]))) {
    const app = input.applications.get(appKey)!;
    const fingerprint = fingerprintOf(seen);
    const application = { namespace: app.namespace, name: app.name };
    if (app.requested === fingerprint) alreadyRequested.push(application);
    else requests.push({ application, fingerprint, changes: seen.map((s) => s.change) });
  }
  return { requests, alreadyRequested, problems, baselines };
}

/** The record's entries; undefined (with a problem) when it does not read as one. */
function recordOf(w: WorkloadView, problems: Result[]): RecordEntry[] | undefined {
  if (w.record === undefined) return undefined;
  const parsed = parseRecord(w.record);
  if ('entries' in parsed) return parsed.entries;
  problems.push(result('warning', 'BAD_RECORD', `its live-read record is refused (${parsed.refused}): nothing of it is acted on`, { ref: w.ref }));
  return undefined;
}

/**
 * A record may name the workload's own namespace and the shared ones (what a render may read live), and only what
 * the refresher watches: anything else would make it an oracle for another team's Secret.
 */
function inScope(w: WorkloadView, entry: RecordEntry, input: RefreshInput, problems: Result[]): boolean {
  const { scope } = input;
  const what = `${entry.kind} ${entry.namespace}/${entry.name}`;
  if (entry.namespace !== w.ref.namespace && !scope.sharedNamespaces.has(entry.namespace)) {
    problems.push(result('warning', 'RECORD_OUT_OF_SCOPE', `its record names ${what}, outside its own namespace and --shared-namespaces: that entry is refused`, { ref: w.ref }));
    return false;
  }
  if (scope.watched && !scope.watched.has(entry.namespace)) {
    problems.push(result('warning', 'RECORD_OUT_OF_SCOPE', `its record names ${what}, outside --namespaces: that entry is not watched`, { ref: w.ref }));
    return false;
  }
  return true;
}

/** Keeps the per-key digests of a source at each version a record names: now, when it is at it; else from before. */
function keepBaseline(entry: RecordEntry, live: LiveSource | undefined, input: RefreshInput, out: Map<string, LiveSource>): void {
  if (entry.uid === undefined || entry.resourceVersion === undefined) return;
  const key = baselineKey(entryId(entry), entry.uid, entry.resourceVersion);
  if (live && live.uid === entry.uid && live.resourceVersion === entry.resourceVersion) out.set(key, live);
  else {
    const before = input.baselines.get(key);
    if (before) out.set(key, before);
  }
}

/** `sha256:<hex>` over the changes' names and versions, in byte order: the same changes give the same fingerprint. */
function fingerprintOf(seen: readonly Seen[]): string {
  const hasher = makeHasher();
  const lines = seen.map((s) => s.line).sort(byteOrder);
  return formatDigest(hasher, hasher.digest(new TextEncoder().encode(lines.join('\n'))));
}
