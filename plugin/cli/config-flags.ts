// CLI flags that set config fields (`stamp`, `explain`, `diff`), read from the settings table: it drives
// parsing and help.
import { InputError, UsageError } from '../process/errors.ts';
import { flagsHelp, type FlagValues, type FlagSpec } from './flags.ts';
import { configFrom, readConfigFile } from '../settings/settings.ts';
import { SETTINGS } from '../settings/settings-table.ts';
import type { RawSettings } from '../../function/index.ts';
import type { PluginConfig } from '../settings/plugin-config.ts';
import { readLimits, type RunIo } from '../settings/run-settings.ts';
import type { LiveSettings } from '../live/live-sources.ts';

/** Config flags, in help order: `--config`, then every setting of the table (settings-table.ts) that has a flag. */
export const CONFIG_FLAGS: readonly FlagSpec[] = [
  { name: 'config', short: 'c', type: 'string', arg: 'FILE', help: 'RollstampConfig (rollstamp.dev/v1alpha1) or ConfigMap with the settings below' },
  ...SETTINGS.flatMap((s): FlagSpec[] => {
    if (!s.flag || s.command !== undefined) return [];
    const { name, short, arg, help } = s.flag;
    return [{ name, type: 'string', ...(short ? { short } : {}), ...(s.values ? { values: s.values } : {}), ...(arg ? { arg } : {}), help }];
  }),
];

/** Input flags shared by `stamp` and `explain`: kubectl's `-f` beside positional paths. */
export const INPUT_FLAGS: readonly FlagSpec[] = [
  { name: 'filename', short: 'f', type: 'list', arg: 'PATH', help: 'a file or directory to read, or - for stdin (repeatable; same as a PATH argument)' },
];

/** `stamp` and `explain`: zero objects in is an error unless this is given (#12). */
export const ALLOW_EMPTY_FLAG: FlagSpec = {
  name: 'allow-empty',
  type: 'boolean',
  help: 'succeed when the input holds no objects (default: an error, so an empty\nor failed render piped in does not pass)',
};

export const CONFIG_FLAGS_HELP = `Config (flags win over --config; see schemas/rollstamp-config.schema.json):
${flagsHelp(CONFIG_FLAGS)}`;

/** Flag → functionConfig field, for the flags that set one. */
const FIELD_OF: Record<string, string> = Object.fromEntries(SETTINGS.flatMap((s) => (s.flag && s.field && s.command === undefined ? [[s.flag.name, s.name]] : [])));

/** Config fields set by flags, named as in the config. */
export function overridesFromFlags(values: Record<string, unknown>): RawSettings {
  const out: RawSettings = {};
  for (const [flag, field] of Object.entries(FIELD_OF)) if (values[flag] !== undefined) out[field] = values[flag];
  return out;
}

/**
 * The config of `stamp` and `explain`: `--config FILE`, then the flags over it.
 * - A flag value the config rejects (a malformed --selector …) is a usage error (exit 2), like an unknown
 *   flag; a bad config file stays an input error (exit 1).
 */
export async function configFromFlags(values: FlagValues, io: RunIo): Promise<PluginConfig> {
  const overrides = overridesFromFlags(values);
  try {
    configFrom(undefined, overrides, 'flags', {}, readLimits(io));
  } catch (err) {
    if (err instanceof InputError) throw new UsageError(err.message);
    throw err;
  }
  const path = typeof values.config === 'string' ? values.config : undefined;
  const file = path === undefined ? undefined : await readConfigFile(path, io);
  return configFrom(file, overrides, path ?? '', {}, readLimits(io));
}

/** The paths to read: PATH arguments, then each `-f/--filename`. None means stdin. */
export function inputPaths(values: FlagValues, positionals: readonly string[]): string[] {
  const files = values.filename;
  return [...positionals, ...(Array.isArray(files) ? files : [])];
}

/** `stamp`, `explain` and `diff`: `--kubeconfig` and `--context` for the live reader; any namespace. */
export function liveFlags(values: FlagValues): LiveSettings {
  const pick = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const kubeconfig = pick('kubeconfig');
  const context = pick('context');
  return { ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(context !== undefined ? { context } : {}) };
}
