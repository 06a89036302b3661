// SECURITY.md "Bounded work" (#12): every input under the input limit ends — a result or one named error —
// within 2 × the time the yaml library needs to parse the same bytes (measured in the same run, see
// support.ts), in under 1 GiB; and the operator's caps on references per target and live reads per run hold,
// and cannot be set by a repository. The issue's sizes run under CI; elsewhere a fifth of them (a run slower
// than linear still misses the bound at a fifth: 16,000 keys scanned quadratically are 256M steps).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';
import { assertFailsClosed, assertWithinBaseline, cleanup, requireBundle, runMeasured, tempDir } from '../support/hostile.ts';
import { asResourceList, deployment, secret, stampsIn, stream } from '../support/objects.ts';
import { sized } from '../support/sizes.ts';

test.before(requireBundle);
test.after(cleanup);

const DB = secret('db', '  password: cGFzcw==');
const KEYS = sized(80_000, 16_000);
const LINES = sized(40_000, 8_000);
const NAMES = sized(1_150_000, 230_000);
const SELECTOR_BYTES = sized(1_000_000, 200_000);
const REQUIREMENTS = sized(250_000, 50_000);
const n = (x: number): string => x.toLocaleString('en-US');

/** A ConfigMap of `n` keys; the first value carries an anchor, and `alias` makes every other value `*a`. */
function anchoredMap(n: number, opts: { alias?: boolean; duplicateLast?: boolean } = {}): string {
  const lines = ['  k0: &a v0'];
  for (let i = 1; i < n; i++) lines.push(`  k${i}: ${opts.alias ? '*a' : `v${i}`}`);
  if (opts.duplicateLast) lines.push('  k1: again');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${lines.join('\n')}\n`;
}

/** A Deployment using Secret db whose rollstamp.dev/secrets names `n` Secrets. */
function manyNames(n: number): string {
  const names = Array.from({ length: n }, (_, i) => `s${i}`).join(',');
  return deployment('web', { secret: 'db' }).replace('    rollstamp.dev/enabled: "true"\n', `    rollstamp.dev/enabled: "true"\n    rollstamp.dev/secrets: "${names}"\n`);
}

function inFile(text: string, name = 'input.yaml'): string {
  const dir = tempDir('bounded');
  writeFileSync(join(dir, name), text);
  return dir;
}

test(`${n(KEYS)} keys with one anchor: stamped within 2 × the yaml library (#12)`, () => {
  const text = stream([DB, anchoredMap(KEYS), deployment('web', { secret: 'db' })]);
  const dir = inFile(text);
  const r = assertWithinBaseline(() => runMeasured(['stamp', 'input.yaml'], { cwd: dir }), text, 'anchored map');
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 1, 'the Deployment is stamped');
  assert.ok(r.stdout.includes(`  k${KEYS - 1}: v${KEYS - 1}\n`), 'the ConfigMap passes through');
});

test(`${n(KEYS)} aliases of one anchor in an unrelated ConfigMap: passed through within 2 × the yaml library (#12)`, () => {
  const text = stream([DB, anchoredMap(KEYS, { alias: true }), deployment('web', { secret: 'db' })]);
  const dir = inFile(text);
  const r = assertWithinBaseline(() => runMeasured(['stamp', 'input.yaml'], { cwd: dir }), text, 'aliases');
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 1);
});

test(`a duplicate key after ${n(KEYS)} anchored keys is found, with its line, within 2 × the yaml library (#12)`, () => {
  const text = stream([DB, anchoredMap(KEYS, { duplicateLast: true }), deployment('web', { secret: 'db' })]);
  const dir = inFile(text);
  const r = assertWithinBaseline(() => runMeasured(['stamp', 'input.yaml'], { cwd: dir }), text, 'duplicate key');
  assertFailsClosed(r, 'duplicate key');
  const line = text.split('\n').indexOf('  k1: again') + 1;
  assert.ok(r.stderr.includes(`duplicate key at line ${line}, column 3`), r.stderr);
});

test(`${n(KEYS)} keys with one anchor in a ResourceList item: stamped by fn within 2 × the yaml library (#12)`, () => {
  const text = asResourceList([DB, anchoredMap(KEYS), deployment('web', { secret: 'db' })]);
  const r = assertWithinBaseline(() => runMeasured(['fn'], { stdin: text }), text, 'anchored item');
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 1, 'the Deployment is stamped');
});

