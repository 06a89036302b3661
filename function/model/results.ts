// Results as data (KRM functions spec v1): every stage reports bad input here instead of throwing.
// No constructor takes a value, so a Secret's bytes cannot reach a message.
import { hasUnprintable, printable, printableData, shownName } from './printable.ts';

/** The closed set of result codes. Tests and users match on these. */
export type ResultCode =
  | 'INVALID_INPUT' // the text is not a ResourceList / YAML stream we can read
  | 'YAML_SYNTAX'
  | 'INVALID_UTF8'
  | 'INVALID_CONFIG'
  | 'INVALID_OBJECT' // an item that is not a Kubernetes object
  | 'WRONG_TYPE' // a field of the wrong YAML type
  | 'ALIAS_NOT_ALLOWED'
  | 'MERGE_KEY_NOT_ALLOWED'
  | 'TOO_DEEP'
  | 'BAD_BASE64'
  | 'DUPLICATE_KEY'
  | 'DUPLICATE_SOURCE'
  | 'AMBIGUOUS_SOURCE' // a plain Secret and a producer (or two producers) define the same Secret
  | 'DEPRECATED_API'
  | 'UNMATCHABLE_KAGENT_HASH' // hashScheme kagent over a Secret whose values only the cluster has
  | 'BAD_ANNOTATION'
  | 'TOO_MANY_REFERENCES' // a target names more sources than the operator's cap (#12)
  | 'TOO_MUCH_KEY_WORK' // more keys to hash or report than the operator's cap, after sharing (#21)
  | 'TOO_MUCH_PREVIEW_WORK' // more kagent 1.x preview rows than the operator's cap, for the whole run (#33)
  | 'MISSING_SOURCE'
  | 'MISSING_KEY'
  | 'MISSING_TEMPLATE'
  | 'IMMUTABLE_TEMPLATE'
  | 'NO_TEMPLATE'
  | 'ON_DELETE_STRATEGY'
  | 'NO_AUTOMATIC_ROLLOUT'
  | 'KAGENT_REFERENCE' // a kagent reference kagent itself would refuse
  | 'CROSS_NAMESPACE_DENIED'
  | 'UNCHECKED_NAMESPACE_SELECTOR'
  | 'MISSING_OBJECT' // a ModelConfig, RemoteMCPServer or tool Agent that is not in the input
  | 'EMPTY_INPUT' // fn: a ResourceList without items (passed through as it came)
  | 'UNSUPPORTED_KAGENT_VERSION' // a kagent API version rollstamp never writes into (unreleased or unknown)
  | 'DROPPED_BY_KAGENT' // a reference kagent's Substrate path drops: it never reaches the workload
  | 'KAGENT_1X_NOT_STAMPED' // kagent 1.x objects pass through: kagent compiles its own revisions (#20, #35)
  | 'WORKLOAD_REF' // an Argo Rollout takes its pod template from another object: where its stamp goes (#38)
  | 'ALSO_RELOADED' // stamped workloads Stakater Reloader reloads too: each change rolls them twice (#38)
  | 'MASKED_VALUES' // a Secret whose values Argo CD's API masked (++++++++): its hash cannot follow them (#38)
  | 'STAMPED'
  | 'RECORDED' // a workload's live-read record was written (#34)
  | 'RECORD_REPLACED' // the input carried a live-read record this run did not write: replaced with the empty one (#34)
  | 'RECORD_TOO_LARGE' // a live-read record longer than its limit (#34)
  | 'BAD_RECORD' // refresh: a live-read record that does not read as one (#34)
  | 'RECORD_OUT_OF_SCOPE' // refresh: a record names an object outside the namespaces it may act on (#34)
  | 'UNMANAGED_WORKLOAD' // refresh: no Application in scope lists the workload among its resources (#34)
  | 'HASH_KEY_MISMATCH'; // refresh: a record digest differs at the version it was made from: another hash key (#34)

export type Severity = 'error' | 'warning' | 'info';

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface FileRef {
  path: string;
  index?: number;
}

/** One KRM result. `field.currentValue` is never filled: it could hold a secret. */
export interface Result {
  message: string;
  severity: Severity;
  resourceRef?: ResourceRef;
  field?: { path: string };
  file?: FileRef;
  tags: { code: ResultCode };
}

/** Where a result points: the object, and the file it came from. */
export interface Subject {
  ref?: ResourceRef;
  file?: FileRef;
}

/**
 * Builds a result.
 * - `message` must be built from names, paths and codes only, never from a value read from input. Names in it
 *   are made printable here (format characters as `\uXXXX`, #21), whatever the output format.
 */
export function result(
  severity: Severity,
  code: ResultCode,
  message: string,
  subject: Subject = {},
  fieldPath?: string,
): Result {
  const out: Result = { message: printable(message), severity, tags: { code } };
  // A name with a format character is not a Kubernetes name; shown escaped, in every output (#21).
  if (subject.ref) out.resourceRef = hasUnprintableValue(subject.ref) ? printableData(subject.ref) : subject.ref;
  if (fieldPath !== undefined && subject.ref) out.field = { path: printable(fieldPath) };
  if (subject.file) out.file = subject.file;
  return out;
}

/** True when a string value of `ref` has a character printable() escapes (read in place: a list of its values per result was garbage, #37). */
function hasUnprintableValue(ref: object): boolean {
  for (const key in ref) {
    const value = (ref as Record<string, unknown>)[key];
    if (typeof value === 'string' && hasUnprintable(value)) return true;
  }
  return false;
}

export const errorResult = (code: ResultCode, message: string, subject?: Subject, field?: string): Result =>
  result('error', code, message, subject, field);
export const warningResult = (code: ResultCode, message: string, subject?: Subject, field?: string): Result =>
  result('warning', code, message, subject, field);
