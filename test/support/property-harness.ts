// Running property cases: fixed seeds, per-case generators, failing inputs kept on disk; running the CLI
// in-process (with both readers, compared) and reading the stamps back out of its output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMap, isSeq, parseAllDocuments, parseDocument, type Document } from 'yaml';
import { bothReaders, type RunOpts } from './both-readers.ts';
import { runInProcess, type CliRun } from './run-cli.ts';
import { bundleDocs, caseSeed, effectiveNs, HASH_KEY, Rng, ROW_SHAPES, type Bundle } from './property-generate.ts';
import { renderStream, type Style } from './property-render.ts';
import { sized } from './sizes.ts';

/**
 * Cases per property: 200 when CI is set, 100 elsewhere (PROPERTY_CASES overrides). 100 still places every
 * marker and process case the distribution checks count (canary.test.ts asks for at least 100).
 */
export const CASES = Number(process.env.PROPERTY_CASES ?? sized(200, 100));

/**
 * `n` of every 200 cases, for this run's CASES: the distribution checks ("at least n cases had a stale stamp")
 * were written for 200 cases; the first 100 of a seed draw the same cases, so they hold the same share.
 */
export const perCases = (n: number): number => Math.ceil((n * CASES) / 200);

export interface Case {
  rng: Rng;
  /** `seed=0x… case=N`, for messages. */
  label: string;
  /** Keeps a text (an input) so a failure can write it out. */
  keep(name: string, text: string): void;
}

/**
 * Runs `body` for CASES cases, each with its own generator derived from `seed` and the case number.
 * - PROPERTY_SEED replaces the seed, PROPERTY_CASE runs one case only.
 * - Prints `property NAME: seed 0x…, N cases` first, so every run shows what it drew.
 * - A failure is rethrown with the seed and case in its message; kept texts go to a temp directory.
 */
export async function forAll(name: string, seed: number, body: (c: Case) => Promise<void>, cases = CASES): Promise<void> {
  const base = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : seed;
  const only = process.env.PROPERTY_CASE ? Number(process.env.PROPERTY_CASE) : undefined;
  process.stdout.write(`property ${name}: seed 0x${base.toString(16)}, ${only !== undefined ? `case ${only} of ` : ''}${cases} cases\n`);
  for (let i = 0; i < cases; i++) {
    if (only !== undefined && i !== only) continue;
    const kept = new Map<string, string>();
    const label = `seed=0x${base.toString(16)} case=${i}`;
    try {
      await body({ rng: new Rng(caseSeed(base, i)), label, keep: (k, t) => kept.set(k, t) });
    } catch (err) {
      const dir = join(tmpdir(), 'rollstamp-property', `${name.replace(/[^A-Za-z0-9]+/g, '-')}-${base.toString(16)}-${i}`);
      mkdirSync(dir, { recursive: true });
      for (const [k, t] of kept) writeFileSync(join(dir, k), t);
      const where = `[${name} ${label}; rerun: PROPERTY_SEED=${base} PROPERTY_CASE=${i}${kept.size ? `; inputs in ${dir}` : ''}]`;
      if (err instanceof Error) err.message = `${where} ${err.message}`;
      throw err;
    }
  }
}

/** The CLI, in-process. An unexpected exception becomes what main.ts would print (no message, no stack). */
async function cliOnce(argv: string[], opts: RunOpts): Promise<CliRun> {
  try {
    return await runInProcess(argv, opts);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `rollstamp: error: internal error (${(err as Error)?.name ?? 'unknown'}); rerun with --debug for details\n`, internal: err } as CliRun;
  }
}

/**
 * The CLI, in-process, with the default reader and again with ROLLSTAMP_READER=full: a property fails when
 * the two print something different (test/support/both-readers.ts). Returns the default run.
 */
export async function cli(argv: string[], stdin: string, env: Record<string, string> = {}): Promise<CliRun> {
  return bothReaders(argv, { stdin, env }, argv.join(' '), cliOnce);
}

