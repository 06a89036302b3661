// Helm as Argo CD renders it (#12), against the real helm (test/support/helm.ts): `generate` prints the same
// objects as `helm template --include-crds` (a chart's crds/ reach the output, or an Application switched
// to the plugin with pruning on would delete its CRDs), `skip-crds` leaves them out as Argo CD's skipCrds
// does, missing dependencies are built, and the operator's kustomize build options reach kustomize.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { removeTempDirs, requireBundle, run, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { KUBE_API_VERSIONS } from '../support/argocd-request.ts';
import { assertFailsClosed, generateIn, repository, type CmpApp, type Files } from '../support/cmp.ts';

const helm = obtainHelm();
const withHelm = testNeedingTool('helm', helm);
const withKubectl = testNeeding('kubectl');
const helmBin = helm.ok ? [dirname(helm.path)] : [];
/** The destination's KUBE_API_VERSIONS, as the request sends them. */
const API_VERSIONS = KUBE_API_VERSIONS.split(',');

test.before.each(requireBundle);
test.after(removeTempDirs);

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        envFrom: [{configMapRef: {name: settings}}]
`;
const CHART: Files = {
  'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
  'charts/shop/values.yaml': 'level: info\n',
  'charts/shop/crds/widgets.yaml': CRD,
  'charts/shop/templates/web.yaml': DEPLOYMENT,
  'charts/shop/templates/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {LEVEL: {{ .Values.level | quote }}}\n',
  'charts/shop/templates/widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: gadget}\nspec: {size: 3}\n',
};

const app = (extra: Partial<CmpApp> = {}): CmpApp => ({ path: 'charts/shop', binDirs: helmBin, ...extra });

/** The objects of a stream as sorted `apiVersion kind namespace/name` lines. */
function objectSet(stream: string): string[] {
  return parseAllDocuments(stream)
    .map((d) => d.toJS() as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } | null)
    .filter((o) => o !== null)
    .map((o) => `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)
    .sort();
}

/** `helm template shop . --namespace shop …` run directly in a copy of the repository's chart. */
function helmTemplate(repo: string, extra: readonly string[], before?: readonly string[]): string {
  const copy = join(tempDir('helm-direct'), 'repo');
  cpSync(repo, copy, { recursive: true });
  const home = tempDir('helm-home');
  const env = { PATH: process.env.PATH ?? '', HOME: home, HELM_CACHE_HOME: join(home, 'c'), HELM_CONFIG_HOME: join(home, 'g'), HELM_DATA_HOME: join(home, 'd') };
  const cwd = join(copy, 'charts/shop');
  if (before) assert.is(run(helm.ok ? helm.path : 'helm', before, { cwd, env }).code, 0, `helm ${before.join(' ')}`);
  const args = ['template', 'shop', '.', '--namespace', 'shop', '--kube-version', '1.32.4', ...API_VERSIONS.flatMap((v) => ['--api-versions', v]), ...extra];
  const r = run(helm.ok ? helm.path : 'helm', args, { cwd, env });
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
}

withHelm('a chart\'s crds/ reach the output: the same object set as helm template --include-crds, stamped (#12)', () => {
  const repo = repository(CHART);
  const r = generateIn(repo, app());
  assert.is(r.code, 0, r.stderr);
  const expected = objectSet(helmTemplate(repo, ['--include-crds']));
  assert.ok(expected.includes('apiextensions.k8s.io/v1 CustomResourceDefinition /widgets.example.com'), 'the control has the CRD');
  assert.equal(objectSet(r.stdout), expected);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"/);
});

