// Plugin config stage: settings from a config file, CLI flags and the environment, then the hash key.
// The core validates; this module only gathers and reads files.
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError, UsageError } from '../process/errors.ts';
import type { Io } from '../process/io.ts';
import { decode } from '../inputs/read-inputs.ts';
import { envOf } from './settings-table.ts';
import configSchema from '../../schemas/rollstamp-config.schema.json' with { type: 'json' };
import { closest } from '../cli/flags.ts';
import { type Config, type LocatedSettings, type RawSettings, readConfig, readConfigObject, readLocatedConfig, type ReadLimits, type Result } from '../../function/index.ts';
import type { RunIo, RunSettings } from './run-settings.ts';
import type { OperatorCaps } from './setting-row.ts';
import { type PluginConfig, pluginConfig } from './plugin-config.ts';
import { summarize } from '../output/result-lines.ts';

/** Environment variable holding the HMAC key (its bytes as UTF-8). */
export const HASH_KEY_ENV = envOf('hashKey');
/** Environment variable naming a file that holds the HMAC key (the operator's way in a sidecar). */
export const HASH_KEY_FILE_ENV = envOf('hashKeyFile');

/** Validated config from a functionConfig object; INVALID_CONFIG results become one InputError. */
export function configFrom(functionConfig: unknown, overrides: RawSettings = {}, origin = '', labels: Record<string, string> = {}, limits: ReadLimits = {}): PluginConfig {
  const read = readConfig(functionConfig, overrides, origin, labels, limits);
  if ('results' in read) throw new InputError(summarize(read.results.map(suggestSetting)));
  return pluginConfig(read);
}

/** `configFrom` for settings already located (and checked) by the caller. */
export function configFromLocated(located: LocatedSettings, overrides: RawSettings, origin: string, labels: Record<string, string>, limits: ReadLimits = {}): PluginConfig {
  const read = readLocatedConfig(located, overrides, origin, labels, limits);
  if ('results' in read) throw new InputError(summarize(read.results.map(suggestSetting)));
  return pluginConfig(read);
}

/** Reads `--config FILE` (a RollstampConfig or ConfigMap, YAML or JSON) as a plain object. */
export async function readConfigFile(path: string, io: Io): Promise<unknown> {
  const bytes = await readFile(resolve(io.cwd, path)).catch(() => {
    throw new InputError(`${path}: cannot read config file`);
  });
  return parseConfigText(bytes, path);
}

/** A config file's bytes (a RollstampConfig or ConfigMap, YAML or JSON) as a plain object, read by the core's one config reader. */
export function parseConfigText(bytes: Uint8Array, path: string): unknown {
  const read = readConfigObject({ text: decode(bytes, path) }, path);
  if ('error' in read) throw new InputError(read.error);
  return read.object;
}

/** A hash key file larger than this is refused: a key is a few dozen bytes, never a stream. */
export const MAX_HASH_KEY_BYTES = 4096;

/**
 * The HMAC key, if any: `ROLLSTAMP_HASH_KEY`, or the bytes of `hashKeyFile` (else `ROLLSTAMP_HASH_KEY_FILE`)
 * with one trailing newline removed.
 * - Both set, an empty key, or an unreadable file: an error that never shows key bytes.
 * - The file must be a regular file of at most MAX_HASH_KEY_BYTES: a FIFO, a device (`/dev/zero`) or a
 *   directory is refused at once, without reading from it.
 */
export async function loadHashKey(config: Pick<PluginConfig, 'hashKeyFile'>, io: RunIo): Promise<Uint8Array | undefined> {
  const fromEnv = io.settings.env[HASH_KEY_ENV] || undefined;
  const file = config.hashKeyFile ?? (io.settings.env[HASH_KEY_FILE_ENV] || undefined);
  if (fromEnv !== undefined && file !== undefined) throw new UsageError(`both ${HASH_KEY_ENV} and a hash key file are set; use one`);
  if (fromEnv !== undefined) return new TextEncoder().encode(fromEnv);
  if (file === undefined) return undefined;
  const bytes = await readKeyFile(resolve(io.cwd, file), file);
  const key = bytes[bytes.length - 1] === 0x0a ? bytes.subarray(0, bytes.length - 1) : bytes;
  if (key.length === 0) throw new InputError(`hash key file ${file}: the key is empty`);
  return new Uint8Array(key);
}

/**
 * A key file's bytes. Opened non-blocking, so opening a FIFO with no writer returns at once, then checked
 * with fstat on the open descriptor (no race with a swapped path) before a single bounded read.
 */
async function readKeyFile(path: string, shown: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => {
    throw new InputError(`hash key file ${shown}: cannot read file`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new InputError(`hash key file ${shown}: not a regular file`);
    if (info.size > MAX_HASH_KEY_BYTES) throw new InputError(`hash key file ${shown}: larger than ${MAX_HASH_KEY_BYTES} bytes`);
    const buffer = new Uint8Array(MAX_HASH_KEY_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_HASH_KEY_BYTES) throw new InputError(`hash key file ${shown}: larger than ${MAX_HASH_KEY_BYTES} bytes`);
    }
    return buffer.subarray(0, length);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`hash key file ${shown}: cannot read file`);
  } finally {
    await handle.close();
  }
}

/**
 * The config with the operator's caps (`ROLLSTAMP_MAX_REFERENCES`, `ROLLSTAMP_MAX_KEY_WORK`,
 * `ROLLSTAMP_MAX_PREVIEW_ROWS`); they are never read from a functionConfig or a repository.
 */
export function withOperatorLimits<C extends Config>(config: C, settings: RunSettings): C {
  const caps: OperatorCaps = { maxReferences: settings.maxReferences, maxKeyWork: settings.maxKeyWork, maxPreviewRows: settings.maxPreviewRows };
  return { ...config, ...caps };
}

/** The settings a functionConfig may hold (the schema's `spec`), for "did you mean" on a typo. */
const SETTING_NAMES = Object.keys(configSchema.definitions.spec.properties);

/**
 * `data.onMising: unknown setting` (a typo in `kpt fn eval -- onMising=warn`, a ConfigMap or a RollstampConfig)
 * gets `; did you mean onMissing?` when one setting is near, as a mistyped flag does. Other results pass as they are.
 */
export function suggestSetting(r: Result): Result {
  const m = /(?:^|\.)([^.\s]+): unknown setting$/.exec(r.message);
  const near = m ? closest(m[1]!, SETTING_NAMES) : undefined;
  return near ? { ...r, message: `${r.message}; did you mean ${near}?` } : r;
}
