// `rollstamp refresh`: what it says on stderr — one line per refresh requested (the Application, each changed
// object, its key names and the workloads that read it; never a value), and each problem with a record once an hour
// at most (an info once), so a forged or stale record is visible without flooding the log.
import { oneLine, resourceId, type LiveChange, type RefreshRequest, type Result } from '../../../function/index.ts';

const PREFIX = 'rollstamp refresh: ';
const MAX_SOURCES = 10;
const REPEAT_AFTER_MS = 60 * 60_000;

/** The line for one request. */
export function requestLine(r: RefreshRequest): string {
  const bySource = new Map<string, LiveChange[]>();
  for (const c of r.changes) {
    const key = `${c.kind} ${c.namespace}/${c.name}`;
    bySource.set(key, [...(bySource.get(key) ?? []), c]);
  }
  const parts = [...bySource].slice(0, MAX_SOURCES).map(([source, changes]) => {
    const readers = [...new Set(changes.map((c) => `${c.workload.kind} ${c.workload.namespace ?? ''}/${c.workload.name}`))];
    return `${source} ${what(changes[0]!)} (read by ${readers.join(', ')})`;
  });
  const more = bySource.size > MAX_SOURCES ? `; and ${bySource.size - MAX_SOURCES} more objects` : '';
  return oneLine(`${PREFIX}requested a hard refresh of Application ${r.application.namespace}/${r.application.name}: ${parts.join('; ')}${more}`);
}

/** `key password changed`, `deleted`, `changed since the render, unverified: no hash key (consumed keys …)`. */
function what(c: LiveChange): string {
  const keys = c.whole && !c.exact ? 'every key' : c.keys.length === 0 ? 'no key' : `${c.keys.length === 1 ? 'key' : 'keys'} ${c.keys.join(', ')}`;
  switch (c.reason) {
    case 'deleted':
      return 'was deleted';
    case 'created':
      return 'was created';
    case 'unverified':
      return `has a new resourceVersion and, without the hash key, may have changed (consumed: ${keys}; unverified)`;
    case 'changed':
      return c.exact ? `changed: ${keys}` : `changed in what it consumed (${keys})`;
  }
}

/** Problems with records, each said once an hour at most. */
export class ProblemLog {
  private readonly said = new Map<string, number>();

  constructor(private readonly write: (line: string) => void) {}

  /** Writes each problem not said within the hour; returns the codes of those said now (for the metrics). */
  report(problems: readonly Result[], now: number): string[] {
    const codes: string[] = [];
    for (const p of problems) {
      const key = `${p.tags.code}\0${resourceId(p.resourceRef)}\0${p.message}`;
      const last = this.said.get(key);
      // A warning again after an hour, while it lasts; an info (a workload no Argo CD Application tracks) once.
      if (last !== undefined && (p.severity === 'info' || now - last < REPEAT_AFTER_MS)) continue;
      this.said.set(key, now);
      codes.push(p.tags.code);
      const ref = p.resourceRef;
      this.write(oneLine(`${PREFIX}${p.severity}: ${ref ? `${ref.kind} ${ref.namespace ?? ''}/${ref.name}: ` : ''}${p.message}`));
    }
    return codes;
  }
}

/** One line of the refresher's own. */
export const line = (text: string): string => `${oneLine(`${PREFIX}${text}`)}\n`;
