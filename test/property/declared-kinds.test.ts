// Property (#33, item 4): rollstamp accepts its own output for every input it accepts, over kinds a user
// declares. Random `spec.kinds` entries (paths of 1 to 16 field names, tricky names among them; stamp sites in
// spec and metadata.annotations; any annotation key the schema allows) over random objects of that kind (the
// stamp site absent, empty, null, holding other keys or a stale stamp, or not a map on the way; pod specs
// that are there or not), written in random YAML styles. When `stamp` accepts the input, `stamp --check`
// passes its output and a second `stamp` prints it again byte for byte; `fn` likewise over a ResourceList.
// A refusal must be one error line, never an internal error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import type { Rng } from '../support/property-generate.ts';
import { resourceListDoc } from '../support/property-generate.ts';
import { cli, forAll, perCases } from '../support/property-harness.ts';
import { randomStyle, renderDoc, renderStream, toJS, ymap, YMap, type YNode } from '../support/property-render.ts';

const dir = mkdtempSync(join(tmpdir(), 'rollstamp-declared-kinds-'));
let files = 0;

/** Field names a path may be made of: ordinary, and those a careless writer would misread (`on1`, `True1`, `nulls`). */
const NAMES = ['template', 'spec', 'pod', 'podTemplate', 'metadata', 'workload', 'x-y', 'a_b', 'Y2', 'on1', 'True1', 'nulls', 'containers', 'volumes', 'deployment', 'k8'];
/** Annotation keys the schema allows, some of which YAML would read as another type when written plain. */
const KEYS = ['rollstamp.dev/hash', 'rollstamp.dev/hash', 'example.com/config-hash', 'true', 'null', '123', 'on', 'y', '0x1F', '1e3', '3scale.net/hash', 'a.b'];

const pathOf = (rng: Rng, length: number): string[] => Array.from({ length }, () => rng.pick(NAMES));

/** A declared entry: the paths as keys, and the entry as the config holds it. */
interface Declared {
  podSpecs: string[][];
  secretNames: string[][];
  stamp: string[];
  entry: Record<string, unknown>;
}

function genDeclared(rng: Rng): Declared {
  const podSpecs = Array.from({ length: rng.range(1, 3) }, () => ['spec', ...pathOf(rng, rng.range(0, 4))]);
  const secretNames = Array.from({ length: rng.range(0, 2) }, () => ['spec', ...pathOf(rng, rng.range(1, 3))]);
  const depth = rng.pick([1, 2, 3, 4, 6, 10, 14]); // keys between spec and the annotations map (15 at most: 16 keys in all)
  const stamp = rng.bool(0.15) ? ['metadata', 'annotations'] : ['spec', ...pathOf(rng, depth), rng.pick(['annotations', 'annotations', 'podAnnotations'])];
  const entry: Record<string, unknown> = {
    apiVersion: rng.pick(['example.com/*', 'example.com/v1']),
    kind: 'App',
    podSpecPaths: podSpecs.map((p) => p.join('.')),
    stampAnnotationsPath: stamp.join('.'),
  };
  if (secretNames.length > 0) entry.secretNamePaths = secretNames.map((p) => p.join('.'));
  return { podSpecs, secretNames, stamp, entry };
}

/** Sets `value` at `path` in a map of plain objects, making maps on the way; false when something else is there. */
function setIn(root: Record<string, unknown>, path: readonly string[], value: unknown): boolean {
  let at = root;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (next === undefined) at[key] = Object.create(null) as Record<string, unknown>;
    else if (typeof next !== 'object' || next === null || Array.isArray(next)) return false;
    at = at[key] as Record<string, unknown>;
  }
  if (at[path.at(-1)!] !== undefined) return false;
  at[path.at(-1)!] = value;
  return true;
}

const toYNode = (v: unknown): YNode => {
  if (Array.isArray(v)) return v.map(toYNode);
  if (v !== null && typeof v === 'object') return new YMap(Object.entries(v).map(([k, x]) => [k, toYNode(x)]));
  return v as YNode;
};

/** One object of the declared kind; its stamp site in one of the forms a stamp meets. */
function genObject(rng: Rng, d: Declared, i: number, key: string): YMap {
  const obj = Object.create(null) as Record<string, unknown>;
  obj.apiVersion = 'example.com/v1';
  obj.kind = 'App';
  obj.metadata = { name: `app-${i}`, namespace: 'shop', ...(rng.bool(0.3) ? { labels: { app: 'x' } } : {}) };
  const site = rng.pick(['absent', 'absent', 'empty', 'null', 'other', 'stale', 'scalar-on-the-way'] as const);
  const annotations: Record<string, unknown> | null | undefined =
    site === 'empty' ? {} : site === 'null' ? null : site === 'other' ? { 'example.com/note': 'kept' } : site === 'stale' ? { [key]: `sha256:${'0'.repeat(64)}` } : undefined;
  if (d.stamp[0] === 'metadata') {
    if (annotations !== undefined) (obj.metadata as Record<string, unknown>).annotations = annotations;
  } else if (site === 'scalar-on-the-way') setIn(obj, d.stamp.slice(0, rng.range(2, d.stamp.length)), 'not-a-map');
  else if (annotations !== undefined) setIn(obj, d.stamp, annotations);
  for (const path of d.podSpecs) {
    if (rng.bool(0.9)) setIn(obj, path, { containers: [{ name: 'c', image: 'x', envFrom: [{ secretRef: { name: 'db' } }] }] });
  }
  for (const path of d.secretNames) if (rng.bool(0.8)) setIn(obj, path, ['db', 'tls']);
  return toYNode(obj) as YMap;
}

