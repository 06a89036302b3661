// Argo CD CMP settings: what an Application may choose (from `.rollstamp.yaml` in the app directory, then
// `ARGOCD_ENV_ROLLSTAMP_*` plugin env, then `ARGOCD_APP_PARAMETERS`, later winning). The repository is
// untrusted input: only the settings in APP_SETTINGS pass, and an operator-only one is refused by name.
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DeadlineError, InputError, UsageError } from '../process/errors.ts';
import { closest } from '../cli/flags.ts';
import { checkLink } from '../inputs/link-check.ts';
import { LIVE_ENV } from '../live/live-sources.ts';
import { configFromLocated, parseConfigText } from '../settings/settings.ts';
import type { PluginConfig } from '../settings/plugin-config.ts';
import { repoRoot } from './repo-root.ts';
import { argocdEnvOf, argocdParameterOf, envOf, SETTINGS, settingsOwnedBy } from '../settings/settings-table.ts';
import { locateSettings, type RawSettings } from '../../function/index.ts';
import { readLimits, type RunIo } from '../settings/run-settings.ts';
import type { ShellSettings } from '../settings/setting-row.ts';

/** Settings an Application may set, by config name (the settings table's `app` rows). Everything else is refused. */
export const APP_SETTINGS = settingsOwnedBy('app');
/**
 * Settings only the sidecar's own environment may set (named so the refusal says why). They are refused
 * whatever the spelling (`hashKeyFile`, `hash-key-file`, `HASH_KEY_FILE`): names are compared by their
 * letters and digits only, without case.
 */
export const OPERATOR_ONLY = settingsOwnedBy('operator');
/** Comes from Argo CD (the destination namespace), never from the repository. */
const FROM_ARGOCD = settingsOwnedBy('argocd');
const SETTINGS_FILES = ['.rollstamp.yaml', '.rollstamp.yml'];
/** Each setting by its Argo CD plugin env (`ARGOCD_ENV_ROLLSTAMP_VALUES_FILES`) and parameter (`values-files`). */
const BY_PLUGIN_ENV = new Map(SETTINGS.map((s) => [argocdEnvOf(s.name), s.name]));
const BY_PARAMETER = new Map(SETTINGS.map((s) => [argocdParameterOf(s.name), s.name]));

export interface AppConfig {
  config: PluginConfig;
  /** `yaml` (default) or `json`: from ROLLSTAMP_OUTPUT on the sidecar or the Application. */
  output: ShellSettings['output'];
  /** Size of `.rollstamp.yaml`: it counts against the input limit. */
  settingsBytes: number;
}

/**
 * Reads the Application's settings and builds the config.
 * - `defaultNamespace` is the Application's destination namespace (`ARGOCD_APP_NAMESPACE`).
 * - An operator-only or unknown setting from the repository is a usage error that names it and where it was.
 * - `.rollstamp.yaml` is read only as a regular file inside the repository, within the input limit; one that
 *   is ambiguous (both spellings of the file, `spec` and `data`, another kind, settings not a map) is refused.
 */
export async function readAppSettings(io: RunIo): Promise<AppConfig> {
  const file = await readSettingsFile(io);
  const located = locateSettings(file?.object);
  if ('error' in located) throw new UsageError(`${file?.name ?? 'settings'}: ${located.error}`);
  // The names checked here are the settings the config reader gets: one located object, read once.
  for (const key of Object.keys(located.settings)) checkName(key, `${file?.name ?? ''} ${located.prefix}.${key}`);
  const overrides: RawSettings = {};
  const labels: Record<string, string> = {};
  let output: string | undefined = io.settings.env[envOf('output')];
  for (const [name, value] of Object.entries(io.settings.env)) {
    if (!name.startsWith('ARGOCD_ENV_ROLLSTAMP_') || value === undefined) continue;
    // A name not in the table is still read as the setting it would spell, so the refusal can name it.
    const field = BY_PLUGIN_ENV.get(name) ?? camel(name.slice('ARGOCD_ENV_ROLLSTAMP_'.length));
    if (field === 'output') {
      output = value;
      continue;
    }
    checkName(field, name, argocdEnvOf);
    overrides[field] = field === 'kinds' ? declaredKinds(value, name) : value;
    labels[field] = name;
  }
  for (const param of parameters(io.settings.env.ARGOCD_APP_PARAMETERS)) {
    const field = BY_PARAMETER.get(param.name) ?? camel(param.name.replace(/-/g, '_'));
    const where = `parameter ${param.name}`;
    checkName(field, where, argocdParameterOf, param.name);
    if (param.map !== undefined) throw new UsageError(`${where}: expected a string or an array, not a map`);
    if (field === 'kinds') overrides[field] = declaredKinds(param.array ?? param.string ?? '', where);
    else overrides[field] = param.array !== undefined ? param.array.join(',') : (param.string ?? '');
    labels[field] = where;
  }
  // The operator's live mode, from the sidecar's own environment (a repository cannot set it).
  const live = io.settings.env[LIVE_ENV];
  if (live !== undefined && live !== '') {
    overrides.live = live;
    labels.live = LIVE_ENV;
  }
  const namespace = io.settings.env.ARGOCD_APP_NAMESPACE;
  if (namespace) {
    overrides.defaultNamespace = namespace;
    labels.defaultNamespace = 'ARGOCD_APP_NAMESPACE';
  }
  if (output !== undefined && output !== 'yaml' && output !== 'json') throw new UsageError('ROLLSTAMP_OUTPUT must be yaml or json');
  io.deadline?.check('reading .rollstamp.yaml');
  const config = asUsageError(() => configFromLocated(located, overrides, file?.name ?? '', labels, readLimits(io)));
  return { config, output: output === 'json' ? 'json' : 'yaml', settingsBytes: file?.size ?? 0 };
}

