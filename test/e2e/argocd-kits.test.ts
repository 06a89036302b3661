// The three Argo CD kits say and do the same (#22): each is rendered against the upstream install of the Argo CD
// version the plain kit names, and the argocd-cmd-params-cm parameters that result are compared, beside the
// sidecar (argocd-installs.test.ts). The upstream install.yaml cannot be fetched here, so a stand-in written
// from it is used: the empty argocd-cmd-params-cm and the three components with the env entries that read the
// keys the kits set (manifests/base/config/argocd-cmd-params-cm.yaml and the repo-server, application-controller
// and server manifests of argoproj/argo-cd). With ROLLSTAMP_ARGOCD_INSTALL naming a downloaded install.yaml of
// that version, the real one is used instead. The timeout and memory figures in the kits' comments are one set.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseAllDocuments } from 'yaml';
import { removeTempDirs, ROOT, run, tempDir, testNeeding } from '../support/tools.ts';

type Obj = Record<string, any>;
const ARGOCD = join(ROOT, 'argocd');
const read = (path: string): string => readFileSync(join(ARGOCD, path), 'utf8');
const withKubectl = testNeeding('kubectl');

const kustomizationText = read('install/kustomization.yaml');
const UPSTREAM_LINE = /^ {2}# - https:\/\/raw\.githubusercontent\.com\/argoproj\/argo-cd\/(v\d+\.\d+\.\d+)\/manifests\/install\.yaml$/m;
const ARGOCD_VERSION = UPSTREAM_LINE.exec(kustomizationText)?.[1];
const values = parse(read('helm/values.yaml')) as Obj;
const operatorText = read('operator/argocd.yaml');
const argocdCr = parseAllDocuments(operatorText).map((d) => d.toJS() as Obj)[1]!;

/** Which component reads which argocd-cmd-params-cm key, through which env entry (upstream manifests). */
const READERS: Record<string, { kind: string; name: string; env: string }> = {
  'reposerver.parallelism.limit': { kind: 'Deployment', name: 'argocd-repo-server', env: 'ARGOCD_REPO_SERVER_PARALLELISM_LIMIT' },
  'controller.repo.server.timeout.seconds': { kind: 'StatefulSet', name: 'argocd-application-controller', env: 'ARGOCD_APPLICATION_CONTROLLER_REPO_SERVER_TIMEOUT_SECONDS' },
  'server.repo.server.timeout.seconds': { kind: 'Deployment', name: 'argocd-server', env: 'ARGOCD_SERVER_REPO_SERVER_TIMEOUT_SECONDS' },
};

/** The stand-in for install.yaml of ARGOCD_VERSION: what the kit patches and what reads the parameters. */
function upstreamStandIn(version: string): string {
  const image = `quay.io/argoproj/argocd:${version}`;
  const component = (kind: string, name: string, env: string[], extra = ''): string => `---
apiVersion: apps/v1
kind: ${kind}
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {app.kubernetes.io/name: ${name}}}
  template:
    metadata: {labels: {app.kubernetes.io/name: ${name}}}
    spec:${extra}
      containers:
      - name: ${name}
        image: ${image}
        env:
${env.map((e) => `        - {name: ${e}, valueFrom: {configMapKeyRef: {name: argocd-cmd-params-cm, key: ${Object.keys(READERS).find((k) => READERS[k]!.env === e)}, optional: true}}}`).join('\n')}
`;
  const repoServerPod = `
      automountServiceAccountToken: false
      initContainers:
      - {name: copyutil, image: ${image}, volumeMounts: [{name: var-files, mountPath: /var/run/argocd}]}
      volumes:
      - {name: tmp, emptyDir: {}}
      - {name: var-files, emptyDir: {}}
      - {name: plugins, emptyDir: {}}`;
  return [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  labels: {app.kubernetes.io/name: argocd-cmd-params-cm, app.kubernetes.io/part-of: argocd}\n',
    component('Deployment', 'argocd-repo-server', [READERS['reposerver.parallelism.limit']!.env], repoServerPod),
    component('StatefulSet', 'argocd-application-controller', [READERS['controller.repo.server.timeout.seconds']!.env]),
    component('Deployment', 'argocd-server', [READERS['server.repo.server.timeout.seconds']!.env]),
  ].join('');
}

/** `kubectl kustomize argocd/install` with the upstream resource line pointing at `install.yaml`. */
function renderPlainKit(): Obj[] {
  const dir = join(tempDir('argocd-kits'), 'argocd');
  cpSync(ARGOCD, dir, { recursive: true });
  const upstream = process.env.ROLLSTAMP_ARGOCD_INSTALL ? readFileSync(process.env.ROLLSTAMP_ARGOCD_INSTALL, 'utf8') : upstreamStandIn(ARGOCD_VERSION!);
  writeFileSync(join(dir, 'install', 'upstream-install.yaml'), upstream);
  writeFileSync(join(dir, 'install', 'kustomization.yaml'), kustomizationText.replace(UPSTREAM_LINE, '  - upstream-install.yaml'));
  const r = run('kubectl', ['kustomize', join(dir, 'install')]);
  assert.is(r.code, 0, r.stderr);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
}

const asStrings = (o: Obj): Record<string, string> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

test('the plain kit names the Argo CD version it is written against', () => {
  assert.ok(ARGOCD_VERSION, 'install/kustomization.yaml lists the upstream install.yaml of one Argo CD version');
});

