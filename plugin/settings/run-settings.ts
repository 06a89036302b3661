// Plugin config stage: one run's environment, read once. The first time a run asks, its `io.env` is copied in
// one pass; every setting (settings-table.ts names its variable) is then parsed from that copy lazily, at most
// once, and kept, error included. Lazy, so a bad value of a setting the run never uses (a live timeout in a
// run without live reads) fails nothing, as before; once, so each variable is read one time per run however
// many parts of the run use it (renderer, live reads, the core's limits). Plugin code reads the environment
// only through `runEnv` and `resolveSetting`; a unit test counts the reads through a Proxy env.
import type { Io } from '../process/io.ts';

type Env = Readonly<Record<string, string | undefined>>;
type Resolved = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A run's settings: the environment as read at the start, and each setting parsed from it once. */
export class RunSettings {
  /** The run's environment, read once (a frozen plain copy). */
  readonly env: Env;
  private readonly resolved = new Map<string, Resolved>();

  constructor(env: Env) {
    this.env = Object.freeze(Object.fromEntries(Object.entries(env)));
  }

  /**
   * The setting `key` parsed by `parse` from the run's environment, the first time it is asked for; the
   * same value (or the same error, thrown again) after that.
   */
  resolve<T>(key: string, parse: (env: Env) => T): T {
    let r = this.resolved.get(key);
    if (r === undefined) {
      try {
        r = { ok: true, value: parse(this.env) };
      } catch (error) {
        r = { ok: false, error };
      }
      this.resolved.set(key, r);
    }
    if (!r.ok) throw r.error;
    return r.value as T;
  }
}

const RUNS = new WeakMap<Io, RunSettings>();

/** The run's settings: made on first use for this `io` (one run), the same object after. */
export function runSettings(io: Io): RunSettings {
  let s = RUNS.get(io);
  if (s === undefined) {
    s = new RunSettings(io.env);
    RUNS.set(io, s);
  }
  return s;
}

/** The run's environment, as read once. */
export function runEnv(io: Io): Env {
  return runSettings(io).env;
}

/** `RunSettings.resolve` for this run's settings. */
export function resolveSetting<T>(io: Io, key: string, parse: (env: Env) => T): T {
  return runSettings(io).resolve(key, parse);
}
