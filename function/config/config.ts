// Config stage: functionConfig (RollstampConfig `spec`, or ConfigMap `data`) → validated settings.
// The operator's limits are checked first (kinds.ts), then the schema in schemas/ (schema-validator.ts), then
// semantic rules (the selector grammar, declared kinds). Each problem is one INVALID_CONFIG result naming
// `spec.field` or `data.field`.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CONFIG_API_VERSION, CONFIG_KIND, CONTROL_ANNOTATIONS, DEFAULT_NAMESPACE, HASH_ANNOTATION, ORCHESTRATOR_PREFIXES } from '../model/constants.ts';
import { errorResult, type Result } from '../model/results.ts';
import { kindLimitProblems, readKinds } from './kinds.ts';
import { parseSelector } from './selector.ts';
import { compileSchema } from './schema-validator.ts';
import { type Config, DEFAULT_MAX_REFERENCES, type LiveMode, type OnMissing, type ReadLimits, type Selector } from '../model/config.ts';

export const DEFAULT_CONFIG: Config = {
  targets: 'opted-in',
  annotationKey: HASH_ANNOTATION,
  onMissing: 'warn',
  defaultNamespace: DEFAULT_NAMESPACE,
  kagent: 'enabled',
  reloader: 'enabled',
  hashScheme: 'v1',
  live: 'never',
  maxReferences: DEFAULT_MAX_REFERENCES,
};

/** The settings as given, before validation: values are whatever the input held. */
export type RawSettings = Record<string, unknown>;

/**
 * Settings read and validated: what the core reads (`config`), and every setting as given (`settings`, overrides
 * applied), which the schema has checked, for the settings only the plugin reads (hashKeyFile, the renderer's).
 */
export interface ReadConfig {
  config: Config;
  settings: Readonly<RawSettings>;
}

let validateSchema: ValidateFunction | undefined;

/**
 * Reads settings from a functionConfig object (plain JSON, already free of aliases).
 * - `undefined`/null: defaults.
 * - `overrides` (CLI flags) win over the object's settings and are reported under `flag --name`.
 * - `origin` (a file name) prefixes messages about the object's own settings.
 * - `overrideLabels` names where an override came from (default `flag --name`).
 * - `limits`: the operator's bounds on what the settings may declare, and the run's deadline (ReadLimits).
 */
export function readConfig(
  functionConfig: unknown,
  overrides: RawSettings = {},
  origin = '',
  overrideLabels: Readonly<Record<string, string>> = {},
  limits: ReadLimits = {},
): ReadConfig | { results: Result[] } {
  const located = locateSettings(functionConfig);
  if ('error' in located) return { results: [errorResult('INVALID_CONFIG', `${origin === '' ? '' : `${origin}: `}${located.error}`)] };
  return readLocatedConfig(located, overrides, origin, overrideLabels, limits);
}

