// Which test files test/run.mjs runs together in one process (a shard), and how it reads such a shard's output
// back into one result per file. One node + tsx start-up and one load of the modules under test cost about as
// much as a small unit file's tests, and a warm JIT serves every file after the first: a tier's files share.
import { basename, dirname } from 'node:path';

/**
 * Tiers whose files share processes: every tier. Each file closes what it starts (servers, children, temp
 * dirs) in its own hooks, or its own process would not end either; shard-files.mjs restores the environment and
 * the working directory between files. A directory of another name (a check's own) keeps one process per file.
 */
export const SHARED_TIERS = new Set(['unit', 'property', 'golden', 'fuzz', 'hostile', 'e2e', 'live']);
/** A file of a shared tier that must still have a process to itself says why in its header. */
export const OWN_PROCESS = /^\/\/ Runs in its own process: \S/m;
/**
 * A shared shard is filled up to this many CPU seconds of its files' last run. Each shard costs a start-up
 * (node, tsx, uvu: about 0.8 CPU-s, more with the modules under test); at 60 the suite is about 19 shards
 * rather than 35 at 30, and the pool, which starts the longest first, still packs the tail as well.
 */
export const SHARD_CPU_SECONDS = 60;
/** What a file not yet measured is assumed to cost. */
const UNMEASURED_SECONDS = 5;

/**
 * The shards for `files`: one per file, except that the files of one shared-tier directory (not marked
 * OWN_PROCESS) are packed into as few shards of at most SHARD_CPU_SECONDS (by `cpu`, the last run's seconds
 * per file) as first-fit decreasing gives. `head(file)` is the start of the file's text.
 */
export function planShards(files, head, cpu) {
  const shards = [];
  const shared = new Map();
  for (const f of files) {
    const dir = dirname(f);
    if (SHARED_TIERS.has(basename(dir)) && !OWN_PROCESS.test(head(f))) shared.set(dir, [...(shared.get(dir) ?? []), f]);
    else shards.push({ files: [f], shared: false });
  }
  const cost = (f) => (Number.isFinite(cpu[f]) ? cpu[f] : UNMEASURED_SECONDS);
  for (const group of shared.values()) {
    const bins = [];
    for (const f of [...group].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
      const bin = bins.find((b) => b.seconds + cost(f) <= SHARD_CPU_SECONDS);
      if (bin) {
        bin.files.push(f);
        bin.seconds += cost(f);
      } else bins.push({ files: [f], seconds: cost(f) });
    }
    shards.push(...bins.map((b) => ({ files: b.files, shared: true })));
  }
  return shards;
}

const MARK = /^@@rollstamp-test-file@@ (start|end) (.*)$/gm;

/**
 * One result per file of a shared shard from its output (test/support/shard-files.mjs marks where each file
 * starts and ends). A file that started but did not end failed with the shard's `why`; a file that never started
 * failed as not run. `shardCpu` (the process's CPU seconds, NaN when unknown) is shared out: each file's own
 * seconds plus an equal part of what the process spent outside them (start-up, exit).
 */
export function splitShard(files, out, { ok, why, ms, shardCpu }) {
  const marks = [...out.matchAll(MARK)];
  const results = files.map((file) => {
    const start = marks.find((m) => m[1] === 'start' && m[2] === file);
    if (!start) return { file, ok: false, why: `not run: the shard's process ended (${why || 'exit 0'}) before it`, total: 0, passed: 0, skipped: 0, failed: 1, out: '', ms: 0, cpu: NaN };
    const endMark = marks.find((m) => m[1] === 'end' && m.index > start.index && JSON.parse(m[2]).file === file);
    const text = out.slice(start.index + start[0].length, endMark ? endMark.index : (marks.find((m) => m.index > start.index)?.index ?? out.length)).trim();
    if (!endMark) return { file, ok: false, why: why || 'the process ended before its tests did', total: 0, passed: 0, skipped: 0, failed: 1, out: text, ms, cpu: NaN };
    const end = JSON.parse(endMark[2]);
    return { file, ok: end.failed === 0, why: end.failed === 0 ? '' : 'a test failed', total: end.total, passed: end.passed, skipped: end.skipped, failed: end.failed, out: text, ms: end.ms, cpu: end.cpu };
  });
  // A shard that failed with every file accounted for (it crashed while exiting): its last file carries it.
  const last = results[results.length - 1];
  if (!ok && results.every((r) => r.ok)) Object.assign(last, { ok: false, why, failed: Math.max(1, last.failed) });
  const own = results.reduce((n, r) => n + (Number.isFinite(r.cpu) ? r.cpu : 0), 0);
  if (Number.isFinite(shardCpu)) for (const r of results) if (Number.isFinite(r.cpu)) r.cpu += Math.max(0, shardCpu - own) / results.length;
  return results;
}
