// `rollstamp generate` run exactly as argocd/plugin.yaml declares it, the way Argo CD's argocd-cmp-server
// runs it: in a fresh copy of the repository, with the Application's path as working directory, stdin
// closed, and an environment of PATH, HOME and Argo CD's request variables only. Also checks argocd/ itself:
// the plugin file, the install overlay (rendered with kubectl) and that every example Application renders.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseAllDocuments } from 'yaml';
import { IMAGE_LAUNCHER, KUBE_API_VERSIONS, PLUGIN_FILE, type ArgoParam as Param } from '../support/argocd-request.ts';
import { obtainHelm } from '../support/helm.ts';
import { runBundle } from '../support/run-cli.ts';
import { removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding, testNeedingTool, type Run } from '../support/tools.ts';
import { generateIn, repository, type CmpApp } from '../support/cmp.ts';
import * as objects from '../support/objects.ts';

const ARGOCD = join(ROOT, 'argocd');
const APP_PARAMETERS = ['renderer', 'values-files', 'targets', 'selector', 'annotation-key', 'on-missing', 'kagent', 'reloader', 'hash-scheme', 'skip-crds', 'allow-empty', 'kinds'];
const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'CronJob', 'Agent'];

const withKubectl = testNeeding('kubectl');
const helm = obtainHelm();
const withHelm = testNeedingTool('helm', helm);

test.before.each(requireBundle);
test.after(removeTempDirs);

// ---- running generate as argocd-cmp-server does -------------------------------------------------------

type Files = Record<string, string>;
type App = CmpApp;

/** One generate request as argocd-cmp-server makes it, with helm on PATH (test/support/argocd-request.ts). */
function generate(repo: string, app: App): Run {
  return generateIn(repo, { ...app, binDirs: helm.ok ? [dirname(helm.path)] : [] });
}

// ---- assertions ---------------------------------------------------------------------------------------

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string }; [k: string]: unknown };

function assertOk(r: Run, what: string): void {
  assert.is(r.code, 0, `${what}: exit ${r.code}\n--- stderr:\n${r.stderr}`);
  assert.is(r.stderr, '', `${what}: unexpected stderr`);
}

/** The objects on stdout, each document parsed without error. */
function objectsOf(stdout: string): Obj[] {
  const docs = parseAllDocuments(stdout);
  for (const d of docs) assert.equal(d.errors, [], 'stdout is a clean YAML stream');
  return docs.map((d) => d.toJS() as Obj).filter((o) => o !== null);
}

function find(objs: Obj[], kind: string, name: string): Obj {
  const o = objs.find((x) => x.kind === kind && x.metadata?.name === name);
  assert.ok(o, `${kind} ${name} is in the output`);
  return o!;
}

/** The stamp of a workload (pod template annotations) or a kagent Agent (its deployment annotations). */
function stampOf(o: Obj, key = 'rollstamp.dev/hash'): string | undefined {
  const spec = o.spec as Record<string, any> | undefined;
  if (o.kind === 'Agent') return spec?.[spec?.type === 'BYO' ? 'byo' : 'declarative']?.deployment?.annotations?.[key];
  const template = o.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template : spec?.template;
  return template?.metadata?.annotations?.[key];
}

/** Argo CD's contract for a failure: non-zero exit, nothing on stdout, one stderr line, no secret in it. */
function assertFailsClosed(r: Run, expect: { code: number; message: RegExp; secrets?: string[] }): void {
  assert.is(r.code, expect.code, `exit code\n--- stderr:\n${r.stderr}`);
  assert.is(r.stdout, '', 'stdout stays empty, so Argo CD never applies (or prunes on) a partial render');
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `stderr is one "rollstamp: " line, no stack trace:\n${r.stderr}`);
  assert.match(r.stderr, expect.message);
  for (const secret of expect.secrets ?? []) assert.not.ok(r.stderr.includes(secret), `stderr must not contain ${secret}: ${r.stderr}`);
}

// ---- fixtures -----------------------------------------------------------------------------------------

