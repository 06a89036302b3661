// The shape of a command: the record the command list holds (index.ts) and the module its loader returns. Its
// own module so that a command (completion, which lists the others) can name the shape without importing the list.
import type { FlagSpec } from '../cli/flags.ts';
import type { RunIo } from '../settings/run-settings.ts';

/** What a command's module gives once loaded. */
export interface CommandModule {
  /** The whole `rollstamp NAME --help` text. */
  help: string;
  /** Every flag the command parses, in help order (its own, then shared ones such as the config flags). */
  flags: readonly FlagSpec[];
  /** Runs one invocation with the run's settings (read once by the dispatcher); returns the exit code. Throws RollstampError for usage and input problems. */
  run: (args: readonly string[], io: RunIo) => Promise<number>;
}

/**
 * One command, as the dispatcher, the main help and the shell completion scripts read it.
 * - `load` imports the command's module only when it is needed, so start-up compiles no command (the flags come
 *   with the module: a flag table may be derived from the settings table or an output format table, and those
 *   stay out of the main thread).
 */
export interface CommandRecord {
  /** The word that runs it: `stamp`. */
  name: string;
  /** One line for the main help's command list and the completion descriptions. */
  summary: string;
  load: () => Promise<CommandModule>;
  /** Runs until told to stop (io.signal): main.ts asks it to stop on SIGTERM instead of ending the process. */
  longRunning?: true;
  /** Its arguments are not file names (shell completion offers no files). Default: they are. */
  noFileArgs?: true;
  /**
   * Always runs in a worker thread, whatever the size of its input (#37): it runs until stopped, on a stream of
   * watch events the size gate (run-gate.ts) cannot see. Default: the gate decides.
   */
  worker?: true;
  /**
   * Holds a row per selected key of each target (explain, diff), which grows to ROLLSTAMP_MAX_KEY_WORK from a
   * small input: the size gate (run-gate.ts) leaves it more heap on the main thread. Default: it does not.
   */
  keyRows?: true;
}
