// Property 10 (#21): `rollstamp fn` output integrity, as P4c holds it for `stamp`. The items out equal the
// items in — same number, same order, same data — except the stamp of each target; the ResourceList's other
// fields come back as they went in, and `results` is the only field added. Generated bundles in every
// rendering style (JSON too), with unstamped and stale targets, through both readers.
import { parseDocument } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleDocs, genBundle, HASH_KEY, isTarget, modelHash, resourceListDoc } from '../support/property-generate.ts';
import { cli, forAll, perCases, stampPathOf } from '../support/property-harness.ts';
import { randomStyle, renderStream } from '../support/property-render.ts';

type Data = Map<unknown, unknown>;

/** The item with its stamp taken out (and the maps the stamp may have created), at its kind's stamp site. */
function unstamp(item: unknown): { item: unknown; stamp: unknown } {
  if (!(item instanceof Map)) return { item, stamp: undefined };
  // The annotations map of the kind's stamp site (an operator row's too, #24), and the map that holds it.
  const path = stampPathOf(String(item.get('apiVersion') ?? ''), String(item.get('kind')));
  if (!path) return { item, stamp: undefined };
  let holder: unknown = item;
  for (const k of path.slice(0, -2)) holder = holder instanceof Map ? holder.get(k) : undefined;
  const meta = holder instanceof Map ? holder.get(path.at(-2)!) : undefined;
  const ann = meta instanceof Map ? meta.get(path.at(-1)!) : undefined;
  if (!(ann instanceof Map) || !ann.has(HASH_KEY)) return { item, stamp: undefined };
  const stamp = ann.get(HASH_KEY);
  ann.delete(HASH_KEY);
  if (ann.size === 0) (meta as Data).delete(path.at(-1)!);
  if ((meta as Data).size === 0) (holder as Data).delete(path.at(-2)!);
  return { item, stamp };
}

function readList(text: string, what: string): Data {
  const doc = parseDocument(text, { version: '1.2', uniqueKeys: true });
  assert.equal(doc.errors.map((e) => e.code), [], `${what} parses`);
  return doc.toJS({ mapAsMap: true }) as Data;
}

test('P10: fn changes nothing but the stamps: the items out equal the items in, in order, less the stamp of each target (#21)', async () => {
  let json = 0;
  let stale = 0;
  await forAll('P10', 0x9e10a001, async (c) => {
    const { bundle } = genBundle(c.rng);
    const style = { ...randomStyle(c.rng), shuffleDocs: false, json: c.rng.bool(0.15) ? 1 : 0, flowDoc: 0 };
    if (style.json) json++;
    if (bundle.workloads.some((w) => isTarget(w) && w.stamp !== undefined)) stale++;
    const input = renderStream([resourceListDoc(bundleDocs(bundle, { rng: c.rng.fork(), wrapBase64: 0.3 }))], style, c.rng.fork());
    c.keep('resource-list.yaml', input);
    const run = await cli(['fn'], input);
    c.keep('fn-output.yaml', run.stdout);
    assert.is(run.code, 0, `fn: ${run.stderr} (${c.label})`);
    const before = readList(input, 'the input');
    const after = readList(run.stdout, 'the output');
    // Every field but items and results is as it was; results is the only one added.
    const fields = (m: Data): unknown[] => [...m.keys()].filter((k) => k !== 'items' && k !== 'results');
    assert.equal(fields(after), fields(before), `the ResourceList's fields (${c.label})`);
    for (const k of fields(before)) assert.equal(after.get(k), before.get(k), `${String(k)} (${c.label})`);
    const inStamped = (before.get('items') as unknown[]).map(unstamp);
    const outStamped = (after.get('items') as unknown[]).map(unstamp);
    assert.is(outStamped.length, inStamped.length, `number of items (${c.label})`);
    assert.equal(outStamped.map((o) => o.item), inStamped.map((i) => i.item), `fn changed data other than the stamp (${c.label})`);
    // Every target carries the model's hash; a stamp that changed is one of those; others stay as they came.
    const want = bundle.workloads.filter(isTarget).map((w) => modelHash(bundle, w));
    const got = outStamped.map((o) => o.stamp);
    for (const hash of want) assert.ok(got.includes(hash), `a target stamped ${hash} (${c.label})`);
    outStamped.forEach((o, i) => {
      if (o.stamp !== inStamped[i]!.stamp) assert.ok(want.includes(o.stamp as string), `item ${i}: a stamp changed to one no target has (${c.label})`);
    });
  });
  assert.ok(json >= perCases(10), `only ${json} cases sent JSON to fn`);
  assert.ok(stale >= perCases(10), `only ${stale} cases had a stale stamp`);
});

test.run();
