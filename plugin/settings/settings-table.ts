// Plugin config stage: every setting declared once — its name, CLI flag, ROLLSTAMP_* variable, who may set it
// in Argo CD (and so its ARGOCD_ENV_ROLLSTAMP_* and parameter spelling), functionConfig field, type, allowed
// values, default and help. The flags of stamp/explain/diff, their help, the Argo CD allowlist and the
// operator-only refusal are read from this table; a test holds it against schemas/ (after TypeScript's
// optionDeclarations, src/compiler/commandLineParser.ts: one table drives the command line, tsconfig and help).
// Each row is typed by the setting it fills (setting-row.ts), carries its typed default and, for an operator
// setting, its parser; a core setting's default is the core's own constant, never restated here.
import { DEFAULT_CONFIG, DEFAULT_MAX_KEY_WORK, DEFAULT_MAX_KIND_PATHS, DEFAULT_MAX_KINDS, DEFAULT_MAX_PREVIEW_ROWS, DEFAULT_MAX_REFERENCES, DEFAULT_READ_MODE, READ_MODES } from '../../function/index.ts';
import { oneOf, positiveWhole, type SettingDeclaration, type SettingOwner, type SettingsTable, trueOrFalse } from './setting-row.ts';

export type { SettingDeclaration, SettingOwner } from './setting-row.ts';

/**
 * The settings, in help order.
 * - Operator ones (OperatorSettings) are parsed by their row, once per run (run-settings.ts); other env-only
 *   ones (`field: false`) are read as text where they are used (live-sources.ts, argocd/).
 */
