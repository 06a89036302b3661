// Config stage: `spec.kinds` — workload kinds a user declares — checked and turned into rows of the kind
// table (model/workload-row.ts). The operator's limits bound the entries and paths before anything else reads
// them; the schema checks the shape (and each path's depth); this checks what a schema cannot say well, with
// one INVALID_CONFIG line naming the field, in time linear in the entries (#33). A row that collides with a
// built-in or producer kind is refused by the kinds stage (kinds/declared-kinds.ts), which holds those tables.
import { DEFAULT_MAX_KIND_PATHS, DEFAULT_MAX_KINDS, type ReadLimits } from '../model/config.ts';
import type { Deadline } from '../model/deadline.ts';
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

const PATH_FIELDS = ['podSpecPaths', 'secretNamePaths', 'configMapNamePaths'] as const;

// A named group (the core group's kinds are all built in) and one version, or `*` for any version.
const API_VERSION = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+)\/([a-z0-9]+|\*)$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;
/** A field name as a dot path holds it: a letter, then letters, digits, `-` and `_` (the schema bounds the depth). */
const FIELD = /^[A-Za-z][A-Za-z0-9_-]*$/;
/**
 * Words YAML 1.1 reads as a boolean or null when written plain (`on:` is `true:` to Kubernetes' reader): no
 * object field has such a name, and a stamp written under one would not be found where it was written.
 */
const YAML_WORDS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL']);
/** The last key of a stamp path: an annotations map (`annotations`, or `podAnnotations` and the like). */
const ANNOTATIONS = /^(annotations|[a-z][A-Za-z0-9]*Annotations)$/;

/**
 * The operator's bounds on `spec.kinds` as given (before the schema reads it, so a huge list costs no more
 * than counting): more entries than `maxKinds`, or an entry listing more paths than `maxKindPaths`, is one
 * error naming the setting that was exceeded.
 */
export function kindLimitProblems(kinds: unknown, at: string, limits: ReadLimits): Result[] {
  if (!Array.isArray(kinds)) return [];
  const maxKinds = limits.maxKinds ?? DEFAULT_MAX_KINDS;
  if (kinds.length > maxKinds) return [errorResult('INVALID_CONFIG', `${at}: ${kinds.length} entries; at most ${maxKinds} (ROLLSTAMP_MAX_KINDS)`)];
  const maxPaths = limits.maxKindPaths ?? DEFAULT_MAX_KIND_PATHS;
  const out: Result[] = [];
  kinds.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) return;
    const paths = PATH_FIELDS.reduce((n, f) => n + (Array.isArray((entry as Record<string, unknown>)[f]) ? ((entry as Record<string, unknown[]>)[f]!).length : 0), 0);
    if (paths > maxPaths) out.push(errorResult('INVALID_CONFIG', `${at}[${i}]: ${paths} paths (${PATH_FIELDS.join(', ')}); at most ${maxPaths} (ROLLSTAMP_MAX_KIND_PATHS)`));
  });
  return out;
}

/**
 * The rows `spec.kinds` declares (entries already valid against the schema), or the problems.
 * - `at` is how messages name the setting (`spec.kinds`, `.rollstamp.yaml: spec.kinds`).
 * - Refused: an apiVersion that is not `group/version` or `group/*` with a dotted group, a kind that is not a
 *   Kubernetes kind name, a path that is not a dot path of field names (a YAML 1.1 boolean or null word is
 *   not one), a pod spec or name path outside `spec`, a stamp path that is not an annotations map in `spec`
 *   or `metadata.annotations` itself (#33: not labels, not a pod spec), and two entries for the same kind and
 *   version.
 * - Declared rows roll `rolling` unless the entry says otherwise (`rolls`).
 * - `deadline` is checked every 64 entries.
 */
