// The three ways people install Argo CD, each with a copy-paste file in argocd/: plain manifests (the
// kustomize overlay argocd/install), the argo-helm chart's values (argocd/helm/values.yaml) and an
// argocd-operator / OpenShift GitOps ArgoCD resource (argocd/operator/argocd.yaml). Each is parsed and its
// shape checked; the sidecar must be the same in all three, so a fix in one cannot be forgotten in the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../support/tools.ts';
import { SETTING_TABLE } from '../../plugin/settings/settings-table.ts';

type Obj = Record<string, any>;
const ARGOCD = join(ROOT, 'argocd');
const read = (path: string): string => readFileSync(join(ARGOCD, path), 'utf8');

const pluginText = read('plugin.yaml');
const plugin = parse(pluginText) as Obj;
const patch = parse(read('install/repo-server-patch.yaml')) as Obj;
const kustomization = parse(read('install/kustomization.yaml')) as Obj;
const values = parse(read('helm/values.yaml')) as Obj;
const [pluginConfigMap, argocdCr, ...operatorRefresh] = parseAllDocuments(read('operator/argocd.yaml')).map((d) => d.toJS() as Obj);
const plainRefresh = parseAllDocuments(read('install/refresh.yaml')).map((d) => d.toJS() as Obj);

/** Each install way: its sidecar, the pod volumes it adds, and how the plugin.yaml reaches the sidecar. */
const ways = [
  { name: 'plain manifests', sidecar: patch.spec.template.spec.containers[0], volumes: patch.spec.template.spec.volumes as Obj[] },
  { name: 'argo-helm values', sidecar: values.repoServer.extraContainers[0], volumes: values.repoServer.volumes as Obj[] },
  { name: 'argocd-operator', sidecar: argocdCr!.spec.repo.sidecarContainers[0], volumes: argocdCr!.spec.repo.volumes as Obj[] },
];

const mib = (quantity: string): number => {
  const m = /^(\d+)(Mi|Gi)$/.exec(quantity);
  assert.ok(m, `memory ${quantity} in Mi or Gi`);
  return Number(m![1]) * (m![2] === 'Gi' ? 1024 : 1);
};
const envOf = (c: Obj): Record<string, string> => Object.fromEntries((c.env as Obj[]).map((e) => [e.name, e.value]));
const mountsOf = (c: Obj): Record<string, Obj> => Object.fromEntries((c.volumeMounts as Obj[]).map((m) => [m.mountPath, m]));

test('each way adds one sidecar named rollstamp that runs argocd-cmp-server from the rollstamp image', () => {
  for (const w of ways) {
    assert.is(w.sidecar.name, 'rollstamp', w.name);
    assert.equal(w.sidecar.command, ['/var/run/argocd/argocd-cmp-server'], w.name);
    assert.is(w.sidecar.image, 'registry.example.invalid/rollstamp:0.1.0', `${w.name}: the placeholder to replace`);
  }
  assert.is(values.repoServer.extraContainers.length, 1);
  assert.is(argocdCr!.spec.repo.sidecarContainers.length, 1);
});

test('the image is one `images:` entry in the kustomize overlay', () => {
  assert.equal(kustomization.images, [{ name: 'registry.example.invalid/rollstamp', newName: 'registry.example.invalid/rollstamp', newTag: '0.1.0' }]);
  assert.ok(patch.spec.template.spec.containers[0].image.startsWith(`${kustomization.images[0].name}:`));
});

test('the sidecars agree: resources, environment, mounts and hardening', () => {
  const [first, ...rest] = ways;
  for (const w of rest) {
    assert.equal(w.sidecar.resources, first!.sidecar.resources, `${w.name}: resources`);
    for (const name of ['HOME', 'NODE_OPTIONS', 'ROLLSTAMP_RENDER_TIMEOUT_SECONDS']) assert.is(envOf(w.sidecar)[name], envOf(first!.sidecar)[name], `${w.name}: env ${name}`);
    assert.equal(Object.keys(mountsOf(w.sidecar)).sort(), Object.keys(mountsOf(first!.sidecar)).sort(), `${w.name}: mount paths`);
    const { runAsUser: _u, ...hardening } = first!.sidecar.securityContext as Obj;
    const { runAsUser: uid, ...theirs } = w.sidecar.securityContext as Obj;
    assert.equal(theirs, hardening, `${w.name}: securityContext`);
    // OpenShift's restricted SCC assigns the uid; elsewhere it is Argo CD's 999.
    assert.ok(uid === undefined || uid === 999, `${w.name}: runAsUser`);
  }
  assert.is(first!.sidecar.securityContext.runAsUser, 999);
});

