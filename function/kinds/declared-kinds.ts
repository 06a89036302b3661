// Target kinds: the check of kinds a user declares (`spec.kinds`, read by config/kinds.ts) against the kinds
// rollstamp has built in. A declared row only adds targets: it may not stand in for a built-in workload kind
// or a kagent kind, whose reading and stamp site rollstamp owns.
import { errorResult, type Result } from '../model/results.ts';
import type { Config } from '../model/config.ts';
import { builtInRow } from './workloads.ts';

/** API groups whose objects the kagent kinds read (kinds/kagent-*.ts); no declared row may use them. */
const KAGENT_GROUPS = ['kagent.dev', 'api.kagent.dev'];

/**
 * One INVALID_CONFIG error for each declared row that collides with a built-in kind: the same group and kind
 * as a built-in workload row (any version), or a kagent group.
 */
export function declaredKindProblems(config: Config): Result[] {
  const out: Result[] = [];
  for (const row of config.kinds ?? []) {
    const builtIn = builtInRow(row.group, row.kind);
    if (builtIn) out.push(errorResult('INVALID_CONFIG', `${row.declaredAt}.kind: ${row.group}/${row.kind} is a built-in kind (${builtIn.source}); remove the entry`));
    else if (KAGENT_GROUPS.includes(row.group)) out.push(errorResult('INVALID_CONFIG', `${row.declaredAt}.apiVersion: ${row.group} is kagent's group, which rollstamp reads itself; remove the entry`));
  }
  return out;
}
