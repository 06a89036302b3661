// Plugin config stage: every setting declared once — its name, CLI flag, ROLLSTAMP_* variable, who may set it
// in Argo CD (and so its ARGOCD_ENV_ROLLSTAMP_* and parameter spelling), functionConfig field, type, allowed
// values, default and help. The flags of stamp/explain/diff, their help, the Argo CD allowlist and the
// operator-only refusal are read from this table; a test holds it against schemas/ (after TypeScript's
// optionDeclarations, src/compiler/commandLineParser.ts: one table drives the command line, tsconfig and help).

/**
 * Who may set a setting under Argo CD:
 * - `app`: the Application (`.rollstamp.yaml`, `ARGOCD_ENV_ROLLSTAMP_<NAME>`, parameter `<name>`);
 * - `operator`: only the sidecar's own environment (a repository that names it is refused, in any spelling);
 * - `argocd`: Argo CD itself (the destination namespace), never the repository.
 */
export type SettingOwner = 'app' | 'operator' | 'argocd';

/** One setting. */
export interface SettingDeclaration {
  /** The setting's name, as a functionConfig field is spelled (`onMissing`). */
  name: string;
  /** True when it is a functionConfig field (schemas/rollstamp-config.schema.json `spec`). */
  field: boolean;
  /** `stamp`, `explain` and `diff`: the flag that sets the field (long name without dashes), its short name and value. */
  flag?: { name: string; short?: string; arg?: string; help: string };
  /** The sidecar's (and CLI's) environment variable, if any. */
  env?: string;
  /** Who may set it under Argo CD; absent: not an Argo CD setting. */
  argocd?: SettingOwner;
  /** Other spellings an operator-only setting is refused by (`context` for kubeContext). */
  aliases?: readonly string[];
  type: 'string' | 'boolean' | 'number' | 'array';
  /** The only values accepted. */
  values?: readonly string[];
  /** The default, as the help shows it. */
  default?: string;
  /**
   * A setting of one command only, set by its flag (`refresh`): not a config flag of stamp, explain and diff. A
   * boolean row's flag takes no value.
   */
  command?: 'refresh';
}

/**
 * The settings, in help order.
 * - Env-only ones (`field: false`) are read where they are used (settings.ts, live-sources.ts, argocd/).
 */
