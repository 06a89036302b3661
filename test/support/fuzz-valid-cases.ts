// Fuzz cases, valid inputs (issue #7 item 10; run by determinism.test.ts): generated bundles through `stamp`
// (stdin and files), `fn` and `explain --json`, in-process. For each case:
// - the contract of support.ts (exit 0/1, one stderr line on failure, nothing on stdout, no canary leaked);
// - the same bytes per document whatever the document or file order; the same stamps whatever the key order and
//   the order of list items (env, envFrom, volumes, projected sources, volume items, imagePullSecrets, ResourceList
//   items); the same explain report;
// - idempotence: stamping the output again prints it byte for byte (`fn`, whose results are replaced on every
//   run: the same items and stamps, on a second and a third run).
// Seed, case count and replay: see support.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { bundleDocs, clone, effectiveNs, genBundle, HASH_KEY, resourceListDoc, Rng, type Bundle } from './property-generate.ts';
import { stampPathOf, stampsOfStream, type Stamps } from './property-harness.ts';
import { randomFormat, renderDoc, renderStream, ymap, type Style, type YMap } from './property-render.ts';
import { canonical, checkContract, digestsIn, run, type CaseModule, type FuzzCase, type Run } from './fuzz.ts';

// ---- inputs -------------------------------------------------------------------------------------------------

const HMAC_ENV = { ROLLSTAMP_HASH_KEY: 'fuzz-hmac-key-0710' };

/** Valid flags for `stamp`/`explain` (and the same settings as a functionConfig for `fn`), plus environment. */
function settings(rng: Rng): { args: string[]; fnConfig?: YMap; env: Record<string, string> } {
  const env = rng.bool(0.15) ? HMAC_ENV : {};
  const cm = (data: Array<[string, string]>): YMap => ymap(['apiVersion', 'v1'], ['kind', 'ConfigMap'], ['metadata', ymap(['name', 'cfg'])], ['data', ymap(...data)]);
  switch (rng.int(12)) {
    case 0: return { args: ['--targets', 'all'], fnConfig: cm([['targets', 'all']]), env };
    case 1: return { args: ['--on-missing', 'ignore'], fnConfig: cm([['onMissing', 'ignore']]), env };
    case 2: return { args: ['--on-missing', 'error'], fnConfig: cm([['onMissing', 'error']]), env };
    case 3: return { args: ['-n', 'prod'], fnConfig: cm([['defaultNamespace', 'prod']]), env };
    case 4: return { args: ['--selector', 'app'], fnConfig: cm([['selector', 'app']]), env };
    case 5:
      return {
        args: ['--kagent', 'disabled'],
        fnConfig: ymap(['apiVersion', 'rollstamp.dev/v1alpha1'], ['kind', 'RollstampConfig'], ['metadata', ymap(['name', 'r'])], ['spec', ymap(['kagent', 'disabled'])]),
        env,
      };
    default: return { args: [], env };
  }
}

/** The same bundle with every list whose order carries no meaning shuffled (and documents, and keys when written). */
function reorderItems(b: Bundle, rng: Rng): Bundle {
  const out = clone(b);
  for (const s of out.sources) {
    s.entries = rng.shuffle(s.entries);
    s.labels = rng.shuffle(s.labels);
    s.annotations = rng.shuffle(s.annotations);
  }
  for (const w of out.workloads) {
    w.refs = rng.shuffle(w.refs).map((r) => {
      if (r.via === 'projected') return { ...r, sources: rng.shuffle(r.sources).map((s) => (s.items ? { ...s, items: rng.shuffle(s.items) } : s)) };
      if (r.via === 'volume' && r.items) return { ...r, items: rng.shuffle(r.items) };
      return r;
    });
    w.imagePullSecrets = rng.shuffle(w.imagePullSecrets);
    w.templateAnnotations = rng.shuffle(w.templateAnnotations);
  }
  const n = out.sources.length + out.workloads.length + out.others.length;
  out.order = rng.shuffle(out.order && out.order.length === n ? out.order : [...Array(n).keys()]);
  return out;
}

/** A formatting for documents written one by one: no stream-level BOM, `...` or directives. */
function docFormat(rng: Rng): Style {
  return { ...randomFormat(rng), bom: false, docEnd: false };
}

/** Each document's text on its own (its own generator, so every order writes the same bytes per document). */
function renderDocs(docs: readonly YMap[], style: Style, rng: Rng): string[] {
  return docs.map((d) => {
    const text = renderDoc(d, style, new Rng(rng.int(2 ** 32)));
    return style.crlf ? text.replace(/\n/g, '\r\n') : text;
  });
}