/** A Deployment opted in by annotation (or not), reading Secret `db` key `password` and ConfigMap `settings`. */
function deployment(name: string, opts: { optIn?: boolean; labels?: string; namespace?: string; extraEnv?: string } = {}): string {
  const ns = opts.namespace ? `\n  namespace: ${opts.namespace}` : '';
  const annotations = opts.optIn === false ? '' : '\n  annotations: {rollstamp.dev/enabled: "true"}';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${ns}${annotations}
  labels: {app: ${name}${opts.labels ? `, ${opts.labels}` : ''}}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - name: main
        image: nginx:1.27
        env:
        - {name: DB_PASSWORD, valueFrom: {secretKeyRef: {name: db, key: password}}}${opts.extraEnv ?? ''}
        envFrom:
        - configMapRef: {name: settings}
`;
}

const secret = (name: string, data: string, namespace?: string): string => objects.secret(name, `  ${data}`, namespace ? { namespace } : {});
const SETTINGS = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n';
/** base64 of `correct-horse-battery`. */
const DB = secret('db', 'password: Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5');

/** A plain directory app: nested YAML and JSON, a README and a hidden file to skip; `api` opts in only by selector. */
const DIRECTORY_REPO: Files = {
  'apps/plain/workloads/web.yaml': deployment('web'),
  'apps/plain/workloads/api.yaml': deployment('api', { optIn: false, labels: 'tier: api' }),
  'apps/plain/config/db.yaml': DB,
  'apps/plain/config/settings.json': JSON.stringify(parse(SETTINGS)),
  'apps/plain/README.md': '# not a manifest\n',
  'apps/plain/.hidden/ignored.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n',
};

// ---- argocd/ itself -------------------------------------------------------------------------------------

test('argocd/plugin.yaml: rollstamp v1, generate = the image\'s launcher, rollstamp generate, no discovery, every app setting announced without a default', () => {
  const plugin = parse(readFileSync(PLUGIN_FILE, 'utf8')) as Record<string, any>;
  assert.is(plugin.apiVersion, 'argoproj.io/v1alpha1');
  assert.is(plugin.kind, 'ConfigManagementPlugin');
  assert.is(`${plugin.metadata.name}-${plugin.spec.version}`, 'rollstamp-v1');
  assert.equal(plugin.spec.generate, { command: [IMAGE_LAUNCHER], args: ['generate'] });
  assert.is(plugin.spec.discover, undefined, 'no discover block: selected by name only');
  assert.is(plugin.spec.init, undefined);
  const announced = plugin.spec.parameters.static as Record<string, unknown>[];
  assert.equal(announced.map((p) => p.name), APP_PARAMETERS);
  for (const p of announced) {
    assert.is(p.collectionType ?? 'string', p.name === 'values-files' || p.name === 'kinds' ? 'array' : 'string', `${p.name}: collection type`);
    // Argo CD never sends announced values; a default here would only mislead the UI.
    for (const field of ['string', 'array', 'map', 'required']) assert.is(p[field], undefined, `${p.name}: no ${field}`);
    assert.ok(typeof p.title === 'string' && typeof p.tooltip === 'string', `${p.name}: title and tooltip`);
    assert.match(String(p.tooltip), /Not set: /, `${p.name}: the tooltip says what happens when it is not set`);
  }
  assert.is(readFileSync(join(ARGOCD, 'install', 'plugin.yaml'), 'utf8'), readFileSync(PLUGIN_FILE, 'utf8'),
    'argocd/install/plugin.yaml must be a copy of argocd/plugin.yaml: cp argocd/plugin.yaml argocd/install/plugin.yaml');
});

test('argocd/rbac: get on secrets and configmaps only, bound per namespace to argocd/argocd-repo-server', () => {
  const role = parse(readFileSync(join(ARGOCD, 'rbac', 'clusterrole.yaml'), 'utf8')) as Record<string, any>;
  assert.is(role.kind, 'ClusterRole');
  assert.is(role.metadata.name, 'rollstamp-secret-reader');
  assert.equal(role.rules, [
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  ]);
  const binding = parse(readFileSync(join(ARGOCD, 'rbac', 'rolebinding-example.yaml'), 'utf8')) as Record<string, any>;
  assert.is(binding.kind, 'RoleBinding', 'a RoleBinding (one namespace), not a ClusterRoleBinding');
  assert.equal(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rollstamp-secret-reader' });
  assert.equal(binding.subjects, [{ kind: 'ServiceAccount', name: 'argocd-repo-server', namespace: 'argocd' }]);
});

/** Argo CD's upstream argocd-repo-server, reduced to what the patch relies on. */
const UPSTREAM_REPO_SERVER = `apiVersion: v1
kind: ConfigMap
metadata: {name: argocd-cmd-params-cm}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
spec:
  selector: {matchLabels: {app.kubernetes.io/name: argocd-repo-server}}
  template:
    metadata: {labels: {app.kubernetes.io/name: argocd-repo-server}}
    spec:
      serviceAccountName: argocd-repo-server
      automountServiceAccountToken: false
      initContainers:
      - name: copyutil
        image: quay.io/argoproj/argocd:v3.5.1
        volumeMounts: [{name: var-files, mountPath: /var/run/argocd}]
      containers:
      - name: argocd-repo-server
        image: quay.io/argoproj/argocd:v3.5.1
        volumeMounts:
        - {name: tmp, mountPath: /tmp}
        - {name: plugins, mountPath: /home/argocd/cmp-server/plugins}
      volumes:
      - {name: tmp, emptyDir: {}}
      - {name: var-files, emptyDir: {}}
      - {name: plugins, emptyDir: {}}
`;

withKubectl('argocd/install: kubectl kustomize adds the hardened sidecar, the plugin.yaml ConfigMap, and a token for the sidecar only', () => {
  const dir = join(tempDir('argocd-install'), 'argocd');
  cpSync(ARGOCD, dir, { recursive: true });
  const kustomization = join(dir, 'install', 'kustomization.yaml');
  const text = readFileSync(kustomization, 'utf8');
  const upstream = /^ {2}# - https:\/\/raw\.githubusercontent\.com\/argoproj\/argo-cd\/\S+\/manifests\/install\.yaml$/m;
  assert.match(text, upstream, 'install/kustomization.yaml lists the upstream install as a commented resource');
  writeFileSync(kustomization, text.replace(upstream, '  - upstream-repo-server.yaml'));
  writeFileSync(join(dir, 'install', 'upstream-repo-server.yaml'), UPSTREAM_REPO_SERVER);
  const r = run('kubectl', ['kustomize', join(dir, 'install')]);
  assert.is(r.code, 0, r.stderr);
  const objs = objectsOf(r.stdout) as Record<string, any>[];
  const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('rollstamp-cmp-plugin'))!;
  assert.match(cm.metadata.name, /^rollstamp-cmp-plugin-[a-z0-9]+$/, 'the name carries a content hash');
  assert.is(cm.metadata.namespace, 'argocd');
  assert.is(cm.data['plugin.yaml'], readFileSync(PLUGIN_FILE, 'utf8'));
  const pod = objs.find((o) => o.kind === 'Deployment')!.spec.template.spec;
  assert.is(pod.automountServiceAccountToken, false, 'no token for the repo-server container');
  const sidecar = pod.containers.find((c: any) => c.name === 'rollstamp');
  assert.is(sidecar.image, 'registry.example.invalid/rollstamp:0.1.0');
  assert.equal(sidecar.command, ['/var/run/argocd/argocd-cmp-server']);
  assert.equal(sidecar.securityContext, {
    runAsNonRoot: true,
    runAsUser: 999,
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  });
  const env = Object.fromEntries(sidecar.env.map((e: any) => [e.name, e.value]));
  assert.is(env.HOME, '/tmp');
  assert.ok(Number(env.ROLLSTAMP_RENDER_TIMEOUT_SECONDS) < 60, 'the render timeout is below the 60 s repo-server deadline');
  const volumes = Object.fromEntries(pod.volumes.map((v: any) => [v.name, v]));
  const mounts = Object.fromEntries(sidecar.volumeMounts.map((m: any) => [m.mountPath, m]));
  assert.is(mounts['/var/run/argocd'].name, 'var-files');
  assert.is(mounts['/home/argocd/cmp-server/plugins'].name, 'plugins');
  const config = mounts['/home/argocd/cmp-server/config/plugin.yaml'];
  assert.is(config.subPath, 'plugin.yaml');
  assert.is(volumes[config.name].configMap.name, cm.metadata.name, 'the volume follows the generated name');
  const tmp = mounts['/tmp'];
  assert.is.not(tmp.name, 'tmp', "the sidecar's /tmp is its own, not the repo-server's");
  assert.equal(volumes[tmp.name].emptyDir, {});
  const token = mounts['/var/run/secrets/kubernetes.io/serviceaccount'];
  assert.is(token.readOnly, true);
  const sources = volumes[token.name].projected.sources;
  assert.is(sources[0].serviceAccountToken.path, 'token');
  assert.equal(sources[1].configMap, { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] });
  assert.is(sources[2].downwardAPI.items[0].path, 'namespace');
  for (const c of [...pod.containers, ...pod.initContainers].filter((c: any) => c.name !== 'rollstamp')) {
    assert.not.ok(c.volumeMounts.some((m: any) => m.name === token.name), `${c.name} must not mount the token`);
  }
});

/** Every example Application, with the tool its renderer needs. */
const EXAMPLES = readdirSync(join(ARGOCD, 'examples')).filter((f) => f.endsWith('.yaml')).sort();

test('argocd/examples: Applications name rollstamp-v1, set only announced settings, and sync automatically with prune and selfHeal', () => {
  assert.ok(EXAMPLES.length >= 3, 'there are example Applications');
  for (const file of EXAMPLES) {
    const app = parse(readFileSync(join(ARGOCD, 'examples', file), 'utf8')) as Record<string, any>;
    assert.is(`${app.apiVersion} ${app.kind}`, 'argoproj.io/v1alpha1 Application', file);
    const { source } = app.spec;
    assert.is(source.plugin.name, 'rollstamp-v1', file);
    assert.ok(existsSync(join(ROOT, source.path)), `${file}: ${source.path} exists in this repository`);
    for (const p of source.plugin.parameters ?? []) {
      assert.ok(APP_PARAMETERS.includes(p.name), `${file}: parameter ${p.name} is announced`);
      assert.is(p.array !== undefined, p.name === 'values-files', `${file}: ${p.name} is ${p.name === 'values-files' ? 'an array' : 'a string'}`);
    }
    for (const e of source.plugin.env ?? []) {
      const param = String(e.name).replace(/^ROLLSTAMP_/, '').toLowerCase().replace(/_/g, '-');
      assert.ok(e.name.startsWith('ROLLSTAMP_') && APP_PARAMETERS.includes(param), `${file}: env ${e.name} is an app setting`);
    }
    assert.equal(app.spec.syncPolicy.automated, { prune: true, selfHeal: true }, file);
  }
});

for (const file of EXAMPLES) {
  const app = parse(readFileSync(join(ARGOCD, 'examples', file), 'utf8')) as Record<string, any>;
  const { path, plugin } = app.spec.source as { path: string; plugin: { env?: { name: string; value: string }[]; parameters?: Param[] } };
  const dir = join(ROOT, path);
  const register = existsSync(join(dir, 'Chart.yaml')) ? withHelm : existsSync(join(dir, 'kustomization.yaml')) ? withKubectl : test;
  register(`argocd/examples/${file}: ${path} renders through the plugin with every workload stamped`, () => {
    const repo = join(tempDir('argocd-example'), 'repo');
    cpSync(join(ROOT, 'examples'), join(repo, 'examples'), { recursive: true });
    const r = generate(repo, {
      path,
      name: app.metadata.name,
      namespace: app.spec.destination.namespace,
      env: Object.fromEntries((plugin.env ?? []).map((e) => [e.name, e.value])),
      params: plugin.parameters ?? [],
    });
    // examples/refresh/app reads Secrets that only the cluster holds (#34): rendered here without one, each
    // reference is a missing-source warning, and nothing else may be said.
    const onlyInCluster = path === 'examples/refresh/app';
    if (onlyInCluster) {
      assert.is(r.code, 0, r.stderr);
      for (const line of r.stderr.trimEnd().split('\n')) assert.match(line, /^rollstamp: warning: .*: Secret \S+ is not in the input; its absence is hashed/, line);
    } else assertOk(r, file);
    const workloads = objectsOf(r.stdout).filter((o) => WORKLOADS.includes(o.kind ?? ''));
    assert.ok(workloads.length > 0, `${file}: the render holds workloads`);
    for (const w of workloads) assert.match(stampOf(w) ?? '', /^sha256:[0-9a-f]{64}$/, `${file}: ${w.kind} ${w.metadata?.name} is stamped`);
  });
}

// ---- renderers -------------------------------------------------------------------------------------------

withKubectl('kustomize app: an overlay over ../../base renders with kubectl kustomize and gets the stamp `stamp -n <destination>` computes', () => {
  const repo = repository({
    'apps/shop/base/kustomization.yaml': 'resources:\n- web.yaml\n- db.yaml\nconfigMapGenerator:\n- name: settings\n  literals:\n  - LOG_LEVEL=info\n',
    'apps/shop/base/web.yaml': deployment('web'),
    'apps/shop/base/db.yaml': DB,
    'apps/shop/overlays/prod/kustomization.yaml': 'resources:\n- ../../base\nlabels:\n- pairs: {env: prod}\n',
  });
  const r = generate(repo, { path: 'apps/shop/overlays/prod' });
  assertOk(r, 'generate');
  const objs = objectsOf(r.stdout);
  assert.equal(objs.map((o) => o.kind).sort(), ['ConfigMap', 'Deployment', 'Secret']);
  assert.match(objs.find((o) => o.kind === 'ConfigMap')?.metadata?.name ?? '', /^settings-[a-z0-9]+$/, 'generated with a hash suffix');
  const stamp = stampOf(find(objs, 'Deployment', 'web'));
  assert.match(stamp ?? '', /^sha256:[0-9a-f]{64}$/);
  // The same render through the CLI, with the destination namespace as the default namespace.
  const rendered = run('kubectl', ['kustomize', join(repo, 'apps/shop/overlays/prod')]);
  assert.is(rendered.code, 0, rendered.stderr);
  const cli = runBundle(['stamp', '--default-namespace', 'shop', '-'], { stdin: rendered.stdout });
  assert.is(cli.code, 0, cli.stderr);
  assert.is(stampOf(find(objectsOf(cli.stdout), 'Deployment', 'web')), stamp);
});

test('directory app: every manifest below the path (YAML and JSON, nested), no README or hidden file, same bytes on every run', () => {
  const repo = repository(DIRECTORY_REPO);
  const r = generate(repo, { path: 'apps/plain' });
  assertOk(r, 'generate');
  const objs = objectsOf(r.stdout);
  assert.equal(objs.map((o) => `${o.kind}/${o.metadata?.name}`).sort(), ['ConfigMap/settings', 'Deployment/api', 'Deployment/web', 'Secret/db']);
  assert.match(stampOf(find(objs, 'Deployment', 'web')) ?? '', /^sha256:[0-9a-f]{64}$/);
  assert.is(stampOf(find(objs, 'Deployment', 'api')), undefined, 'api has not opted in');
  // Argo CD compares each render with the live state: a render that changed by itself would flap.
  assert.is(generate(repo, { path: 'apps/plain' }).stdout, r.stdout);
});

withHelm('helm app: helm template with the release from ARGOCD_APP_NAME, the destination namespace, KUBE_VERSION, KUBE_API_VERSIONS and values-files in order', () => {
  const repo = repository({
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\nkubeVersion: ">=1.30.0-0"\n',
    'charts/shop/values.yaml': 'password: Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5\n',
    'charts/shop/values-prod.yaml': 'password: cHJvZC1wYXNzd29yZA==\n',
    'charts/shop/templates/web.yaml': deployment('{{ .Release.Name }}-web').replace('name: db,', 'name: {{ .Release.Name }}-db,'),
    'charts/shop/templates/db.yaml': secret('{{ .Release.Name }}-db', 'password: {{ .Values.password }}'),
    'charts/shop/templates/settings.yaml':
      `${SETTINGS}  NAMESPACE: {{ .Release.Namespace }}\n  KUBE: "{{ .Capabilities.KubeVersion.Version }}"\n` +
      `  WIDGETS: "{{ .Capabilities.APIVersions.Has "example.com/v1/Widget" }}"\n`,
  });
  // An app outside Argo CD's own namespace is named `<namespace>_<name>`; the release is the name.
  const app: App = { path: 'charts/shop', name: 'team-a_shop', namespace: 'shop-prod' };
  const r = generate(repo, app);
  assertOk(r, 'generate');
  const objs = objectsOf(r.stdout);
  const settingsOf = (o: Obj[]): unknown => (find(o, 'ConfigMap', 'settings') as Record<string, any>).data;
  assert.equal(settingsOf(objs), { LOG_LEVEL: 'info', NAMESPACE: 'shop-prod', KUBE: 'v1.32.4', WIDGETS: 'false' });
  const stamp = stampOf(find(objs, 'Deployment', 'shop-web'));
  assert.match(stamp ?? '', /^sha256:[0-9a-f]{64}$/, 'shop-web is stamped, its Secret shop-db resolved in shop-prod');

  const widgets = generate(repo, { ...app, kube: { version: '1.33.1', apiVersions: `${KUBE_API_VERSIONS},example.com/v1,example.com/v1/Widget` } });
  assertOk(widgets, 'generate with more API versions');
  assert.equal(settingsOf(objectsOf(widgets.stdout)), { LOG_LEVEL: 'info', NAMESPACE: 'shop-prod', KUBE: 'v1.33.1', WIDGETS: 'true' });

  const prod = generate(repo, { ...app, params: [{ name: 'values-files', array: ['values.yaml', 'values-prod.yaml'] }] });
  assertOk(prod, 'generate with values-files');
  assert.is.not(stampOf(find(objectsOf(prod.stdout), 'Deployment', 'shop-web')), stamp, 'values-prod.yaml, listed last, set the password');
  const reversed = generate(repo, { ...app, params: [{ name: 'values-files', array: ['values-prod.yaml', 'values.yaml'] }] });
  assertOk(reversed, 'generate with values-files reversed');
  assert.is(stampOf(find(objectsOf(reversed.stdout), 'Deployment', 'shop-web')), stamp, 'values.yaml, listed last, wins again');

  // The chart refuses clusters older than 1.30: helm fails, and so does the render.
  assertFailsClosed(generate(repo, { ...app, kube: { version: '1.29.9', apiVersions: KUBE_API_VERSIONS } }), {
    code: 1,
    message: /^rollstamp: error: rendering helm in charts\/shop: helm failed \(exit 1\)$/m,
  });
});

// ---- settings ----------------------------------------------------------------------------------------------

test('selector from plugin env (ARGOCD_ENV_ROLLSTAMP_SELECTOR) and from parameters (ARGOCD_APP_PARAMETERS), parameters winning', () => {
  const repo = repository(DIRECTORY_REPO);
  const apiStamp = (app: Omit<App, 'path'>): string | undefined => {
    const r = generate(repo, { path: 'apps/plain', ...app });
    assertOk(r, 'generate');
    return stampOf(find(objectsOf(r.stdout), 'Deployment', 'api'));
  };
  assert.is(apiStamp({}), undefined, 'api has no annotation: not a target by default');
  const byEnv = apiStamp({ env: { ROLLSTAMP_SELECTOR: 'tier=api' } });
  assert.match(byEnv ?? '', /^sha256:[0-9a-f]{64}$/, 'plugin env selects api');
  assert.is(apiStamp({ params: [{ name: 'selector', string: 'tier in (api, worker)' }] }), byEnv, 'so does the parameter');
  const both = (env: string, param: string): App => ({ path: 'apps/plain', env: { ROLLSTAMP_SELECTOR: env }, params: [{ name: 'selector', string: param }] });
  assert.is(apiStamp(both('tier=none', 'tier=api')), byEnv, 'the parameter wins over env');
  assert.is(apiStamp(both('tier=api', 'tier=none')), undefined);
});

test('.rollstamp.yaml in the app directory: read for settings, never rendered, and overridden by env and parameters', () => {
  const repo = repository({
    ...DIRECTORY_REPO,
    'apps/plain/.rollstamp.yaml':
      'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  targets: all\n  annotationKey: example.com/config-hash\n',
  });
  const r = generate(repo, { path: 'apps/plain' });
  assertOk(r, 'generate');
  const objs = objectsOf(r.stdout);
  assert.not.ok(objs.some((o) => o.kind === 'RollstampConfig'), 'the settings file is not a manifest');
  for (const name of ['web', 'api']) {
    const d = find(objs, 'Deployment', name);
    assert.match(stampOf(d, 'example.com/config-hash') ?? '', /^sha256:/, `${name}: targets all, under the file's annotation key`);
    assert.is(stampOf(d), undefined);
  }
  const env = generate(repo, {
    path: 'apps/plain',
    env: { ROLLSTAMP_TARGETS: 'opted-in' },
    params: [{ name: 'annotation-key', string: 'example.com/p' }],
  });
  assertOk(env, 'generate with overrides');
  const overridden = objectsOf(env.stdout);
  assert.match(stampOf(find(overridden, 'Deployment', 'web'), 'example.com/p') ?? '', /^sha256:/);
  assert.is(stampOf(find(overridden, 'Deployment', 'api'), 'example.com/p'), undefined, 'env targets=opted-in beat the file');
});