export const SETTING_TABLE: SettingsTable = {
  renderer: { field: true, argocd: 'app', type: 'string', values: ['kustomize', 'helm', 'directory'] },
  valuesFiles: { field: true, argocd: 'app', type: 'string' },
  targets: { field: true, argocd: 'app', type: 'string', values: ['opted-in', 'all'], default: DEFAULT_CONFIG.targets, flag: { name: 'targets', help: 'which workloads to stamp (default: opted-in)' } },
  selector: { field: true, argocd: 'app', type: 'string', flag: { name: 'selector', short: 'l', arg: 'SELECTOR', help: 'also stamp workloads whose labels match, e.g. restart-on-config-update=true' } },
  annotationKey: { field: true, argocd: 'app', type: 'string', default: DEFAULT_CONFIG.annotationKey, flag: { name: 'annotation-key', arg: 'KEY', help: 'pod-template annotation to write (default: rollstamp.dev/hash)' } },
  onMissing: { field: true, argocd: 'app', type: 'string', values: ['warn', 'error', 'ignore'], default: DEFAULT_CONFIG.onMissing, flag: { name: 'on-missing', help: 'a reference nothing in the input resolves (default: warn)' } },
  defaultNamespace: {
    field: true,
    argocd: 'argocd',
    type: 'string',
    default: DEFAULT_CONFIG.defaultNamespace,
    flag: { name: 'default-namespace', short: 'n', arg: 'NS', help: 'namespace of objects without one (default: default);\nuse the namespace you gave `helm template -n`' },
  },
  hashKeyFile: { field: true, env: 'ROLLSTAMP_HASH_KEY_FILE', argocd: 'operator', type: 'string', flag: { name: 'hash-key-file', arg: 'FILE', help: 'HMAC-SHA256 key file (or env ROLLSTAMP_HASH_KEY)' } },
  kagent: { field: true, argocd: 'app', type: 'string', values: ['enabled', 'disabled'], default: DEFAULT_CONFIG.kagent, flag: { name: 'kagent', help: 'stamp kagent Agents and ModelConfigs (default: enabled)' } },
  // Stakater Reloader's annotations (#38).
  reloader: { field: true, argocd: 'app', type: 'string', values: ['enabled', 'disabled'], default: DEFAULT_CONFIG.reloader, flag: { name: 'reloader', help: "read Stakater Reloader's annotations: auto opts in, reload names\nsources, ignore leaves a source out (default: enabled)" } },
  hashScheme: { field: true, argocd: 'app', type: 'string', values: ['v1', 'kagent'], default: DEFAULT_CONFIG.hashScheme, flag: { name: 'hash-scheme', help: "kagent: a ModelConfig's hash equals kagent's status.secretHash (default: v1)" } },
  live: {
    field: true,
    env: 'ROLLSTAMP_LIVE',
    argocd: 'operator',
    type: 'string',
    values: ['never', 'missing', 'always'],
    default: DEFAULT_CONFIG.live,
    flag: {
      name: 'live',
      help: 'read Secrets/ConfigMaps from the cluster: missing = only what the input\ndoes not define; always = also what a producer (ExternalSecret …) makes\n(default: never; needs "get" on secrets/configmaps)',
    },
  },
  kubeconfig: { field: false, env: 'KUBECONFIG', argocd: 'operator', type: 'string', flag: { name: 'kubeconfig', arg: 'FILE', help: 'kubeconfig for live reads (default: KUBECONFIG, ~/.kube/config, in-cluster)' } },
  kubeContext: { field: false, env: 'ROLLSTAMP_KUBE_CONTEXT', argocd: 'operator', aliases: ['context'], type: 'string', flag: { name: 'context', arg: 'NAME', help: 'kubeconfig context for live reads (default: the current context)' } },
  allowEmpty: { field: true, argocd: 'app', type: 'boolean', default: false },
  skipCrds: { field: true, argocd: 'app', type: 'boolean', default: false },
  // Workload kinds the user declares (#24): rows of the core's kind table.
  kinds: { field: true, argocd: 'app', type: 'array' },
  // The Application may set the output format by its plugin env only (argocd/app-settings.ts), no other way.
  output: { field: false, env: 'ROLLSTAMP_OUTPUT', type: 'string', values: ['yaml', 'json'], default: 'yaml' },
  hashKey: { field: false, env: 'ROLLSTAMP_HASH_KEY', argocd: 'operator', type: 'string' },
  // 10 MiB: Argo CD's own default for directory apps.
  maxInputBytes: { field: false, env: 'ROLLSTAMP_MAX_INPUT_BYTES', argocd: 'operator', type: 'number', default: 10 * 1024 * 1024, parse: positiveWhole('bytes') },
  // 45 s: below Argo CD's 60 s repo-server deadline.
  renderTimeoutSeconds: { field: false, env: 'ROLLSTAMP_RENDER_TIMEOUT_SECONDS', argocd: 'operator', type: 'number', default: 45, parse: positiveWhole('seconds') },
  rendererStderr: { field: false, env: 'ROLLSTAMP_RENDERER_STDERR', argocd: 'operator', type: 'string', values: ['show'] },
  reader: { field: false, env: 'ROLLSTAMP_READER', argocd: 'operator', type: 'string', values: READ_MODES, default: DEFAULT_READ_MODE, parse: oneOf(READ_MODES) },
  kustomizeBuildOptions: { field: false, env: 'ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS', argocd: 'operator', type: 'string' },
  // Plain http:// chart repositories (#21).
  helmAllowHttp: { field: false, env: 'ROLLSTAMP_HELM_ALLOW_HTTP', argocd: 'operator', type: 'string', values: ['true'], default: false, parse: trueOrFalse },
  liveNamespaces: { field: false, env: 'ROLLSTAMP_LIVE_NAMESPACES', argocd: 'operator', aliases: ['namespaces'], type: 'string' },
  liveTimeoutSeconds: { field: false, env: 'ROLLSTAMP_LIVE_TIMEOUT_SECONDS', argocd: 'operator', type: 'number', default: 5, parse: positiveWhole('seconds', 999) },
  liveDeadlineSeconds: { field: false, env: 'ROLLSTAMP_LIVE_DEADLINE_SECONDS', argocd: 'operator', type: 'number', default: 30, parse: positiveWhole('seconds', 999) },
  // Work caps (#12).
  maxReferences: { field: false, env: 'ROLLSTAMP_MAX_REFERENCES', argocd: 'operator', type: 'number', default: DEFAULT_MAX_REFERENCES, parse: positiveWhole('references') },
  maxKeyWork: { field: false, env: 'ROLLSTAMP_MAX_KEY_WORK', argocd: 'operator', type: 'number', default: DEFAULT_MAX_KEY_WORK, parse: positiveWhole('keys') },
  // The kagent 1.x preview's rows for a whole run (#33).
  maxPreviewRows: { field: false, env: 'ROLLSTAMP_MAX_PREVIEW_ROWS', argocd: 'operator', type: 'number', default: DEFAULT_MAX_PREVIEW_ROWS, parse: positiveWhole('rows') },
  maxLiveReads: { field: false, env: 'ROLLSTAMP_MAX_LIVE_READS', argocd: 'operator', type: 'number', default: 500, parse: positiveWhole('reads') },
  // What a repository's spec.kinds may declare (#33): entries, and paths per entry.
  maxKinds: { field: false, env: 'ROLLSTAMP_MAX_KINDS', argocd: 'operator', type: 'number', default: DEFAULT_MAX_KINDS, parse: positiveWhole('entries') },
  maxKindPaths: { field: false, env: 'ROLLSTAMP_MAX_KIND_PATHS', argocd: 'operator', type: 'number', default: DEFAULT_MAX_KIND_PATHS, parse: positiveWhole('paths') },
  // `rollstamp refresh` (#34); it also takes kubeconfig, kubeContext and hashKeyFile above.
  once: { field: false, command: 'refresh', type: 'boolean', flag: { name: 'once', help: 'one pass over the cluster, then exit (a CronJob, CI); default: run until stopped' } },
  argocdNamespace: { field: false, command: 'refresh', type: 'string', default: 'argocd', flag: { name: 'argocd-namespace', arg: 'NS', help: 'where Argo CD\'s Applications live (default: argocd)' } },
  applicationNamespaces: {
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'application-namespaces', arg: 'NS,...', help: 'more namespaces whose Applications it may refresh (Argo CD\'s\napplication.namespaces; tracking ids written NS_NAME)' },
  },
  watchNamespaces: {
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'namespaces', arg: 'NS,...', help: 'the only namespaces whose workloads, Secrets and ConfigMaps it reads\n(default: every namespace; with it, no request reaches any other)' },
  },
  sharedNamespaces: {
    field: false,
    command: 'refresh',
    type: 'string',
    flag: { name: 'shared-namespaces', arg: 'NS,...', help: 'namespaces a record may name besides the workload\'s own (as the\nsidecar\'s ROLLSTAMP_LIVE_NAMESPACES; default: none)' },
  },
  workloadKinds: {
    field: false,
    command: 'refresh',
    type: 'string',
    default: 'apps/v1/deployments,apps/v1/statefulsets,apps/v1/daemonsets,apps/v1/replicasets,batch/v1/cronjobs,argoproj.io/v1alpha1/rollouts,kagent.dev/v1alpha2/agents',
    flag: { name: 'workload-kinds', arg: 'G/V/R,...', help: 'workload resources to watch for records, as group/version/resource\n(default: Deployments, StatefulSets, DaemonSets, ReplicaSets, CronJobs,\nArgo Rollouts, kagent 0.x Agents; one the cluster does not serve is skipped)' },
  },
  leaderElect: { field: false, command: 'refresh', type: 'boolean', flag: { name: 'leader-elect', help: 'act only while holding a coordination.k8s.io/v1 Lease (two replicas)' } },
  leaseName: { field: false, command: 'refresh', type: 'string', default: 'rollstamp-refresh', flag: { name: 'lease-name', arg: 'NAME', help: 'the Lease of --leader-elect (default: rollstamp-refresh, in --argocd-namespace)' } },
  listen: { field: false, command: 'refresh', type: 'string', default: ':8080', flag: { name: 'listen', arg: 'ADDR', help: 'serve /healthz, /readyz and /metrics on [HOST]:PORT, or off (default: :8080)' } },
  debounceSeconds: { field: false, command: 'refresh', type: 'number', default: '1', flag: { name: 'debounce', arg: 'SECONDS', help: 'changes this close together are one burst: one pass (default: 1)' } },
  minIntervalSeconds: { field: false, command: 'refresh', type: 'number', default: '30', flag: { name: 'min-interval', arg: 'SECONDS', help: 'at most one request per Application this often; later ones wait (default: 30)' } },
  maxPerMinute: { field: false, command: 'refresh', type: 'number', default: '30', flag: { name: 'max-per-minute', arg: 'N', help: 'at most this many requests per minute in all; later ones wait (default: 30)' } },
};

/** A row of the table with its name. */
export type NamedSetting = SettingDeclaration & { name: string };

/** The settings as a list, in help order. */
export const SETTINGS: readonly NamedSetting[] = Object.entries(SETTING_TABLE).map(([name, row]: [string, SettingDeclaration]) => ({ name, ...row }));

/** The declaration of a setting by name; a name not in the table is a bug. */
export function setting(name: string): NamedSetting {
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
