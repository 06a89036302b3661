// SECURITY.md "A repository may declare workload kinds" (#33): `spec.kinds` tried by a repository that wants a
// run to take minutes — 20,000 `group/*` entries, one entry listing a path 100,000 times over 10,000 objects, a
// stamp path 100 keys deep — through generate's .rollstamp.yaml, stamp's --config and fn's functionConfig.
// Each ends with one line naming the setting that bounds it, within 2 × the yaml library on the same bytes
// (support.ts), or, within the bounds, is read in time linear in the input. The issue's sizes run under CI;
// elsewhere a fifth of them (the quadratic check cost 30 s at full size, 1.2 s at a fifth), so the suite stays
// quick on a shared machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertFailsClosed, assertWithinBaseline, cleanup, requireBundle, runMeasured, tempDir } from '../support/hostile.ts';
import { asResourceList, stampsIn, stream } from '../support/objects.ts';
import { FULL_SIZES } from '../support/sizes.ts';

test.before(requireBundle);
test.after(cleanup);

/** Entries of the many-kinds cases; paths of the one-entry case and the objects it is read over. */
const KINDS = FULL_SIZES ? 20_000 : 4_000;
const PATHS = FULL_SIZES ? 100_000 : 20_000;
const PATH_OBJECTS = FULL_SIZES ? 10_000 : 2_000;
/** The key-work case: the operator's budget and the objects that spend it with 32 paths each. */
const KEY_WORK = FULL_SIZES ? 500_000 : 100_000;
const WORK_OBJECTS = FULL_SIZES ? 20_000 : 4_000;
const WORK_ENV = { ROLLSTAMP_MAX_KEY_WORK: String(KEY_WORK) };

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

test(`${KINDS} group/* entries in .rollstamp.yaml (20,000: 2.9 MB): one line naming ROLLSTAMP_MAX_KINDS, within 2 × the yaml library (#33)`, () => {
  const config = manyKinds(KINDS, '*');
  const dir = app(config, apps(1));
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir, env: GENERATE_ENV }), config, `${KINDS} kinds`);
  assert.is(r.code, 2, r.stderr.slice(0, 300));
  assert.is(r.stdout, '');
  assert.is(r.stderr, `rollstamp: error: .rollstamp.yaml: spec.kinds: ${KINDS} entries; at most 100 (ROLLSTAMP_MAX_KINDS)\n`);
});

test(`${KINDS} group/* entries the operator allows (ROLLSTAMP_MAX_KINDS): read within 2 × the yaml library, as fast as group/v1 (#33)`, () => {
  // Each entry was checked against every earlier one: 29–33 s of CPU for 20,000 group/*, 3 s for /v1.
  const config = manyKinds(KINDS, '*');
  const dir = app(config, apps(1));
  const env = { ...GENERATE_ENV, ROLLSTAMP_MAX_KINDS: String(KINDS), ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '600' };
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir, env }), config, `${KINDS} kinds allowed`);
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 0, 'no App row among the declared ones: nothing stamped');
});

test(`one entry listing its pod spec path ${PATHS} times (100,000: 2 MB) over ${PATH_OBJECTS} objects: one line naming ROLLSTAMP_MAX_KIND_PATHS, within 2 × the yaml library (#33)`, () => {
  const config = manyPaths(PATHS);
  const input = stream(apps(PATH_OBJECTS));
  const dir = tempDir('paths');
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'input.yaml'), input);
  const r = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir }), config + input, `${PATHS} paths`);
  assertFailsClosed(r, `${PATHS} paths`);
  assert.is(r.stderr, `rollstamp: error: config.yaml: spec.kinds[0]: ${PATHS} paths (podSpecPaths, secretNamePaths, configMapNamePaths); at most 32 (ROLLSTAMP_MAX_KIND_PATHS)\n`);
});

test(`32 paths (the cap) over ${WORK_OBJECTS} objects, more path reads than ROLLSTAMP_MAX_KEY_WORK=${KEY_WORK}: one line naming it, within 2 × the yaml library (#33)`, () => {
  const config = manyPaths(32);
  const input = stream(apps(WORK_OBJECTS));
  const dir = tempDir('paths');
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'input.yaml'), input);
  const r = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir, env: WORK_ENV }), config + input, 'path reads');
  assertFailsClosed(r, 'path reads');
  assert.match(r.stderr, new RegExp(`example\\.com/v1/App/shop/a\\d+: more than ${KEY_WORK} keys and declared paths to read: each path of config\\.yaml: spec\\.kinds\\[0\\] \\(32\\) counts once in every object it is read in; the limit is ROLLSTAMP_MAX_KEY_WORK\n$`));
  const raised = assertWithinBaseline(() => runMeasured(['stamp', '-c', 'config.yaml', 'input.yaml'], { cwd: dir, env: { ROLLSTAMP_MAX_KEY_WORK: String(2 * KEY_WORK) } }), config + input, 'raised key work');
  assert.is(raised.code, 0, raised.stderr.slice(0, 300));
  assert.is(stampsIn(raised.stdout).length, WORK_OBJECTS, 'within the raised budget every App is stamped');
});

test('fn: the same bounds as stamp and generate — kinds, paths per kind and the work budget (#33)', () => {
  const cases: Array<[string, string, string[], RegExp]> = [
    ['kinds', manyKinds(KINDS, '*'), apps(1), new RegExp(`^rollstamp: error: functionConfig: spec\\.kinds: ${KINDS} entries; at most 100 \\(ROLLSTAMP_MAX_KINDS\\)\n$`)],
    ['paths', manyPaths(PATHS), apps(1), new RegExp(`^rollstamp: error: functionConfig: spec\\.kinds\\[0\\]: ${PATHS} paths .*ROLLSTAMP_MAX_KIND_PATHS\\)\n$`)],
    ['path reads', manyPaths(32), apps(WORK_OBJECTS), /the limit is ROLLSTAMP_MAX_KEY_WORK\n$/],
  ];
  for (const [what, config, docs, expected] of cases) {
    const list = asResourceList(docs, `\n${config.trimEnd().split('\n').map((l) => `  ${l}`).join('\n')}`);
    const r = assertWithinBaseline(() => runMeasured(['fn'], { stdin: list, env: WORK_ENV }), list, `fn: ${what}`);
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
