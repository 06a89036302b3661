// Config stage: `spec.kinds` — workload kinds a user declares — checked and turned into rows of the kind
// table (model/workload-row.ts). The schema has checked the shape; this checks what a schema cannot say
// well, with one INVALID_CONFIG line naming the field. A row that collides with a built-in kind is refused
// by the kinds stage (kinds/declared-kinds.ts), which holds the built-in table.
import { errorResult, type Result } from '../model/results.ts';
import type { KeyPath, Rolls, WorkloadRow } from '../model/workload-row.ts';

/** One `spec.kinds` entry as the schema lets it through. */
interface KindEntry {
  apiVersion: string;
  kind: string;
  podSpecPaths: string[];
  secretNamePaths?: string[];
  configMapNamePaths?: string[];
  stampAnnotationsPath: string;
  rolls?: Rolls;
}

// A named group (the core group's kinds are all built in) and one version, or `*` for any version.
const API_VERSION = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+)\/([a-z0-9]+|\*)$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;
const DOT_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/**
 * The rows `spec.kinds` declares (entries already valid against the schema), or the problems.
 * - `at` is how messages name the setting (`spec.kinds`, `.rollstamp.yaml: spec.kinds`).
 * - Refused: an apiVersion that is not `group/version` or `group/*` with a dotted group, a kind that is not a
 *   Kubernetes kind name, a path that is not a dot path, a stamp path outside `metadata` or `spec`, a pod
 *   spec path under `status`, and two entries for the same kind and version.
 * - Declared rows roll `rolling` unless the entry says otherwise (`rolls`).
 */
export function readKinds(entries: readonly KindEntry[], at: string): { rows: WorkloadRow[] } | { results: Result[] } {
  const results: Result[] = [];
  const rows: WorkloadRow[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const here = `${at}[${i}]`;
    const problem = (field: string, message: string) => results.push(errorResult('INVALID_CONFIG', `${here}.${field}: ${message}`));
    const before = results.length;
    const version = API_VERSION.exec(entry.apiVersion);
    if (!version) problem('apiVersion', 'must be group/version or group/* with a dotted group, such as example.com/v1');
    if (!KIND.test(entry.kind)) problem('kind', 'must be a Kubernetes kind name, such as MyApp');
    const paths = (field: string, list: readonly string[] | undefined): KeyPath[] =>
      (list ?? []).flatMap((p, j) => {
        if (!DOT_PATH.test(p)) {
          problem(`${field}[${j}]`, 'must be a dot path such as spec.template.spec');
          return [];
        }
        const keys = p.split('.');
        if (keys[0] !== 'spec') problem(`${field}[${j}]`, 'must be inside spec');
        return [keys];
      });
    const podSpecs = paths('podSpecPaths', entry.podSpecPaths);
    const secretNames = paths('secretNamePaths', entry.secretNamePaths);
    const configMapNames = paths('configMapNamePaths', entry.configMapNamePaths);
    const stamp = entry.stampAnnotationsPath.split('.');
    if (!DOT_PATH.test(entry.stampAnnotationsPath)) problem('stampAnnotationsPath', 'must be a dot path such as spec.template.metadata.annotations');
    else if (stamp.length < 2 || (stamp[0] !== 'metadata' && stamp[0] !== 'spec')) problem('stampAnnotationsPath', 'must be inside metadata or spec (an annotations map the operator copies onto its pods)');
    if (version) {
      const id = `${version[1]}/${entry.kind}/${version[5]}`;
      const anyId = `${version[1]}/${entry.kind}/*`;
      const twin = seen.get(id) ?? seen.get(anyId) ?? (version[5] === '*' ? [...seen].find(([k]) => k.startsWith(`${version[1]}/${entry.kind}/`))?.[1] : undefined);
      if (twin !== undefined) problem('kind', `declares ${entry.kind} of ${entry.apiVersion} again (${at}[${twin}] has it)`);
      seen.set(id, i);
    }
    if (results.length > before || !version) return;
    const row: WorkloadRow = {
      group: version[1]!,
      kind: entry.kind,
      // Each pod spec path is checked in every object (workloads.ts), with a message naming the setting.
      required: [],
      podSpecs,
      stamp: { kind: 'annotation', path: stamp },
      rolls: entry.rolls ?? 'rolling',
      why: entry.rolls === undefined ? `declared in ${here}: the operator is expected to roll its pods when their annotations change` : `declared in ${here}`,
      source: `declared in ${here}`,
      declaredAt: here,
    };
    if (version[5] !== '*') row.versions = [version[5]!];
    if (secretNames.length > 0) row.secretNames = secretNames;
    if (configMapNames.length > 0) row.configMapNames = configMapNames;
    rows.push(row);
  });
  return results.length > 0 ? { results } : { rows };
}