/** The annotations map each generated workload kind carries its stamp in, by `group/Kind`. */
const TARGET_KINDS: Record<string, readonly string[]> = {
  'apps/Deployment': ['spec', 'template', 'metadata', 'annotations'],
  'apps/StatefulSet': ['spec', 'template', 'metadata', 'annotations'],
  'apps/DaemonSet': ['spec', 'template', 'metadata', 'annotations'],
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'annotations'],
  ...Object.fromEntries(ROW_SHAPES.map((r) => [`${r.group}/${r.kind}`, r.stamp.path])),
};

/** The annotations map a generated workload of this apiVersion and kind carries its stamp in, if it is one. */
export const stampPathOf = (apiVersion: string, kind: string): readonly string[] | undefined => TARGET_KINDS[`${apiVersion.split('/')[0]}/${kind}`];

/** Stamps of Deployments, StatefulSets, DaemonSets and CronJobs by `Kind/namespace/name` (undefined: none). */
export type Stamps = Map<string, string | undefined>;

function stampsOf(objects: unknown[]): Stamps {
  const out: Stamps = new Map();
  for (const o of objects) {
    if (typeof o !== 'object' || o === null) continue;
    const obj = o as Record<string, any>;
    const group = String(obj.apiVersion ?? '').split('/')[0];
    const path = TARGET_KINDS[`${group}/${obj.kind}`];
    if (!path) continue;
    let t: any = obj;
    for (const k of path) t = t?.[k];
    const v = t?.[HASH_KEY];
    out.set(`${obj.kind}/${effectiveNs(obj.metadata?.namespace)}/${obj.metadata?.name}`, typeof v === 'string' ? v : undefined);
  }
  return out;
}

function docsOf(text: string, what: string): Document[] {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new Error(`${what}: not a YAML stream`);
  for (const d of docs) if (d.errors.length > 0) throw new Error(`${what}: output does not parse: ${d.errors[0]!.message}`);
  return docs;
}

/** Stamps in a multi-document stream (`stamp` output). */
export function stampsOfStream(text: string): Stamps {
  return stampsOf(docsOf(text, 'stamp').map((d) => d.toJS({ maxAliasCount: -1 })));
}

/** Stamps in a ResourceList (`fn` output). */
export function stampsOfResourceList(text: string): Stamps {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`fn: output does not parse: ${doc.errors[0]!.message}`);
  const items = (doc.contents && isMap(doc.contents) && doc.contents.get('items')) || undefined;
  if (!isSeq(items)) throw new Error('fn: output has no items');
  return stampsOf(items.items.map((i) => (i as { toJSON(): unknown }).toJSON()));
}

/** `rollstamp stamp -`; fails unless it exits 0. */
export async function stamp(text: string, label: string, args: string[] = []): Promise<{ run: CliRun; stamps: Stamps }> {
  const run = await cli(['stamp', ...args, '-'], text);
  if (run.code !== 0) throw new Error(`${label}: rollstamp stamp exited ${run.code}: ${run.stderr.trim()}`);
  return { run, stamps: stampsOfStream(run.stdout) };
}

/** Compares two stamp maps entry by entry; returns the differences as text (empty when equal). */
export function diffStamps(a: Stamps, b: Stamps, only?: (id: string) => boolean): string[] {
  const out: string[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    if (only && !only(id)) continue;
    if (a.get(id) !== b.get(id)) out.push(`${id}: ${a.get(id)} → ${b.get(id)}`);
  }
  return out;
}

/** A bundle as a YAML stream in `style` (base64 values wrapped when `wrapBase64` says so). */
export function render(b: Bundle, style: Style, rng: Rng, wrapBase64 = 0): string {
  return renderStream(bundleDocs(b, { rng: rng.fork(), wrapBase64 }), style, rng.fork());
}
