// The trust boundary of `rollstamp generate` (#12): the repository (.rollstamp.yaml as a RollstampConfig or
// a ConfigMap, plugin env ARGOCD_ENV_ROLLSTAMP_*, parameters ARGOCD_APP_PARAMETERS) can set app-level
// settings only. Every operator-only setting, in every form and spelling, is refused with exit 2 and one
// line naming the setting and where it came from; an ambiguous settings file is refused, never guessed.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess, type CliRun } from '../support/run-cli.ts';

const base = mkdtempSync(join(tmpdir(), 'rollstamp-app-settings-'));
test.after(() => rmSync(base, { recursive: true, force: true }));

const KEY_CANARY = 'CANARY-known-key-5d1e';
const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  template:
    spec:
      containers:
      - name: web
        envFrom:
        - secretRef: {name: db}
---
apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {password: CANARY-db-9f2c}
`;

let n = 0;
/** A repository with the app in `apps/web` and, optionally, its `.rollstamp.yaml`. */
function app(settingsFile?: string, name = '.rollstamp.yaml'): string {
  const root = join(base, `repo-${n++}`);
  const dir = join(root, 'apps', 'web');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'web.yaml'), APP);
  writeFileSync(join(root, 'known.key'), `${KEY_CANARY}\n`);
  if (settingsFile !== undefined) writeFileSync(join(dir, name), settingsFile);
  return dir;
}

function generate(dir: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runInProcess(['generate'], {
    cwd: dir,
    env: { ARGOCD_APP_NAME: 'web', ARGOCD_APP_NAMESPACE: 'shop', ARGOCD_APP_SOURCE_PATH: 'apps/web', ...env },
  });
}

function assertRefused(r: CliRun, message: RegExp, what: string): void {
  assert.is(r.code, 2, `${what}: exit 2\n${r.stderr}`);
  assert.is(r.stdout, '', `${what}: nothing on stdout`);
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `${what}: one line`);
  assert.match(r.stderr, message, `${what}: ${r.stderr}`);
  assert.not.ok(r.stderr.includes(KEY_CANARY), `${what}: no key bytes`);
}

/**
 * Every operator-only setting: its config name, its env spelling, its parameter spelling. Written out here on
 * purpose rather than read from OPERATOR_ONLY: a name dropped from the code's list must fail this test.
 */
const OPERATOR_SETTINGS = [
  'hashKey',
  'hashKeyFile',
  'maxInputBytes',
  'renderTimeoutSeconds',
  'rendererStderr',
  'reader',
  'kustomizeBuildOptions',
  'helmAllowHttp',
  'live',
  'liveNamespaces',
  'namespaces',
  'kubeconfig',
  'kubeContext',
  'context',
  'liveTimeoutSeconds',
  'liveDeadlineSeconds',
  'maxReferences',
  'maxLiveReads',
];
const snake = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
const kebab = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

interface Form {
  name: string;
  /** The repository and environment that try to set `setting`; `where` is how the error names the place. */
  make(setting: string): { dir: string; env?: Record<string, string>; where: string };
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FORMS: Form[] = [
  { name: 'RollstampConfig spec', make: (s) => ({ dir: app(`apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  ${s}: known.key\n`), where: `.rollstamp.yaml spec.${s}` }) },
  { name: 'RollstampConfig spec, kebab-case', make: (s) => ({ dir: app(`apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  ${kebab(s)}: known.key\n`), where: `.rollstamp.yaml spec.${kebab(s)}` }) },
  { name: 'ConfigMap data', make: (s) => ({ dir: app(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: rollstamp}\ndata:\n  ${s}: known.key\n`), where: `.rollstamp.yaml data.${s}` }) },
  { name: 'ConfigMap data in .rollstamp.yml', make: (s) => ({ dir: app(`apiVersion: v1\nkind: ConfigMap\ndata:\n  ${s}: known.key\n`, '.rollstamp.yml'), where: `.rollstamp.yml data.${s}` }) },
  { name: 'plugin env', make: (s) => ({ dir: app(), env: { [`ARGOCD_ENV_ROLLSTAMP_${snake(s)}`]: 'known.key' }, where: `ARGOCD_ENV_ROLLSTAMP_${snake(s)}` }) },
  { name: 'parameter', make: (s) => ({ dir: app(), env: { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: kebab(s), string: 'known.key' }]) }, where: `parameter ${kebab(s)}` }) },
  { name: 'parameter, camelCase', make: (s) => ({ dir: app(), env: { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: s, string: 'known.key' }]) }, where: `parameter ${s}` }) },
  { name: 'parameter, array', make: (s) => ({ dir: app(), env: { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: kebab(s), array: ['known.key'] }]) }, where: `parameter ${kebab(s)}` }) },
];