const SECRETS = [
  ymap(['apiVersion', 'v1'], ['kind', 'Secret'], ['metadata', ymap(['name', 'db'], ['namespace', 'shop'])], ['stringData', ymap(['password', 'one'])]),
  ymap(['apiVersion', 'v1'], ['kind', 'Secret'], ['metadata', ymap(['name', 'tls'], ['namespace', 'shop'])], ['stringData', ymap(['tls.crt', 'two'])]),
];

/** A refusal is one `rollstamp: error:` line and never an internal error. */
function assertCleanRefusal(run: { code: number; stdout: string; stderr: string }, what: string): void {
  assert.is(run.code, 1, `${what}: ${run.stderr}`);
  assert.is(run.stdout, '', what);
  assert.ok(/^rollstamp: error: [^\n]*\n$/.test(run.stderr), `${what}: one error line (got ${JSON.stringify(run.stderr.slice(0, 300))})`);
  assert.not.ok(run.stderr.includes('internal error'), `${what}: ${run.stderr}`);
}

test('P-kinds: over declared kinds, rollstamp accepts its own output: stamp --check passes it, a second stamp prints it again, fn likewise (#33)', async () => {
  let accepted = 0;
  let changed = 0;
  await forAll('P-kinds', 0x33d4c1a5, async (c) => {
    const d = genDeclared(c.rng);
    const key = c.rng.pick(KEYS);
    const spec = { targets: 'all', annotationKey: key, kinds: [d.entry] };
    const configDoc = ymap(['apiVersion', 'rollstamp.dev/v1alpha1'], ['kind', 'RollstampConfig'], ['spec', toYNode(spec)]);
    const config = join(dir, `config-${files++}.json`);
    writeFileSync(config, JSON.stringify(toJS(configDoc)));
    c.keep('config.json', JSON.stringify(toJS(configDoc), null, 2));
    const docs: YNode[] = [...SECRETS, ...Array.from({ length: c.rng.range(1, 3) }, (_, i) => genObject(c.rng, d, i, key))];
    const input = renderStream(docs, randomStyle(c.rng), c.rng);
    c.keep('input.yaml', input);
    const first = await cli(['stamp', '-c', config, '-'], input);
    if (first.code !== 0) return assertCleanRefusal(first, 'stamp');
    accepted++;
    c.keep('once.yaml', first.stdout);
    if (first.stdout !== input) changed++;
    const check = await cli(['stamp', '--check', '-c', config, '-'], first.stdout);
    assert.is(check.code, 0, `stamp --check over stamp's own output: ${check.stderr}`);
    assert.is(check.stdout, '');
    const again = await cli(['stamp', '-c', config, '-'], first.stdout);
    assert.is(again.code, 0, `a second stamp over stamp's own output: ${again.stderr}`);
    assert.fixture(again.stdout, first.stdout, 'a second stamp changed the output');
    if (c.rng.bool(0.5)) {
      const list = renderDoc(resourceListDoc(docs, configDoc), randomStyle(c.rng), c.rng);
      c.keep('list.yaml', list);
      const fn = await cli(['fn'], list);
      assert.is(fn.code, 0, `fn over an input stamp accepts: ${fn.stderr}`);
      c.keep('fn.yaml', fn.stdout);
      const fnAgain = await cli(['fn'], fn.stdout);
      assert.is(fnAgain.code, 0, `fn over its own output: ${fnAgain.stderr}`);
      // fn adds what it did as results: compare the items, and nothing may be stamped again.
      const read = (text: string): { items: unknown; results?: Array<{ tags: { code: string } }> } => parseDocument(text).toJS({ maxAliasCount: -1 });
      assert.equal(read(fnAgain.stdout).items, read(fn.stdout).items, 'a second fn changed the items');
      assert.not.ok(read(fnAgain.stdout).results?.some((r) => r.tags.code === 'STAMPED'), 'a second fn stamped again');
    }
  });
  // The generator must reach stamping, and stamps must be written, or the property says nothing.
  assert.ok(accepted >= perCases(60), `only ${accepted} inputs were accepted`);
  assert.ok(changed >= perCases(40), `only ${changed} accepted inputs were stamped`);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
