// Operator rows checked against each operator's documentation (#38). Each case is an object shaped like the
// examples of that operator's docs (written here, not copied from them) and an oracle written from the docs'
// own statements, not from the rows: for each set of pods the object makes, where those pods take annotations
// from, which Secret and ConfigMap keys reach them, and how a change reaches them. `explain` must agree.
// Sources: VictoriaMetrics/operator docs/resources/vmsingle.md and vmcluster.md ("Backup automation", "Update
// strategy", "Requests Load-Balancing"), docs/api.md (CommonAppsParams, License); openkruise.io
// docs/user-manuals/uniteddeployment.md, advancedcronjob.md, sidecarset.md.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { runInProcess } from '../support/run-cli.ts';

type Obj = Record<string, unknown>;
interface Explained {
  targets: Array<{ component?: string; field: string; rollout?: { how: string }; sources: Array<{ kind: string; name: string; whole: boolean; keys: Array<{ key: string }> }> }>;
  results: Array<{ severity: string; message: string; tags: { code: string }; resourceRef?: { kind: string } }>;
}

/** What the docs say one set of pods gets: its stamp site, what reaches it (`Kind/name:key,…`, `*` whole), how it rolls. */
interface Pods {
  component?: string;
  annotations: string;
  uses: string[];
  rolls: string;
}

const ns = { namespace: 'mon' };
const secret = (name: string, keys: string[]): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ...ns }, stringData: Object.fromEntries(keys.map((k) => [k, `${name}-${k}`])) });
const configMap = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...ns }, data: { 'a.yaml': 'x' } });
const optIn = { annotations: { 'rollstamp.dev/enabled': 'true' } };
const envFromSecret = (key: string, name: string): Obj => ({ name: key, valueFrom: { secretKeyRef: { name, key: key.toLowerCase() } } });