test('memory: requests and limits are set, and the limit holds reposerver.parallelism.limit renders at the input limit', () => {
  // Measured (argocd/README.md#sizing-and-timeouts): peak RSS of one render at the 10 MiB input limit is ~460 MiB with
  // the heap capped at 384 MiB, i.e. ~80 MiB outside the heap; a small app ~60 MiB plus its renderer ~50 MiB.
  const OUTSIDE_HEAP_MIB = 96;
  const parallelism = [values.configs.params['reposerver.parallelism.limit'], argocdCr!.spec.cmdParams['reposerver.parallelism.limit']].map(Number);
  assert.equal(parallelism, [2, 2]);
  for (const w of ways) {
    const { requests, limits } = w.sidecar.resources as Obj;
    assert.ok(requests.cpu && limits.cpu, `${w.name}: cpu request and limit`);
    const heap = Number(/--max-old-space-size=(\d+)/.exec(envOf(w.sidecar).NODE_OPTIONS ?? '')?.[1]);
    assert.ok(heap >= 384, `${w.name}: a heap that holds a 10 MiB input (256 MiB does not)`);
    assert.ok(mib(limits.memory) >= parallelism[0]! * (heap + OUTSIDE_HEAP_MIB), `${w.name}: ${limits.memory} holds ${parallelism[0]} renders`);
    assert.ok(mib(requests.memory) <= mib(limits.memory) && mib(requests.memory) >= 128, `${w.name}: memory request`);
  }
});

test('each way gets plugin.yaml to the sidecar unchanged', () => {
  // Plain manifests: a ConfigMap generated from install/plugin.yaml (argocd-generate.test.ts checks the copy).
  const plainMount = mountsOf(ways[0]!.sidecar)['/home/argocd/cmp-server/config/plugin.yaml']!;
  assert.is(plainMount.subPath, 'plugin.yaml');
  // argo-helm: configs.cmp renders key <plugin>.yaml of ConfigMap argocd-cmp-cm with metadata.name <plugin>.
  assert.is(values.configs.cmp.create, true);
  assert.equal(Object.keys(values.configs.cmp.plugins), [plugin.metadata.name]);
  assert.equal(values.configs.cmp.plugins[plugin.metadata.name], plugin.spec);
  const helmMount = mountsOf(ways[1]!.sidecar)['/home/argocd/cmp-server/config/plugin.yaml']!;
  assert.is(helmMount.subPath, `${plugin.metadata.name}.yaml`);
  assert.is(ways[1]!.volumes.find((v) => v.name === helmMount.name)?.configMap?.name, 'argocd-cmp-cm');
  // argocd-operator: a ConfigMap of its own in the same file, byte for byte argocd/plugin.yaml.
  assert.is(pluginConfigMap!.kind, 'ConfigMap');
  assert.is(pluginConfigMap!.data['plugin.yaml'], pluginText, 'operator/argocd.yaml must carry a copy of argocd/plugin.yaml');
  const opMount = mountsOf(ways[2]!.sidecar)['/home/argocd/cmp-server/config/plugin.yaml']!;
  assert.is(ways[2]!.volumes.find((v) => v.name === opMount.name)?.configMap?.name, pluginConfigMap!.metadata.name);
});

test('only the sidecar gets a ServiceAccount token, and its /tmp is its own', () => {
  assert.is(values.repoServer.automountServiceAccountToken, false, 'the chart mounts the token into every container by default');
  assert.not.ok(argocdCr!.spec.repo.mountsatoken, 'the operator mounts no token unless mountsatoken is set');
  for (const w of ways) {
    const mounts = mountsOf(w.sidecar);
    const token = mounts['/var/run/secrets/kubernetes.io/serviceaccount']!;
    assert.is(token.readOnly, true, w.name);
    const sources = w.volumes.find((v) => v.name === token.name)?.projected?.sources as Obj[];
    assert.is(sources[0]!.serviceAccountToken.path, 'token', w.name);
    assert.is.not(mounts['/tmp']!.name, 'tmp', `${w.name}: not the repo-server's tmp volume`);
    assert.equal(w.volumes.find((v) => v.name === mounts['/tmp']!.name)?.emptyDir, {}, w.name);
    for (const shared of ['var-files', 'plugins']) assert.ok(Object.values(mounts).some((m) => m.name === shared), `${w.name}: mounts ${shared}`);
  }
});

test('the render timeout stays below the 60 s repo-server deadline each way sets', () => {
  assert.equal([values.configs.params['controller.repo.server.timeout.seconds'], Number(argocdCr!.spec.cmdParams['controller.repo.server.timeout.seconds'])], [60, 60]);
  for (const w of ways) assert.ok(Number(envOf(w.sidecar).ROLLSTAMP_RENDER_TIMEOUT_SECONDS) < 60, w.name);
});

const byKind = (objects: Obj[], kind: string): Obj[] => objects.filter((o) => o.kind === kind);
const one = (objects: Obj[], kind: string): Obj => {
  const found = byKind(objects, kind);
  assert.is(found.length, 1, `one ${kind}`);
  return found[0]!;
};

