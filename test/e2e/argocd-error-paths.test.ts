// SECURITY.md "Errors show no sidecar paths" (#21): what `generate` prints on failure never holds an absolute
// path of the sidecar's filesystem outside the repository, and paths inside it are relative to it — its own
// messages, and helm's and kustomize's when the operator shows them (ROLLSTAMP_RENDERER_STDERR=show), as Argo
// CD redacts its temp paths from helm's errors.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactPaths } from '../../plugin/argocd/redact-paths.ts';
import { generateEnv, runGenerate } from '../support/argocd-request.ts';
import { obtainHelm } from '../support/helm.ts';
import { removeTempDirs, requireBundle, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { assertFailsClosed, generateIn, repository, type Files } from '../support/cmp.ts';

const helm = obtainHelm();
const withHelm = testNeedingTool('helm', helm);
const withTools = helm.ok ? testNeeding('kubectl') : withHelm;
const helmBin = helm.ok ? [dirname(helm.path)] : [];

test.before.each(requireBundle);
test.after(removeTempDirs);

const TOP = new Set(readdirSync('/'));

/** Absolute paths of this filesystem in `text` (a token starting with `/<an entry of />`). */
function sidecarPaths(text: string): string[] {
  return [...text.matchAll(/(?:^|[\s'"`=([<,:]|file:\/\/)(\/[^\s'"`)\]>,;/][^\s'"`)\]>,;]*)/g)].map((m) => m[1]!).filter((p) => TOP.has(p.slice(1).split('/')[0]!));
}

function assertNoSidecarPath(stderr: string, what: string): void {
  assert.equal(sidecarPaths(stderr), [], `${what}: absolute sidecar paths in:\n${stderr}`);
}

test('redactPaths: repository paths relative, other paths of this filesystem replaced, URLs and app paths kept (#21)', () => {
  const root = '/tmp/_cmp_server/1234';
  const cases: [string, string][] = [
    [`open ${root}/apps/web/values.yaml: no such file`, 'open apps/web/values.yaml: no such file'],
    [`in '${root}'.`, "in '.'."],
    ['env=[HELM_CONFIG_HOME=/tmp/kustomize-helm-1/helm HELM_CACHE_HOME=/tmp/kustomize-helm-1/helm/.cache]', 'env=[HELM_CONFIG_HOME=<path outside the repository> HELM_CACHE_HOME=<path outside the repository>]'],
    ['hash key file /etc/rollstamp/key: cannot read file', 'hash key file <path outside the repository>: cannot read file'],
    [`file://${root}/libs/lib and file:///etc/x`, 'file://libs/lib and file://<path outside the repository>'],
    ['https://charts.example.com/x oci://r.example.com/c apps/v1/Deployment/shop/web', 'https://charts.example.com/x oci://r.example.com/c apps/v1/Deployment/shop/web'],
    ['ARGOCD_APP_SOURCE_PATH "/../web" leaves the repository', 'ARGOCD_APP_SOURCE_PATH "/../web" leaves the repository'],
  ];
  for (const [input, expected] of cases) assert.is(redactPaths(input, [root]), expected, input);
});

test('a hash key file that cannot be read is named without its sidecar path (#21)', () => {
  const missing = join(tempDir('sidecar'), 'no', 'key');
  const r = generateIn(repository({ 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n' }), { path: 'app', sidecarEnv: { ROLLSTAMP_HASH_KEY_FILE: missing } });
  assertFailsClosed(r, { code: 1, message: /^rollstamp: error: hash key file <path outside the repository>: cannot read file$/m, canaries: [missing] });
  assertNoSidecarPath(r.stderr, 'hash key file');
});

withHelm('helm\'s own error output (ROLLSTAMP_RENDERER_STDERR=show) names repository paths relative to it and no other sidecar path (#21)', () => {
  const files: Files = {
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n- name: lib\n  version: 0.1.0\n  repository: file://../../libs/missing\n',
    'charts/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n',
  };
  const r = generateIn(repository(files), { path: 'charts/shop', binDirs: helmBin, sidecarEnv: { ROLLSTAMP_RENDERER_STDERR: 'show' } });
  assert.is(r.code, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /libs\/missing/, 'helm\'s message is shown, with the path relative to the repository');
  assertNoSidecarPath(r.stderr, 'helm');
});

withTools('kustomize\'s own error output (ROLLSTAMP_RENDERER_STDERR=show) holds no sidecar path: not the checkout, not kustomize\'s helm homes (#21)', () => {
  const bin = tempDir('helm-shim');
  writeFileSync(join(bin, 'helm'), `#!/bin/sh\nif [ "$1" = version ]; then echo v3.99.0; exit 0; fi\nexec '${helm.ok ? helm.path : 'helm'}' "$@"\n`, { mode: 0o755 });
  const repo = repository({ 'apps/web/kustomization.yaml': 'helmCharts:\n- {name: absent, version: 0.1.0, repo: "https://127.0.0.1:9/charts"}\n' });
  // Once, not through generateIn: kubectl's log prefix (time, pid) differs from run to run.
  const sidecarEnv = { ROLLSTAMP_RENDERER_STDERR: 'show', ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS: '--enable-helm' };
  const r = runGenerate(join(repo, 'apps/web'), generateEnv({ path: 'apps/web', binDirs: [bin], sidecarEnv }, tempDir('home')));
  assert.is(r.code, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /HELM_CONFIG_HOME=<path outside the repository>/, `kustomize's message is shown, its helm home replaced:\n${r.stderr}`);
  assert.match(r.stderr, /--untardir apps\/web\/charts/, 'the chart home is shown relative to the repository');
  assertNoSidecarPath(r.stderr, 'kustomize');
});

test.run();
