// Model: the run's deadline as the core sees it. The plugin owns the clock; the core only asks, inside long
// phases, whether to stop (a throw from `check` ends the run).
/** Checked by the core every so often inside long loops; throws once the run is past its deadline. */
export interface Deadline {
  check(phase: string): void;
}
