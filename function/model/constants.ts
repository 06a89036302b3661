// Names shared by every stage: annotation keys, kinds and the hash scheme id. One file, so a rename is one edit.

/** Annotation written on the pod template (default key; `annotationKey` overrides it). */
export const HASH_ANNOTATION = 'rollstamp.dev/hash';
/**
 * The env entry a kagent SandboxAgent's stamp is written to (in `spec.<type>.deployment.env`): its Substrate
 * ActorTemplate takes only image, command and env, never pod annotations (#13).
 */
export const ENV_STAMP_NAME = 'ROLLSTAMP_HASH';
/** On a workload (annotation or label): "true" opts in, "false" opts out. */
export const ENABLED_ANNOTATION = 'rollstamp.dev/enabled';
/** On a workload: extra Secrets (`name` or `namespace/name`, comma-separated). */
export const EXTRA_SECRETS_ANNOTATION = 'rollstamp.dev/secrets';
/** On a workload: extra ConfigMaps (`name` or `namespace/name`, comma-separated). */
export const EXTRA_CONFIGMAPS_ANNOTATION = 'rollstamp.dev/configmaps';
/** On a Secret or ConfigMap: "true" means it never contributes to any hash. */
export const IGNORE_ANNOTATION = 'rollstamp.dev/ignore';

/** Prefixes of the orchestrators' own annotations (kpt, kustomize), which pass through untouched. */
export const ORCHESTRATOR_PREFIXES: readonly string[] = ['config.kubernetes.io/', 'internal.config.kubernetes.io/', 'kustomize.config.k8s.io/'];
/**
 * On a workload's own metadata (never its pod template): which Secrets and ConfigMaps the render read from the
 * cluster for it, and which keys (model/live-record.ts). Written by the render only; `rollstamp refresh` reads it.
 */
export const LIVE_RECORD_ANNOTATION = 'rollstamp.dev/live-reads';
/** On an Argo CD Application: the change `rollstamp refresh` last requested a hard refresh for (its own annotation). */
export const REFRESH_REQUESTED_ANNOTATION = 'rollstamp.dev/refresh-requested';
/** Argo CD: set to `hard` on an Application, the controller regenerates its manifests and removes it. */
export const ARGOCD_REFRESH_ANNOTATION = 'argocd.argoproj.io/refresh';
/** Argo CD annotation tracking: `APP:GROUP/KIND:NAMESPACE/NAME`, APP written `NS_NAME` outside the control plane's namespace. */
export const ARGOCD_TRACKING_ANNOTATION = 'argocd.argoproj.io/tracking-id';
/** Argo CD label tracking: the Application's name (in Argo CD's own namespace). */
export const ARGOCD_INSTANCE_LABEL = 'app.kubernetes.io/instance';
/**
 * Stakater Reloader's annotations (stakater/Reloader internal/pkg/options/flags.go), read with `reloader:
 * enabled` (#38): on a workload, opt-in and named sources; on a Secret or ConfigMap, `ignore`.
 */
export const RELOADER = {
  auto: 'reloader.stakater.com/auto',
  search: 'reloader.stakater.com/search',
  ignore: 'reloader.stakater.com/ignore',
  Secret: { auto: 'secret.reloader.stakater.com/auto', reload: 'secret.reloader.stakater.com/reload' },
  ConfigMap: { auto: 'configmap.reloader.stakater.com/auto', reload: 'configmap.reloader.stakater.com/reload' },
} as const;

/**
 * Annotations rollstamp reads or writes for itself: a stamp must never be written under one of them (#33) — the
 * next run would read it as a setting (opt-out, extra dependencies, Reloader's opt-in) or as a live-read record.
 */
export const CONTROL_ANNOTATIONS: readonly string[] = [
  ENABLED_ANNOTATION,
  EXTRA_SECRETS_ANNOTATION,
  EXTRA_CONFIGMAPS_ANNOTATION,
  IGNORE_ANNOTATION,
  LIVE_RECORD_ANNOTATION,
  RELOADER.auto,
  RELOADER.search,
  RELOADER.ignore,
  RELOADER.Secret.auto,
  RELOADER.Secret.reload,
  RELOADER.ConfigMap.auto,
  RELOADER.ConfigMap.reload,
];

/** Items marked local-config are orchestrator inputs (kpt fn-config, Kptfile), never objects to apply. */
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';
/** File position annotations an orchestrator sets on each item; read for results, never changed. */
export const PATH_ANNOTATIONS = ['internal.config.kubernetes.io/path', 'config.kubernetes.io/path'] as const;
export const INDEX_ANNOTATIONS = ['internal.config.kubernetes.io/index', 'config.kubernetes.io/index'] as const;

/** Scheme id that opens every hashed message; changing the encoding means a new id. */
export const SCHEME_V1 = 'rollstamp.v1';

/** The functionConfig kind rollstamp defines. */
export const CONFIG_API_VERSION = 'rollstamp.dev/v1alpha1';
export const CONFIG_KIND = 'RollstampConfig';

/** Default namespace for items that have none (`defaultNamespace` overrides it). */
export const DEFAULT_NAMESPACE = 'default';
