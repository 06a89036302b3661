// Shared by `stamp`, `explain`, `generate` and `diff`: the settings the environment adds, the hash key, the
// core's stream run started over the read streams, the live sources it needs, and the run finished.
import { readLiveSources, type LiveSettings } from './live/live-sources.ts';
import { readInputs } from './inputs/read-inputs.ts';
import { loadHashKey, withOperatorLimits } from './settings/settings.ts';
import type { PluginConfig } from './settings/plugin-config.ts';
import { type RunOutcome, startStreamRun, type StreamInput, type StreamRunOptions } from '../function/index.ts';
import { runStart, type RunIo } from './settings/run-settings.ts';

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

/**
 * How a command runs the core over its streams: the stream run's own options, as the core declares them, and
 * where the live sources come from. The run's reader, deadline and trace come from `io` (`runStart`).
 */
export type StampOptions = Pick<StreamRunOptions, 'dropLocalConfig' | 'keyDetail' | 'keyDigests' | 'kagentPreview' | 'write'> & {
  /** With `config.live`: where and how the sources the run needs are read. Default: any namespace. */
  live?: LiveSettings;
};

/**
 * Runs the core over already-read streams. Read errors come back as results, not throws.
 * - Streams are read fast (subset reader, document by document) unless `ROLLSTAMP_READER=full`.
 * - The run's deadline, if it has one (`io.deadline`), is checked by the core and ends the live reads.
 */
export async function stampFiles(files: readonly StreamInput[], settings: PluginConfig, io: RunIo, options: StampOptions = {}): Promise<RunOutcome> {
  const config = withOperatorLimits(settings, io.settings);
  const hashKey = await loadHashKey(config, io);
  const { live, ...core } = options;
  const run = startStreamRun(files, { ...core, ...runStart(io), config });
  io.trace?.('reading the cluster');
  const read = await readLiveSources(run, live ?? {}, io);
  return run.finish({ ...(read ?? {}), ...(hashKey ? { hashKey } : {}) });
}