/** `readConfig` for settings already located by `locateSettings` (the caller checked those very settings). */
export function readLocatedConfig(
  located: LocatedSettings,
  overrides: RawSettings = {},
  origin = '',
  overrideLabels: Readonly<Record<string, string>> = {},
  limits: ReadLimits = {},
): ReadConfig | { results: Result[] } {
  const from = origin === '' ? '' : `${origin}: `;
  const settings: RawSettings = { ...located.settings, ...overrides };
  const where = (field: string): string =>
    Object.hasOwn(overrides, field) ? (overrideLabels[field] ?? `flag --${kebab(field)}`) : `${from}${located.prefix}.${field}`;
  // Bounded before the schema reads them: 20,000 entries are refused for the cost of counting them (#33).
  const kindsFrom = Object.hasOwn(overrides, 'kinds') ? 'override' : located.prefix;
  const refused = [...stringOnlyKinds(settings.kinds, kindsFrom, where('kinds')), ...kindLimitProblems(settings.kinds, where('kinds'), limits)];
  if (refused.length > 0) return { results: refused };
  // No settings: the schema has nothing to check, so it is not compiled (compiling is most of a small run's set-up).
  const validate = Object.keys(settings).length === 0 ? undefined : (validateSchema ??= compileSchema());
  const ok = validate === undefined || validate({ apiVersion: CONFIG_API_VERSION, kind: CONFIG_KIND, spec: settings });
  const results: Result[] = [];
  if (!ok) {
    for (const e of validate?.errors ?? []) results.push(errorResult('INVALID_CONFIG', schemaMessage(e, where)));
  }
  let selector: Selector | undefined;
  if (ok && typeof settings.selector === 'string') {
    const parsed = parseSelector(settings.selector);
    if ('error' in parsed) results.push(errorResult('INVALID_CONFIG', `${where('selector')}: invalid label selector: ${parsed.error}`));
    else selector = parsed.selector;
  }
  // A stamp written under a key rollstamp or the orchestrator reads would change what the next run reads
  // (opt-out, extra dependencies, local-config): rollstamp would refuse or drop its own output (#33).
  const key = settings.annotationKey;
  if (ok && typeof key === 'string' && (CONTROL_ANNOTATIONS.includes(key) || ORCHESTRATOR_PREFIXES.some((p) => key.startsWith(p)))) {
    results.push(errorResult('INVALID_CONFIG', `${where('annotationKey')}: ${key} is read by ${key.startsWith('rollstamp.dev/') ? 'rollstamp' : key.includes('reloader.stakater.com/') ? 'rollstamp (as Reloader\'s)' : 'kpt or kustomize'} itself; choose another key, such as rollstamp.dev/hash`));
  }
  let kinds: Config['kinds'];
  if (ok && Array.isArray(settings.kinds) && settings.kinds.length > 0) {
    const read = readKinds(settings.kinds as Parameters<typeof readKinds>[0], where('kinds'), limits.deadline);
    if ('results' in read) results.push(...read.results);
    else kinds = read.rows;
  }
  if (results.length > 0) return { results };
  const s = settings as Partial<Record<keyof Config, string>>;
  const config: Config = {
    targets: (s.targets as Config['targets']) ?? DEFAULT_CONFIG.targets,
    annotationKey: s.annotationKey ?? DEFAULT_CONFIG.annotationKey,
    onMissing: (s.onMissing as OnMissing) ?? DEFAULT_CONFIG.onMissing,
    defaultNamespace: s.defaultNamespace ?? DEFAULT_CONFIG.defaultNamespace,
    kagent: (s.kagent as Config['kagent']) ?? DEFAULT_CONFIG.kagent,
    reloader: (s.reloader as Config['reloader']) ?? DEFAULT_CONFIG.reloader,
    hashScheme: (s.hashScheme as Config['hashScheme']) ?? DEFAULT_CONFIG.hashScheme,
    live: (s.live as LiveMode) ?? DEFAULT_CONFIG.live,
    maxReferences: DEFAULT_CONFIG.maxReferences,
  };
  if (selector) config.selector = selector;
  if (kinds) config.kinds = kinds;
  return { config, settings };
}

/** The settings object of a functionConfig and the field that held it (`spec` or `data`). */
export interface LocatedSettings {
  settings: RawSettings;
  prefix: 'spec' | 'data';
}

/**
 * The one reading of a functionConfig's settings, used by every consumer (the config reader and the Argo CD
 * plugin's operator-only check), so two readers can never see different settings (#12).
 * - RollstampConfig (rollstamp.dev/v1alpha1): `spec`; ConfigMap (v1): `data`; absent or null: no settings.
 * - Ambiguous or malformed is an error, never a guess: the other kind's field present (a ConfigMap with
 *   `spec`, even `spec: 0`; a RollstampConfig with `data`), settings that are not a map (`0`, `[]`, `""`,
 *   `false`), or another kind/apiVersion.
 */
