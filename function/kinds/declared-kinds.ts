// Target kinds: the check of kinds a user declares (`spec.kinds`, read by config/kinds.ts) against the kinds
// rollstamp has built in. A declared row only adds targets: it may not stand in for a built-in workload kind
// or a kagent kind, whose reading and stamp site rollstamp owns, nor be a producer kind, whose digest covers
// its own spec — a stamp written there would feed the next run's digest and change on every run (#33).
import { errorResult, type Result } from '../model/results.ts';
import type { Config } from '../model/config.ts';
import { producerKind } from './producers.ts';
import { builtInRow } from './workloads.ts';

/** API groups whose objects the kagent kinds read (kinds/kagent-*.ts); no declared row may use them. */
const KAGENT_GROUPS = ['kagent.dev', 'api.kagent.dev'];

/**
 * One INVALID_CONFIG error for each declared row that collides with a built-in kind: the same group and kind
 * as a built-in workload row (any version), a kagent group, or a producer kind (SealedSecret, ExternalSecret,
 * VaultStaticSecret, SecretProviderClass, cert-manager Certificate).
 */
export function declaredKindProblems(config: Config): Result[] {
  const out: Result[] = [];
  for (const row of config.kinds ?? []) {
    const builtIn = builtInRow(row.group, row.kind);
    const producer = producerKind(row.group, row.kind);
    if (builtIn) out.push(errorResult('INVALID_CONFIG', `${row.declaredAt}.kind: ${row.group}/${row.kind} is a built-in kind (${builtIn.source}); remove the entry`));
    else if (KAGENT_GROUPS.includes(row.group)) out.push(errorResult('INVALID_CONFIG', `${row.declaredAt}.apiVersion: ${row.group} is kagent's group, which rollstamp reads itself; remove the entry`));
    else if (producer) {
      const message = `${row.declaredAt}.kind: ${row.group}/${row.kind} makes the Secrets workloads use, and its digest covers its own spec: a stamp on it would change its own hash on every run; remove the entry`;
      out.push(errorResult('INVALID_CONFIG', message));
    }
  }
  return out;
}