export function readKinds(entries: readonly KindEntry[], at: string, deadline?: Deadline): { rows: WorkloadRow[] } | { results: Result[] } {
  const results: Result[] = [];
  const rows: WorkloadRow[] = [];
  // Each earlier entry is found by key, never by a scan, so n entries cost n lookups (#33).
  const exact = new Map<string, number>();
  const anyVersion = new Map<string, number>();
  const firstOfKind = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (i % 64 === 63) deadline?.check('reading spec.kinds');
    const here = `${at}[${i}]`;
    const problem = (field: string, message: string) => results.push(errorResult('INVALID_CONFIG', `${here}.${field}: ${message}`));
    const before = results.length;
    const version = API_VERSION.exec(entry.apiVersion);
    if (!version) problem('apiVersion', 'must be group/version or group/* with a dotted group, such as example.com/v1');
    if (!KIND.test(entry.kind)) problem('kind', 'must be a Kubernetes kind name, such as MyApp');
    const paths = (field: string, list: readonly string[] | undefined): KeyPath[] =>
      (list ?? []).flatMap((p, j) => {
        const keys = dotPath(p);
        if (typeof keys === 'string') {
          problem(`${field}[${j}]`, keys);
          return [];
        }
        if (keys[0] !== 'spec') problem(`${field}[${j}]`, 'must be inside spec');
        return [keys];
      });
    const podSpecs = paths('podSpecPaths', entry.podSpecPaths);
    const secretNames = paths('secretNamePaths', entry.secretNamePaths);
    const configMapNames = paths('configMapNamePaths', entry.configMapNamePaths);
    const stamp = dotPath(entry.stampAnnotationsPath);
    if (typeof stamp === 'string') problem('stampAnnotationsPath', stamp);
    else {
      const site = stampSiteProblem(stamp, entry.podSpecPaths.map((p) => p.split('.')));
      if (site) problem('stampAnnotationsPath', site);
    }
    if (version) {
      const kind = `${version[1]}/${entry.kind}`;
      const v = version[5]!;
      const twin = v === '*' ? firstOfKind.get(kind) : (exact.get(`${kind}/${v}`) ?? anyVersion.get(kind));
      if (twin !== undefined) problem('kind', `declares ${entry.kind} of ${entry.apiVersion} again (${at}[${twin}] has it)`);
      if (!firstOfKind.has(kind)) firstOfKind.set(kind, i);
      const byVersion = v === '*' ? anyVersion : exact;
      const id = v === '*' ? kind : `${kind}/${v}`;
      if (!byVersion.has(id)) byVersion.set(id, i);
    }
    if (results.length > before || !version || typeof stamp === 'string') return;
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

/** The keys of a dot path of field names, or why it is not one. */
function dotPath(path: string): KeyPath | string {
  const keys = path.split('.');
  if (!keys.every((k) => FIELD.test(k))) return 'must be a dot path of field names, such as spec.template.spec';
  const word = keys.find((k) => YAML_WORDS.has(k));
  if (word !== undefined) return `must be a dot path of field names: ${word} is a boolean or null to YAML 1.1, not a field name`;
  return keys;
}

/**
 * Why a stamp path cannot hold a stamp, if it cannot: a stamp site is an annotations map the operator copies
 * onto its pods, as every built-in row's is (#33) — `metadata.annotations`, or a map in `spec` whose key is
 * `annotations` (or `podAnnotations` and the like) outside every pod spec (a pod spec has no annotations).
 */
function stampSiteProblem(stamp: KeyPath, podSpecs: readonly KeyPath[]): string | undefined {
  if (stamp[0] === 'metadata') return stamp.length === 2 && stamp[1] === 'annotations' ? undefined : 'inside metadata, only metadata.annotations holds a stamp';
  if (stamp[0] !== 'spec' || stamp.length < 2) return 'must be inside metadata or spec (an annotations map the operator copies onto its pods)';
  if (!ANNOTATIONS.test(stamp.at(-1)!)) return 'must end in an annotations map (annotations, podAnnotations …) the operator copies onto its pods, such as spec.template.metadata.annotations';
  const inPodSpec = podSpecs.findIndex((p) => p.length < stamp.length && p.every((k, i) => stamp[i] === k));
  if (inPodSpec >= 0) return `is inside podSpecPaths[${inPodSpec}] (a pod spec has no annotations; its template's metadata.annotations is beside it)`;
  return undefined;
}
