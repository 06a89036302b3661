// Property 4: stamping is idempotent — `rollstamp stamp` over its own output prints it again byte for byte —
// and `--check` exits 0 on stamped output and 3 on input whose targets are unstamped (or stale). Also: stamping
// changes nothing but the stamps (the data of every document is the same, with the hash added to targets only).
import { parseAllDocuments, Parser } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clone, genBundle, HASH_KEY, isTarget, modelHash, workloadId } from '../support/property-generate.ts';
import { cli, forAll, perCases, render, stamp, stampPathOf } from '../support/property-harness.ts';
import { utf8Entry } from '../support/property-generate.ts';
import { randomFormat, randomStyle } from '../support/property-render.ts';

test('P4a: stamping twice equals stamping once, byte for byte', async () => {
  await forAll('P4a', 0x9e4a0001, async (c) => {
    const { bundle } = genBundle(c.rng);
    const input = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const once = (await stamp(input, 'first run')).run.stdout;
    c.keep('once.yaml', once);
    const twice = (await stamp(once, 'second run')).run.stdout;
    c.keep('twice.yaml', twice);
    assert.fixture(twice, once, `stamping the output again changed it (${c.label})`);
  });
});

test('P4b: --check exits 0 on stamped output and 3 on input with unstamped or stale targets', async () => {
  let stale = 0;
  await forAll('P4b', 0x9e4a0002, async (c) => {
    const { bundle } = genBundle(c.rng);
    const input = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const once = (await stamp(input, 'stamp')).run.stdout;
    c.keep('once.yaml', once);
    const onStamped = await cli(['stamp', '--check', '-'], once);
    assert.is(onStamped.code, 0, `--check on stamped output: ${onStamped.stderr} (${c.label})`);
    assert.is(onStamped.stdout, '', `--check prints nothing on stdout (${c.label})`);
    // Input: some target has no stamp or a wrong one (the generator adds stale stamps to some workloads).
    const needsStamp = bundle.workloads.some((w) => isTarget(w) && w.stamp !== modelHash(bundle, w));
    const onInput = await cli(['stamp', '--check', '-'], input);
    assert.is(onInput.code, needsStamp ? 3 : 0, `--check on the input: ${onInput.stderr} (${c.label})`);
    assert.is(onInput.stdout, '', `--check prints nothing on stdout (${c.label})`);
    // Every target unstamped: always exit 3.
    const bare = clone(bundle);
    for (const w of bare.workloads) delete w.stamp;
    const unstamped = render(bare, randomStyle(c.rng), c.rng);
    c.keep('unstamped.yaml', unstamped);
    const onBare = await cli(['stamp', '--check', '-'], unstamped);
    assert.is(onBare.code, 3, `--check on unstamped input with targets: ${onBare.stderr} (${c.label})`);
    if (bundle.workloads.some((w) => isTarget(w) && w.stamp !== undefined)) stale++;
  });
  assert.ok(stale >= perCases(20), `only ${stale} cases had a stale stamp`);
});

/** Drops the stamp (and the annotations and metadata maps it may have created) from a parsed target. */
function unstamp(doc: unknown): unknown {
  if (!(doc instanceof Map)) return doc;
  // The annotations map of the kind's stamp site (an operator row's too, #24), and the map that holds it.
  const path = stampPathOf(String(doc.get('apiVersion') ?? ''), String(doc.get('kind')));
  if (!path) return doc;
  let template: unknown = doc;
  for (const k of path.slice(0, -2)) template = template instanceof Map ? template.get(k) : undefined;
  if (!(template instanceof Map)) return doc;
  const meta = template.get(path.at(-2)!);
  const ann = meta instanceof Map ? meta.get(path.at(-1)!) : undefined;
  if (!(ann instanceof Map)) return doc;
  ann.delete(HASH_KEY);
  if (ann.size === 0) meta.delete(path.at(-1)!);
  if (meta.size === 0) template.delete(path.at(-2)!);
  return doc;
}

test('P4c: stamping changes nothing but the stamp of targets', async () => {
  await forAll('P4c', 0x9e4a0003, async (c) => {
    const { bundle } = genBundle(c.rng);
    const bare = clone(bundle);
    for (const w of bare.workloads) if (isTarget(w)) delete w.stamp;
    const input = render(bare, randomStyle(c.rng), c.rng, 0.3);
    c.keep('input.yaml', input);
    const out = (await stamp(input, 'stamp')).run.stdout;
    c.keep('output.yaml', out);
    const parse = (t: string): unknown[] =>
      parseAllDocuments(t, { version: '1.2' }).map((d) => unstamp((d as { toJS(o: object): unknown }).toJS({ mapAsMap: true })));
    const inDocs = parse(input);
    const outDocs = parse(out);
    assert.is(outDocs.length, inDocs.length, `number of documents (${c.label})`);
    assert.equal(outDocs, inDocs, `stamp changed data other than the stamp (${c.label})`);
    // Stamps were added to targets, with the model's value.
    const stamped = new Map(bundle.workloads.filter(isTarget).map((w) => [workloadId(w), modelHash(bundle, w)]));
    for (const [id, hash] of stamped) assert.ok(out.includes(`"${hash}"`), `${id} stamped with ${hash} (${c.label})`);
  });
});