export const SETTINGS: readonly SettingDeclaration[] = [
  { name: 'renderer', field: true, argocd: 'app', type: 'string', values: ['kustomize', 'helm', 'directory'] },
  { name: 'valuesFiles', field: true, argocd: 'app', type: 'string' },
  { name: 'targets', field: true, argocd: 'app', type: 'string', values: ['opted-in', 'all'], default: 'opted-in', flag: { name: 'targets', help: 'which workloads to stamp (default: opted-in)' } },
  { name: 'selector', field: true, argocd: 'app', type: 'string', flag: { name: 'selector', short: 'l', arg: 'SELECTOR', help: 'also stamp workloads whose labels match, e.g. restart-on-config-update=true' } },
  { name: 'annotationKey', field: true, argocd: 'app', type: 'string', default: 'rollstamp.dev/hash', flag: { name: 'annotation-key', arg: 'KEY', help: 'pod-template annotation to write (default: rollstamp.dev/hash)' } },
  { name: 'onMissing', field: true, argocd: 'app', type: 'string', values: ['warn', 'error', 'ignore'], default: 'warn', flag: { name: 'on-missing', help: 'a reference nothing in the input resolves (default: warn)' } },
  {
    name: 'defaultNamespace',
    field: true,
    argocd: 'argocd',
    type: 'string',
    default: 'default',
    flag: { name: 'default-namespace', short: 'n', arg: 'NS', help: 'namespace of objects without one (default: default);\nuse the namespace you gave `helm template -n`' },
  },
  { name: 'hashKeyFile', field: true, env: 'ROLLSTAMP_HASH_KEY_FILE', argocd: 'operator', type: 'string', flag: { name: 'hash-key-file', arg: 'FILE', help: 'HMAC-SHA256 key file (or env ROLLSTAMP_HASH_KEY)' } },
  { name: 'kagent', field: true, argocd: 'app', type: 'string', values: ['enabled', 'disabled'], default: 'enabled', flag: { name: 'kagent', help: 'stamp kagent Agents and ModelConfigs (default: enabled)' } },
  // Stakater Reloader's annotations (#38).
  { name: 'reloader', field: true, argocd: 'app', type: 'string', values: ['enabled', 'disabled'], default: 'enabled', flag: { name: 'reloader', help: "read Stakater Reloader's annotations: auto opts in, reload names\nsources, ignore leaves a source out (default: enabled)" } },
  { name: 'hashScheme', field: true, argocd: 'app', type: 'string', values: ['v1', 'kagent'], default: 'v1', flag: { name: 'hash-scheme', help: "kagent: a ModelConfig's hash equals kagent's status.secretHash (default: v1)" } },
  {
    name: 'live',
    field: true,
    env: 'ROLLSTAMP_LIVE',
    argocd: 'operator',
    type: 'string',
    values: ['never', 'missing', 'always'],
    default: 'never',
    flag: {
      name: 'live',
      help: 'read Secrets/ConfigMaps from the cluster: missing = only what the input\ndoes not define; always = also what a producer (ExternalSecret …) makes\n(default: never; needs "get" on secrets/configmaps)',
    },
  },
  { name: 'kubeconfig', field: false, env: 'KUBECONFIG', argocd: 'operator', type: 'string', flag: { name: 'kubeconfig', arg: 'FILE', help: 'kubeconfig for live reads (default: KUBECONFIG, ~/.kube/config, in-cluster)' } },
  { name: 'kubeContext', field: false, env: 'ROLLSTAMP_KUBE_CONTEXT', argocd: 'operator', aliases: ['context'], type: 'string', flag: { name: 'context', arg: 'NAME', help: 'kubeconfig context for live reads (default: the current context)' } },
  { name: 'allowEmpty', field: true, argocd: 'app', type: 'boolean', default: 'false' },
  { name: 'skipCrds', field: true, argocd: 'app', type: 'boolean', default: 'false' },
  // Workload kinds the user declares (#24): rows of the core's kind table.
  { name: 'kinds', field: true, argocd: 'app', type: 'array' },
  // The Application may set the output format by its plugin env only (argocd/app-settings.ts), no other way.
  { name: 'output', field: false, env: 'ROLLSTAMP_OUTPUT', type: 'string', values: ['yaml', 'json'], default: 'yaml' },
  { name: 'hashKey', field: false, env: 'ROLLSTAMP_HASH_KEY', argocd: 'operator', type: 'string' },
  { name: 'maxInputBytes', field: false, env: 'ROLLSTAMP_MAX_INPUT_BYTES', argocd: 'operator', type: 'number', default: '10485760' },
  { name: 'renderTimeoutSeconds', field: false, env: 'ROLLSTAMP_RENDER_TIMEOUT_SECONDS', argocd: 'operator', type: 'number', default: '45' },
  { name: 'rendererStderr', field: false, env: 'ROLLSTAMP_RENDERER_STDERR', argocd: 'operator', type: 'string', values: ['show'] },
  { name: 'reader', field: false, env: 'ROLLSTAMP_READER', argocd: 'operator', type: 'string', values: ['fast', 'full'], default: 'fast' },
  { name: 'kustomizeBuildOptions', field: false, env: 'ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS', argocd: 'operator', type: 'string' },
  // Plain http:// chart repositories (#21).
  { name: 'helmAllowHttp', field: false, env: 'ROLLSTAMP_HELM_ALLOW_HTTP', argocd: 'operator', type: 'string', values: ['true'] },
  { name: 'liveNamespaces', field: false, env: 'ROLLSTAMP_LIVE_NAMESPACES', argocd: 'operator', aliases: ['namespaces'], type: 'string' },
  { name: 'liveTimeoutSeconds', field: false, env: 'ROLLSTAMP_LIVE_TIMEOUT_SECONDS', argocd: 'operator', type: 'number', default: '5' },
  { name: 'liveDeadlineSeconds', field: false, env: 'ROLLSTAMP_LIVE_DEADLINE_SECONDS', argocd: 'operator', type: 'number', default: '30' },
  // Work caps (#12).
  { name: 'maxReferences', field: false, env: 'ROLLSTAMP_MAX_REFERENCES', argocd: 'operator', type: 'number', default: '1000' },
  { name: 'maxKeyWork', field: false, env: 'ROLLSTAMP_MAX_KEY_WORK', argocd: 'operator', type: 'number', default: '500000' },
  // The kagent 1.x preview's rows for a whole run (#33).
  { name: 'maxPreviewRows', field: false, env: 'ROLLSTAMP_MAX_PREVIEW_ROWS', argocd: 'operator', type: 'number', default: '500000' },
  { name: 'maxLiveReads', field: false, env: 'ROLLSTAMP_MAX_LIVE_READS', argocd: 'operator', type: 'number', default: '500' },
  // What a repository's spec.kinds may declare (#33): entries, and paths per entry.
  { name: 'maxKinds', field: false, env: 'ROLLSTAMP_MAX_KINDS', argocd: 'operator', type: 'number', default: '100' },
  { name: 'maxKindPaths', field: false, env: 'ROLLSTAMP_MAX_KIND_PATHS', argocd: 'operator', type: 'number', default: '32' },
  // `rollstamp refresh` (#34); it also takes kubeconfig, kubeContext and hashKeyFile above.
  { name: 'once', field: false, command: 'refresh', type: 'boolean', flag: { name: 'once', help: 'one pass over the cluster, then exit (a CronJob, CI); default: run until stopped' } },
  { name: 'argocdNamespace', field: false, command: 'refresh', type: 'string', default: 'argocd', flag: { name: 'argocd-namespace', arg: 'NS', help: 'where Argo CD\'s Applications live (default: argocd)' } },
  {
    name: 'applicationNamespaces',
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'application-namespaces', arg: 'NS,...', help: 'more namespaces whose Applications it may refresh (Argo CD\'s\napplication.namespaces; tracking ids written NS_NAME)' },
  },
  {
    name: 'watchNamespaces',
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'namespaces', arg: 'NS,...', help: 'the only namespaces whose workloads, Secrets and ConfigMaps it reads\n(default: every namespace; with it, no request reaches any other)' },
  },
  {
    name: 'sharedNamespaces',
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'shared-namespaces', arg: 'NS,...', help: 'namespaces a record may name besides the workload\'s own (as the\nsidecar\'s ROLLSTAMP_LIVE_NAMESPACES; default: none)' },
  },
  {
    name: 'workloadKinds',
    field: false,
    command: 'refresh',
    type: 'string',
    default: 'apps/v1/deployments,apps/v1/statefulsets,apps/v1/daemonsets,apps/v1/replicasets,batch/v1/cronjobs,argoproj.io/v1alpha1/rollouts,kagent.dev/v1alpha2/agents',
    flag: { name: 'workload-kinds', arg: 'G/V/R,...', help: 'workload resources to watch for records, as group/version/resource\n(default: Deployments, StatefulSets, DaemonSets, ReplicaSets, CronJobs,\nArgo Rollouts, kagent 0.x Agents; one the cluster does not serve is skipped)' },
  },
  { name: 'leaderElect', field: false, command: 'refresh', type: 'boolean', flag: { name: 'leader-elect', help: 'act only while holding a coordination.k8s.io/v1 Lease (two replicas)' } },
  { name: 'leaseName', field: false, command: 'refresh', type: 'string', default: 'rollstamp-refresh', flag: { name: 'lease-name', arg: 'NAME', help: 'the Lease of --leader-elect (default: rollstamp-refresh, in --argocd-namespace)' } },
  { name: 'listen', field: false, command: 'refresh', type: 'string', default: ':8080', flag: { name: 'listen', arg: 'ADDR', help: 'serve /healthz, /readyz and /metrics on [HOST]:PORT, or off (default: :8080)' } },
  { name: 'debounceSeconds', field: false, command: 'refresh', type: 'number', default: '1', flag: { name: 'debounce', arg: 'SECONDS', help: 'changes this close together are one burst: one pass (default: 1)' } },
  { name: 'minIntervalSeconds', field: false, command: 'refresh', type: 'number', default: '30', flag: { name: 'min-interval', arg: 'SECONDS', help: 'at most one request per Application this often; later ones wait (default: 30)' } },
  { name: 'maxPerMinute', field: false, command: 'refresh', type: 'number', default: '30', flag: { name: 'max-per-minute', arg: 'N', help: 'at most this many requests per minute in all; later ones wait (default: 30)' } },
];

/** The declaration of a setting by name; a name not in the table is a bug. */
export function setting(name: string): SettingDeclaration {
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw new Error(`internal: no setting ${name}`);
  return found;
}

/** The environment variable of a setting that has one. */
export function envOf(name: string): string {
  const { env } = setting(name);
  if (env === undefined) throw new Error(`internal: setting ${name} has no environment variable`);
  return env;
}

/** Names of the settings `owner` may set under Argo CD (operator-only ones with their other spellings). */
export function settingsOwnedBy(owner: SettingOwner): string[] {
  return SETTINGS.filter((s) => s.argocd === owner).flatMap((s) => [s.name, ...(s.aliases ?? [])]);
}

/** An app setting's plugin env under Argo CD: `valuesFiles` → `ARGOCD_ENV_ROLLSTAMP_VALUES_FILES`. */
export function argocdEnvOf(name: string): string {
  return `ARGOCD_ENV_ROLLSTAMP_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** An app setting's Argo CD parameter: `valuesFiles` → `values-files`. */
export function argocdParameterOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