withKubectl('the plain kit sets the same argocd-cmd-params-cm parameters as the Helm values and the operator (#22)', () => {
  const objects = renderPlainKit();
  const params = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name === 'argocd-cmd-params-cm');
  assert.is(params.length, 1, 'the patch merges into the upstream ConfigMap, it does not add a second one');
  assert.is(params[0]!.metadata.namespace, 'argocd');
  assert.is(params[0]!.metadata.labels?.['app.kubernetes.io/part-of'], 'argocd', "the upstream ConfigMap's labels stay");
  const plain = params[0]!.data as Record<string, string>;
  assert.equal(plain, asStrings(values.configs.params), 'argo-helm configs.params');
  assert.equal(plain, asStrings(argocdCr.spec.cmdParams), 'argocd-operator spec.cmdParams');
  assert.equal(Object.keys(plain).sort(), Object.keys(READERS).sort());
});

withKubectl('every parameter the kits set is read by an upstream component, and the sidecar joins the repo server', () => {
  const objects = renderPlainKit();
  for (const [key, reader] of Object.entries(READERS)) {
    const workload = objects.find((o) => o.kind === reader.kind && o.metadata.name === reader.name);
    assert.ok(workload, `${reader.kind} ${reader.name} is in the install`);
    const envs = (workload!.spec.template.spec.containers as Obj[]).flatMap((c) => (c.env ?? []) as Obj[]);
    const ref = envs.find((e) => e.name === reader.env)?.valueFrom?.configMapKeyRef;
    assert.equal({ name: ref?.name, key: ref?.key }, { name: 'argocd-cmd-params-cm', key }, `${reader.name} reads ${key}`);
  }
  const repoServer = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'argocd-repo-server')!;
  const names = (repoServer.spec.template.spec.containers as Obj[]).map((c) => c.name);
  assert.equal(names.sort(), ['argocd-repo-server', 'rollstamp']);
});

withKubectl('the plain kit installs rollstamp refresh in the Argo CD namespace, its image set by the same `images:` entry (#34)', () => {
  const objects = renderPlainKit();
  const refresh = objects.filter((o) => o.metadata?.labels?.['app.kubernetes.io/name'] === 'rollstamp-refresh');
  assert.equal(refresh.map((o) => o.kind).sort(), ['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'Role', 'RoleBinding', 'ServiceAccount']);
  for (const o of refresh.filter((x) => !x.kind.startsWith('Cluster'))) assert.is(o.metadata.namespace, 'argocd', `${o.kind} in argocd`);
  const deployment = refresh.find((o) => o.kind === 'Deployment')!;
  const sidecar = (objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'argocd-repo-server')!.spec.template.spec.containers as Obj[]).find((c) => c.name === 'rollstamp')!;
  assert.is(deployment.spec.template.spec.containers[0].image, sidecar.image);
});

test('the timeouts are one set: 60 s repo-server deadline, a smaller rollstamp budget named the same everywhere', () => {
  const budget = Number(/name: ROLLSTAMP_RENDER_TIMEOUT_SECONDS\n\s+value: "(\d+)"/.exec(read('install/repo-server-patch.yaml'))?.[1]);
  assert.ok(budget > 0 && budget < 60, `budget ${budget}`);
  for (const file of ['install/cmd-params-patch.yaml', 'helm/values.yaml', 'operator/argocd.yaml']) {
    const said = [...read(file).matchAll(/rollstamp's own budget is (\d+) s/g)].map((m) => Number(m[1]));
    assert.equal(said, [budget], `${file} states the budget the sidecar sets`);
    assert.ok(read(file).includes('60 s request deadline') || read(file).includes('request deadline (60 s'), `${file} names the 60 s deadline`);
  }
  const readme = read('README.md');
  assert.ok(readme.includes(`\`ROLLSTAMP_RENDER_TIMEOUT_SECONDS\` (${budget} by default)`), 'argocd/README.md names the same default');
  for (const file of ['install/kustomization.yaml', 'install/cmd-params-patch.yaml', 'install/repo-server-patch.yaml', 'helm/values.yaml', 'operator/argocd.yaml']) {
    assert.not.match(read(file), /\b55 s\b/, `${file}: no second budget`);
  }
});

test('the memory figure at the input limit is the one argocd/README.md measured with the kits\' heap cap', () => {
  const readme = read('README.md');
  const measured = /--max-old-space-size=384` the same input peaks at ~(\d+) MiB/.exec(readme)?.[1];
  assert.ok(measured, 'argocd/README.md#sizing-and-timeouts states the measured peak with the heap capped');
  for (const file of ['install/cmd-params-patch.yaml', 'install/repo-server-patch.yaml', 'helm/values.yaml', 'operator/argocd.yaml']) {
    const text = read(file);
    const said = [...text.matchAll(/10 MiB input limit peaks at\s+(?:#\s+)?~(\d+) MiB/g)].map((m) => m[1]);
    assert.ok(said.length >= 1, `${file} states the peak at the input limit`);
    for (const n of said) assert.is(n, measured, `${file}: ~${n} MiB vs the README's ~${measured} MiB`);
    const others = [...text.matchAll(/~(4\d0) MiB/g)].map((m) => m[1]).filter((n) => n !== measured);
    assert.equal(others, [], `${file}: one figure for a render at the limit`);
  }
});

test('the operator kit names the argocd-operator version spec.cmdParams needs (#22)', () => {
  assert.match(operatorText, /^# Needs argocd-operator v0\.14\.1 or later: spec\.cmdParams first appears in the v0\.14\.1 CRD/m);
  assert.ok(argocdCr.spec.cmdParams, 'the resource sets spec.cmdParams');
});

test.after(removeTempDirs);
test.run();
