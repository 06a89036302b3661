// SECURITY.md "--enable-helm" (#21), against the real kubectl kustomize and helm: no repository code runs in
// the sidecar. kustomize hands `helmGlobals.configHome` to helm as its homes, so a repository could bring a
// getter plugin and name its scheme in `helmCharts[].repo`; rollstamp refuses configHome wherever kustomize
// reads it, allows only https://, oci:// and local charts, and gives helm empty plugin and repository
// directories of its own. The same chart rules hold for Chart.yaml dependencies before `helm dependency build`.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { helmHomes } from '../../plugin/argocd/helm-homes.ts';
import { obtainHelm } from '../support/helm.ts';
import { removeTempDirs, requireBundle, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { assertFailsClosed, generateIn, repository, type CmpApp, type Files } from '../support/cmp.ts';

const helm = obtainHelm();
const withTools = helm.ok ? testNeeding('kubectl') : testNeedingTool('helm', helm);
const withHelm = testNeedingTool('helm', helm);
const helmBin = helm.ok ? [dirname(helm.path)] : [];
const ENABLE_HELM = { ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: '--enable-helm' };

test.before.each(requireBundle);
test.after(removeTempDirs);

/**
 * A `helm` for kustomize's helm inflator: kustomize 5.5 (kubectl 1.32) requires `helm version` to say Helm 3,
 * and the test's helm is Helm 4. Everything else is the real helm; with `record`, each call's `helm env`
 * (what helm resolved its directories to) is appended there first.
 */
function helmForKustomize(record?: string): string {
  const bin = tempDir('helm-shim');
  const real = helm.ok ? helm.path : 'helm';
  const log = record ? `'${real}' env >> '${record}'\n` : '';
  writeFileSync(join(bin, 'helm'), `#!/bin/sh\nif [ "$1" = version ]; then echo v3.99.0; exit 0; fi\n${log}exec '${real}' "$@"\n`, { mode: 0o755 });
  return bin;
}

/** A helm getter plugin for scheme `evil` in `dir` that writes `canary` when helm runs it. */
function getterPlugin(dir: string, canary: string): Files {
  return {
    [`${dir}/plugin.yaml`]: 'name: evil\nversion: 0.1.0\nusage: evil\ndescription: evil\ndownloaders:\n- command: get.sh\n  protocols: [evil]\n',
    [`${dir}/get.sh`]: `#!/bin/sh\necho ran > '${canary}'\nexit 1\n`,
  };
}

/** A repository whose kustomization (at `apps/web`) brings its own helm home with that plugin. */
function maliciousRepo(canary: string, extra: Files = {}): string {
  const repo = repository({
    'apps/web/kustomization.yaml': 'helmGlobals:\n  configHome: home\nhelmCharts:\n- name: x\n  version: 0.1.0\n  releaseName: x\n  repo: evil://charts.example.com\n',
    ...getterPlugin('apps/web/home/.data/plugins/evil', canary),
    ...extra,
  });
  chmodSync(join(repo, 'apps/web/home/.data/plugins/evil/get.sh'), 0o755);
  return repo;
}

const canaryFile = (): string => join(tempDir('canary'), 'ran');

withTools('a kustomization whose helmGlobals.configHome brings a getter plugin is refused, and the plugin never runs (#21)', () => {
  const canary = canaryFile();
  const r = generateIn(maliciousRepo(canary), { path: 'apps/web', binDirs: [helmForKustomize()], sidecarEnv: ENABLE_HELM });
  assertFailsClosed(r, { code: 1, message: /^rollstamp: error: apps\/web\/kustomization\.yaml: helmGlobals\.configHome is refused: helm would run plugins/m });
  assert.not.ok(existsSync(canary), 'the repository\'s getter ran');
});

withTools('configHome is refused in a base, a component, a generator file and the deprecated helmChartInflationGenerator field (#21)', () => {
  const canary = canaryFile();
  const plugin = getterPlugin('home/.data/plugins/evil', canary);
  const cases: [string, Files, RegExp][] = [
    ['a base', { 'apps/web/kustomization.yaml': 'resources: [../base]\n', 'apps/base/kustomization.yaml': 'helmGlobals: {configHome: ../../home}\nhelmCharts:\n- {name: x, repo: "evil://h"}\n' }, /apps\/base\/kustomization\.yaml: helmGlobals\.configHome is refused/],
    ['a component', { 'apps/web/kustomization.yaml': 'components: [../comp]\n', 'apps/comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nhelmGlobals: {configHome: ../../home}\n' }, /apps\/comp\/kustomization\.yaml: helmGlobals\.configHome is refused/],
    ['a generator file', { 'apps/web/kustomization.yaml': 'generators: [gen.yaml]\n', 'apps/web/gen.yaml': 'apiVersion: builtin\nkind: HelmChartInflationGenerator\nmetadata: {name: x}\nname: x\nrepo: evil://h\nconfigHome: ../../home\n' }, /apps\/web\/gen\.yaml: HelmChartInflationGenerator configHome is refused/],
    ['a generator kustomization', { 'apps/web/kustomization.yaml': 'generators: [../gen]\n', 'apps/gen/kustomization.yaml': 'resources: [helm.yaml]\n', 'apps/gen/helm.yaml': 'apiVersion: builtin\nkind: HelmChartInflationGenerator\nmetadata: {name: x}\nname: x\nrepo: evil://h\nconfigHome: ../../home\n' }, /apps\/gen\/helm\.yaml: HelmChartInflationGenerator configHome is refused/],
    ['helmChartInflationGenerator', { 'apps/web/kustomization.yaml': 'helmChartInflationGenerator:\n- {chartName: x, chartRepoUrl: "evil://h", helmHome: ../../home}\n' }, /apps\/web\/kustomization\.yaml: helmChartInflationGenerator\[0\]\.helmHome is refused/],
  ];
  for (const [what, files, message] of cases) {
    const r = generateIn(repository({ ...plugin, ...files }), { path: 'apps/web', binDirs: [helmForKustomize()], sidecarEnv: ENABLE_HELM });
    assertFailsClosed(r, { code: 1, message });
    assert.not.ok(existsSync(canary), `${what}: the repository's getter ran`);
  }
});

withTools('kustomize\'s helm gets the sidecar\'s empty plugin and repository directories: the same repository, with configHome let through, runs no plugin (#21)', async () => {
  // Straight through kubectl, without rollstamp's refusal: first as it was (the plugin runs: the test can
  // fail), then with the environment rollstamp gives kustomize.
  const canary = canaryFile();
  const app = join(maliciousRepo(canary), 'apps/web');
  const shim = join(helmForKustomize(), 'helm');
  const kustomize = (env: Record<string, string>): void => {
    spawnSync('kubectl', ['kustomize', '--enable-helm', '--helm-command', shim, '.'], { cwd: app, env: { ...process.env, HOME: tempDir('home'), ...env }, encoding: 'utf8', timeout: 60_000 });
  };
  kustomize({});
  assert.ok(existsSync(canary), 'control: without rollstamp\'s directories, the repository\'s getter runs');
  const again = canaryFile();
  const app2 = join(maliciousRepo(again), 'apps/web');
  const homes = await helmHomes('kustomize');
  try {
    spawnSync('kubectl', ['kustomize', '--enable-helm', '--helm-command', shim, '.'], { cwd: app2, env: { ...process.env, HOME: tempDir('home'), ...homes.env }, encoding: 'utf8', timeout: 60_000 });
  } finally {
    await homes.remove();
  }
  assert.not.ok(existsSync(again), 'with rollstamp\'s directories, the repository\'s getter ran');
});

const CHART: Files = {
  'apps/web/kustomization.yaml': 'helmCharts:\n- name: shop\n  releaseName: shop\n  namespace: shop\n',
  'apps/web/charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
  'apps/web/charts/shop/values.yaml': 'level: info\n',
  'apps/web/charts/shop/templates/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {LEVEL: info}\n',
  'apps/web/charts/shop/templates/web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - {name: web, image: nginx, envFrom: [{configMapRef: {name: settings}}]}\n',
};

withTools('a local chart in helmCharts still renders and is stamped, with every helm directory outside the repository and private to the render (#21)', () => {
  const record = join(tempDir('helm-env'), 'env.txt');
  const r = generateIn(repository(CHART), { path: 'apps/web', binDirs: [helmForKustomize(record)], sidecarEnv: ENABLE_HELM });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /name: settings/);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"/);
  const env = readFileSync(record, 'utf8');
  for (const name of ['HELM_PLUGINS', 'HELM_REPOSITORY_CONFIG', 'HELM_REPOSITORY_CACHE', 'HELM_REGISTRY_CONFIG', 'HELM_CONTENT_CACHE']) {
    const values = [...env.matchAll(new RegExp(`^${name}="([^"]*)"$`, 'gm'))].map((m) => m[1]!);
    assert.ok(values.length > 0, `helm env printed ${name}`);
    for (const v of values) {
      assert.ok(/\/rollstamp-helm-[^/]+\//.test(v), `${name}=${v} is rollstamp's own directory`);
      assert.not.ok(v.includes('_cmp_server'), `${name}=${v} is not in the checkout`);
      assert.not.ok(existsSync(v), `${name}=${v} was removed after the render`);
    }
  }
});

withTools('helmCharts[].repo: a plugin scheme is refused; http:// only with ROLLSTAMP_HELM_ALLOW_HTTP=true; https:// and oci:// reach helm (#21)', () => {
  const repo = (url: string): string => repository({ 'apps/web/kustomization.yaml': `helmCharts:\n- {name: x, version: 0.1.0, repo: "${url}"}\n` });
  const app = (extra: Record<string, string> = {}): CmpApp => ({ path: 'apps/web', binDirs: [helmForKustomize()], sidecarEnv: { ...ENABLE_HELM, ...extra } });
  assertFailsClosed(generateIn(repo('evil://h/charts'), app()), { code: 1, message: /^rollstamp: error: apps\/web\/kustomization\.yaml: helmCharts\[0\]\.repo: chart repository refused: scheme evil:\/\/ \(accepted: https:\/\/, oci:\/\/ and local charts\)$/m });
  assertFailsClosed(generateIn(repo('@stable'), app()), { code: 1, message: /helmCharts\[0\]\.repo: chart repository refused: a repository alias/ });
  assertFailsClosed(generateIn(repo('http://127.0.0.1:9/charts'), app()), { code: 1, message: /helmCharts\[0\]\.repo: a plain http:\/\/ chart repository is refused .*ROLLSTAMP_HELM_ALLOW_HTTP=true/ });
  // Allowed (or https/oci): the check passes and kustomize's helm fails to reach the closed port instead.
  for (const [url, extra] of [['http://127.0.0.1:9/charts', { ROLLSTAMP_HELM_ALLOW_HTTP: 'true' }], ['https://127.0.0.1:9/charts', {}], ['oci://127.0.0.1:9/charts', {}]] as const) {
    assertFailsClosed(generateIn(repo(url), app(extra)), { code: 1, message: /^rollstamp: error: rendering kustomize in apps\/web: kubectl failed/m });
  }
  assertFailsClosed(generateIn(repo('http://127.0.0.1:9/charts'), { ...app(), env: { ROLLSTAMP_HELM_ALLOW_HTTP: 'true' } }), { code: 2, message: /helmAllowHttp cannot be set by the repository: it is operator-only/ });
});

// ---- helm renderer: Chart.yaml dependencies before `helm dependency build` ----

const SHOP: Files = {
  'charts/shop/values.yaml': 'level: info\n',
  'charts/shop/templates/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {LEVEL: {{ .Values.level | quote }}}\n',
};
const withDependency = (repository: string): Files => ({
  ...SHOP,
  'charts/shop/Chart.yaml': `apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: "${repository}"\n`,
});
const helmApp = (extra: Record<string, string> = {}): CmpApp => ({ path: 'charts/shop', binDirs: helmBin, sidecarEnv: extra });

withHelm('Chart.yaml dependencies: only https://, oci:// and file:// in the repository; http:// only with ROLLSTAMP_HELM_ALLOW_HTTP=true (#21)', () => {
  const cases: [string, RegExp][] = [
    ['evil://h/charts', /^rollstamp: error: charts\/shop\/Chart\.yaml: dependencies\[0\]\.repository: chart repository refused: scheme evil:\/\//m],
    ['@stable', /dependencies\[0\]\.repository: chart repository refused: a repository alias/],
    ['alias:stable', /dependencies\[0\]\.repository: chart repository refused: a repository alias/],
    ['http://127.0.0.1:9/charts', /dependencies\[0\]\.repository: a plain http:\/\/ chart repository is refused/],
  ];
  for (const [url, message] of cases) assertFailsClosed(generateIn(repository(withDependency(url)), helmApp()), { code: 1, message });
  const allowed = generateIn(repository(withDependency('http://127.0.0.1:9/charts')), helmApp({ ROLLSTAMP_HELM_ALLOW_HTTP: 'true' }));
  assertFailsClosed(allowed, { code: 1, message: /a chart dependency could not be fetched \(helm dependency build/ });
  const requirements = repository({ ...SHOP, 'charts/shop/Chart.yaml': 'apiVersion: v1\nname: shop\nversion: 0.1.0\n', 'charts/shop/requirements.yaml': 'dependencies:\n- {name: lib, version: 0.1.0, repository: "evil://h"}\n' });
  assertFailsClosed(generateIn(requirements, helmApp()), { code: 1, message: /charts\/shop\/requirements\.yaml: dependencies\[0\]\.repository: chart repository refused/ });
});

withHelm('a Chart.lock or requirements.lock that is a symlink is refused before helm dependency build, even one inside the repository (CVE-2025-53547) (#21)', () => {
  for (const lock of ['Chart.lock', 'requirements.lock']) {
    const repo = repository({ ...withDependency('file://../lib'), 'charts/lib/Chart.yaml': 'apiVersion: v2\nname: lib\nversion: 0.1.0\n', 'charts/target.txt': 'keep\n' });
    symlinkSync('../target.txt', join(repo, 'charts/shop', lock));
    assertFailsClosed(generateIn(repo, helmApp()), { code: 1, message: new RegExp(`^rollstamp: error: charts/shop/${lock.replace('.', '\\.')}: a symlink; refused \\(helm dependency build would write through it\\)$`, 'm') });
    assert.is(readFileSync(join(repo, 'charts/target.txt'), 'utf8'), 'keep\n', 'the link\'s target is untouched');
  }
});

withHelm('a file:// dependency outside the repository is refused before helm dependency build, its path not printed (#21)', () => {
  const outside = tempDir('other-tenant');
  mkdirSync(join(outside, 'lib'));
  writeFileSync(join(outside, 'lib/Chart.yaml'), 'apiVersion: v2\nname: lib\nversion: 0.1.0\n');
  const r = generateIn(repository(withDependency(`file://${outside}/lib`)), helmApp());
  assertFailsClosed(r, { code: 1, message: /^rollstamp: error: charts\/shop\/Chart\.yaml: dependency \(an absolute file:\/\/ path\): outside the repository; refused$/m, canaries: [outside] });
});

test.run();
