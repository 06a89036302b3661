// Plugin config stage: one run's settings, read once at the process edge. The dispatcher (cli/run-cli.ts) copies
// the environment in one pass and hands each command a RunIo: its streams and these settings. Each operator
// setting is parsed by its row of the table (settings-table.ts) lazily, at most once, and kept, error included:
// lazy, so a bad value of a setting the run never uses (a live timeout in a run without live reads) fails
// nothing; once, so each variable is read one time per run however many parts of the run use it. Plugin code
// reads the environment only through `settings.env`; a unit test counts the reads through a Proxy env. A run
// bounded in time gets its deadline here too, once, where it starts (`withDeadline`).
import type { Io } from '../process/io.ts';
import type { RunDeadline } from '../process/run-deadline.ts';
import type { ReadLimits, RunStart } from '../../function/index.ts';
import type { EnvSettingDeclaration, OperatorSettings } from './setting-row.ts';
import { SETTING_TABLE } from './settings-table.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** A run's settings: the environment as read at the start (a frozen plain copy), and each operator setting. */
export interface RunSettings extends Readonly<OperatorSettings> {
  readonly env: Env;
}

/**
 * What a command is handed: the process's streams and the run's settings, read once; every part of the run
 * (readers, renderers, live reads, the core) takes its limits and deadline from here, never from an option.
 */
export interface RunIo extends Io {
  readonly settings: RunSettings;
  /**
   * The whole run's deadline (generate: ROLLSTAMP_RENDER_TIMEOUT_SECONDS), made once where the run starts: the
   * renderer, an exec credential plugin, the live reads and the core all ask this one object. Default: none.
   */
  readonly deadline?: RunDeadline;
}

/** A run with a deadline (`withDeadline`): what a renderer, which must always stop in time, is handed. */
export type TimedRunIo = RunIo & { readonly deadline: RunDeadline };

/** The operator settings: the rows that carry a parser (the table's type makes every OperatorSettings row one). */
const OPERATOR_NAMES = (Object.keys(SETTING_TABLE) as (keyof typeof SETTING_TABLE)[]).filter((name) => 'parse' in SETTING_TABLE[name]) as (keyof OperatorSettings)[];

type Parsed = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The settings of a run whose environment is `source`.
 * - The environment is listed once and copied; nothing reads `source` again.
 * - An operator setting unset or empty is its row's default; else its row's parser's value, or its UsageError,
 *   thrown each time the setting is read.
 */
export function readRunSettings(source: Env): RunSettings {
  const env: Env = Object.freeze(Object.fromEntries(Object.entries(source)));
  const settings = { env } as RunSettings;
  for (const name of OPERATOR_NAMES) {
    const row = SETTING_TABLE[name] as EnvSettingDeclaration<unknown>;
    let parsed: Parsed | undefined;
    Object.defineProperty(settings, name, {
      enumerable: true,
      get() {
        parsed ??= parseSetting(row, env);
        if (!parsed.ok) throw parsed.error;
        return parsed.value;
      },
    });
  }
  return Object.freeze(settings);
}

function parseSetting(row: EnvSettingDeclaration<unknown>, env: Env): Parsed {
  const raw = env[row.env];
  try {
    return { ok: true, value: raw === undefined || raw === '' ? row.default : row.parse(raw, row.env) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** `io` with the settings of its environment: what the dispatcher hands a command. */
export function withRunSettings(io: Io): RunIo {
  return { ...io, settings: readRunSettings(io.env) };
}

/** `io` with its run's deadline, given once where the run starts (#36). */
export function withDeadline(io: RunIo, deadline: RunDeadline): TimedRunIo {
  return { ...io, deadline };
}

/** What the core's runs are started with, from the run's settings and io: its reader, deadline, trace and afterApply. */
export function runStart(io: RunIo): RunStart {
  const { reader } = io.settings;
  return {
    ...(reader ? { reader } : {}),
    ...(io.deadline ? { deadline: io.deadline } : {}),
    ...(io.trace ? { trace: (phase: string) => io.trace?.(phase) } : {}),
    ...(io.collectGarbage ? { afterApply: () => io.collectGarbage?.() } : {}),
  };
}

/** What reading settings may cost (ROLLSTAMP_MAX_KINDS, ROLLSTAMP_MAX_KIND_PATHS), and the run's deadline if it has one (#33). */
export function readLimits(io: RunIo): ReadLimits {
  return { maxKinds: io.settings.maxKinds, maxKindPaths: io.settings.maxKindPaths, ...(io.deadline ? { deadline: io.deadline } : {}) };
}