test('each way installs rollstamp refresh with the same objects (#34)', () => {
  assert.equal(plainRefresh.map((o) => o.kind), ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'Deployment']);
  assert.equal(values.extraObjects, plainRefresh, 'argo-helm extraObjects');
  assert.equal(operatorRefresh, plainRefresh, 'argocd-operator file');
  const kustomization = read('install/kustomization.yaml');
  assert.match(kustomization, /^ {2}- refresh\.yaml$/m, 'the plain kit lists it');
});

test('the refresher\'s RBAC is least privilege: read-only on sources and workloads, patch on Applications, its own Lease (#34, #33)', () => {
  const read = one(plainRefresh, 'ClusterRole');
  const verbs = new Set((read.rules as Obj[]).flatMap((r) => r.verbs as string[]));
  assert.equal([...verbs].sort(), ['list', 'watch'], 'cluster-wide it only lists and watches');
  const resources = (read.rules as Obj[]).flatMap((r) => (r.apiGroups as string[]).flatMap((g) => (r.resources as string[]).map((res) => `${g}/${res}`)));
  const defaults = SETTING_TABLE.workloadKinds.default!.split(',').map((gvr) => `${gvr.split('/')[0]}/${gvr.split('/')[2]}`);
  assert.equal(resources.sort(), ['/configmaps', '/secrets', ...defaults].sort(), 'exactly the sources and the default --workload-kinds');
  const role = one(plainRefresh, 'Role');
  const rules = (role.rules as Obj[]).map((r) => `${r.apiGroups.join()}/${r.resources.join()}:${r.verbs.join()}${r.resourceNames ? `@${r.resourceNames.join()}` : ''}`);
  assert.equal(rules, ['argoproj.io/applications:list,watch,patch', 'coordination.k8s.io/leases:create', `coordination.k8s.io/leases:get,update@${SETTING_TABLE.leaseName.default}`]);
  for (const r of [...(read.rules as Obj[]), ...(role.rules as Obj[])]) {
    assert.not.ok([...r.verbs, ...r.resources, ...r.apiGroups].includes('*'), 'no wildcard');
    if (r.apiGroups.includes('') || r.apiGroups.includes('apps')) assert.not.ok(r.verbs.some((v: string) => ['create', 'update', 'patch', 'delete', 'get'].includes(v)), 'no write, and no get by name, on sources and workloads');
  }
  const binding = one(plainRefresh, 'ClusterRoleBinding');
  assert.equal(binding.subjects, [{ kind: 'ServiceAccount', name: 'rollstamp-refresh', namespace: 'argocd' }]);
  const namespaced = parse(readFileSync(join(ARGOCD, 'rbac/refresh-namespaced.yaml'), 'utf8')) as Obj;
  assert.equal([namespaced.kind, namespaced.roleRef.kind, namespaced.roleRef.name], ['RoleBinding', 'ClusterRole', read.metadata.name], 'a RoleBinding per namespace confines the same rules');
  assert.equal(namespaced.subjects, binding.subjects);
});

test('the refresher runs leader-elected from the sidecar\'s image, hardened, with probes on its --listen port (#34)', () => {
  const deployment = one(plainRefresh, 'Deployment');
  const pod = deployment.spec.template.spec;
  const [c] = pod.containers as Obj[];
  assert.is(deployment.spec.replicas, 2);
  assert.is(pod.serviceAccountName, one(plainRefresh, 'ServiceAccount').metadata.name);
  assert.is(c!.image, ways[0]!.sidecar.image, 'the same placeholder image, pinned by the same `images:` entry');
  assert.equal(c!.args.slice(0, 2), ['refresh', '--leader-elect']);
  const listen = c!.args[c!.args.indexOf('--listen') + 1] as string;
  assert.is(Number(listen.split(':').at(-1)), c!.ports[0].containerPort);
  assert.equal([c!.readinessProbe.httpGet.path, c!.livenessProbe.httpGet.path], ['/readyz', '/healthz']);
  assert.equal(c!.env.find((e: Obj) => e.name === 'POD_NAME')?.valueFrom, { fieldRef: { fieldPath: 'metadata.name' } });
  const { runAsUser: _u, ...sidecarHardening } = ways[0]!.sidecar.securityContext as Obj;
  const { runAsNonRoot: _n, ...mine } = { ...pod.securityContext, ...c!.securityContext } as Obj;
  for (const [k, v] of Object.entries(sidecarHardening)) if (k !== 'runAsNonRoot') assert.equal(mine[k], v, `securityContext.${k}`);
  assert.ok(pod.terminationGracePeriodSeconds > 5, 'more than the 5 s it takes to stop');
  assert.ok(c!.resources.limits.memory && c!.resources.requests.memory, 'memory requested and limited');
});

test.run();
