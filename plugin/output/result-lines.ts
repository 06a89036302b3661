// Results as the shell prints them beside the output: each warning as one stderr line, and a failed run as the
// one line its error says (the first error, and how many more).
import { formatResult, type Result } from '../../function/index.ts';
import type { Io } from '../process/io.ts';

/** Each warning result as one `rollstamp: warning: …` line on stderr. */
export function printWarnings(results: readonly Result[], io: Io): void {
  for (const r of results) if (r.severity === 'warning') io.writeStderr(`rollstamp: ${formatResult(r)}\n`);
}

/** One line for a run that failed: the first error, how many more there are, and how to see them all. */
export function summarize(results: readonly Result[]): string {
  const errors = results.filter((r) => r.severity === 'error');
  const first = errors[0] ?? results[0];
  if (!first) return 'failed';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''}: rollstamp explain over the same input and flags lists them all)` : '';
  return `${formatResult(first)}${more}`;
}
