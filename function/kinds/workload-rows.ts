// Target kinds, data: the built-in rows of the workload kind table — every kind whose controller or operator
// copies a pod template onto pods. Each operator row cites the operator's own source (or docs) it was read
// from; docs/kinds.md prints this table and test/unit/workload-rows.test.ts holds the two equal.
import type { KeyPath, RollRule, WorkloadRow } from '../model/workload-row.ts';

const annotations = (template: KeyPath): WorkloadRow['stamp'] => ({ kind: 'annotation', path: [...template, 'metadata', 'annotations'] });

const ON_DELETE = (path: KeyPath): RollRule => ({ path, values: ['OnDelete'], rolls: 'on-delete', why: 'updateStrategy OnDelete: pods roll only when deleted' });

// OpenKruise applies a change of template metadata alone to the running pods in place
// (pkg/util/inplaceupdate/inplace_update_defaults.go, metadataPatches), so no container restarts for it.
const IN_PLACE = (path: KeyPath): RollRule => ({
  path,
  values: ['InPlaceIfPossible', 'InPlaceOnly'],
  rolls: 'never',
  why: 'in-place update: OpenKruise patches a changed annotation onto the running pods, no container restarts',
});

/** Where a stamp rolls a CloneSet, by its fields under `spec` (kept relative: UnitedDeployment prefixes them). */
const CLONESET_RULES: readonly RollRule[] = [ON_DELETE(['spec', 'updateStrategy', 'type']), IN_PLACE(['spec', 'updateStrategy', 'type']), IN_PLACE(['spec', 'updateStrategy', 'podUpdatePolicy'])];

/** A UnitedDeployment's four templates: the workload each makes and what of it changes how it rolls. */
const UNITED_TEMPLATES: ReadonlyArray<readonly [string, string, readonly RollRule[]]> = [
  ['statefulSetTemplate', 'StatefulSet', [ON_DELETE(['spec', 'updateStrategy', 'type'])]],
  ['advancedStatefulSetTemplate', 'Advanced StatefulSet', [ON_DELETE(['spec', 'updateStrategy', 'type']), IN_PLACE(['spec', 'updateStrategy', 'rollingUpdate', 'podUpdatePolicy'])]],
  ['cloneSetTemplate', 'CloneSet', CLONESET_RULES],
  ['deploymentTemplate', 'Deployment', [{ path: ['spec', 'strategy', 'type'], values: ['Recreate'], rolls: 'recreate', why: 'strategy Recreate: every pod stops before new ones start' }]],
];

/**
 * VictoriaMetrics CommonAppsParams at `at` (vmextra_types.go), and a vmBackup at `backup` (vmcluster_types.go
 * VMBackup): vmbackupmanager reads the credentialsSecret key (factory/build/backup.go -credsFilePath) and has env
 * lists of its own.
 */
function vmAppOf(at: KeyPath, backup?: KeyPath): Pick<WorkloadRow, 'podSpecs' | 'env' | 'envFrom' | 'keyRefs' | 'secretNames' | 'configMapNames'> {
  return {
    podSpecs: [at],
    env: [[...at, 'extraEnvs'], ...(backup ? [[...backup, 'extraEnvs']] : [])],
    envFrom: [[...at, 'extraEnvsFrom'], ...(backup ? [[...backup, 'extraEnvsFrom']] : [])],
    ...(backup ? { keyRefs: [[...backup, 'credentialsSecret']] } : {}),
    secretNames: [[...at, 'secrets']],
    configMapNames: [[...at, 'configMaps']],
  };
}

const VMCLUSTER = {
  group: 'operator.victoriametrics.com', kind: 'VMCluster', versions: ['v1beta1'],
  source: 'VictoriaMetrics/operator api/operator/v1beta1/vmcluster_types.go, docs/resources/vmcluster.md (Update strategy, Backup automation)',
} as const;