/** A ConfigMap `lines` whose value `text` is a quoted scalar of `n` lines, each with a trailing space and, double-quoted, an escape. */
function multiLineQuoted(n: number, quote: '"' | "'"): string {
  const body = Array.from({ length: n }, (_, i) => `    line ${i}${quote === '"' ? ' \\\\' : " ''"} of the file `);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lines\ndata:\n  text: ${quote}first\n${body.join('\n')}${quote}\n`;
}

for (const quote of ['"', "'"] as const) {
  test(`a ${quote === '"' ? 'double' : 'single'}-quoted scalar of ${n(LINES)} lines: stamped within 2 × the yaml library, as the yaml library reads it (#26)`, () => {
    const text = stream([DB, multiLineQuoted(LINES, quote), deployment('web', { secret: 'db', configMap: 'lines' })]);
    const dir = inFile(text);
    const r = assertWithinBaseline(() => runMeasured(['stamp', 'input.yaml'], { cwd: dir }), text, 'multi-line quoted scalar');
    assert.is(r.code, 0, r.stderr.slice(0, 300));
    const full = runMeasured(['stamp', 'input.yaml'], { cwd: dir, env: { ROLLSTAMP_READER: 'full' } });
    assert.is(full.code, 0, full.stderr.slice(0, 300));
    assert.equal(stampsIn(r.stdout), stampsIn(full.stdout), 'the same value as the yaml library folds it, so the same stamp');
    assert.is(stampsIn(r.stdout).length, 1);
  });
}

