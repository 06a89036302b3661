// The process's streams and environment behind an interface, so commands run the same in tests and for real.

/**
 * What a command writes to standard output: its text, or the pieces of it in order (a stamped stream is slices of
 * its input, which are not joined into a copy to be written; explain's JSON is made a target at a time, #37).
 * Iterated once, after the whole run succeeded, and every piece made before the first byte is written: an output
 * that fails while it is made writes nothing.
 */
export type OutputText = string | Iterable<string>;

export interface Io {
  /**
   * All of standard input, or `undefined` when it holds more than `most` bytes (what is left of the input limit):
   * it is then read no further than the byte past `most` (#37). An implementation may also give more than `most`
   * bytes; the caller checks the size either way.
   */
  readStdin(most: number): Promise<Uint8Array | undefined>;
  /** Standard output; resolves when the data is flushed. Called once, after the whole run succeeded. */
  writeStdout(text: OutputText): Promise<void>;
  /** One line (or more) to standard error. */
  writeStderr(text: string): void;
  /** True when standard input is a terminal (nothing piped in): commands then print a hint, not wait. */
  stdinIsTTY?: boolean;
  /**
   * With `--debug`: called as each phase of a run starts (`reading`, `planning`, `reading the cluster`,
   * `hashing`, `writing`), so a slow run shows where its time goes. Default: absent (no output).
   */
  trace?(phase: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * Aborted when a long-running command (`refresh`) is asked to stop (SIGTERM, SIGINT): it then ends its work
   * and returns its exit status. Other commands are ended by main.ts without it. Default: never aborted.
   */
  signal?: AbortSignal;
  /**
   * Called by the read stage with each input's size (bytes) before it is parsed. A run on the process's own
   * thread (run-in-process.ts) throws from here when the input read so far is too large for that thread, and the
   * run starts again in a worker (#37). `bound`: the bytes are the most the input may be (a renderer's output,
   * admitted before it runs), not its size. Default: absent (every input is admitted).
   */
  admit?(bytes: number, bound?: 'most'): void;
  /**
   * A full garbage collection, which a run asks for where it has just let go of most of what it held (its plan,
   * once applied, #37). Set by the worker, which runs the large inputs: V8 collects the old generation only when
   * it reaches a limit set at the last collection, so what a run lets go of stayed in the heap, and in the
   * process's peak RSS, until the run ended. Default: absent (the run on the process's own thread is small).
   */
  collectGarbage?(): void;
}
