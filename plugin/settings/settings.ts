// Plugin config stage: settings from a config file, CLI flags and the environment, then the hash key.
// The core validates; this module only gathers and reads files.
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError, UsageError } from '../process/errors.ts';
import type { Io } from '../process/io.ts';
import { decode, DEFAULT_MAX_INPUT_BYTES } from '../inputs/read-inputs.ts';
import { envOf } from './settings-table.ts';
import configSchema from '../../schemas/rollstamp-config.schema.json' with { type: 'json' };
import { closest } from '../cli/flags.ts';
import { type Config, type Deadline, findUnsafeNode, fromYaml, toPlain, type LocatedSettings, parseYamlDocument, type RawSettings, readConfig, readLocatedConfig, type ReadLimits, type ReadMode, type Result } from '../../function/index.ts';
import { resolveSetting, runEnv } from './run-settings.ts';
import { summarize } from '../output/result-lines.ts';

/** Environment variable holding the HMAC key (its bytes as UTF-8). */
export const HASH_KEY_ENV = envOf('hashKey');
/** Environment variable naming a file that holds the HMAC key (the operator's way in a sidecar). */
export const HASH_KEY_FILE_ENV = envOf('hashKeyFile');
export const MAX_INPUT_ENV = envOf('maxInputBytes');
/** `full` reads every stream with the yaml library instead of the fast subset reader (an escape hatch). */
export const READER_ENV = envOf('reader');
/** Most Secrets/ConfigMaps/objects one target may name (operator-only, #12). */
export const MAX_REFERENCES_ENV = envOf('maxReferences');
/** Most keys one run hashes or reports after sharing (operator-only, #21). */
export const MAX_KEY_WORK_ENV = envOf('maxKeyWork');
export const MAX_PREVIEW_ROWS_ENV = envOf('maxPreviewRows');
/** `true` lets chart repositories be plain `http://` (operator-only, #21); default: https://, oci:// and local only. */
export const HELM_ALLOW_HTTP_ENV = envOf('helmAllowHttp');
/** Most `spec.kinds` entries, and paths per entry (operator-only, #33). */
export const MAX_KINDS_ENV = envOf('maxKinds');
export const MAX_KIND_PATHS_ENV = envOf('maxKindPaths');

/** Validated config from a functionConfig object; INVALID_CONFIG results become one InputError. */
export function configFrom(functionConfig: unknown, overrides: RawSettings = {}, origin = '', labels: Record<string, string> = {}, limits: ReadLimits = {}): Config {
  const read = readConfig(functionConfig, overrides, origin, labels, limits);
  if ('results' in read) throw new InputError(summarize(read.results.map(suggestSetting)));
  return read.config;
}

/** `configFrom` for settings already located (and checked) by the caller. */
export function configFromLocated(located: LocatedSettings, overrides: RawSettings, origin: string, labels: Record<string, string>, limits: ReadLimits = {}): Config {
  const read = readLocatedConfig(located, overrides, origin, labels, limits);
  if ('results' in read) throw new InputError(summarize(read.results.map(suggestSetting)));
  return read.config;
}

/** Reads `--config FILE` (a RollstampConfig or ConfigMap, YAML or JSON) as a plain object. */
export async function readConfigFile(path: string, io: Io): Promise<unknown> {
  const bytes = await readFile(resolve(io.cwd, path)).catch(() => {
    throw new InputError(`${path}: cannot read config file`);
  });
  return parseConfigText(bytes, path);
}

/** A config file's bytes (a RollstampConfig or ConfigMap, YAML or JSON) as a plain object. */
export function parseConfigText(bytes: Uint8Array, path: string): unknown {
  const doc = parseYamlDocument(decode(bytes, path));
  if (doc.errors.length > 0) throw new InputError(`${path}: invalid YAML in config file`);
  return plainObject(fromYaml(doc.contents), path);
}

