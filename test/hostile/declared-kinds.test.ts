// SECURITY.md "A repository may declare workload kinds" (#33): `spec.kinds` tried by a repository that wants a
// run to take minutes — 20,000 `group/*` entries, one entry listing a path 100,000 times over 10,000 objects, a
// stamp path 100 keys deep — through generate's .rollstamp.yaml, stamp's --config and fn's functionConfig.
// Each ends with one line naming the setting that bounds it, within 2 × the yaml library on the same bytes
// (support.ts), or, within the bounds, is read in time linear in the input.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { asResourceList, assertFailsClosed, assertWithinBaseline, cleanup, requireBundle, runMeasured, stampsIn, stream, tempDir } from './support.ts';

test.before(requireBundle);
test.after(cleanup);

const CONFIG_HEAD = 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  targets: all\n  kinds:\n';

/** `n` entries of distinct kinds in one group each, for `version` (`*`: any version). */
function manyKinds(n: number, version: string): string {
  const lines = Array.from({ length: n }, (_, i) => `  - {apiVersion: "g${i}.example.com/${version}", kind: K${i}, podSpecPaths: [spec.template.spec], stampAnnotationsPath: spec.template.metadata.annotations}`);
  return `${CONFIG_HEAD}${lines.join('\n')}\n`;
}

/** One entry for example.com App whose podSpecPaths lists spec.template.spec `paths` times. */
function manyPaths(paths: number): string {
  const list = Array.from({ length: paths }, () => 'spec.template.spec').join(', ');
  return `${CONFIG_HEAD}  - {apiVersion: "example.com/v1", kind: App, podSpecPaths: [${list}], stampAnnotationsPath: spec.template.metadata.annotations}\n`;
}

/** `n` objects of example.com App, each with a pod spec. */
function apps(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `apiVersion: example.com/v1\nkind: App\nmetadata: {name: a${i}, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n`);
}

/** An app directory with `config` as its .rollstamp.yaml and `docs` as app.yaml (what generate renders). */
function app(config: string, docs: readonly string[]): string {
  const dir = tempDir('kinds');
  writeFileSync(join(dir, '.rollstamp.yaml'), config);
  writeFileSync(join(dir, 'app.yaml'), stream(docs));
  return dir;
}

const GENERATE_ENV = { ARGOCD_APP_NAME: 'shop', ARGOCD_APP_NAMESPACE: 'shop' };

test('20,000 group/* entries in .rollstamp.yaml (2.9 MB): one line naming ROLLSTAMP_MAX_KINDS, within 2 × the yaml library (#33)', () => {
  const config = manyKinds(20_000, '*');
  const dir = app(config, apps(1));
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir, env: GENERATE_ENV }), config, '20,000 kinds');
  assert.is(r.code, 2, r.stderr.slice(0, 300));
  assert.is(r.stdout, '');
  assert.is(r.stderr, 'rollstamp: error: .rollstamp.yaml: spec.kinds: 20000 entries; at most 100 (ROLLSTAMP_MAX_KINDS)\n');
});

test('20,000 group/* entries the operator allows (ROLLSTAMP_MAX_KINDS=20000): read within 2 × the yaml library, as fast as group/v1 (#33)', () => {
  // Each entry was checked against every earlier one: 29–33 s of CPU for group/*, 3 s for /v1.
  const config = manyKinds(20_000, '*');
  const dir = app(config, apps(1));
  const env = { ...GENERATE_ENV, ROLLSTAMP_MAX_KINDS: '20000', ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '600' };
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir, env }), config, '20,000 kinds allowed');
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 0, 'no App row among the declared ones: nothing stamped');
});

test('one entry listing its pod spec path 100,000 times (2 MB) over 10,000 objects: one line naming ROLLSTAMP_MAX_KIND_PATHS, within 2 × the yaml library (#33)', () => {
  const config = manyPaths(100_000);
  const input = stream(apps(10_000));
  const dir = tempDir('paths');
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'input.yaml'), input);
  const r = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir }), config + input, '100,000 paths');
  assertFailsClosed(r, '100,000 paths');
  assert.is(r.stderr, 'rollstamp: error: config.yaml: spec.kinds[0]: 100000 paths (podSpecPaths, secretNamePaths, configMapNamePaths); at most 32 (ROLLSTAMP_MAX_KIND_PATHS)\n');
});

test('32 paths (the cap) over 20,000 objects (640,000 path reads): one line naming ROLLSTAMP_MAX_KEY_WORK, within 2 × the yaml library (#33)', () => {
  const config = manyPaths(32);
  const input = stream(apps(20_000));
  const dir = tempDir('paths');
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'input.yaml'), input);
  const r = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir }), config + input, '640,000 path reads');
  assertFailsClosed(r, '640,000 path reads');
  assert.match(r.stderr, /example\.com\/v1\/App\/shop\/a\d+: more than 500000 keys and declared paths to read: each path of config\.yaml: spec\.kinds\[0\] \(32\) counts once in every object it is read in; the limit is ROLLSTAMP_MAX_KEY_WORK\n$/);
  const raised = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir, env: { ROLLSTAMP_MAX_KEY_WORK: '1000000' } }), config + input, 'raised key work');
  assert.is(raised.code, 0, raised.stderr.slice(0, 300));
  assert.is(stampsIn(raised.stdout).length, 20_000, 'within the raised budget every App is stamped');
});

test('fn: the same bounds as stamp and generate — kinds, paths per kind and the work budget (#33)', () => {
  const cases: Array<[string, string, string[], RegExp]> = [
    ['20,000 kinds', manyKinds(20_000, '*'), apps(1), /^rollstamp: error: functionConfig: spec\.kinds: 20000 entries; at most 100 \(ROLLSTAMP_MAX_KINDS\)\n$/],
    ['100,000 paths', manyPaths(100_000), apps(1), /^rollstamp: error: functionConfig: spec\.kinds\[0\]: 100000 paths .*ROLLSTAMP_MAX_KIND_PATHS\)\n$/],
    ['640,000 path reads', manyPaths(32), apps(20_000), /the limit is ROLLSTAMP_MAX_KEY_WORK\n$/],
  ];
  for (const [what, config, docs, expected] of cases) {
    const list = asResourceList(docs, `\n${config.trimEnd().split('\n').map((l) => `  ${l}`).join('\n')}`);
    const r = assertWithinBaseline(() => runMeasured(['fn'], { stdin: list }), list, `fn: ${what}`);
    assertFailsClosed(r, `fn: ${what}`);
    assert.match(r.stderr, expected, what);
  }
});

test('a stamp path 100 keys deep is refused by the schema, so no run writes what rollstamp would not read back (#33)', () => {
  // Was: exit 0 with output that `stamp --check` refused ("nesting deeper than 100 levels"); from 255 keys an internal error.
  for (const depth of [17, 100, 255]) {
    const path = `spec.${Array.from({ length: depth - 2 }, (_, i) => `k${i}`).join('.')}.annotations`;
    const config = `${CONFIG_HEAD}  - {apiVersion: "example.com/v1", kind: App, podSpecPaths: [spec.template.spec], stampAnnotationsPath: ${path}}\n`;
    const dir = tempDir('deep');
    writeFileSync(join(dir, 'config.yaml'), config);
    writeFileSync(join(dir, 'input.yaml'), stream(apps(1)));
    const r = runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir });
    assertFailsClosed(r, `${depth} keys`);
    assert.match(r.stderr, /spec\.kinds\[0\]\.stampAnnotationsPath: must be a dot path of at most 16 field names/, `${depth} keys`);
  }
});

test.run();