test('ROLLSTAMP_OUTPUT=json on the sidecar: one JSON object per line, the same objects and stamps as the YAML output', () => {
  const repo = repository(DIRECTORY_REPO);
  const yaml = generate(repo, { path: 'apps/plain' });
  const json = generate(repo, { path: 'apps/plain', sidecarEnv: { ROLLSTAMP_OUTPUT: 'json' } });
  assertOk(json, 'generate');
  assert.ok(json.stdout.endsWith('\n'));
  const lines = json.stdout.slice(0, -1).split('\n');
  const objs = lines.map((line) => JSON.parse(line) as Obj);
  for (const o of objs) assert.ok(typeof o === 'object' && o !== null && typeof o.kind === 'string', 'each line is one object');
  assert.equal(objs, objectsOf(yaml.stdout));
  assert.match(stampOf(find(objs, 'Deployment', 'web')) ?? '', /^sha256:[0-9a-f]{64}$/);
});

test('namespace-less objects are in the destination namespace (ARGOCD_APP_NAMESPACE); a Secret in another namespace does not resolve', () => {
  const remote = '\n        - {name: TOKEN, valueFrom: {secretKeyRef: {name: remote, key: token}}}';
  const files = (ns?: string, remoteNs = 'elsewhere'): Files => ({
    'apps/ns/web.yaml': deployment('web', { extraEnv: remote, ...(ns ? { namespace: ns } : {}) }),
    'apps/ns/db.yaml': secret('db', 'password: Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5', ns),
    'apps/ns/settings.yaml': SETTINGS.replace('name: settings', `name: settings${ns ? `\n  namespace: ${ns}` : ''}`),
    'apps/ns/remote.yaml': secret('remote', 'token: cmVtb3RlLXRva2Vu', remoteNs),
  });
  const stamp = (r: Run): string | undefined => stampOf(find(objectsOf(r.stdout), 'Deployment', 'web'));
  const implicit = generate(repository(files()), { path: 'apps/ns', namespace: 'shop' });
  assert.is(implicit.code, 0, implicit.stderr);
  // db and settings resolve in shop; remote (in `elsewhere`) does not: one warning, about it alone.
  assert.match(implicit.stderr, /^rollstamp: warning: [^\n]*Secret shop\/remote is not in the input[^\n]*\n$/);
  const explicit = generate(repository(files('shop')), { path: 'apps/ns', namespace: 'shop' });
  assert.is(explicit.code, 0, explicit.stderr);
  assert.is(stamp(implicit), stamp(explicit), 'the same hash as with namespace: shop written out');
  assert.is.not(stamp(generate(repository(files()), { path: 'apps/ns', namespace: 'other' })), stamp(implicit), 'the namespace is part of the hash');
  const together = generate(repository(files(undefined, 'shop')), { path: 'apps/ns', namespace: 'shop' });
  assertOk(together, 'generate with remote in shop');
  assert.is.not(stamp(together), stamp(implicit), 'remote in shop resolves: it was missing before');
  assertFailsClosed(generate(repository(files()), { path: 'apps/ns', namespace: 'shop', params: [{ name: 'on-missing', string: 'error' }] }), {
    code: 1,
    message: /Secret shop\/remote is not in the input/,
  });
});