withHelm('skip-crds (parameter, plugin env or .rollstamp.yaml) leaves crds/ out: the same object set as helm template without --include-crds (#12)', () => {
  const repo = repository(CHART);
  const expected = objectSet(helmTemplate(repo, []));
  assert.not.ok(expected.some((o) => o.includes('CustomResourceDefinition')));
  const fromFile = repository({ ...CHART, 'charts/shop/.rollstamp.yaml': 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec: {skipCrds: true}\n' });
  const runs = [
    generateIn(repo, app({ params: [{ name: 'skip-crds', string: 'true' }] })),
    generateIn(repo, app({ env: { ROLLSTAMP_SKIP_CRDS: 'true' } })),
    generateIn(fromFile, app()),
  ];
  for (const r of runs) {
    assert.is(r.code, 0, r.stderr);
    assert.equal(objectSet(r.stdout), expected);
  }
  const off = generateIn(repo, app({ params: [{ name: 'skip-crds', string: 'false' }] }));
  assert.ok(objectSet(off.stdout).some((o) => o.includes('CustomResourceDefinition')), 'skip-crds false keeps them');
});

withHelm('a file:// dependency missing from charts/ is built before the render, as Argo CD\'s repo-server does (#12)', () => {
  const repo = repository({
    ...CHART,
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: file://../../libs/lib\n',
    'libs/lib/Chart.yaml': 'apiVersion: v2\nname: lib\nversion: 0.1.0\n',
    'libs/lib/templates/lib.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-lib}\ndata: {a: b}\n',
  });
  const r = generateIn(repo, app());
  assert.is(r.code, 0, r.stderr);
  const expected = objectSet(helmTemplate(repo, ['--include-crds'], ['dependency', 'build']));
  assert.ok(expected.includes('v1 ConfigMap /from-lib'), 'the control has the dependency\'s object');
  assert.equal(objectSet(r.stdout), expected);
});

withHelm('a dependency that cannot be fetched fails closed with one line (an unreachable repository) (#12)', () => {
  const repo = repository({
    ...CHART,
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: redis\n  version: 1.2.3\n  repository: https://127.0.0.1:9/charts\n',
  });
  const started = Date.now();
  assertFailsClosed(generateIn(repo, app()), {
    code: 1,
    message: /^rollstamp: error: rendering helm in charts\/shop: a chart dependency could not be fetched \(helm dependency build: helm failed \(exit 1\)\)$/m,
  });
  assert.ok(Date.now() - started < 45_000, 'within the render timeout');
  const gone = repository({
    ...CHART,
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: file://../../libs/missing\n',
  });
  assertFailsClosed(generateIn(gone, app()), { code: 1, message: /a chart dependency could not be fetched/ });
});

/**
 * A `helm` for kustomize's helm inflator. kustomize 5.5 (kubectl 1.32) runs `helm version -c --short` and
 * requires Helm 3, while the test's helm is Helm 4, whose `template` reads these charts the same: `version`
 * answers a Helm 3 version, everything else is the real helm. The direct kubectl run uses the same shim.
 */
function helmForKustomize(): string {
  const bin = tempDir('helm-shim');
  const real = helm.ok ? helm.path : 'helm';
  writeFileSync(join(bin, 'helm'), `#!/bin/sh\nif [ "$1" = version ]; then echo v3.99.0; exit 0; fi\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return bin;
}

test('ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS reach kustomize as Argo CD passes kustomize.buildOptions, with the helm versions after --enable-helm (#12)', () => {
  const bin = tempDir('fake-kustomize');
  const argsFile = join(bin, 'args.txt');
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nprintf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: c\\n'\n`, { mode: 0o755 });
  const repo = repository({ 'apps/web/kustomization.yaml': 'resources: []\n' });
  const r = generateIn(repo, { path: 'apps/web', binDirs: [bin], sidecarEnv: { ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: ' --enable-helm   --load-restrictor=LoadRestrictionsRootOnly ' } });
  assert.is(r.code, 0, r.stderr);
  assert.equal(readFileSync(argsFile, 'utf8').trim().split('\n'), [
    'build', '.', '--enable-helm', '--load-restrictor=LoadRestrictionsRootOnly', '--helm-kube-version', '1.32.4',
    ...API_VERSIONS.flatMap((v) => ['--helm-api-versions', v]),
  ]);
  const plain = generateIn(repo, { path: 'apps/web', binDirs: [bin] });
  assert.is(plain.code, 0, plain.stderr);
  assert.equal(readFileSync(argsFile, 'utf8').trim().split('\n'), ['build', '.'], 'no options: plain kustomize build');
});

test('ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS that let a kustomization leave the repository or run code are refused before kustomize runs (#12)', () => {
  const bin = tempDir('fake-kustomize');
  const ran = join(bin, 'ran');
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\ntouch '${ran}'\nprintf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: c\\n'\n`, { mode: 0o755 });
  const outside = join(tempDir('sidecar-file'), 'sidecar.key');
  writeFileSync(outside, 'TOPSECRET-sidecar-key\n');
  const repo = repository({ 'apps/k/kustomization.yaml': `configMapGenerator:\n- name: leak\n  files: [${outside}]\n` });
  const cases: [string, RegExp][] = [
    ['--load-restrictor LoadRestrictionsNone', /--load-restrictor LoadRestrictionsNone is refused: it lets a kustomization read files outside the repository/],
    ['--load-restrictor=LoadRestrictionsNone', /--load-restrictor LoadRestrictionsNone is refused/],
    ['--enable-helm --enable-exec', /--enable-exec is refused: it lets a repository run programs/],
    ['--enable-alpha-plugins', /--enable-alpha-plugins is refused/],
    ['--mount type=bind,src=/,dst=/host', /--mount is refused/],
    ['--output /tmp/x', /--output is not a flag rollstamp passes to kustomize \(allowed: --enable-helm/],
    ['--helm-command', /--helm-command needs a value/],
  ];
  for (const [options, message] of cases) {
    const r = generateIn(repo, { path: 'apps/k', binDirs: [bin], sidecarEnv: { ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: options } });
    assertFailsClosed(r, { code: 2, message, canaries: ['TOPSECRET'] });
    assert.match(r.stderr, /ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: /);
  }
  assert.not.ok(existsSync(ran), 'kustomize never ran');
});

const withKubectlAndHelm = helm.ok ? withKubectl : withHelm;
withKubectlAndHelm('ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS=--enable-helm on the sidecar renders a kustomization\'s helmCharts like kubectl kustomize --enable-helm (#12)', () => {
  const files: Files = {
    'apps/web/kustomization.yaml': 'helmCharts:\n- name: shop\n  releaseName: shop\n  namespace: shop\n  includeCRDs: true\n',
  };
  for (const [path, text] of Object.entries(CHART)) files[path.replace('charts/shop/', 'apps/web/charts/shop/')] = text;
  const repo = repository(files);
  const shim = helmForKustomize();
  const without = generateIn(repo, { path: 'apps/web', binDirs: [shim] });
  assertFailsClosed(without, { code: 1, message: /^rollstamp: error: rendering kustomize in apps\/web: kubectl failed/ });
  const r = generateIn(repo, { path: 'apps/web', binDirs: [shim], sidecarEnv: { ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: '--enable-helm' } });
  assert.is(r.code, 0, r.stderr);
  const direct = run('kubectl', ['kustomize', '--enable-helm', '--helm-command', join(shim, 'helm'), join(repo, 'apps/web')], { env: { ...process.env, HOME: tempDir('kubectl-home') } });
  assert.is(direct.code, 0, direct.stderr);
  assert.equal(objectSet(r.stdout), objectSet(direct.stdout));
  assert.ok(objectSet(r.stdout).some((o) => o.includes('CustomResourceDefinition')), 'the chart rendered, CRDs included');
});

test.run();
