// Plugin config stage: the shape of one row of the settings table (settings-table.ts) and the types the table is
// checked against. A row is typed by the setting it fills: a setting missing from the table, a row of the wrong
// type or an operator setting without its parser or its default is a compile error (after vitest's
// `CLIOptions<Config>`, packages/vitest/src/node/cli/cli-config.ts).
import type { Config, ReadLimits, RunStart } from '../../function/index.ts';
import type { PluginOnlySettings } from './plugin-config.ts';
import { UsageError } from '../process/errors.ts';

/**
 * Who may set a setting under Argo CD:
 * - `app`: the Application (`.rollstamp.yaml`, `ARGOCD_ENV_ROLLSTAMP_<NAME>`, parameter `<name>`);
 * - `operator`: only the sidecar's own environment (a repository that names it is refused, in any spelling);
 * - `argocd`: Argo CD itself (the destination namespace), never the repository.
 */
export type SettingOwner = 'app' | 'operator' | 'argocd';

/** One setting, filling a value of type `T`. */
export interface SettingDeclaration<T = unknown> {
  /** True when it is a functionConfig field (schemas/rollstamp-config.schema.json `spec`). */
  field: boolean;
  /** `stamp`, `explain` and `diff`: the flag that sets the field (long name without dashes), its short name and value. */
  flag?: { name: string; short?: string; arg?: string; help: string };
  /** The sidecar's (and CLI's) environment variable, if any. */
  env?: string;
  /** Who may set it under Argo CD; absent: not an Argo CD setting. */
  argocd?: SettingOwner;
  /** Other spellings an operator-only setting is refused by (`context` for kubeContext). */
  aliases?: readonly string[];
  type: 'string' | 'boolean' | 'number' | 'array';
  /** The only values accepted. */
  values?: readonly string[];
  /** The value when it is not set (the help prints it). */
  default?: T;
  /**
   * A setting of one command only, set by its flag (`refresh`): not a config flag of stamp, explain and diff. A
   * boolean row's flag takes no value.
   */
  command?: 'refresh';
}

/**
 * A setting the plugin reads from its environment: its variable, the parser of a set (non-empty) value — which
 * throws a UsageError naming the variable — and, when the setting always has a value, its default.
 */
export type EnvSettingDeclaration<T> = SettingDeclaration<NonNullable<T>> & { env: string; parse: (raw: string, env: string) => NonNullable<T> } & (undefined extends T ? { default?: NonNullable<T> } : { default: T });

/** The core's caps on a run's work, which only the operator sets (withOperatorLimits puts them on the Config). */
export type OperatorCaps = Required<Pick<Config, 'maxReferences' | 'maxKeyWork' | 'maxPreviewRows'>>;

/** The operator's bounds on what settings may declare, as the core's config reader takes them (its deadline is the run's). */
export type KindLimits = Required<Omit<ReadLimits, 'deadline'>>;

/**
 * What the operator sets in the environment of the process (never a repository), each parsed by its row once per
 * run (run-settings.ts). The caps the core applies default to the core's own constants; their types are the
 * core's (Config, ReadLimits, RunStart), so a cap added there needs its row here.
 */
export interface OperatorSettings extends OperatorCaps, KindLimits, Pick<RunStart, 'reader'> {
  maxInputBytes: number;
  renderTimeoutSeconds: number;
  helmAllowHttp: boolean;
  liveTimeoutSeconds: number;
  liveDeadlineSeconds: number;
  maxLiveReads: number;
}

/** Settings read where they are used, as text: the renderer's and live reads' environment, the hash key, `-o`. */
export interface ShellSettings {
  kubeconfig?: string;
  kubeContext?: string;
  output: 'yaml' | 'json';
  hashKey?: string;
  rendererStderr?: 'show';
  kustomizeBuildOptions?: string;
  liveNamespaces?: string;
}

/** `rollstamp refresh`'s own flags, as the flag gives them (commands/refresh/options.ts parses them, naming the flag). */
export interface RefreshSettings {
  once: boolean;
  argocdNamespace: string;
  applicationNamespaces?: string;
  watchNamespaces?: string;
  sharedNamespaces?: string;
  workloadKinds: string;
  leaderElect: boolean;
  leaseName: string;
  listen: string;
  debounceSeconds: string;
  minIntervalSeconds: string;
  maxPerMinute: string;
}

/** The core's settings a functionConfig holds (the caps are operator settings). */
type CoreSettings = Omit<Config, keyof OperatorCaps>;

/** Every setting rollstamp has, by name. */
export type AllSettings = CoreSettings & PluginOnlySettings & ShellSettings & RefreshSettings & OperatorSettings;

/** The settings table: one row per setting, each typed by the value it fills. */
export type SettingsTable = {
  [K in keyof AllSettings]-?: K extends keyof OperatorSettings ? EnvSettingDeclaration<OperatorSettings[K]> : SettingDeclaration<NonNullable<AllSettings[K]>>;
};

/** A parser of a positive whole number of `unit` (at most `max`), the one form of every operator limit. */
export function positiveWhole(unit: string, max = Number.MAX_SAFE_INTEGER): (raw: string, env: string) => number {
  return (raw, env) => {
    if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) throw new UsageError(`${env} must be a positive number of ${unit}${max < Number.MAX_SAFE_INTEGER ? ` (at most ${max})` : ''}`);
    return Number(raw);
  };
}

/** A parser of one of `values` (`fast or full`). */
export function oneOf<const V extends string>(values: readonly V[]): (raw: string, env: string) => V {
  return (raw, env) => {
    if ((values as readonly string[]).includes(raw)) return raw as V;
    throw new UsageError(`${env} must be ${values.join(' or ')}`);
  };
}

/** A parser of `true` or `false`. */
export function trueOrFalse(raw: string, env: string): boolean {
  return oneOf(['true', 'false'])(raw, env) === 'true';
}