const CASES: Array<{ name: string; object: Obj; sources: Obj[]; pods: Pods[] }> = [
  {
    // vmsingle.md Backup automation: credentialsSecret {name, key} is read by vmbackupmanager; api.md
    // CommonAppsParams: `secrets` are mounted whole at /etc/vm/secrets/<name>, extraEnvs are the container's
    // env; License.keyRef is re-read every reloadInterval, so rotating it needs no restart.
    name: 'VMSingle with backup automation: the backup credentials key, the mounted Secrets and the env reach its one pod; the license key does not',
    object: {
      apiVersion: 'operator.victoriametrics.com/v1beta1', kind: 'VMSingle', metadata: { name: 'example', ...ns, ...optIn },
      spec: {
        license: { keyRef: { name: 'license', key: 'key' } },
        secrets: ['tls-assets'],
        extraEnvs: [envFromSecret('TOKEN', 'env-token')],
        vmBackup: { destination: 's3://your_bucket/folder', credentialsSecret: { name: 'remote-storage-keys', key: 'credentials' } },
      },
    },
    sources: [secret('license', ['key']), secret('tls-assets', ['ca.crt']), secret('env-token', ['token']), secret('remote-storage-keys', ['credentials', 'unused'])],
    pods: [{ annotations: 'spec.podMetadata.annotations', uses: ['Secret/env-token:token', 'Secret/remote-storage-keys:credentials', 'Secret/tls-assets:*'], rolls: 'recreate' }],
  },
  {
    // vmcluster.md: vmselect and vmstorage are StatefulSets the operator restarts node by node (OnDelete), vminsert a
    // Deployment; Backup automation lives under vmstorage.vmBackup; requestsLoadBalancer.enabled runs vmauth pods.
    // Each component's podMetadata goes on its own pods.
    name: 'VMCluster: each component\'s pods get their own stamp over what they read, backup credentials for vmstorage alone',
    object: {
      apiVersion: 'operator.victoriametrics.com/v1beta1', kind: 'VMCluster', metadata: { name: 'ent-example', ...ns, ...optIn },
      spec: {
        retentionPeriod: '1',
        vmselect: { replicaCount: 2, configMaps: ['select-cache-config'] },
        vminsert: { replicaCount: 2, extraEnvsFrom: [{ secretRef: { name: 'insert-env' } }] },
        vmstorage: { replicaCount: 3, vmBackup: { destination: 's3://your_bucket/folder', credentialsSecret: { name: 'remote-storage-keys', key: 'credentials' } } },
        requestsLoadBalancer: { enabled: true, spec: { replicaCount: 2, extraEnvs: [envFromSecret('AUTH', 'lb-auth')] } },
      },
    },
    sources: [configMap('select-cache-config'), secret('insert-env', ['A']), secret('remote-storage-keys', ['credentials']), secret('lb-auth', ['auth'])],
    pods: [
      { component: 'vmselect', annotations: 'spec.vmselect.podMetadata.annotations', uses: ['ConfigMap/select-cache-config:*'], rolls: 'rolling' },
      { component: 'vminsert', annotations: 'spec.vminsert.podMetadata.annotations', uses: ['Secret/insert-env:*'], rolls: 'rolling' },
      { component: 'vmstorage', annotations: 'spec.vmstorage.podMetadata.annotations', uses: ['Secret/remote-storage-keys:credentials'], rolls: 'rolling' },
      { component: 'requestsLoadBalancer', annotations: 'spec.requestsLoadBalancer.spec.podMetadata.annotations', uses: ['Secret/lb-auth:auth'], rolls: 'rolling' },
    ],
  },
  {
    name: 'VMCluster without an enabled balancer: no balancer pods, so no balancer stamp; vminsert with Recreate recreates',
    object: {
      apiVersion: 'operator.victoriametrics.com/v1beta1', kind: 'VMCluster', metadata: { name: 'small', ...ns, ...optIn },
      spec: { vminsert: { replicaCount: 1, updateStrategy: 'Recreate' }, requestsLoadBalancer: { enabled: false, spec: { replicaCount: 1 } } },
    },
    sources: [],
    pods: [{ component: 'vminsert', annotations: 'spec.vminsert.podMetadata.annotations', uses: [], rolls: 'recreate' }],
  },
  {
    // uniteddeployment.md: one workload per subset from spec.template (statefulSetTemplate here); "Arbitrary Pod
    // Customization" patches a subset's containers (env); Pod Update Management: a template change is patched to
    // each subset workload, which updates its pods.
    name: 'UnitedDeployment: its StatefulSet template and every subset patch reach the pods; the stamp goes in the template',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name: 'sample-ud', ...ns, ...optIn },
      spec: {
        replicas: 6,
        selector: { matchLabels: { app: 'sample' } },
        template: { statefulSetTemplate: { metadata: { labels: { app: 'sample' } }, spec: { selector: { matchLabels: { app: 'sample' } }, template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine', envFrom: [{ configMapRef: { name: 'shared-config' } }] }] } } } } },
        topology: { subsets: [{ name: 'subset-a', patch: { spec: { containers: [{ name: 'main', env: [envFromSecret('ZONE', 'zone-a-keys')] }] } } }, { name: 'subset-b' }] },
        updateStrategy: { type: 'Manual', manualUpdate: { partitions: { 'subset-a': 0, 'subset-b': 0 } } },
      },
    },
    sources: [configMap('shared-config'), secret('zone-a-keys', ['zone', 'other'])],
    pods: [{ component: 'statefulSetTemplate', annotations: 'spec.template.statefulSetTemplate.spec.template.metadata.annotations', uses: ['ConfigMap/shared-config:*', 'Secret/zone-a-keys:zone'], rolls: 'rolling' }],
  },
  {
    name: 'UnitedDeployment of CloneSets updated in place: the stamp restarts no container',
    object: {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'UnitedDeployment', metadata: { name: 'clones', ...ns, ...optIn },
      spec: { selector: { matchLabels: { app: 'c' } }, template: { cloneSetTemplate: { spec: { updateStrategy: { type: 'InPlaceIfPossible' }, template: { spec: { containers: [{ name: 'main', image: 'x' }] } } } } } },
    },
    sources: [],
    pods: [{ component: 'cloneSetTemplate', annotations: 'spec.template.cloneSetTemplate.spec.template.metadata.annotations', uses: [], rolls: 'never' }],
  },
  {
    // advancedcronjob.md: broadcastJobTemplate creates a BroadcastJob on each schedule (its spec.template is the pod
    // template); jobTemplate is a CronJob's.
    name: 'AdvancedCronJob of BroadcastJobs: the next BroadcastJob takes the new stamp',
    object: {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name: 'acj-test', ...ns, ...optIn },
      spec: { schedule: '*/1 * * * *', template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl', env: [envFromSecret('KEY', 'pi-key')] }], restartPolicy: 'Never' } }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } } } } },
    },
    sources: [secret('pi-key', ['key'])],
    pods: [{ component: 'broadcastJobTemplate', annotations: 'spec.template.broadcastJobTemplate.spec.template.metadata.annotations', uses: ['Secret/pi-key:key'], rolls: 'next-job' }],
  },
  {
    name: 'AdvancedCronJob of Jobs: as a CronJob, the next Job takes the new stamp',
    object: {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', metadata: { name: 'nightly', ...ns, ...optIn },
      spec: { schedule: '0 2 * * *', template: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'job', image: 'x', envFrom: [{ secretRef: { name: 'job-env' } }] }], restartPolicy: 'OnFailure' } } } } } },
    },
    sources: [secret('job-env', ['A'])],
    pods: [{ component: 'jobTemplate', annotations: 'spec.template.jobTemplate.spec.template.metadata.annotations', uses: ['Secret/job-env:*'], rolls: 'next-job' }],
  },
];