test('a duplicate key is still refused in every reader: fn, a --config file, .rollstamp.yaml (#12)', async () => {
  const dup = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: &x "1"\n  a: "2"\n';
  const fn = await runInProcess(['fn'], { stdin: `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ${dup.trimEnd().split('\n').join('\n  ')}\n` });
  assert.is(fn.code, 1);
  assert.ok(fn.stderr.includes('duplicate key'), fn.stderr);
  const dir = inFile('apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  targets: all\n  targets: opted-in\n', 'config.yaml');
  writeFileSync(join(dir, 'input.yaml'), stream([DB, deployment('web', { secret: 'db' })]));
  const cfg = await runInProcess(['stamp', '--config', 'config.yaml', 'input.yaml'], { cwd: dir });
  assert.is(cfg.code, 1);
  assert.is(cfg.stdout, '');
  assert.ok(cfg.stderr.includes('config.yaml'), cfg.stderr);
  writeFileSync(join(dir, '.rollstamp.yaml'), 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  targets: all\n  targets: opted-in\n');
  const gen = await runInProcess(['generate'], { cwd: dir });
  assert.ok(gen.code !== 0, gen.stderr);
  assert.is(gen.stdout, '');
  assert.ok(gen.stderr.includes('.rollstamp.yaml'), gen.stderr);
});

test(`${n(NAMES)} names in rollstamp.dev/secrets: one error naming the workload and the cap, within 2 × the yaml library (#12)`, () => {
  const text = stream([DB, manyNames(NAMES)]);
  const dir = inFile(text);
  const r = assertWithinBaseline(() => runMeasured(['stamp', 'input.yaml'], { cwd: dir }), text, 'many names');
  assertFailsClosed(r, 'many names');
  assert.ok(r.stderr.includes('apps/v1/Deployment/default/web') || r.stderr.includes('Deployment/web'), r.stderr);
  assert.ok(r.stderr.includes('more than 1000') && r.stderr.includes('ROLLSTAMP_MAX_REFERENCES'), r.stderr);
});

test(`${n(NAMES)} names under live reads: refused before any request is made (#12)`, () => {
  const text = stream([DB, manyNames(NAMES)]);
  const dir = inFile(text);
  // A kubeconfig whose server nobody listens on: a request would fail with a connection error instead.
  writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:9"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n');
  const r = runMeasured(['stamp', '--live', 'always', '--kubeconfig', 'kubeconfig', 'input.yaml'], { cwd: dir });
  assertFailsClosed(r, 'live names');
  assert.ok(r.stderr.includes('ROLLSTAMP_MAX_REFERENCES'), r.stderr);
});

test('ROLLSTAMP_MAX_REFERENCES: a workload at the cap is stamped, one over it is refused naming it (#12)', async () => {
  const text = stream([DB, manyNames(2)]); // db from envFrom + s0, s1 = 3 references
  const at = await runInProcess(['stamp', '-'], { stdin: text, env: { ROLLSTAMP_MAX_REFERENCES: '3' } });
  assert.is(at.code, 0, at.stderr);
  const over = await runInProcess(['stamp', '-'], { stdin: text, env: { ROLLSTAMP_MAX_REFERENCES: '2' } });
  assert.is(over.code, 1);
  assert.is(over.stdout, '');
  assert.ok(over.stderr.includes('Deployment') && over.stderr.includes('web') && over.stderr.includes('more than 2'), over.stderr);
  const bad = await runInProcess(['stamp', '-'], { stdin: text, env: { ROLLSTAMP_MAX_REFERENCES: 'lots' } });
  assert.is(bad.code, 2, bad.stderr);
});

test('ROLLSTAMP_MAX_LIVE_READS: more reads than the cap fail before any request, naming the setting (#12)', async () => {
  const text = stream([manyNames(3).replace('secretRef: {name: db}', 'secretRef: {name: s0}')]);
  const dir = inFile(text);
  writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:9"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n');
  const r = await runInProcess(['stamp', '--live', 'missing', '--kubeconfig', 'kubeconfig', 'input.yaml'], { cwd: dir, env: { ROLLSTAMP_MAX_LIVE_READS: '2' } });
  assert.is(r.code, 1);
  assert.is(r.stdout, '');
  assert.ok(r.stderr.includes('3 Secrets and ConfigMaps') && r.stderr.includes('ROLLSTAMP_MAX_LIVE_READS') && r.stderr.includes('nothing was read'), r.stderr);
});

for (const [where, setup] of [
  ['.rollstamp.yaml spec.maxReferences', (dir: string) => writeFileSync(join(dir, '.rollstamp.yaml'), 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  maxReferences: 100000\n')],
  ['.rollstamp.yaml spec.maxLiveReads', (dir: string) => writeFileSync(join(dir, '.rollstamp.yaml'), 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  maxLiveReads: 100000\n')],
  ['ARGOCD_ENV_ROLLSTAMP_MAX_REFERENCES', () => ({ ARGOCD_ENV_ROLLSTAMP_MAX_REFERENCES: '100000' })],
  ['ARGOCD_ENV_ROLLSTAMP_MAX_LIVE_READS', () => ({ ARGOCD_ENV_ROLLSTAMP_MAX_LIVE_READS: '100000' })],
  ['parameter max-references', () => ({ ARGOCD_APP_PARAMETERS: '[{"name":"max-references","string":"100000"}]' })],
] as const) {
  test(`generate: the caps are operator-only, refused from ${where} (#12)`, async () => {
    const dir = inFile(stream([DB, deployment('web', { secret: 'db' })]), 'app.yaml');
    const env = (setup(dir) ?? {}) as Record<string, string>;
    const r = await runInProcess(['generate'], { cwd: dir, env });
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stdout, '');
    assert.ok(r.stderr.includes('operator-only'), r.stderr);
  });
}

test(`.rollstamp.yaml of ${n(KEYS)} settings: refused within 2 × the yaml library (#12)`, () => {
  const lines = Array.from({ length: KEYS }, (_, i) => `  k${i}: v${i}`);
  const config = `apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n${lines.join('\n')}\n`;
  const dir = inFile(stream([DB, deployment('web', { secret: 'db' })]), 'app.yaml');
  writeFileSync(join(dir, '.rollstamp.yaml'), config);
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir }), config, '.rollstamp.yaml of many keys');
  assert.is(r.code, 2, r.stderr.slice(0, 300));
  assert.is(r.stdout, '');
  assert.ok(r.stderr.includes('.rollstamp.yaml') && r.stderr.includes('unknown setting'), r.stderr.slice(0, 300));
});

test(`.rollstamp.yaml with a selector of ${n(SELECTOR_BYTES)} bytes: read within 2 × the yaml library (#12)`, () => {
  const config = `apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  selector: ${'a'.repeat(SELECTOR_BYTES)}\n`;
  const dir = inFile(stream([DB, deployment('web', { secret: 'db' })]), 'app.yaml');
  writeFileSync(join(dir, '.rollstamp.yaml'), config);
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir }), config, 'long selector');
  assert.is(r.code, 0, r.stderr.slice(0, 300));
  assert.is(stampsIn(r.stdout).length, 1, 'the opted-in Deployment is stamped');
});

test(`.rollstamp.yaml with a selector of ${n(REQUIREMENTS)} requirements: refused within 2 × the yaml library, naming the limit (#12)`, () => {
  const config = `apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  selector: "${'a=b,'.repeat(REQUIREMENTS)}a=b"\n`;
  const dir = inFile(stream([DB, deployment('web', { secret: 'db' })]), 'app.yaml');
  writeFileSync(join(dir, '.rollstamp.yaml'), config);
  const r = assertWithinBaseline(() => runMeasured(['generate'], { cwd: dir }), config, 'selector of many terms');
  assert.ok(r.code !== 0 && r.stdout === '', r.stderr.slice(0, 300));
  assert.ok(r.stderr.includes('more than 100 requirements'), r.stderr.slice(0, 300));
});

test.run();
