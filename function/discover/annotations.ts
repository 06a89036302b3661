// Discover stage: extra dependencies named on the workload itself (`rollstamp.dev/secrets`,
// `rollstamp.dev/configmaps`): comma-separated `name` or `namespace/name`, each a whole-object reference.
import { EXTRA_CONFIGMAPS_ANNOTATION, EXTRA_SECRETS_ANNOTATION } from '../model/constants.ts';
import { errorResult, type Result } from '../model/results.ts';
import { formatPath } from '../model/nodes.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { KObject, SourceClass } from '../model/object.ts';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The annotations naming extra dependencies, and the class each names. */
const EXTRA_ANNOTATIONS = [[EXTRA_SECRETS_ANNOTATION, 'Secret'], [EXTRA_CONFIGMAPS_ANNOTATION, 'ConfigMap']] as const;

/**
 * References from the extra-dependency annotations; a malformed entry is a BAD_ANNOTATION error.
 * - Reads at most `max` + 1 entries in all (good or malformed), so a multi-megabyte annotation costs no more
 *   than the cap: the caller refuses a target over it (#12).
 */
export function annotationRefs(obj: KObject, results: Result[], max: number): SourceRef[] {
  const refs: SourceRef[] = [];
  let seen = 0;
  for (const [key, cls] of EXTRA_ANNOTATIONS) {
    const value = obj.annotations.get(key);
    if (value === undefined) continue;
    const field = formatPath(['metadata', 'annotations', key]);
    let i = 0;
    for (let from = 0; from <= value.length && seen <= max; ) {
      const comma = value.indexOf(',', from);
      const to = comma === -1 ? value.length : comma;
      const entry = value.slice(from, to).trim();
      from = to + 1;
      if (entry === '') continue;
      i++;
      seen++;
      const ref = parseEntry(entry, cls, field);
      if (ref) refs.push(ref);
      else results.push(errorResult('BAD_ANNOTATION', `entry ${i} is not a name or namespace/name`, obj.subject, field));
    }
  }
  return refs;
}

function parseEntry(entry: string, cls: SourceClass, field: string): SourceRef | undefined {
  const parts = entry.split('/');
  const [namespace, name] = parts.length === 2 ? parts : ['', parts[0]];
  if (parts.length > 2 || name === undefined || namespace === undefined) return undefined;
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) return undefined;
  if (namespace !== '' && !DNS_LABEL.test(namespace)) return undefined;
  return { cls, namespace, name, keys: 'whole', optional: false, field };
}
