// Shared by `stamp`, `explain`, `generate` and `diff`: the settings the environment adds, the hash key, the
// core's stream run started over the read streams, the live sources it needs, and the run finished.
import { InputError } from './process/errors.ts';
import { readLiveSources, type LiveSettings } from './live/live-sources.ts';
import { readInputs } from './inputs/read-inputs.ts';
import { loadHashKey, withOperatorLimits } from './settings/settings.ts';
import type { PluginConfig } from './settings/plugin-config.ts';
import { type Deadline, type RunOutcome, startStreamRun, type StreamInput } from '../function/index.ts';
import type { RunIo } from './settings/run-settings.ts';

/**
 * Zero objects in is an error unless allowed: `renderer | rollstamp stamp --check -` must not pass CI when
 * the renderer failed and printed nothing (#12).
 */
export function refuseEmpty(run: RunOutcome, paths: readonly string[], allowEmpty: boolean | undefined): void {
  if (run.objects > 0 || allowEmpty) return;
  const where = paths.length === 0 || (paths.length === 1 && paths[0] === '-') ? 'standard input' : paths.join(', ');
  throw new InputError(`no objects in ${where}; pass --allow-empty if an empty input is expected`);
}

/** Reads plain multi-document inputs and stamps them. */
export async function stampStreams(
  paths: readonly string[],
  config: PluginConfig,
  io: RunIo,
  live: LiveSettings = {},
  core: Pick<StampOptions, 'keyDetail' | 'kagentPreview' | 'write'> & { dropLocalConfigFromDirectories?: boolean } = {},
): Promise<RunOutcome> {
  const { dropLocalConfigFromDirectories, ...rest } = core;
  const files = await readInputs(paths, io, io.settings.maxInputBytes);
  // stamp: a directory's local-config documents are settings, not objects (#23).
  const inputs = dropLocalConfigFromDirectories ? files.map((f) => ({ ...f, dropLocalConfig: f.fromDirectory === true })) : files;
  return stampFiles(inputs, config, io, { ...rest, live });
}

export interface StampOptions {
  /** generate, plain directory: drop local-config documents (rollstamp's own config, a Kptfile …). Default: false. */
  dropLocalConfig?: boolean;
  /** With `config.live`: where and how the sources the run needs are read. Default: any namespace. */
  live?: LiveSettings;
  /** `explain` and `diff`: every selected key of each source as a row (SourceReport.keys). Default: false. */
  keyDetail?: boolean;
  /** `diff`: a digest per reported key too. Default: false. */
  keyDigests?: boolean;
  /** `diff` and `explain`: the kagent 1.x preview (#20). Default: false. */
  kagentPreview?: boolean;
  /** `diff` and `explain` print reports, not the stamped streams: false leaves `output` empty. Default: true. */
  write?: boolean;
  /** The whole run's deadline (generate). Default: none. */
  deadline?: Deadline;
}

/**
 * Runs the core over already-read streams. Read errors come back as results, not throws.
 * - Streams are read fast (subset reader, document by document) unless `ROLLSTAMP_READER=full`.
 */
export async function stampFiles(files: readonly StreamInput[], settings: PluginConfig, io: RunIo, options: StampOptions = {}): Promise<RunOutcome> {
  const config = withOperatorLimits(settings, io.settings);
  const hashKey = await loadHashKey(config, io);
  const { deadline } = options;
  const run = startStreamRun(files, {
    config,
    ...(io.settings.reader ? { reader: io.settings.reader } : {}),
    ...(options.dropLocalConfig ? { dropLocalConfig: true } : {}),
    ...(options.keyDetail ? { keyDetail: true } : {}),
    ...(options.keyDigests ? { keyDigests: true } : {}),
    ...(options.kagentPreview ? { kagentPreview: true } : {}),
    ...(options.write === false ? { write: false } : {}),
    ...(deadline ? { deadline } : {}),
    ...(io.trace ? { trace: (phase: string) => io.trace?.(phase) } : {}),
  });
  io.trace?.('reading the cluster');
  const live = await readLiveSources(run, options.live ?? {}, io);
  return run.finish({ ...(live ?? {}), ...(hashKey ? { hashKey } : {}) });
}