/**
 * `kinds` from plugin env or a parameter: rows of the kind table, written as YAML or JSON (docs/kinds.md).
 * - A string is the list (`- {apiVersion: …}` lines, or a JSON array); an array parameter is one row per entry.
 * - The config's schema then checks the rows as it checks `spec.kinds` in `.rollstamp.yaml`.
 */
function declaredKinds(value: string | readonly string[], where: string): unknown {
  const read = (text: string): unknown => {
    try {
      return parseConfigText(Buffer.from(text, 'utf8'), where);
    } catch (err) {
      throw err instanceof InputError ? new UsageError(`${where}: not a YAML or JSON list of kinds`) : err;
    }
  };
  return typeof value === 'string' ? read(value) : value.map(read);
}

/** A setting's value the config refuses is a bad setting (exit 2), as a bad flag value is for `stamp`; a passed deadline stays exit 1. */
function asUsageError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof InputError && !(err instanceof DeadlineError)) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Refuses a name that is not an app setting; operator-only ones (in any spelling) say so. An unknown one is
 * named, with the nearest allowed one and the list, as the place it came from spells them (`spell`): a
 * parameter as the Application writes it (`values-files`), plugin env as `ARGOCD_ENV_ROLLSTAMP_…`.
 */
function checkName(field: string, where: string, spell: (name: string) => string = (n) => n, written = spell(field)): void {
  if (APP_SETTINGS.includes(field)) return;
  const operator = OPERATOR_ONLY.find((name) => fold(name) === fold(field));
  if (operator) {
    throw new UsageError(`${where}: ${operator} cannot be set by the repository: it is operator-only: set it on the rollstamp sidecar (ROLLSTAMP_* environment)`);
  }
  if (FROM_ARGOCD.some((name) => fold(name) === fold(field))) {
    throw new UsageError(`${where}: defaultNamespace cannot be set by the repository: the namespace is the Application's destination namespace`);
  }
  const allowed = APP_SETTINGS.map(spell);
  // A camelCase parameter (`valuesFile`) is compared as the kebab-case it stands for.
  const near = closest(written, allowed) ?? closest(argocdParameterOf(written), allowed);
  throw new UsageError(`${where}: unknown setting ${written}${near ? `; did you mean ${near}?` : ''} (allowed: ${allowed.join(', ')})`);
}

const fold = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

interface SettingsFile {
  name: string;
  object: unknown;
  size: number;
}

/**
 * `.rollstamp.yaml` (or `.yml`) in the app directory, if any: a regular file (a symlink only when it stays in
 * the repository), within the input limit, checked before it is read. Both names present is ambiguous.
 */
async function readSettingsFile(io: RunIo): Promise<SettingsFile | undefined> {
  const present: string[] = [];
  for (const name of SETTINGS_FILES) if (await lstat(join(io.cwd, name)).catch(() => undefined)) present.push(name);
  if (present.length > 1) throw new UsageError(`${present.join(' and ')}: both exist; keep one settings file`);
  const name = present[0];
  if (name === undefined) return undefined;
  const path = join(io.cwd, name);
  const real = (await lstat(path)).isSymbolicLink() ? (await checkLink(path, name, repoRoot(io)))! : path;
  const info = await stat(real);
  if (!info.isFile()) throw new InputError(`${name}: not a regular file`);
  const limit = io.settings.maxInputBytes;
  if (info.size > limit) throw new InputError(`${name}: input exceeds the limit of ${limit} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
  const bytes = await readFile(real);
  if (bytes.length > limit) throw new InputError(`${name}: input exceeds the limit of ${limit} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
  return { name, object: parseConfigText(bytes, name), size: bytes.length };
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
