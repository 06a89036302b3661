// Paths in `rollstamp generate` (#12): ARGOCD_APP_SOURCE_PATH is cleaned as Argo CD cleans it before the
// repository root is derived from it, and no symlink under the app, or under a chart or base it uses, may
// lead helm or kustomize out of the repository. The outside bytes never reach stdout or stderr.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { obtainHelm } from '../support/helm.ts';
import { removeTempDirs, requireBundle, testNeedingTool } from '../support/tools.ts';
import { assertFailsClosed, generateIn, repository, type CmpApp, type Files } from '../support/cmp.ts';

const helm = obtainHelm();
const withHelm = testNeedingTool('helm', helm);
const helmBin = helm.ok ? [dirname(helm.path)] : [];

test.before.each(requireBundle);
test.after(removeTempDirs);

const OTHER_TENANT = 'CANARY-other-tenant-values-41d7';
const SIDECAR_FILE = 'CANARY-sidecar-file-8e02';

const CHART: Files = {
  'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
  'charts/shop/values.yaml': 'greeting: hello\n',
  'charts/shop/templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  greeting: {{ .Values.greeting | quote }}\n  key: {{ .Files.Get "files/key" | quote }}\n',
  'charts/shop/files/.keep': '',
};

/** Another tenant's checkout next to this one in the sidecar's _cmp_server directory, and a sidecar file. */
function neighbours(work: string): void {
  mkdirSync(join(work, '_cmp_server', 'other-tenant'), { recursive: true });
  writeFileSync(join(work, '_cmp_server', 'other-tenant', 'values.yaml'), `greeting: ${OTHER_TENANT}\n`);
  writeFileSync(join(work, '_cmp_server', 'sidecar-file'), `${SIDECAR_FILE}\n`);
}

const chartApp = (path: string, extra: Partial<CmpApp> = {}): CmpApp => ({ path, binDirs: helmBin, ...extra, prepare: (w, c) => { neighbours(w); extra.prepare?.(w, c); } });

test('a source path like x/../charts/shop no longer moves the root up: ../../../other-tenant/values.yaml is refused, never read (#12)', () => {
  const repo = repository(CHART);
  for (const path of ['x/../charts/shop', 'a/b/../../charts/shop', './charts/./shop/']) {
    const r = generateIn(repo, chartApp(path, { params: [{ name: 'values-files', array: ['../../../other-tenant/values.yaml'] }] }));
    assertFailsClosed(r, { code: 2, message: /^rollstamp: error: values file \.\.\/\.\.\/\.\.\/other-tenant\/values\.yaml: outside the repository$/m, canaries: [OTHER_TENANT] });
  }
});

test('a source path that leaves the repository, or does not lead to the working directory, is refused before anything is read (#12)', () => {
  const repo = repository({ 'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n' });
  assert.is(generateIn(repo, { path: 'apps/web' }).code, 0, 'the control renders');
  // argocd-cmp-server refuses such paths itself; rollstamp does not rely on it.
  for (const raw of ['apps/../../apps/web', '/../web', '..', 'apps/web/../../..']) {
    assertFailsClosed(generateIn(repo, { path: 'apps/web', sourcePathEnv: raw, prepare: neighbours }), {
      code: 2,
      message: new RegExp(`^rollstamp: error: ARGOCD_APP_SOURCE_PATH ${JSON.stringify(raw).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} leaves the repository$`, 'm'),
    });
  }
  for (const raw of ['x/apps/web', 'apps/web/extra']) {
    assertFailsClosed(generateIn(repo, { path: 'apps/web', sourcePathEnv: raw }), { code: 2, message: /does not lead from the repository root to the working directory/ });
  }
});

withHelm('./, // and a trailing slash give the same root and render as the plain path (#12)', () => {
  const repo = repository({ ...CHART, 'charts/shop/files/key': 'in-repo-key\n' });
  const plain = generateIn(repo, chartApp('charts/shop'));
  assert.is(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /key: "in-repo-key\\n"/);
  for (const path of ['./charts/shop', 'charts//shop/', '/charts/shop', 'x/../charts/shop']) {
    const r = generateIn(repo, chartApp(path));
    assert.is(r.code, 0, `${path}: ${r.stderr}`);
    assert.is(r.stdout, plain.stdout, path);
  }
});

test('.Files.Get on files/key -> ../../../../sidecar-file (out of the checkout) is refused by name before helm runs (#12)', () => {
  const repo = repository(CHART);
  const linkOut = (target: (work: string) => string) => (work: string, checkout: string): void =>
    symlinkSync(target(work), join(checkout, 'charts/shop/files/key'));
  for (const target of [() => '../../../../sidecar-file', (w: string) => join(w, '_cmp_server', 'sidecar-file'), () => '../../../../_cmp_server/../sidecar-file']) {
    const r = generateIn(repo, chartApp('charts/shop', { prepare: linkOut(target) }));
    assertFailsClosed(r, { code: 1, message: /^rollstamp: error: charts\/shop\/files\/key: symlink points outside the repository; refused$/m, canaries: [SIDECAR_FILE] });
  }
});