/** Documents `order` of `texts`, each after a `---` line. */
function joinDocs(texts: readonly string[], order: readonly number[], crlf: boolean): string {
  return order.map((i) => `---${crlf ? '\r\n' : '\n'}${texts[i]}`).join('');
}

/** The output split at its `---` lines, keyed by the input document each piece came from. */
function pieces(out: string, order: readonly number[], where: string): Map<number, string> {
  const parts = out.split(/^---\r?\n/m);
  assert.is(parts[0], '', `${where}: output does not start with a --- line`);
  assert.is(parts.length - 1, order.length, `${where}: output has ${parts.length - 1} documents, the input ${order.length}`);
  return new Map(order.map((doc, j) => [doc, parts[j + 1]!]));
}

function assertSamePieces(a: Map<number, string>, b: Map<number, string>, where: string): void {
  for (const [doc, text] of a) assert.fixture(b.get(doc) ?? '', text, `${where}: document ${doc} printed differently`);
}

/** Warning lines with file references (`<stdin>#3`) taken out, sorted. */
function warnings(r: Run): string[] {
  return r.stderr.split('\n').filter((l) => l !== '').map((l) => l.replace(/<stdin>(#\d+)?/g, '<stdin>')).sort();
}

function sortedStamps(s: Stamps): Array<[string, string | undefined]> {
  return [...s].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

interface Target { resourceRef: { kind: string; namespace?: string; name: string }; hash: string }

/** An explain report without file references, targets sorted (document order is not part of it). */
function report(r: Run, hashesOnly: boolean): unknown {
  const doc = JSON.parse(r.stdout) as { targets: Target[]; results: unknown[] };
  const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'file' ? undefined : x)));
  const targets = doc.targets.map((t) => (hashesOnly ? { resourceRef: t.resourceRef, hash: t.hash } : strip(t))).map(canonical).sort();
  return hashesOnly ? targets : { targets, results: (strip(doc.results) as unknown[]).map(canonical).sort() };
}

// ---- cases --------------------------------------------------------------------------------------------------

async function streamCase(c: FuzzCase): Promise<void> {
  const canary = c.rng.bool(0.25);
  const { bundle, canaries } = genBundle(c.rng, { canary });
  const { args, env } = settings(c.rng);
  const wrap = canary ? {} : { rng: c.rng.fork(), wrapBase64: 0.3 };
  const style = docFormat(c.rng);
  const texts = renderDocs(bundleDocs(bundle, wrap), style, c.rng);
  const order = [...texts.keys()];
  const a = joinDocs(texts, order, style.crlf);
  c.keep('a.yaml', a);
  const ra = await run(['stamp', ...args, '-'], a, { env });
  c.keep('a.out.yaml', ra.stdout);
  const okA = checkContract(ra, 'stamp', `stamp a (${args.join(' ')})`, a, canaries).ok;
  const explain = c.rng.bool(0.25);

  if (c.rng.bool()) {
    // Documents in another order: every document printed with the same bytes, the same warnings.
    const orderB = c.rng.shuffle(order);
    const b = joinDocs(texts, orderB, style.crlf);
    c.keep('b.yaml', b);
    const rb = await run(['stamp', ...args, '-'], b, { env });
    c.keep('b.out.yaml', rb.stdout);
    checkContract(rb, 'stamp', 'stamp b (documents reordered)', b, canaries);
    assert.is(rb.code, ra.code, `documents reordered: exit ${rb.code}, in order ${ra.code}`);
    if (okA) {
      assertSamePieces(pieces(ra.stdout, order, 'stamp a'), pieces(rb.stdout, orderB, 'stamp b'), 'documents reordered');
      assert.equal(warnings(rb), warnings(ra), 'documents reordered: other warnings');
    }
    if (explain) {
      const ea = await run(['explain', '--json', ...args, '-'], a, { env });
      const eb = await run(['explain', '--json', ...args, '-'], b, { env });
      checkContract(ea, 'explain-json', 'explain --json a', a, canaries);
      checkContract(eb, 'explain-json', 'explain --json b', b, canaries);
      assert.is(eb.code, ea.code, 'explain --json: exit code depends on document order');
      if (ea.code === 0) assert.equal(report(eb, false), report(ea, false), 'explain --json: the report depends on document order');
    }
  } else {
    // Keys and list items in another order (and documents): the same stamps.
    const reordered = reorderItems(bundle, c.rng);
    const cText = renderStream(bundleDocs(reordered, wrap), { ...docFormat(c.rng), shuffleKeys: true }, c.rng.fork());
    c.keep('c.yaml', cText);
    const rc = await run(['stamp', ...args, '-'], cText, { env });
    c.keep('c.out.yaml', rc.stdout);
    checkContract(rc, 'stamp', 'stamp c (keys and items reordered)', cText, canaries);
    assert.is(rc.code, ra.code, `keys and items reordered: exit ${rc.code}, in order ${ra.code}`);
    if (okA) {
      assert.equal(sortedStamps(stampsOfStream(rc.stdout)), sortedStamps(stampsOfStream(ra.stdout)), 'keys and items reordered: other stamps');
      assert.is(warnings(rc).length, warnings(ra).length, 'keys and items reordered: another number of warnings');
    }
    if (explain) {
      const ea = await run(['explain', '--json', ...args, '-'], a, { env });
      const ec = await run(['explain', '--json', ...args, '-'], cText, { env });
      checkContract(ea, 'explain-json', 'explain --json a', a, canaries);
      checkContract(ec, 'explain-json', 'explain --json c', cText, canaries);
      assert.is(ec.code, ea.code, 'explain --json: exit code depends on key or item order');
      if (ea.code === 0) assert.equal(report(ec, true), report(ea, true), 'explain --json: hashes depend on key or item order');
    }
  }

  if (okA) {
    const again = await run(['stamp', ...args, '-'], ra.stdout, { env });
    checkContract(again, 'stamp', 'stamp of the output', ra.stdout, canaries);
    assert.is(again.code, 0, `stamping the output again failed: ${again.stderr}`);
    assert.fixture(again.stdout, ra.stdout, 'stamping the output again changed it');
  }
}

async function filesCase(c: FuzzCase): Promise<void> {
  const { bundle, canaries } = genBundle(c.rng, { canary: c.rng.bool(0.25) });
  const { args, env } = settings(c.rng);
  const style = docFormat(c.rng);
  const texts = renderDocs(bundleDocs(bundle), style, c.rng);
  // Documents spread over 1–4 files (in a random order inside each).
  const nFiles = c.rng.range(1, 4);
  const files: number[][] = Array.from({ length: nFiles }, () => []);
  for (const i of c.rng.shuffle([...texts.keys()])) files[c.rng.int(nFiles)]!.push(i);
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-fuzz-files-'));
  const names = files.map((_, j) => `f${j}${c.rng.pick(['.yaml', '.yml', '.json'])}`);
  files.forEach((docs, j) => writeFileSync(join(dir, names[j]!), joinDocs(texts, docs, style.crlf)));
  try {
    const stampIn = async (paths: string[], what: string): Promise<{ r: Run; order: number[] }> => {
      const r = await run(['stamp', ...args, ...paths], '', { env, cwd: dir });
      c.keep(`${what}.out.yaml`, r.stdout);
      const input = paths.map((p) => (p === '.' ? names : [p])).flat();
      checkContract(r, 'stamp', `stamp ${what} (${paths.join(' ')})`, texts.join(''), canaries);
      return { r, order: input.flatMap((p) => files[names.indexOf(p)]!) };
    };
    const permA = c.rng.shuffle([...names.keys()]);
    const permB = c.rng.shuffle([...names.keys()]);
    const a = await stampIn(permA.map((j) => names[j]!), 'a');
    const b = await stampIn(permB.map((j) => names[j]!), 'b');
    assert.is(b.r.code, a.r.code, 'file order changed the exit code');
    if (a.r.code === 0) {
      const pa = pieces(a.r.stdout, a.order, 'stamp a');
      assertSamePieces(pa, pieces(b.r.stdout, b.order, 'stamp b'), 'files reordered');
      assert.equal(warnings(b.r), warnings(a.r), 'files reordered: other warnings');
      // The directory, read in byte order of path names.
      const sorted = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      const d = await run(['stamp', ...args, '.'], '', { env, cwd: dir });
      checkContract(d, 'stamp', 'stamp .', texts.join(''), canaries);
      assert.is(d.code, 0, `stamp . failed: ${d.stderr}`);
      assertSamePieces(pa, pieces(d.stdout, sorted.flatMap((p) => files[names.indexOf(p)]!), 'stamp .'), 'files read from their directory');
      const again = await run(['stamp', ...args, '-'], a.r.stdout, { env });
      checkContract(again, 'stamp', 'stamp of the output', a.r.stdout, canaries);
      assert.fixture(again.stdout, a.r.stdout, 'stamping the output again changed it');
    }
    if (c.rng.bool(0.3)) {
      const ea = await run(['explain', '--json', ...args, ...permA.map((j) => names[j]!)], '', { env, cwd: dir });
      const eb = await run(['explain', '--json', ...args, ...permB.map((j) => names[j]!)], '', { env, cwd: dir });
      checkContract(ea, 'explain-json', 'explain --json a', texts.join(''), canaries);
      checkContract(eb, 'explain-json', 'explain --json b', texts.join(''), canaries);
      assert.is(eb.code, ea.code, 'explain --json: exit code depends on file order');
      if (ea.code === 0) assert.equal(report(eb, false), report(ea, false), 'explain --json: the report depends on file order');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ParsedList {
  /** Each item as canonical JSON, in order. */
  items: string[];
  /** Stamps of the workloads, sorted by `Kind/namespace/name`. */
  stamps: Array<[string, string | undefined]>;
  /** Severity, code and resource of each result, sorted (field paths name list indices, which reordering moves). */
  results: string[];
}

/** A ResourceList output, parsed once. */
function parseList(text: string): ParsedList {
  const rl = parseDocument(text).toJS() as { items: Array<Record<string, any>>; results?: Array<{ severity: string; tags?: { code?: string }; resourceRef?: unknown }> };
  const stamps: Array<[string, string | undefined]> = [];
  for (const o of rl.items) {
    // The stamp site of every generated kind, the operator rows' included (#24).
    const path = stampPathOf(String(o?.apiVersion ?? ''), String(o?.kind));
    if (!path) continue;
    let t: any = o;
    for (const k of path) t = t?.[k];
    const v = t?.[HASH_KEY];
    stamps.push([`${o.kind}/${effectiveNs(o.metadata?.namespace)}/${o.metadata?.name}`, typeof v === 'string' ? v : undefined]);
  }
  return {
    items: rl.items.map(canonical),
    stamps: stamps.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    results: (rl.results ?? []).map((r) => canonical([r.severity, r.tags?.code, r.resourceRef ?? null])).sort(),
  };
}

async function resourceListCase(c: FuzzCase): Promise<void> {
  const canary = c.rng.bool(0.25);
  const { bundle, canaries } = genBundle(c.rng, { canary });
  const { fnConfig, env } = settings(c.rng);
  const wrap = canary ? {} : { rng: c.rng.fork(), wrapBase64: 0.3 };
  const listStyle = (s: Style): Style => ({ ...s, shuffleDocs: false, docEnd: false, flowDoc: 0, json: c.rng.bool(0.15) ? 1 : 0 });
  const r1Text = renderStream([resourceListDoc(bundleDocs(bundle, wrap), fnConfig)], listStyle(randomFormat(c.rng)), c.rng.fork());
  const r2Text = renderStream([resourceListDoc(bundleDocs(reorderItems(bundle, c.rng), wrap), fnConfig)], listStyle({ ...randomFormat(c.rng), shuffleKeys: true }), c.rng.fork());
  c.keep('r1.yaml', r1Text);
  c.keep('r2.yaml', r2Text);
  const r1 = await run(['fn'], r1Text, { env });
  const r2 = await run(['fn'], r2Text, { env });
  c.keep('r1.out.yaml', r1.stdout);
  checkContract(r1, 'fn', 'fn r1', r1Text, canaries);
  checkContract(r2, 'fn', 'fn r2 (items, keys and list items reordered)', r2Text, canaries);
  assert.is(r2.code, r1.code, `items reordered: exit ${r2.code}, in order ${r1.code}`);
  if (r1.code !== 0) return;
  const p1 = parseList(r1.stdout);
  const p2 = parseList(r2.stdout);
  assert.equal(p2.stamps, p1.stamps, 'items reordered: other stamps');
  assert.equal(p2.results, p1.results, 'items reordered: other results');
  // Idempotence: the output through fn again keeps its items and stamps; from there on, fn is a fixed point.
  const r3 = await run(['fn'], r1.stdout, { env });
  c.keep('r3.out.yaml', r3.stdout);
  checkContract(r3, 'fn', 'fn of the output', r1.stdout, canaries);
  assert.is(r3.code, 0, `fn of its own output failed: ${r3.stderr}`);
  const p3 = parseList(r3.stdout);
  assert.equal(p3.items, p1.items, 'fn of its own output changed the items');
  if (c.rng.bool(0.25)) {
    // (Not byte for byte: printed from its tree, a blank line before a comment may go on the next run.)
    const r4 = await run(['fn'], r3.stdout, { env });
    checkContract(r4, 'fn', 'fn of the output, third run', r3.stdout, canaries);
    assert.is(r4.code, 0, `fn of its own output, third run, failed: ${r4.stderr}`);
    assert.equal(parseList(r4.stdout).items, p3.items, 'fn of its own output, third run, changed the items');
    assert.equal(digestsIn(r4.stdout), digestsIn(r3.stdout), 'fn of its own output, third run, changed a digest');
  }
}

export const CASES: CaseModule['CASES'] = { stream: streamCase, files: filesCase, 'resource-list': resourceListCase };