/**
 * The YAML version of each document of a stream, as the YAML 1.2 spec reads it: its own `%YAML` directive, else
 * 1.2 (directives are not shared between documents). `duplicate` when a document has two `%YAML` directives.
 */
function versionsPerDoc(text: string): string[] {
  const out: string[] = [];
  let pending: string[] = [];
  for (const tok of new Parser().parse(text.replace(/^\ufeff/, ''))) {
    if (tok.type === 'directive' && tok.source.startsWith('%YAML')) pending.push(tok.source.trim().split(/\s+/)[1] ?? '?');
    else if (tok.type === 'document') {
      out.push(pending.length === 0 ? '1.2' : pending.length === 1 ? pending[0]! : 'duplicate');
      pending = [];
    }
  }
  return out;
}

// Found a bug in 6f7c6fc (fixed in 2144bf6, which also refuses %YAML 1.1): a stamped document printed again from
// its syntax tree (`rollstamp.dev/hash:` with no value, an explicit `? key`) lost, duplicated or invented `%YAML`
// directives — invalid YAML after a `%YAML 1.1` header, a duplicate `%YAML 1.2`, or the next document's
// directive dropped (its `0o17` then read as a number). Refusing %YAML 1.1 cleanly is accepted.
test('P4d: with `...` markers and %YAML directives, stamping keeps every document valid, with its YAML version and data, twice over', async () => {
  let directives = 0;
  let refused = 0;
  await forAll('P4d', 0x9e4a0004, async (c) => {
    const { bundle } = genBundle(c.rng);
    const b = clone(bundle);
    // Strings that YAML 1.1 reads as strings and YAML 1.2 as integers (written plain after `%YAML 1.1`).
    for (const s of b.sources) if (s.cls === 'ConfigMap') s.entries.push(utf8Entry('file-mode', c.rng.pick(['0o644', '0o17', '0o755'])));
    // Targets whose stamp is `rollstamp.dev/hash:` with no value: these are printed again from the tree.
    for (const w of b.workloads) if (isTarget(w) && c.rng.bool(0.5)) w.stamp = null;
    const style = { ...randomFormat(c.rng), docEnd: c.rng.bool(0.7), yaml11: c.rng.bool(0.3), exotic: c.rng.pick([0.2, 0.4]), json: 0, flowDoc: 0 };
    const input = render(b, style, c.rng);
    c.keep('input.yaml', input);
    const before = versionsPerDoc(input);
    if (before.some((v) => v !== '1.2') || /^%YAML 1\.2/m.test(input)) directives++;
    const run = await cli(['stamp', '-'], input);
    if (run.code !== 0 && before.some((v) => v !== '1.2')) {
      // Refusing YAML 1.1 is a fair answer; it must be a clean one.
      assert.is(run.code, 1, `stamp on %YAML 1.1 input: ${run.stderr} (${c.label})`);
      assert.is(run.stdout, '', `stamp printed output after refusing the input (${c.label})`);
      assert.is(run.stderr.trim().split('\n').length, 1, `one line on stderr (${c.label})`);
      refused++;
      return;
    }
    assert.is(run.code, 0, `stamp: ${run.stderr} (${c.label})`);
    const once = run.stdout;
    c.keep('once.yaml', once);
    const errors = parseAllDocuments(once).flatMap((d) => d.errors.map((e) => e.message.split('\n')[0]));
    assert.equal(errors, [], `stamp printed invalid YAML (${c.label})`);
    assert.equal(versionsPerDoc(once), before, `stamp changed the YAML version of documents, per their %YAML directives (${c.label})`);
    const parse = (t: string): unknown[] =>
      parseAllDocuments(t, { version: '1.2' }).map((d) => unstamp((d as { toJS(o: object): unknown }).toJS({ mapAsMap: true })));
    assert.equal(parse(once), parse(input), `stamp changed data other than the stamp (${c.label})`);
    const again = await cli(['stamp', '-'], once);
    assert.is(again.code, 0, `stamping the output again failed: ${again.stderr} (${c.label})`);
    assert.fixture(again.stdout, once, `stamping the output again changed it (${c.label})`);
  });
  assert.ok(directives >= perCases(60), `only ${directives} cases had a %YAML directive`);
  assert.ok(refused <= directives, 'refusals');
});

test.run();