/** A node (model/nodes.ts) as plain JSON, refusing aliases and merge keys first (so nothing expands). */
export function plainObject(node: unknown, what: string): unknown {
  if (node === null || node === undefined) return undefined;
  if (findUnsafeNode(node, 64)) throw new InputError(`${what}: aliases, merge keys and deep nesting are not allowed in the config`);
  return toPlain(node);
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
export async function loadHashKey(config: Pick<Config, 'hashKeyFile'>, io: Io): Promise<Uint8Array | undefined> {
  const fromEnv = runEnv(io)[HASH_KEY_ENV] || undefined;
  const file = config.hashKeyFile ?? (runEnv(io)[HASH_KEY_FILE_ENV] || undefined);
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
 * The config with the operator's caps from the environment (`ROLLSTAMP_MAX_REFERENCES`,
 * `ROLLSTAMP_MAX_KEY_WORK`, `ROLLSTAMP_MAX_PREVIEW_ROWS`); they are never read from a functionConfig or a repository.
 */
export function withOperatorLimits(config: Config, io: Io): Config {
  const maxReferences = positiveWholeEnv(io, MAX_REFERENCES_ENV, 'references');
  const maxKeyWork = positiveWholeEnv(io, MAX_KEY_WORK_ENV, 'keys');
  const maxPreviewRows = positiveWholeEnv(io, MAX_PREVIEW_ROWS_ENV, 'rows');
  return {
    ...config,
    ...(maxReferences === undefined ? {} : { maxReferences }),
    ...(maxKeyWork === undefined ? {} : { maxKeyWork }),
    ...(maxPreviewRows === undefined ? {} : { maxPreviewRows }),
  };
}

/**
 * What reading settings may cost (ROLLSTAMP_MAX_KINDS, ROLLSTAMP_MAX_KIND_PATHS; the core's defaults when
 * unset), and the run's deadline if it has one (#33).
 */
export function readLimits(io: Io, deadline?: Deadline): ReadLimits {
  const maxKinds = positiveWholeEnv(io, MAX_KINDS_ENV, 'entries');
  const maxKindPaths = positiveWholeEnv(io, MAX_KIND_PATHS_ENV, 'paths');
  return { ...(maxKinds !== undefined ? { maxKinds } : {}), ...(maxKindPaths !== undefined ? { maxKindPaths } : {}), ...(deadline ? { deadline } : {}) };
}

/** The total input limit: `ROLLSTAMP_MAX_INPUT_BYTES`, else 10 MiB. */
export function maxInputBytes(io: Io): number {
  return positiveWholeEnv(io, MAX_INPUT_ENV, 'bytes') ?? DEFAULT_MAX_INPUT_BYTES;
}

/** The reader the core starts with (`ROLLSTAMP_READER` = `fast`, the default, or `full`: the yaml library only). */
export function readerSetting(io: Io): ReadMode {
  return resolveSetting(io, READER_ENV, (env): ReadMode => {
    const raw = env[READER_ENV];
    if (raw === undefined || raw === '' || raw === 'fast') return 'fast';
    if (raw === 'full') return 'full';
    throw new UsageError(`${READER_ENV} must be fast or full`);
  });
}

/**
 * Whether chart repositories may be plain `http://` (ROLLSTAMP_HELM_ALLOW_HTTP, sidecar environment only).
 * - `true` or `false`; unset or empty is false; anything else is a UsageError.
 */
export function helmAllowsHttp(io: Io): boolean {
  return resolveSetting(io, HELM_ALLOW_HTTP_ENV, (env) => {
    const raw = env[HELM_ALLOW_HTTP_ENV];
    if (raw === undefined || raw === '' || raw === 'false') return false;
    if (raw === 'true') return true;
    throw new UsageError(`${HELM_ALLOW_HTTP_ENV} must be true or false`);
  });
}

/**
 * An operator's limit from the environment: a positive whole number (at most `max`), or undefined when unset.
 * - Parsed once per run (run-settings.ts): each variable has one unit and one maximum.
 */
export function positiveWholeEnv(io: Io, name: string, unit: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  return resolveSetting(io, name, (env) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
      throw new UsageError(`${name} must be a positive number of ${unit}${max < Number.MAX_SAFE_INTEGER ? ` (at most ${max})` : ''}`);
    }
    return Number(raw);
  });
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