/** The pod-template kinds of Kubernetes itself. */
const KUBERNETES: readonly WorkloadRow[] = [
  {
    group: 'apps', kind: 'Deployment', required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']], stamp: annotations(['spec', 'template']),
    rolls: 'rolling', why: 'a new ReplicaSet replaces the pods',
    rules: [{ path: ['spec', 'strategy', 'type'], values: ['Recreate'], rolls: 'recreate', why: 'strategy Recreate: every pod stops before new ones start' }],
    source: 'Kubernetes apps/v1 DeploymentSpec',
  },
  {
    group: 'apps', kind: 'StatefulSet', required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']], stamp: annotations(['spec', 'template']),
    rolls: 'rolling', why: 'pods are replaced one ordinal at a time', rules: [ON_DELETE(['spec', 'updateStrategy', 'type'])],
    source: 'Kubernetes apps/v1 StatefulSetSpec',
  },
  {
    group: 'apps', kind: 'DaemonSet', required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']], stamp: annotations(['spec', 'template']),
    rolls: 'rolling', why: 'pods are replaced node by node', rules: [ON_DELETE(['spec', 'updateStrategy', 'type'])],
    source: 'Kubernetes apps/v1 DaemonSetSpec',
  },
  {
    group: 'apps', kind: 'ReplicaSet', required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']], stamp: annotations(['spec', 'template']),
    rolls: 'never', why: 'a ReplicaSet does not replace running pods when its template changes',
    source: 'Kubernetes apps/v1 ReplicaSetSpec',
  },
  {
    group: 'batch', kind: 'CronJob', required: ['spec', 'jobTemplate', 'spec', 'template'], podSpecs: [['spec', 'jobTemplate', 'spec', 'template', 'spec']],
    stamp: annotations(['spec', 'jobTemplate', 'spec', 'template']), rolls: 'next-job', why: 'the next Job the CronJob creates uses the new template',
    source: 'Kubernetes batch/v1 CronJobSpec',
  },
  {
    group: 'batch', kind: 'Job', required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']], stamp: annotations(['spec', 'template']),
    rolls: 'immutable', why: 'the pod template of a Job is immutable', source: 'Kubernetes batch/v1 JobSpec (template is immutable)',
  },
  {
    group: '', kind: 'Pod', required: [], podSpecs: [['spec']], stamp: annotations([]),
    rolls: 'immutable', why: 'the pod template of a Pod is immutable', source: 'Kubernetes core/v1 Pod',
  },
];