export function locateSettings(fc: unknown): LocatedSettings | { error: string } {
  if (fc === undefined || fc === null) return { settings: {}, prefix: 'spec' };
  if (!isRecord(fc)) return { error: 'functionConfig must be a RollstampConfig or a ConfigMap' };
  if (fc.kind === 'ConfigMap' && fc.apiVersion === 'v1') {
    if (Object.hasOwn(fc, 'spec')) return { error: 'a ConfigMap holds its settings under data only; remove spec (ambiguous)' };
    return settingsIn(fc, 'data');
  }
  if (fc.kind === CONFIG_KIND && fc.apiVersion === CONFIG_API_VERSION) {
    if (Object.hasOwn(fc, 'data')) return { error: `a ${CONFIG_KIND} holds its settings under spec only; remove data (ambiguous)` };
    return settingsIn(fc, 'spec');
  }
  return { error: `functionConfig must be a ${CONFIG_KIND} (${CONFIG_API_VERSION}) or a ConfigMap (v1)` };
}

function settingsIn(fc: Record<string, unknown>, prefix: 'spec' | 'data'): LocatedSettings | { error: string } {
  const value = fc[prefix];
  if (value === undefined || value === null) return { settings: {}, prefix };
  return isRecord(value) ? { settings: value, prefix } : { error: `${prefix}: expected a map of settings` };
}

function schemaMessage(e: ErrorObject, whereSetting: (field: string) => string): string {
  const [field = '', ...inner] = e.instancePath.replace(/^\/spec\/?/, '').split('/');
  // A field inside a setting (`spec.kinds[0].podSpecPaths`) is named down to itself.
  const innerPath = inner.map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`)).join('');
  const where = (f: string): string => (f === field ? `${whereSetting(f)}${innerPath}` : whereSetting(f));
  if (e.keyword === 'additionalProperties') {
    const name = String((e.params as { additionalProperty: string }).additionalProperty);
    return inner.length > 0 || field !== '' ? `${where(field)}.${name}: unknown field` : `${where(name)}: unknown setting`;
  }
  if (e.keyword === 'required') return `${where(field)}.${String((e.params as { missingProperty: string }).missingProperty)}: required`;
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.join(', ');
    return `${where(field)}: must be one of ${allowed}`;
  }
  if (e.keyword === 'type') return `${where(field)}: must be ${TYPE_NAMES[String((e.params as { type: string }).type)] ?? 'of another type'}`;
  if (e.keyword === 'pattern') return `${where(field)}: ${patternHint(field, inner)}`;
  if (e.keyword === 'maxLength') return `${where(field)}: must be at most ${String((e.params as { limit: number }).limit)} characters`;
  return `${where(field)}: ${e.message ?? 'invalid'}`;
}

/** A JSON Schema type as a YAML user names it. */
const TYPE_NAMES: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', integer: 'a whole number', boolean: 'a boolean', array: 'a list', object: 'a map' };

function patternHint(field: string, inner: readonly string[]): string {
  if (field === 'annotationKey') return 'must be a Kubernetes annotation key such as rollstamp.dev/hash';
  if (field === 'defaultNamespace') return 'must be a namespace name (lowercase DNS label)';
  if (field === 'kinds' && inner.length > 0) return `must be a dot path of at most ${MAX_PATH_KEYS} field names (each a letter, then letters, digits, - or _), such as spec.template.spec`;
  return 'has an invalid form';
}

/** How many keys a declared path may have: the schema's bound (its pattern), said by the message above. */
const MAX_PATH_KEYS = 16;

/**
 * `kinds` is a list of maps: given as a string — in a ConfigMap's `data` (what `kpt fn eval -- key=value`
 * sends), or from a source that does not read the string as YAML — it is refused saying where kinds are
 * declared (#33; was "must be a array"). Argo CD's parameter and plugin env arrive already read as a list.
 */
function stringOnlyKinds(kinds: unknown, from: 'data' | 'override' | 'spec', at: string): Result[] {
  if (typeof kinds !== 'string' || from === 'spec') return [];
  const holder = from === 'data' ? "a ConfigMap's data holds" : 'this setting holds';
  return [errorResult('INVALID_CONFIG', `${at}: a kind is a map and ${holder} only strings; declare kinds under spec.kinds of a RollstampConfig (.rollstamp.yaml, a --config file or the functionConfig)`)];
}

const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
