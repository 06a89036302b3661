// CLI flags that set config fields (`stamp` and `explain`), and how they map onto the config's names.
import type { ParseArgsConfig } from 'node:util';
import type { RawSettings } from '../function/config.ts';

export const CONFIG_FLAG_OPTIONS = {
  config: { type: 'string', short: 'c' },
  targets: { type: 'string' },
  selector: { type: 'string', short: 'l' },
  'annotation-key': { type: 'string' },
  'on-missing': { type: 'string' },
  'default-namespace': { type: 'string', short: 'n' },
  'hash-key-file': { type: 'string' },
  kagent: { type: 'string' },
  'hash-scheme': { type: 'string' },
  live: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const CONFIG_FLAGS_HELP = `Config (flags win over --config; see schemas/rollstamp-config.schema.json):
  -c, --config FILE             RollstampConfig (rollstamp.dev/v1alpha1) or ConfigMap with the settings below
      --targets opted-in|all    which workloads to stamp (default: opted-in)
  -l, --selector SELECTOR       also stamp workloads whose labels match, e.g. restart-on-config-update=true
      --annotation-key KEY      pod-template annotation to write (default: rollstamp.dev/hash)
      --on-missing warn|error|ignore
                                a reference nothing in the input resolves (default: warn)
  -n, --default-namespace NS    namespace of objects without one (default: default)
      --hash-key-file FILE      HMAC-SHA256 key file (or env ROLLSTAMP_HASH_KEY)
      --kagent enabled|disabled stamp kagent Agents and ModelConfigs (default: enabled)
      --hash-scheme v1|kagent   kagent: a ModelConfig's hash equals kagent's status.secretHash (default: v1)
      --live never|missing|always
                                read Secrets/ConfigMaps from the cluster: missing = only what the input
                                does not define; always = also what a producer (ExternalSecret …) makes
                                (default: never; needs "get" on secrets/configmaps)
      --kubeconfig FILE         kubeconfig for live reads (default: KUBECONFIG, ~/.kube/config, in-cluster)
      --context NAME            kubeconfig context for live reads (default: the current context)`;

const FIELD_OF: Record<string, string> = {
  targets: 'targets',
  selector: 'selector',
  'annotation-key': 'annotationKey',
  'on-missing': 'onMissing',
  'default-namespace': 'defaultNamespace',
  'hash-key-file': 'hashKeyFile',
  kagent: 'kagent',
  'hash-scheme': 'hashScheme',
  live: 'live',
};

/** Config fields set by flags, named as in the config. */
export function overridesFromFlags(values: Record<string, unknown>): RawSettings {
  const out: RawSettings = {};
  for (const [flag, field] of Object.entries(FIELD_OF)) if (values[flag] !== undefined) out[field] = values[flag];
  return out;
}