test('a link out of the repository anywhere a chart reads is refused: a nested dir, a templates file, a file:// dependency, a dir link (#12)', () => {
  const withDep = {
    ...CHART,
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: file://../../libs/lib\n',
    'libs/lib/Chart.yaml': 'apiVersion: v2\nname: lib\nversion: 0.1.0\n',
    'libs/lib/templates/.keep': '',
  };
  const cases: [string, Files, string, (w: string) => string, RegExp][] = [
    ['nested', CHART, 'charts/shop/files/deep/er/key', () => '../../../../../../sidecar-file', /charts\/shop\/files\/deep\/er\/key: symlink points outside/],
    ['template', CHART, 'charts/shop/templates/leak.yaml', (w) => join(w, '_cmp_server', 'sidecar-file'), /charts\/shop\/templates\/leak\.yaml: symlink points outside/],
    ['dependency', withDep, 'libs/lib/templates/leak.yaml', () => '../../../../sidecar-file', /libs\/lib\/templates\/leak\.yaml: symlink points outside/],
    ['directory link', CHART, 'charts/shop/files/tenant', () => '../../../../other-tenant', /charts\/shop\/files\/tenant: symlink points outside/],
  ];
  for (const [name, files, link, target, message] of cases) {
    const r = generateIn(repository(files), chartApp('charts/shop', {
      prepare: (w, c) => {
        mkdirSync(dirname(join(c, link)), { recursive: true });
        symlinkSync(target(w), join(c, link));
      },
    }));
    assertFailsClosed(r, { code: 1, message, canaries: [SIDECAR_FILE, OTHER_TENANT] });
    assert.ok(r.stderr.length > 0, name);
  }
  const outsideDep = { ...CHART, 'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: file://../../../other-tenant\n' };
  assertFailsClosed(generateIn(repository(outsideDep), chartApp('charts/shop')), {
    code: 1,
    message: /^rollstamp: error: charts\/shop\/Chart\.yaml: dependency file:\/\/\.\.\/\.\.\/\.\.\/other-tenant: outside the repository; refused$/m,
    canaries: [OTHER_TENANT],
  });
});

test('kustomize: a base outside the repository, and a link out under a base, are refused before kustomize runs (#12)', () => {
  const app = 'apps/web/kustomization.yaml';
  const outsideBase = repository({ [app]: 'resources:\n- ../../base\n- ../../../other-tenant\n', 'base/kustomization.yaml': 'resources: []\n' });
  assertFailsClosed(generateIn(outsideBase, { path: 'apps/web', prepare: neighbours }), {
    code: 1,
    message: /^rollstamp: error: apps\/web\/kustomization\.yaml: \.\.\/\.\.\/\.\.\/other-tenant: outside the repository; refused$/m,
    canaries: [OTHER_TENANT],
  });
  const linkInBase = repository({ [app]: 'resources:\n- ../../base\n', 'base/kustomization.yaml': 'resources:\n- leak.yaml\n' });
  assertFailsClosed(
    generateIn(linkInBase, { path: 'apps/web', prepare: (w, c) => { neighbours(w); symlinkSync('../../sidecar-file', join(c, 'base/leak.yaml')); } }),
    { code: 1, message: /^rollstamp: error: base\/leak\.yaml: symlink points outside the repository; refused$/m, canaries: [SIDECAR_FILE] },
  );
});

withHelm('in-bound links stay allowed: a chart file linked to a shared file in the repository renders (#12)', () => {
  const repo = repository({ ...CHART, 'shared/key': 'shared-in-repo\n' });
  const r = generateIn(repo, chartApp('charts/shop', { prepare: (_, c) => symlinkSync('../../../shared/key', join(c, 'charts/shop/files/key')) }));
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /key: "shared-in-repo\\n"/);
});

test('a kustomization with a duplicate key is refused before kustomize runs: the walk must read what kustomize reads (#12)', () => {
  const repo = repository({ 'apps/web/kustomization.yaml': 'resources:\n- ../../../other-tenant\nresources:\n- ../../base\n', 'base/kustomization.yaml': 'resources: []\n' });
  assertFailsClosed(generateIn(repo, { path: 'apps/web' }), { code: 1, message: /^rollstamp: error: apps\/web\/kustomization\.yaml: cannot be read to check its local dependencies$/m });
});

test.run();