test('every operator-only setting × every repository form and spelling: exit 2 naming the setting and where it came from (#12)', async () => {
  let cases = 0;
  for (const setting of OPERATOR_SETTINGS) {
    for (const form of FORMS) {
      const { dir, env, where } = form.make(setting);
      const r = await generate(dir, env);
      assertRefused(r, new RegExp(`^rollstamp: error: ${esc(where)}: ${setting} cannot be set by the repository: it is operator-only`), `${setting} via ${form.name}`);
      cases++;
    }
  }
  assert.is(cases, OPERATOR_SETTINGS.length * FORMS.length);
});

test('defaultNamespace from any repository form is refused: the namespace is the destination namespace (#12)', async () => {
  for (const form of FORMS) {
    const { dir, env, where } = form.make('defaultNamespace');
    assertRefused(await generate(dir, env), new RegExp(`^rollstamp: error: ${esc(where)}: defaultNamespace cannot be set by the repository: the namespace is the Application's destination namespace`), form.name);
  }
});

test('a ConfigMap whose spec is absent-but-present or not a map cannot smuggle settings under data: ambiguous, exit 2 (#12)', async () => {
  for (const spec of ['0', '{}', '[]', '""', 'false', 'null', '{targets: all}']) {
    const file = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nspec: ${spec}\ndata:\n  hashKeyFile: ../../known.key\n  live: always\n  defaultNamespace: other\n`;
    assertRefused(await generate(app(file)), /^rollstamp: error: \.rollstamp\.yaml: a ConfigMap holds its settings under data only; remove spec \(ambiguous\)$/m, `spec: ${spec}`);
  }
  const both = 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec: {targets: all}\ndata: {hashKeyFile: ../../known.key}\n';
  assertRefused(await generate(app(both)), /^rollstamp: error: \.rollstamp\.yaml: a RollstampConfig holds its settings under spec only; remove data \(ambiguous\)$/m, 'RollstampConfig with data');
});

test('settings that are not a map, and an unknown kind or apiVersion, are errors (#12)', async () => {
  for (const spec of ['0', '[]', '""', 'false', '[hashKeyFile]', 'known.key']) {
    assertRefused(await generate(app(`apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec: ${spec}\n`)), /^rollstamp: error: \.rollstamp\.yaml: spec: expected a map of settings$/m, `spec: ${spec}`);
    assertRefused(await generate(app(`apiVersion: v1\nkind: ConfigMap\ndata: ${spec}\n`)), /^rollstamp: error: \.rollstamp\.yaml: data: expected a map of settings$/m, `data: ${spec}`);
  }
  for (const head of ['apiVersion: v2\nkind: ConfigMap', 'apiVersion: rollstamp.dev/v1\nkind: RollstampConfig', 'apiVersion: v1\nkind: Secret', 'kind: ConfigMap', '']) {
    assertRefused(await generate(app(`${head}\ndata: {hashKeyFile: ../../known.key}\n`)), /^rollstamp: error: \.rollstamp\.yaml: functionConfig must be a RollstampConfig/m, head || 'no kind');
  }
  assertRefused(await generate(app('- hashKeyFile\n')), /^rollstamp: error: \.rollstamp\.yaml: functionConfig must be a RollstampConfig/m, 'a list');
});

test('a bad value for an app setting is a bad setting: exit 2 from every form, as a bad flag value is for stamp', async () => {
  const message = /must be one of opted-in, all/;
  assertRefused(await generate(app('apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec: {targets: bogus}\n')), message, 'spec');
  assertRefused(await generate(app('apiVersion: v1\nkind: ConfigMap\ndata: {targets: bogus}\n')), message, 'data');
  assertRefused(await generate(app(), { ARGOCD_ENV_ROLLSTAMP_TARGETS: 'bogus' }), message, 'plugin env');
  assertRefused(await generate(app(), { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'targets', string: 'bogus' }]) }), message, 'parameter');
  assertRefused(await generate(app(), { ARGOCD_ENV_ROLLSTAMP_ALLOW_EMPTY: 'yes' }), /allowEmpty|allow-empty|ALLOW_EMPTY/, 'allow-empty');
});

test('both .rollstamp.yaml and .rollstamp.yml is ambiguous (#12)', async () => {
  const dir = app('apiVersion: v1\nkind: ConfigMap\ndata: {targets: all}\n');
  writeFileSync(join(dir, '.rollstamp.yml'), 'apiVersion: v1\nkind: ConfigMap\ndata: {targets: opted-in}\n');
  assertRefused(await generate(dir), /^rollstamp: error: \.rollstamp\.yaml and \.rollstamp\.yml: both exist/, 'both files');
});

test('app settings pass in both file forms, and the ConfigMap form reads the same settings as the RollstampConfig form', async () => {
  const spec = await generate(app('apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  annotationKey: example.com/h\n  skipCrds: true\n'));
  const data = await generate(app('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\ndata:\n  annotationKey: example.com/h\n  skipCrds: "true"\n'));
  assert.is(spec.code, 0, spec.stderr);
  assert.match(spec.stdout, /example\.com\/h: "sha256:[0-9a-f]{64}"/);
  assert.is(data.stdout, spec.stdout);
});

test('kinds from the parameter (a YAML list, or one row per array entry) and from plugin env declare a kind as .rollstamp.yaml does (#38)', async () => {
  const webapp = 'apiVersion: example.com/v1\nkind: WebApp\nmetadata: {name: front, annotations: {rollstamp.dev/enabled: "true"}}\nspec:\n  podTemplate:\n    spec:\n      containers:\n      - name: web\n        envFrom: [{secretRef: {name: db}}]\n';
  const row = { apiVersion: 'example.com/*', kind: 'WebApp', podSpecPaths: ['spec.podTemplate.spec'], stampAnnotationsPath: 'spec.podTemplate.metadata.annotations' };
  const yamlList = '- apiVersion: example.com/*\n  kind: WebApp\n  podSpecPaths: [spec.podTemplate.spec]\n  stampAnnotationsPath: spec.podTemplate.metadata.annotations\n';
  const withWebApp = (settings?: string): string => {
    const dir = app(settings);
    writeFileSync(join(dir, 'front.yaml'), webapp);
    return dir;
  };
  const stampOfFront = (r: CliRun): string | undefined => /kind: WebApp[\s\S]*?rollstamp\.dev\/hash: "([^"]+)"/.exec(r.stdout)?.[1];
  const fromFile = await generate(withWebApp(`apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  kinds:\n${yamlList.replace(/^/gm, '    ').trimEnd()}\n`));
  assert.is(fromFile.code, 0, fromFile.stderr);
  const want = stampOfFront(fromFile);
  assert.match(want ?? '', /^sha256:/);
  const forms: Record<string, Record<string, string>> = {
    'parameter, string (YAML)': { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', string: yamlList }]) },
    'parameter, string (JSON)': { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', string: JSON.stringify([row]) }]) },
    'parameter, array': { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', array: [JSON.stringify(row)] }]) },
    'plugin env': { ARGOCD_ENV_ROLLSTAMP_KINDS: yamlList },
  };
  for (const [form, env] of Object.entries(forms)) {
    const r = await generate(withWebApp(), env);
    assert.is(r.code, 0, `${form}: ${r.stderr}`);
    assert.is(stampOfFront(r), want, form);
  }
  assertRefused(await generate(withWebApp(), { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', string: '[{' }]) }), /parameter kinds: not a YAML or JSON list of kinds/, 'bad YAML');
  assertRefused(await generate(withWebApp(), { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', array: [JSON.stringify({ ...row, stampAnnotationsPath: 'status.x' })] }]) }), /kinds\[0\]\.stampAnnotationsPath/, 'a row the schema refuses');
});

test('.rollstamp.yaml counts against the input limit and must be a regular file inside the repository (#12)', async () => {
  const padded = `apiVersion: v1\nkind: ConfigMap\ndata: {targets: all}\n# ${'x'.repeat(600)}\n`;
  const alone = await generate(app(padded), { ROLLSTAMP_MAX_INPUT_BYTES: '500' });
  assert.is(alone.code, 1);
  assert.match(alone.stderr, /^rollstamp: error: \.rollstamp\.yaml: input exceeds the limit of 500 bytes/);
  // The render (APP is ~300 bytes) fits alone, but not with the settings file.
  const limit = String(APP.length + 100);
  const ok = await generate(app('apiVersion: v1\nkind: ConfigMap\ndata: {targets: all}\n'), { ROLLSTAMP_MAX_INPUT_BYTES: limit });
  assert.is(ok.code, 0, ok.stderr);
  const together = await generate(app(`apiVersion: v1\nkind: ConfigMap\ndata: {targets: all}\n# ${'x'.repeat(150)}\n`), { ROLLSTAMP_MAX_INPUT_BYTES: limit });
  assert.is(together.code, 1, together.stderr);
  assert.match(together.stderr, /exceeds the limit/);
  assert.is(together.stdout, '');

  const outside = join(base, 'outside.yaml');
  writeFileSync(outside, `apiVersion: v1\nkind: ConfigMap\ndata: {annotationKey: ${KEY_CANARY}}\n`);
  const linked = app();
  symlinkSync(outside, join(linked, '.rollstamp.yaml'));
  const r = await generate(linked);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^rollstamp: error: \.rollstamp\.yaml: symlink points outside the repository; refused\n$/);
  const dirInstead = app();
  mkdirSync(join(dirInstead, '.rollstamp.yaml'));
  assert.match((await generate(dirInstead)).stderr, /^rollstamp: error: \.rollstamp\.yaml: not a regular file\n$/);
});

test.run();
