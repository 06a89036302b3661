// `rollstamp generate --render-only` (#33): the render as generate makes it — helm, kustomize or a directory's
// files — printed as the renderer gave it, after generate's checks and with no stamp. action.yml and the CI
// recipes render an untrusted pull request with it, so a symlink out of the tree is refused here as in Argo CD.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { obtainHelm } from '../support/helm.ts';
import { runBundle } from '../support/run-cli.ts';
import { removeTempDirs, requireBundle, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';

const helm = obtainHelm();
const helmTest = testNeedingTool('helm', helm);
const kubectlTest = testNeeding('kubectl');
const PATH = [helm.ok ? dirname(helm.path) : '', process.env.PATH ?? ''].filter((p) => p !== '').join(':');

test.before.each(requireBundle);
test.after(removeTempDirs);

/** A repository of `files`; returns its root. */
function repo(files: Record<string, string>): string {
  const root = tempDir('render-only');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** `rollstamp generate [args]` in `root/app`, as the CI recipes run it. */
function generate(root: string, app: string, args: string[] = ['--render-only']): { code: number; stdout: string; stderr: string } {
  return runBundle(['generate', ...args], { cwd: join(root, app), env: { PATH, HOME: root, ARGOCD_APP_SOURCE_PATH: app, ARGOCD_APP_NAME: 'shop' } });
}

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x, envFrom: [{secretRef: {name: db}}]}]\n';
const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: one}\n';

test('a directory app: its files joined as they are, unstamped (generate stamps the same files)', () => {
  const root = repo({ 'apps/web/a.yaml': DEPLOYMENT, 'apps/web/b.yaml': SECRET });
  const r = generate(root, 'apps/web');
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `${DEPLOYMENT}---\n${SECRET}`);
  assert.is(r.stderr, '');
  const stamped = generate(root, 'apps/web', []);
  assert.match(stamped.stdout, /rollstamp\.dev\/hash: "sha256:/, 'without the flag, generate stamps');
});

helmTest('a chart: what helm template prints, with the release name and namespace Argo CD gives it', () => {
  const root = repo({
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'charts/shop/templates/deploy.yaml': DEPLOYMENT.replace('name: web', 'name: {{ .Release.Name }}-web'),
  });
  const r = generate(root, 'charts/shop');
  assert.is(r.code, 0, r.stderr);
  const direct = spawnSync(helm.ok ? helm.path : 'helm', ['template', 'shop', '.', '--namespace', 'default', '--include-crds'], { cwd: join(root, 'charts/shop'), encoding: 'utf8', env: { PATH, HOME: root } });
  assert.is(r.stdout, direct.stdout);
  assert.match(r.stdout, /name: shop-web/);
  assert.not.match(r.stdout, /rollstamp\.dev\/hash/);
});

kubectlTest('a kustomization: what kubectl kustomize prints', () => {
  const root = repo({ 'apps/web/kustomization.yaml': 'resources: [deploy.yaml]\nnamePrefix: prod-\n', 'apps/web/deploy.yaml': DEPLOYMENT });
  const r = generate(root, 'apps/web');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /name: prod-web/);
  assert.not.match(r.stdout, /rollstamp\.dev\/hash/);
});

helmTest("the checks hold: a chart's symlink out of the repository is refused by name, nothing on stdout (#33)", () => {
  const root = repo({
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'charts/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leak}\ndata:\n  key: {{ .Files.Get "files/key" | quote }}\n',
  });
  mkdirSync(join(root, 'charts/shop/files'));
  symlinkSync('/etc/hostname', join(root, 'charts/shop/files/key'));
  const r = generate(root, 'charts/shop');
  assert.is(r.code, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.is(r.stderr, 'rollstamp: error: charts/shop/files/key: symlink points outside the repository; refused\n');
});

test('a mistyped flag is a usage error with the nearest name; a path argument is refused as before', () => {
  const root = repo({ 'apps/web/a.yaml': DEPLOYMENT });
  const typo = generate(root, 'apps/web', ['--render-onyl']);
  assert.is(typo.code, 2);
  assert.match(typo.stderr, /unknown flag --render-onyl; did you mean --render-only\?/);
  const arg = generate(root, 'apps/web', ['--render-only', 'apps/web']);
  assert.is(arg.code, 2);
  assert.match(arg.stderr, /generate takes no arguments \(got apps\/web\); it renders the current directory/);
});

test.run();
