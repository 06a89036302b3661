// Model: validated settings (what config/ produces and every stage reads), the label selector they hold, and
// the operator's limits on what settings may declare.
import type { Deadline } from './deadline.ts';
import type { WorkloadRow } from './workload-row.ts';

export type Requirement =
  | { op: 'exists' | 'absent'; key: string }
  | { op: 'in' | 'notin'; key: string; values: string[] };

export type Selector = Requirement[];

export type OnMissing = 'warn' | 'error' | 'ignore';

/**
 * The settings the core reads, after validation, with defaults filled in. Settings only the plugin reads
 * (`hashKeyFile`, the renderer's) are validated with these but kept apart (config/config.ts `ReadConfig`).
 */
export interface Config {
  /** Default: `opted-in`. */
  targets: 'opted-in' | 'all';
  /** Default: none. */
  selector?: Selector;
  /** Default: `rollstamp.dev/hash`. */
  annotationKey: string;
  /** Default: `warn`. */
  onMissing: OnMissing;
  /** Default: `default`. */
  defaultNamespace: string;
  /** kagent Agents and ModelConfigs are targets. Default: `enabled`. */
  kagent: 'enabled' | 'disabled';
  /**
   * Stakater Reloader's annotations count: `reloader.stakater.com/auto` (and the typed auto) opts a workload in,
   * `…/reload` names sources, `reloader.stakater.com/ignore` on a source leaves it out (#38). Default: `enabled`.
   */
  reloader: 'enabled' | 'disabled';
  /** Default: `v1`. `kagent`: a ModelConfig's hash equals kagent's own status.secretHash. */
  hashScheme: 'v1' | 'kagent';
  /** Default: `never`. What the plugin reads from the cluster (the core only says what it would need). */
  live: LiveMode;
  /**
   * Most references one target may name (pod spec, extra-dependency annotations, kagent fields together).
   * Operator-only: not a functionConfig setting; the plugin sets it from ROLLSTAMP_MAX_REFERENCES. Default: DEFAULT_MAX_REFERENCES.
   */
  maxReferences: number;
  /**
   * Most keys one run may hash or report after sharing (a selection of a source is digested once for all
   * targets; distinct selections and per-target report rows count, #21). Operator-only: the plugin sets it
   * from ROLLSTAMP_MAX_KEY_WORK. Each path of a declared kind read in an object counts as one key (#33).
   * Default: DEFAULT_MAX_KEY_WORK.
   */
  maxKeyWork?: number;
  /**
   * Most rows the kagent 1.x preview may hold for one run: each input of each Agent, counted once per object in
   * its chain (#33). Operator-only: the plugin sets it from ROLLSTAMP_MAX_PREVIEW_ROWS. Default:
   * DEFAULT_MAX_PREVIEW_ROWS (hash/kagent1x-preview.ts).
   */
  maxPreviewRows?: number;
  /** Workload kinds the user declares (`spec.kinds`): rows of the kind table after the built-in ones. Default: none. */
  kinds?: readonly WorkloadRow[];
}

/** When the plugin reads the cluster: never; for what nothing in the bundle resolves; also over producers. */
export type LiveMode = 'never' | 'missing' | 'always';

/** Default of Config.maxReferences (ROLLSTAMP_MAX_REFERENCES). */
export const DEFAULT_MAX_REFERENCES = 1000;
/** Default of Config.maxKeyWork (ROLLSTAMP_MAX_KEY_WORK). */
export const DEFAULT_MAX_KEY_WORK = 500_000;
/** Default of ReadLimits.maxKinds (ROLLSTAMP_MAX_KINDS). */
export const DEFAULT_MAX_KINDS = 100;
/** Default of ReadLimits.maxKindPaths (ROLLSTAMP_MAX_KIND_PATHS). */
export const DEFAULT_MAX_KIND_PATHS = 32;

/**
 * What reading settings may cost, set by the operator (never by the settings read, #33).
 * - `maxKinds`: most `spec.kinds` entries. Default: DEFAULT_MAX_KINDS.
 * - `maxKindPaths`: most paths one entry lists (`podSpecPaths`, `secretNamePaths` and `configMapNamePaths`
 *   together). Default: DEFAULT_MAX_KIND_PATHS.
 * - `deadline`: the run's, checked while the entries are read. Default: none.
 */
export interface ReadLimits {
  maxKinds?: number;
  maxKindPaths?: number;
  deadline?: Deadline;
}