test('operator settings: the sidecar environment may set a hash key; env, parameters and .rollstamp.yaml from the repository may not', () => {
  const key = 'operator-hmac-key-3141592653';
  const repo = repository({ ...DIRECTORY_REPO, 'apps/plain/hash.key': `${key}\n` });
  const keyed = generate(repo, { path: 'apps/plain', sidecarEnv: { ROLLSTAMP_HASH_KEY: key } });
  assertOk(keyed, 'generate with the sidecar key');
  assert.match(stampOf(find(objectsOf(keyed.stdout), 'Deployment', 'web')) ?? '', /^hmac-sha256:[0-9a-f]{64}$/);
  // As the install mounts it: a Secret volume outside the checkout, named by ROLLSTAMP_HASH_KEY_FILE.
  const mounted = join(tempDir('hash-key'), 'hash.key');
  writeFileSync(mounted, `${key}\n`);
  const fromFile = generate(repo, { path: 'apps/plain', sidecarEnv: { ROLLSTAMP_HASH_KEY_FILE: mounted } });
  assertOk(fromFile, 'generate with ROLLSTAMP_HASH_KEY_FILE');
  assert.is(fromFile.stdout, keyed.stdout, 'a key file on the sidecar keys the hash the same way');

  assertFailsClosed(generate(repo, { path: 'apps/plain', env: { ROLLSTAMP_HASH_KEY: key } }), {
    code: 2,
    message: /^rollstamp: error: ARGOCD_ENV_ROLLSTAMP_HASH_KEY: hashKey cannot be set by the repository: it is operator-only/,
    secrets: [key],
  });
  assertFailsClosed(generate(repo, { path: 'apps/plain', params: [{ name: 'hash-key-file', string: 'hash.key' }] }), {
    code: 2,
    message: /^rollstamp: error: parameter hash-key-file: hashKeyFile cannot be set by the repository/,
    secrets: [key],
  });
  const settings = repository({
    ...DIRECTORY_REPO,
    'apps/plain/hash.key': `${key}\n`,
    'apps/plain/.rollstamp.yaml': 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  hashKeyFile: hash.key\n',
  });
  assertFailsClosed(generate(settings, { path: 'apps/plain' }), {
    code: 2,
    message: /^rollstamp: error: \.rollstamp\.yaml spec\.hashKeyFile: hashKeyFile cannot be set by the repository: it is operator-only/,
    secrets: [key],
  });
});

