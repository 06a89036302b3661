// Property 5: the KRM function (`rollstamp fn`, a ResourceList on stdin) and `rollstamp stamp` (a plain stream)
// give the same hashes for the same bundle, whatever the formatting of either input; `explain --json` reports
// the same hashes too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleDocs, effectiveNs, genBundle, resourceListDoc, type Rng } from '../support/property-generate.ts';
import { cli, forAll, perCases, render, stamp, type Stamps, stampsOfResourceList } from '../support/property-harness.ts';
import { randomStyle, renderStream, ymap, type YMap } from '../support/property-render.ts';

/** A functionConfig that changes nothing (defaults spelled out), or none. */
function neutralConfig(rng: Rng): YMap | undefined {
  switch (rng.int(4)) {
    case 0:
      return ymap(['apiVersion', 'v1'], ['kind', 'ConfigMap'], ['metadata', ymap(['name', 'rollstamp'])], ['data', ymap(['onMissing', 'warn'])]);
    case 1:
      return ymap(
        ['apiVersion', 'rollstamp.dev/v1alpha1'],
        ['kind', 'RollstampConfig'],
        ['metadata', ymap(['name', 'rollstamp'], ['annotations', ymap(['config.kubernetes.io/local-config', 'true'])])],
        ['spec', ymap(['targets', 'opted-in'], ['annotationKey', 'rollstamp.dev/hash'], ['defaultNamespace', 'default'])],
      );
    default:
      return undefined;
  }
}

const sorted = (s: Stamps): Array<[string, string | undefined]> => [...s].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

test('P5: fn and stamp (and explain --json) give the same hashes for the same bundle', async () => {
  let json = 0;
  await forAll('P5', 0x9e5a0001, async (c) => {
    const { bundle } = genBundle(c.rng);
    const stream = render(bundle, randomStyle(c.rng), c.rng, 0.3);
    const style = { ...randomStyle(c.rng), shuffleDocs: false, json: c.rng.bool(0.15) ? 1 : 0, flowDoc: 0 };
    const rl = renderStream([resourceListDoc(bundleDocs(bundle, { rng: c.rng.fork(), wrapBase64: 0.3 }), neutralConfig(c.rng))], style, c.rng.fork());
    if (style.json) json++;
    c.keep('stream.yaml', stream);
    c.keep('resource-list.yaml', rl);
    const viaStamp = (await stamp(stream, 'stamp')).stamps;
    const fn = await cli(['fn'], rl);
    c.keep('fn-output.yaml', fn.stdout);
    assert.is(fn.code, 0, `fn exited ${fn.code}: ${fn.stderr} (${c.label})`);
    const viaFn = stampsOfResourceList(fn.stdout);
    assert.equal(sorted(viaFn), sorted(viaStamp), `fn and stamp disagree (${c.label})`);
    const explain = await cli(['explain', '--json', '-'], stream);
    assert.is(explain.code, 0, `explain exited ${explain.code}: ${explain.stderr} (${c.label})`);
    const report = JSON.parse(explain.stdout) as { targets: Array<{ resourceRef: { kind: string; name: string; namespace?: string }; hash: string }> };
    for (const t of report.targets) {
      const id = `${t.resourceRef.kind}/${effectiveNs(t.resourceRef.namespace)}/${t.resourceRef.name}`;
      assert.is(t.hash, viaStamp.get(id), `explain --json and stamp disagree on ${id} (${c.label})`);
    }
  });
  assert.ok(json >= perCases(10), `only ${json} cases sent JSON to fn`);
});

test.run();