/** Operators that render pods from a kind of their own. */
const OPERATORS: readonly WorkloadRow[] = [
  // argoproj/argo-rollouts rollout/templateref.go: with spec.workloadRef, Resolve copies the referenced
  // Deployment's, ReplicaSet's or PodTemplate's template into the Rollout (the Rollout's own template must be
  // empty), and an update of that object bumps the Rollout's workload-generation annotation: a stamp on the
  // referenced object's template makes the new revision (kinds/rollout-workload-ref.ts links the two, #38).
  {
    group: 'argoproj.io', kind: 'Rollout', versions: ['v1alpha1'], required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']],
    stamp: annotations(['spec', 'template']), rolls: 'rolling', why: 'a new ReplicaSet takes over by the canary or blue-green steps',
    delegate: { path: ['spec', 'workloadRef'] },
    source: 'argoproj/argo-rollouts rollout/templateref.go',
  },
  // knative/serving pkg/apis/serving/v1: Service and Configuration hold a RevisionTemplateSpec (metadata and a
  // RevisionSpec that inlines a PodSpec); a changed template makes a new Revision, which takes the traffic
  // routed to the latest one. revision_validation.go VerifyNameChange refuses a changed template whose
  // metadata.name (a chosen Revision name) did not change.
  ...(['Service', 'Configuration'] as const).map((kind): WorkloadRow => ({
    group: 'serving.knative.dev', kind, versions: ['v1'], required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']],
    stamp: annotations(['spec', 'template']), rolls: 'rolling', why: 'a new Revision takes the traffic routed to the latest one',
    rules: [{ path: ['spec', 'template', 'metadata', 'name'], rolls: 'immutable', why: 'spec.template.metadata.name names the Revision: Knative refuses a changed template under the same name' }],
    source: 'knative/serving pkg/apis/serving/v1 (revision_validation.go VerifyNameChange)',
  })),
  // openkruise/kruise apis/apps/v1alpha1/cloneset_types.go (updateStrategy.type ReCreate | InPlaceIfPossible |
  // InPlaceOnly) and apis/apps/v1beta1/cloneset_types.go (type RollingUpdate | OnDelete, podUpdatePolicy).
  {
    group: 'apps.kruise.io', kind: 'CloneSet', versions: ['v1alpha1', 'v1beta1'], required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']],
    stamp: annotations(['spec', 'template']), rolls: 'rolling', why: 'pods are recreated a few at a time (ReCreate)',
    rules: CLONESET_RULES,
    source: 'openkruise/kruise apis/apps/v1alpha1/cloneset_types.go, apis/apps/v1beta1/cloneset_types.go',
  },
  // openkruise/kruise apis/apps/v1beta1/statefulset_types.go: updateStrategy.type RollingUpdate | OnDelete,
  // updateStrategy.rollingUpdate.podUpdatePolicy ReCreate | InPlaceIfPossible | InPlaceOnly.
  {
    group: 'apps.kruise.io', kind: 'StatefulSet', versions: ['v1alpha1', 'v1beta1'], required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']],
    stamp: annotations(['spec', 'template']), rolls: 'rolling', why: 'pods are recreated one ordinal at a time',
    rules: [ON_DELETE(['spec', 'updateStrategy', 'type']), IN_PLACE(['spec', 'updateStrategy', 'rollingUpdate', 'podUpdatePolicy'])],
    source: 'openkruise/kruise apis/apps/v1beta1/statefulset_types.go',
  },
  // openkruise/kruise apis/apps/v1alpha1/daemonset_types.go: updateStrategy.type RollingUpdate | OnDelete,
  // updateStrategy.rollingUpdate.rollingUpdateType Standard | InPlaceIfPossible.
  {
    group: 'apps.kruise.io', kind: 'DaemonSet', versions: ['v1alpha1', 'v1beta1'], required: ['spec', 'template'], podSpecs: [['spec', 'template', 'spec']],
    stamp: annotations(['spec', 'template']), rolls: 'rolling', why: 'pods are replaced node by node',
    rules: [ON_DELETE(['spec', 'updateStrategy', 'type']), IN_PLACE(['spec', 'updateStrategy', 'rollingUpdate', 'rollingUpdateType'])],
    source: 'openkruise/kruise apis/apps/v1alpha1/daemonset_types.go',
  },
  // openkruise/kruise apis/apps/v1beta1/uniteddeployment_types.go: spec.template holds one of four workload
  // templates; each subset's workload is made from it (pkg/controller/uniteddeployment/adapter/*_adapter.go),
  // with the subset's patch applied to the pod template as a strategic merge patch (openkruise.io
  // docs/user-manuals/uniteddeployment.md: env, resources …), and rolls its own pods by that workload's strategy.
  ...UNITED_TEMPLATES.map(([component, workload, rules]): WorkloadRow => ({
    group: 'apps.kruise.io', kind: 'UnitedDeployment', component, versions: ['v1alpha1', 'v1beta1'], required: ['spec', 'template', component],
    podSpecs: [['spec', 'template', component, 'spec', 'template', 'spec'], ['spec', 'topology', 'subsets', '*', 'patch', 'spec']],
    stamp: annotations(['spec', 'template', component, 'spec', 'template']), rolls: 'rolling', why: `each subset's ${workload} replaces its pods`,
    rules: rules.map((r) => ({ ...r, path: ['spec', 'template', component, ...r.path] })),
    source: 'openkruise/kruise apis/apps/v1beta1/uniteddeployment_types.go, pkg/controller/uniteddeployment/adapter',
  })),
  // apis/apps/v1beta1/advancedcronjob_types.go CronJobTemplate: a Job template or a BroadcastJob template
  // (broadcastjob_types.go: spec.template is its pod template); each schedule creates a new one.
  ...(['jobTemplate', 'broadcastJobTemplate'] as const).map((component): WorkloadRow => ({
    group: 'apps.kruise.io', kind: 'AdvancedCronJob', component, versions: ['v1alpha1', 'v1beta1'], required: ['spec', 'template', component],
    podSpecs: [['spec', 'template', component, 'spec', 'template', 'spec']], stamp: annotations(['spec', 'template', component, 'spec', 'template']),
    rolls: 'next-job', why: `the next ${component === 'jobTemplate' ? 'Job' : 'BroadcastJob'} the AdvancedCronJob creates uses the new template`,
    source: 'openkruise/kruise apis/apps/v1beta1/advancedcronjob_types.go, broadcastjob_types.go',
  })),
  // prometheus-operator pkg/apis/monitoring/v1 prometheus_types.go, alertmanager_types.go, thanos_types.go:
  // podMetadata annotations are copied onto the pods (pkg/alertmanager/statefulset.go, pkg/thanos/statefulset.go,
  // pkg/prometheus/promcfg.go BuildPodMetadata); secrets and configMaps are mounted whole at
  // /etc/<component>/secrets|configmaps/<name>; containers, initContainers and volumes merge into the pod spec.
  // The StatefulSet rolls (pkg/operator/statefulset.go UpdateStrategyForStatefulSet, RollingUpdate by default).
  ...(['Prometheus', 'Alertmanager', 'ThanosRuler'] as const).map((kind): WorkloadRow => ({
    group: 'monitoring.coreos.com', kind, versions: ['v1'], required: ['spec'], podSpecs: [['spec']],
    ...(kind === 'ThanosRuler' ? {} : { secretNames: [['spec', 'secrets']], configMapNames: [['spec', 'configMaps']] }),
    stamp: { kind: 'annotation', path: ['spec', 'podMetadata', 'annotations'] }, rolls: 'rolling', why: 'the operator\'s StatefulSet replaces the pods one at a time',
    rules: [ON_DELETE(['spec', 'updateStrategy', 'type'])],
    source: `prometheus-operator/prometheus-operator pkg/apis/monitoring/v1/${kind === 'ThanosRuler' ? 'thanos' : kind.toLowerCase()}_types.go`,
  })),
  // VictoriaMetrics/operator api/operator/v1beta1/vmextra_types.go CommonAppsParams (containers, initContainers,
  // volumes, secrets and configMaps mounted whole at /etc/vm/secrets|configs/<name>, extraEnvs, extraEnvsFrom)
  // and the kinds' podMetadata. internal/controller/operator/factory/vmsingle/vmsingle.go makes a Recreate
  // Deployment; VMAgent and VMAlert take spec.updateStrategy (RollingUpdate by default). VMSingle's vmBackup
  // runs vmbackupmanager beside it (vmBackupOf). license.keyRef does not count: the process re-reads it
  // (vmextra_types.go License.ReloadInterval).
  ...(['VMAgent', 'VMSingle', 'VMAlert'] as const).map((kind): WorkloadRow => ({
    group: 'operator.victoriametrics.com', kind, versions: ['v1beta1'], required: ['spec'], ...vmAppOf(['spec'], kind === 'VMSingle' ? ['spec', 'vmBackup'] : undefined),
    stamp: { kind: 'annotation', path: ['spec', 'podMetadata', 'annotations'] },
    ...(kind === 'VMSingle'
      ? { rolls: 'recreate' as const, why: 'the operator\'s Deployment has strategy Recreate (one pod holding a volume)' }
      : {
          rolls: 'rolling' as const,
          why: 'the operator\'s Deployment replaces the pods',
          rules: [{ path: ['spec', 'updateStrategy'], values: ['Recreate'], rolls: 'recreate' as const, why: 'spec.updateStrategy Recreate' }],
        }),
    source: `VictoriaMetrics/operator api/operator/v1beta1/${kind.toLowerCase()}_types.go, vmextra_types.go${kind === 'VMSingle' ? ', docs/resources/vmsingle.md (Backup automation)' : ''}`,
  })),
  // api/operator/v1beta1/vmcluster_types.go: each component holds its own CommonAppsParams and podMetadata
  // (PodMetadata(kind) puts it on that component's pods only), vmstorage a vmBackup. docs/resources/vmcluster.md
  // Update strategy: vmselect and vmstorage StatefulSets are OnDelete by default, and the operator restarts
  // their pods one by one; vminsert is a Deployment; requestsLoadBalancer runs a vmauth Deployment when enabled.
  ...(['vmselect', 'vminsert', 'vmstorage'] as const).map((component): WorkloadRow => ({
    ...VMCLUSTER, component, required: ['spec', component], ...vmAppOf(['spec', component], component === 'vmstorage' ? ['spec', 'vmstorage', 'vmBackup'] : undefined),
    stamp: { kind: 'annotation', path: ['spec', component, 'podMetadata', 'annotations'] },
    ...(component === 'vminsert'
      ? { rolls: 'rolling' as const, why: 'the operator\'s vminsert Deployment replaces the pods', rules: [{ path: ['spec', 'vminsert', 'updateStrategy'], values: ['Recreate'], rolls: 'recreate' as const, why: 'spec.vminsert.updateStrategy Recreate' }] }
      : { rolls: 'rolling' as const, why: `the operator restarts the ${component} pods one at a time, each once the one before is ready` }),
  })),
  {
    ...VMCLUSTER, component: 'requestsLoadBalancer', required: ['spec', 'requestsLoadBalancer', 'spec'], ...vmAppOf(['spec', 'requestsLoadBalancer', 'spec']),
    stamp: { kind: 'annotation', path: ['spec', 'requestsLoadBalancer', 'spec', 'podMetadata', 'annotations'] }, rolls: 'rolling', why: 'the operator\'s vmauth Deployment replaces the pods',
    rules: [
      { path: ['spec', 'requestsLoadBalancer', 'enabled'], unless: ['true'], rolls: 'immutable', why: 'spec.requestsLoadBalancer.enabled is not true: the operator runs no balancer pods' },
      { path: ['spec', 'requestsLoadBalancer', 'spec', 'updateStrategy'], values: ['Recreate'], rolls: 'recreate', why: 'spec.requestsLoadBalancer.spec.updateStrategy Recreate' },
    ],
  },
  // strimzi/strimzi-kafka-operator api/.../model/common/template: PodTemplate (metadata, volumes of
  // AdditionalVolume: secret, configMap …), ContainerTemplate env of ContainerEnvVar (value or valueFrom
  // secretKeyRef / configMapKeyRef). cluster-operator/.../model/PodRevision.java hashes the whole pod,
  // annotations included, so a changed pod annotation rolls the pods one by one.
  {
    group: 'kafka.strimzi.io', kind: 'Kafka', versions: ['v1beta2', 'v1'], required: ['spec', 'kafka'], podSpecs: [['spec', 'kafka', 'template', 'pod']],
    env: [['spec', 'kafka', 'template', 'kafkaContainer', 'env']], stamp: annotations(['spec', 'kafka', 'template', 'pod']),
    rolls: 'rolling', why: 'the operator rolls the broker pods one by one when their pod revision changes',
    source: 'strimzi/strimzi-kafka-operator api/src/main/java/io/strimzi/api/kafka/model/common/template/PodTemplate.java, PodRevision.java',
  },
  {
    group: 'kafka.strimzi.io', kind: 'KafkaNodePool', versions: ['v1beta2', 'v1'], required: ['spec'], podSpecs: [['spec', 'template', 'pod']],
    env: [['spec', 'template', 'kafkaContainer', 'env']], stamp: annotations(['spec', 'template', 'pod']),
    rolls: 'rolling', why: 'the operator rolls the pool\'s pods one by one when their pod revision changes',
    // cluster-operator/.../model/KafkaPool.java processTemplate: a pool's template.pod replaces the Kafka's
    // spec.kafka.template.pod whole, so a stamp may go only into a template.pod the pool already has.
    rules: [{ path: ['spec', 'template', 'pod'], absent: true, rolls: 'immutable', why: 'has no spec.template.pod: the Kafka\'s spec.kafka.template.pod is its pod template (a stamp here would replace it), so the Kafka\'s stamp rolls it' }],
    source: 'strimzi/strimzi-kafka-operator api/src/main/java/io/strimzi/api/kafka/model/nodepool/KafkaNodePoolTemplate.java, KafkaPool.java',
  },
  {
    group: 'kafka.strimzi.io', kind: 'KafkaConnect', versions: ['v1beta2', 'v1'], required: ['spec'],
    podSpecs: [['spec', 'template', 'pod'], ['spec', 'externalConfiguration']],
    env: [['spec', 'template', 'connectContainer', 'env'], ['spec', 'externalConfiguration', 'env']], stamp: annotations(['spec', 'template', 'pod']),
    rolls: 'rolling', why: 'the operator rolls the Connect pods one by one when their pod revision changes',
    // externalConfiguration (env and volumes) is the v1beta2 field Strimzi removed in 2026-04 (#12683).
    source: 'strimzi/strimzi-kafka-operator api/src/main/java/io/strimzi/api/kafka/model/connect/KafkaConnectTemplate.java, connect/ExternalConfiguration.java before #12683',
  },
  // kedacore/keda apis/keda/v1alpha1/scaledjob_types.go (jobTargetRef is a JobSpec; rollout.strategy, the
  // deprecated rolloutStrategy) and controllers/keda/scaledjob_controller.go deletePreviousVersionScaleJobs:
  // by default the Jobs of an older generation are deleted; `gradual` leaves them to finish.
  {
    group: 'keda.sh', kind: 'ScaledJob', versions: ['v1alpha1'], required: ['spec', 'jobTargetRef', 'template'], podSpecs: [['spec', 'jobTargetRef', 'template', 'spec']],
    stamp: annotations(['spec', 'jobTargetRef', 'template']), rolls: 'recreate', why: 'KEDA deletes the running Jobs of the previous ScaledJob generation',
    rules: [
      { path: ['spec', 'rollout', 'strategy'], values: ['gradual'], rolls: 'next-job', why: 'rollout.strategy gradual: running Jobs finish, new Jobs use the new template' },
      { path: ['spec', 'rolloutStrategy'], values: ['gradual'], rolls: 'next-job', why: 'rolloutStrategy gradual: running Jobs finish, new Jobs use the new template' },
    ],
    source: 'kedacore/keda apis/keda/v1alpha1/scaledjob_types.go, controllers/keda/scaledjob_controller.go',
  },
];

/** Every built-in row, Kubernetes' own kinds first. */
export const WORKLOAD_ROWS: readonly WorkloadRow[] = [...KUBERNETES, ...OPERATORS];