/** `Kind/name:key,…` of a source report, `*` for a whole one. */
const use = (s: Explained['targets'][number]['sources'][number]): string => `${s.kind}/${s.name}:${s.whole ? '*' : s.keys.map((k) => k.key).join(',')}`;

for (const c of CASES) {
  test(c.name, async () => {
    const r = await runInProcess(['explain', '-o', 'json', '-'], { stdin: [c.object, ...c.sources].map((o) => stringify(o)).join('---\n') });
    assert.is(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as Explained;
    const got = doc.targets.map((t): Pods => ({ ...(t.component ? { component: t.component } : {}), annotations: t.field.replace('["rollstamp.dev/hash"]', ''), uses: t.sources.map(use).sort(), rolls: t.rollout!.how }));
    assert.equal(got, c.pods);
  });
}

test('SidecarSet: never stamped, and explain says which pods its Secrets and ConfigMaps reach (sidecarset.md: injected when a pod is created)', async () => {
  const sidecarSet = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'test-sidecarset', ...optIn },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      namespace: 'mon',
      containers: [{ name: 'sidecar1', image: 'centos:6.7', envFrom: [{ secretRef: { name: 'shipper-token' } }], volumeMounts: [{ name: 'log-conf', mountPath: '/etc/log' }] }],
      volumes: [{ name: 'log-conf', configMap: { name: 'log-conf' } }],
    },
  };
  const r = await runInProcess(['explain', '-o', 'json', '--allow-empty', '-'], { stdin: stringify(sidecarSet) });
  const doc = JSON.parse(r.stdout) as Explained;
  assert.is(doc.targets.length, 0);
  const note = doc.results.find((x) => x.resourceRef?.kind === 'SidecarSet')!;
  assert.is(note.severity, 'info');
  assert.match(note.message, /ConfigMap log-conf, Secret shipper-token reach the pods labelled app=nginx in namespace mon when those pods are next created/);
  const stamped = await runInProcess(['stamp', '--allow-no-targets', '-'], { stdin: stringify(sidecarSet) });
  assert.not.match(stamped.stdout, /rollstamp\.dev\/hash/);
});

test.run();
