// One node process timed for the whole-process benches (run.ts, render.ts), spawned alike for every case:
// PATH and the case's own variables only, stdin read before the clock; wall, CPU (user and system), minor page
// faults, context switches and peak RSS (rss.cjs).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RSS_PRELOAD = fileURLToPath(new URL('./rss.cjs', import.meta.url));

export interface ProcessCase {
  name: string;
  /** node's arguments: a script (or `-e`) and its own. */
  argv: string[];
  /** A file given as stdin. Default: empty stdin. */
  stdin?: string;
  cwd: string;
  /** Variables beside PATH (nothing else of the bench's environment reaches the process). */
  env?: Record<string, string>;
  /** Exit statuses that are success. Default: 0 only. */
  ok?: number[];
}

export interface ProcessSample {
  wallMs: number;
  /** User + system, all threads. */
  cpuSeconds: number;
  /** System (kernel) time alone: page faults, mmap and munmap, futex waits of V8's helper threads, reads and writes. */
  systemSeconds: number;
  /** Minor page faults: pages touched for the first time (a heap that grows, buffers, the input's copies). */
  minorFaults: number;
  /** Voluntary and involuntary context switches, all threads: helper threads waking and waiting show here. */
  switches: number;
  rssMiB: number;
}

/** Runs `c` once; `work` is a directory for rss.cjs's report. A status outside `ok` throws, naming the case. */
export function measureProcess(c: ProcessCase, work: string): ProcessSample {
  const rssFile = join(work, 'rss');
  rmSync(rssFile, { force: true });
  const input = c.stdin === undefined ? '' : readFileSync(c.stdin);
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--require', RSS_PRELOAD, ...c.argv], {
    cwd: c.cwd,
    input,
    env: { PATH: process.env.PATH ?? '', ...c.env, BENCH_RSS_FILE: rssFile },
    maxBuffer: 2 ** 31,
  });
  const wallMs = performance.now() - start;
  if (r.status === null || !(c.ok ?? [0]).includes(r.status)) throw new Error(`${c.name} failed (exit ${r.status ?? r.signal}): ${r.stderr.toString().slice(0, 300)}`);
  const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRSS: number; cpu: number; system: number; minorFaults: number; switches: number };
  return { wallMs, cpuSeconds: usage.cpu / 1e6, systemSeconds: usage.system / 1e6, minorFaults: usage.minorFaults, switches: usage.switches, rssMiB: usage.maxRSS / 1024 };
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