// ---- broken apps --------------------------------------------------------------------------------------------

test('broken apps fail closed: malformed YAML, invalid base64 in a used Secret, no objects at all', () => {
  const leaked = 'tr0ub4dor&3-NOT-BASE64';
  const repo = repository({
    'apps/malformed/web.yaml': `${deployment('web')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\ndata: {a: b}\n`,
    'apps/badsecret/web.yaml': deployment('web'),
    'apps/badsecret/settings.yaml': SETTINGS,
    'apps/badsecret/db.yaml': secret('db', `password: "${leaked}"`),
    'apps/readme-only/README.md': '# manifests moved to apps/plain\n',
  });
  assertFailsClosed(generate(repo, { path: 'apps/malformed' }), { code: 1, message: /^rollstamp: [^\n]*web\.yaml/ });
  assertFailsClosed(generate(repo, { path: 'apps/badsecret' }), {
    code: 1,
    message: /^rollstamp: error: db\.yaml(#1)? v1\/Secret\/db data\.password: value is not valid base64$/m,
    secrets: [leaked, 'tr0ub4dor'],
  });
  const empty = { code: 1, message: /^rollstamp: error: the directory render produced no objects; refusing an empty result/ };
  assertFailsClosed(generate(repo, { path: 'apps/readme-only' }), empty);
  const emptyDir = (_: string, checkout: string): void => mkdirSync(join(checkout, 'apps/empty'));
  assertFailsClosed(generate(repo, { path: 'apps/empty', prepare: emptyDir }), empty);
  const allowed = generate(repo, { path: 'apps/readme-only', params: [{ name: 'allow-empty', string: 'true' }] });
  assertOk(allowed, 'generate with allow-empty');
  assert.is(allowed.stdout, '', 'allow-empty: an empty render succeeds, for an app meant to be empty');
});

withKubectl('broken kustomize app: a kustomization naming a missing file fails closed without kubectl output', () => {
  const literal = 'kustomize-literal-s3cr3t';
  const repo = repository({
    'apps/broken/kustomization.yaml': `resources:\n- web.yaml\n- missing.yaml\nsecretGenerator:\n- name: db\n  literals:\n  - password=${literal}\n`,
    'apps/broken/web.yaml': deployment('web'),
  });
  assertFailsClosed(generate(repo, { path: 'apps/broken' }), {
    code: 1,
    message: /^rollstamp: error: rendering kustomize in apps\/broken: kubectl failed \(exit 1\)$/m,
    secrets: [literal, 'missing.yaml'],
  });
});

test('values files outside the repository are refused before helm runs: ../ paths, symlinks, absolute paths', () => {
  const outside = 'password: NEIGHBOUR-APP-SECRET';
  const repo = repository({
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'charts/shop/values.yaml': 'replicas: 1\n',
    'charts/shop/templates/web.yaml': deployment('web'),
  });
  // Another request's checkout next to this one in the sidecar's _cmp_server directory, and a link to it.
  const neighbour = (work: string, checkout: string): void => {
    const file = join(work, '_cmp_server', 'other-app', 'values.yaml');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${outside}\n`);
    symlinkSync(file, join(checkout, 'charts/shop/linked.yaml'));
  };
  const absolute = join(tempDir('outside'), 'values.yaml');
  writeFileSync(absolute, `${outside}\n`);
  for (const file of ['../../../other-app/values.yaml', 'linked.yaml', absolute]) {
    const r = generate(repo, { path: 'charts/shop', prepare: neighbour, params: [{ name: 'values-files', array: ['values.yaml', file] }] });
    assertFailsClosed(r, { code: 2, message: /: outside the repository\n$/, secrets: [outside, 'NEIGHBOUR'] });
    // An absolute path is a place on the sidecar: never printed (#21).
    assert.ok(r.stderr.startsWith(`rollstamp: error: values file ${file.startsWith('/') ? '<path outside the repository>' : file}: `), r.stderr);
  }
});

test('directory app: documents marked config.kubernetes.io/local-config (a RollstampConfig, a Kptfile) are not printed', () => {
  const config = 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nmetadata:\n  name: rollstamp\n  annotations:\n    config.kubernetes.io/local-config: "true"\nspec: {}\n';
  const repo = repository({ ...DIRECTORY_REPO, 'apps/plain/rollstamp.yaml': config });
  const r = generate(repo, { path: 'apps/plain' });
  assertOk(r, 'generate');
  assert.equal(objectsOf(r.stdout).map((o) => o.kind).filter((k) => k === 'RollstampConfig'), []);
  assert.is(r.stdout, generate(repository(DIRECTORY_REPO), { path: 'apps/plain' }).stdout, 'same output as without the config file');
});

test('renderers do not see rollstamp\'s own settings: no hash key in the environment of kustomize or helm', () => {
  const repo = repository({ 'apps/k/kustomization.yaml': 'resources: []\n' });
  const bin = tempDir('fake-kustomize');
  const dump = join(bin, 'env.txt');
  // A stand-in `kustomize` that records its environment and renders one ConfigMap.
  writeFileSync(join(bin, 'kustomize'), `#!/bin/sh\nenv > '${dump}'\nprintf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: c\\n'\n`, { mode: 0o755 });
  const r = generate(repo, { path: 'apps/k', sidecarEnv: { ROLLSTAMP_HASH_KEY: 'operator-key-7a1c', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } });
  assertOk(r, 'generate');
  const seen = readFileSync(dump, 'utf8');
  assert.ok(seen.includes('ARGOCD_APP_NAME=shop'), 'the stand-in ran with the request environment');
  assert.not.ok(seen.includes('operator-key-7a1c'), 'the hash key reached the renderer');
  assert.not.ok(seen.includes('ROLLSTAMP_'), 'a rollstamp setting reached the renderer');
});

test('.rollstamp.yaml allowEmpty: true (a YAML boolean) lets an empty render succeed with empty output', () => {
  const rollstamp = 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nmetadata: {name: r}\nspec:\n  allowEmpty: true\n';
  const r = generate(repository({ 'apps/empty/.rollstamp.yaml': rollstamp }), { path: 'apps/empty' });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '');
});

test('directory app: a symlink out of the repository is refused by name and its file is never printed', () => {
  const outsideCanary = 'CANARY-outside-3c9e';
  const repo = repository(DIRECTORY_REPO);
  const r = generate(repo, {
    path: 'apps/plain',
    prepare: (work, checkout) => {
      writeFileSync(join(work, 'outside.yaml'), `apiVersion: v1\nkind: Secret\nmetadata: {name: x}\nstringData: {k: ${outsideCanary}}\n`);
      symlinkSync(join(work, 'outside.yaml'), join(checkout, 'apps/plain/leak.yaml'));
    },
  });
  assertFailsClosed(r, { code: 1, message: /leak\.yaml: symlink points outside the repository/, secrets: [outsideCanary] });
});

test.run();
