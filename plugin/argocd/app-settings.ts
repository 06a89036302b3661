// Argo CD CMP settings: what an Application may choose (from `.rollstamp.yaml` in the app directory, then
// `ARGOCD_ENV_ROLLSTAMP_*` plugin env, then `ARGOCD_APP_PARAMETERS`, later winning). The repository is
// untrusted input, so operator-only settings (hash key, limits, live reads) are refused here by name.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, RawSettings } from '../../function/config.ts';
import { UsageError } from '../errors.ts';
import type { Io } from '../io.ts';
import { LIVE_ENV } from '../live-sources.ts';
import { configFrom, readConfigFile } from '../settings.ts';

/** Settings an Application may set, by config name. */
const APP_SETTINGS = ['renderer', 'valuesFiles', 'targets', 'selector', 'annotationKey', 'onMissing', 'kagent', 'hashScheme', 'allowEmpty'];
/** Settings only the sidecar's own environment may set. */
const OPERATOR_ONLY = [
  'hashKey',
  'hashKeyFile',
  'maxInputBytes',
  'renderTimeoutSeconds',
  'rendererStderr',
  // live reads: ROLLSTAMP_LIVE, ROLLSTAMP_LIVE_NAMESPACES, ROLLSTAMP_KUBE_CONTEXT, KUBECONFIG, time limits
  'live',
  'liveNamespaces',
  'namespaces',
  'kubeconfig',
  'kubeContext',
  'context',
  'liveTimeoutSeconds',
  'liveDeadlineSeconds',
  // work caps (#12): ROLLSTAMP_MAX_REFERENCES, ROLLSTAMP_MAX_LIVE_READS
  'maxReferences',
  'maxLiveReads',
];
const SETTINGS_FILES = ['.rollstamp.yaml', '.rollstamp.yml'];

export interface AppConfig {
  config: Config;
  /** `yaml` (default) or `json`: from ROLLSTAMP_OUTPUT on the sidecar or the Application. */
  output: 'yaml' | 'json';
}

/**
 * Reads the Application's settings and builds the config.
 * - `defaultNamespace` is the Application's destination namespace (`ARGOCD_APP_NAMESPACE`).
 * - An operator-only or unknown setting from the repository is a usage error that names it and where it was.
 */
export async function readAppSettings(io: Io): Promise<AppConfig> {
  const file = SETTINGS_FILES.find((f) => existsSync(join(io.cwd, f)));
  const fileObject = file ? await readConfigFile(file, io) : undefined;
  if (file) checkNames(Object.keys(settingsOf(fileObject)), file);
  const overrides: RawSettings = {};
  const labels: Record<string, string> = {};
  let output: string | undefined = io.env.ROLLSTAMP_OUTPUT;
  for (const [name, value] of Object.entries(io.env)) {
    if (!name.startsWith('ARGOCD_ENV_ROLLSTAMP_') || value === undefined) continue;
    const field = camel(name.slice('ARGOCD_ENV_ROLLSTAMP_'.length));
    if (field === 'output') {
      output = value;
      continue;
    }
    checkNames([field], name);
    overrides[field] = value;
    labels[field] = name;
  }
  for (const param of parameters(io.env.ARGOCD_APP_PARAMETERS)) {
    const field = camel(param.name.replace(/-/g, '_'));
    const where = `parameter ${param.name}`;
    checkNames([field], where);
    if (param.map !== undefined) throw new UsageError(`${where}: expected a string or an array, not a map`);
    overrides[field] = param.array !== undefined ? param.array.join(',') : (param.string ?? '');
    labels[field] = where;
  }
  // The operator's live mode, from the sidecar's own environment (a repository cannot set it).
  const live = io.env[LIVE_ENV];
  if (live !== undefined && live !== '') {
    overrides.live = live;
    labels.live = LIVE_ENV;
  }
  const namespace = io.env.ARGOCD_APP_NAMESPACE;
  if (namespace) {
    overrides.defaultNamespace = namespace;
    labels.defaultNamespace = 'ARGOCD_APP_NAMESPACE';
  }
  if (output !== undefined && output !== 'yaml' && output !== 'json') throw new UsageError('ROLLSTAMP_OUTPUT must be yaml or json');
  return { config: configFrom(fileObject, overrides, file ?? '', labels), output: output === 'json' ? 'json' : 'yaml' };
}

function checkNames(fields: readonly string[], where: string): void {
  for (const field of fields) {
    if (OPERATOR_ONLY.includes(field) || field === 'defaultNamespace') {
      const why = field === 'defaultNamespace' ? 'the namespace is the Application\'s destination namespace' : 'it is operator-only: set it on the rollstamp sidecar (ROLLSTAMP_* environment)';
      throw new UsageError(`${where}: ${field} cannot be set by the repository: ${why}`);
    }
    if (!APP_SETTINGS.includes(field)) throw new UsageError(`${where}: unknown setting ${field} (allowed: ${APP_SETTINGS.join(', ')})`);
  }
}

/** The settings of a RollstampConfig (`spec`) or ConfigMap (`data`) object, for name checks. */
function settingsOf(obj: unknown): Record<string, unknown> {
  const o = (obj ?? {}) as { spec?: unknown; data?: unknown };
  const s = o.spec ?? o.data;
  return typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : {};
}

interface Parameter {
  name: string;
  string?: string;
  array?: string[];
  map?: Record<string, string>;
}

/** `ARGOCD_APP_PARAMETERS`: a JSON array of `{name, string | array | map}` (only parameters the Application sets). */
function parameters(raw: string | undefined): Parameter[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError('ARGOCD_APP_PARAMETERS is not valid JSON');
  }
  if (!Array.isArray(parsed)) throw new UsageError('ARGOCD_APP_PARAMETERS must be a JSON array');
  return parsed.map((p, i) => {
    const ok =
      typeof p === 'object' && p !== null && typeof p.name === 'string' &&
      (p.string === undefined || typeof p.string === 'string') &&
      (p.array === undefined || (Array.isArray(p.array) && p.array.every((v: unknown) => typeof v === 'string')));
    if (!ok) throw new UsageError(`ARGOCD_APP_PARAMETERS[${i}]: expected {name, string | array}`);
    return p as Parameter;
  });
}

/** `VALUES_FILES` → `valuesFiles`. */
function camel(upper: string): string {
  return upper.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