export const infoResult = (code: ResultCode, message: string, subject?: Subject, field?: string): Result =>
  result('info', code, message, subject, field);

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Sorts results: errors first, then by file, object and field, so output is stable.
 * - Compared part by part, an object's id made only when two results tie before it, and once per result: a key
 *   string joined of every part, built for each of a large run's 20,000 STAMPED results and all alive until the
 *   sort ended, was garbage the collector copied (#37). The order is the keys' (sortByKeys): NUL, which joined
 *   them, is the least character, so part by part gives the same order unless a part holds one.
 */
export function sortResults(results: readonly Result[]): Result[] {
  if (results.some(holdsNul)) return sortByKeys(results);
  const ids: Array<string | undefined> = [];
  const idOf = (i: number): string => (ids[i] ??= resourceId(results[i]!.resourceRef));
  const order = results.map((_, i) => i);
  // Array#sort is stable: results that compare equal keep their order.
  order.sort((i, j) => {
    const a = results[i]!;
    const b = results[j]!;
    return (
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      compareStrings(a.file?.path ?? '', b.file?.path ?? '') ||
      compareIndexes(a.file?.index ?? 0, b.file?.index ?? 0) ||
      compareStrings(idOf(i), idOf(j)) ||
      compareStrings(a.field?.path ?? '', b.field?.path ?? '') ||
      compareStrings(a.message, b.message)
    );
  });
  return order.map((i) => results[i]!);
}

/** The results sorted by one key each, its parts joined with NUL (the order sortResults keeps). */
function sortByKeys(results: readonly Result[]): Result[] {
  const keyed = results.map((r) => ({ r, rank: SEVERITY_ORDER[r.severity], key: [r.file?.path ?? '', paddedIndex(r.file?.index ?? 0), resourceId(r.resourceRef), r.field?.path ?? '', r.message].join('\u0000') }));
  keyed.sort((a, b) => a.rank - b.rank || compareStrings(a.key, b.key));
  return keyed.map((k) => k.r);
}

const paddedIndex = (index: number): string => String(index).padStart(8, '0');

/** Two file indexes as their keys compare (paddedIndex): as numbers while both have eight digits or fewer. */
function compareIndexes(a: number, b: number): number {
  if (a === b) return 0;
  return eightDigits(a) && eightDigits(b) ? a - b : compareStrings(paddedIndex(a), paddedIndex(b));
}

const eightDigits = (n: number): boolean => Number.isInteger(n) && n >= 0 && n < 1e8;

/** Whether a part of the result's sort key holds NUL. */
function holdsNul(r: Result): boolean {
  const ref = r.resourceRef;
  const refNul = ref !== undefined && (hasNul(ref.apiVersion) || hasNul(ref.kind) || hasNul(ref.namespace) || hasNul(ref.name));
  return refNul || hasNul(r.file?.path) || hasNul(r.field?.path) || hasNul(r.message);
}

const hasNul = (part: string | undefined): boolean => part !== undefined && part.includes('\0');

export const hasErrors = (results: readonly Result[]): boolean => results.some((r) => r.severity === 'error');

/** True when a result from `before` on is an error: what a step added, read in place (no copy of them, #37). */
export function hasErrorsSince(results: readonly Result[], before: number): boolean {
  for (let i = before; i < results.length; i++) if (results[i]!.severity === 'error') return true;
  return false;
}

/** `apiVersion/Kind/namespace/name` (namespace omitted when empty): the one way a resource is printed. */
export function resourceId(ref: ResourceRef | undefined): string {
  if (!ref) return '';
  return [ref.apiVersion, ref.kind, ref.namespace, ref.name].filter((p) => p !== undefined && p !== '').join('/');
}

/**
 * `resourceId` with each part (API group and version, kind, namespace, name) shown by `shownName`: for text
 * and Markdown tables, where a `/` or a look-alike inside a name must not pass for another object (#33).
 */
export function shownResourceId(ref: ResourceRef): string {
  const slash = ref.apiVersion.indexOf('/'); // group/version; the core group's is the version alone
  const version = slash < 0 ? shownName(ref.apiVersion) : `${shownName(ref.apiVersion.slice(0, slash))}/${shownName(ref.apiVersion.slice(slash + 1))}`;
  return [version, shownName(ref.kind), ref.namespace === undefined || ref.namespace === '' ? undefined : shownName(ref.namespace), shownName(ref.name)]
    .filter((p) => p !== undefined && p !== '')
    .join('/');
}

/**
 * A target as text and Markdown print it: its resource by shownResourceId, and the component it stamps when the
 * object has several (`… (vmstorage)`; component names come from rollstamp's own rows).
 */
export function targetId(t: { resourceRef: ResourceRef; component?: string }): string {
  return t.component ? `${shownResourceId(t.resourceRef)} (${t.component})` : shownResourceId(t.resourceRef);
}

/** targetId with the names as written (to tell whether any was shown otherwise). */
export function writtenTargetId(t: { resourceRef: ResourceRef; component?: string }): string {
  return t.component ? `${resourceId(t.resourceRef)} (${t.component})` : resourceId(t.resourceRef);
}

/** Text taken from input as one printable line: control, format and separator characters as `\uXXXX` (printable). */
export const oneLine = printable;

/** One line for a terminal: `severity: file: resource field: message`. */
export function formatResult(r: Result): string {
  const where = [
    r.file ? `${r.file.path}${r.file.index ? `#${r.file.index}` : ''}` : '',
    r.resourceRef ? resourceId(r.resourceRef) : '',
    r.field?.path ?? '',
  ].filter((s) => s !== '');
  return oneLine(`${r.severity}: ${where.length ? `${where.join(' ')}: ` : ''}${r.message}`);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
