// `explain -o json|yaml`: the report as data for machines. A dry run by nature: it says which targets a
// `stamp` would change and why, and names each source's kind as Kubernetes does (`kind`, not an internal name).
import { stringify } from 'yaml';
import { arrayPieces, jsonPieces } from './json-pieces.ts';
import { printableData, printableJson, targetId, type Kagent1xReport, type Result, type SourceReport, type TargetReport } from '../../function/index.ts';

/** A source as explain prints it: `kind` for the object kind (Secret, ConfigMap, ModelConfig …). */
export type ExplainedSource = Omit<SourceReport, 'cls' | 'sources'> & { kind: string; sources?: ExplainedSource[] };

/** A target as explain prints it: its stamp now and after a stamp, and whether that differs. */
export type ExplainedTarget = Omit<TargetReport, 'sources'> & { state: 'new' | 'changed' | 'unchanged'; sources: ExplainedSource[] };

/** The `Explanation` document. */
export interface Explanation {
  apiVersion: 'rollstamp.dev/v1alpha1';
  kind: 'Explanation';
  /** Always true: explain writes nothing. */
  dryRun: true;
  /** The targets (`apiVersion/Kind/namespace/name`, `… (component)` for one of an object's pod templates) whose stamp `rollstamp stamp` would add or change. */
  wouldChange: string[];
  targets: ExplainedTarget[];
  /** kagent 1.x (#20): each Agent's revision inputs and each ModelConfig's status.secretHash; only when any. */
  kagent?: Kagent1xReport;
  results: Result[];
}

/** The machine-readable report; key order is fixed so outputs diff cleanly. */
export function explanationOf(targets: readonly TargetReport[], results: readonly Result[], kagent1x?: Kagent1xReport): Explanation {
  return {
    apiVersion: 'rollstamp.dev/v1alpha1',
    kind: 'Explanation',
    dryRun: true,
    wouldChange: targets.filter((t) => t.changed).map(targetId),
    targets: targets.map(explainTarget),
    ...(kagent1x ? { kagent: kagent1x } : {}),
    results: [...results],
  };
}

// Names as printable text (#21): JSON escapes them (the same value), YAML shows them as `\uXXXX` text.

/**
 * The report as JSON (two-space indent), ending in a newline: the text of `JSON.stringify(explanationOf(…), null, 2)`,
 * as pieces made a target, a wouldChange entry or a result at a time, never one string (json-pieces.ts, #37).
 */
export function* explanationJson(targets: readonly TargetReport[], results: readonly Result[], kagent1x?: Kagent1xReport): Generator<string> {
  // Overwriting a member keeps its place, so the members keep explanationOf's order.
  const doc = {
    ...explanationOf([], [], kagent1x),
    wouldChange: arrayPieces(each(targets, (t) => (t.changed ? targetId(t) : undefined))),
    targets: arrayPieces(each(targets, explainTarget)),
    results: arrayPieces(results),
  };
  for (const piece of jsonPieces(Object.entries(doc))) yield printableJson(piece);
  yield '\n';
}

/** `f` of each item, made as it is asked for; items `f` gives undefined for are left out. */
function* each<T, U>(items: readonly T[], f: (item: T) => U | undefined): Generator<U> {
  for (const item of items) {
    const made = f(item);
    if (made !== undefined) yield made;
  }
}

/** The report as YAML, ending in a newline. */
export function explanationYaml(doc: Explanation): string {
  return stringify(printableData(doc), { lineWidth: 0, aliasDuplicateObjects: false });
}

function explainTarget(t: TargetReport): ExplainedTarget {
  const state = t.previous === undefined ? 'new' : t.changed ? 'changed' : 'unchanged';
  return {
    resourceRef: t.resourceRef,
    ...(t.component ? { component: t.component } : {}),
    ...(t.file ? { file: t.file } : {}),
    field: t.field,
    hash: t.hash,
    ...(t.previous !== undefined ? { previous: t.previous } : {}),
    changed: t.changed,
    state,
    ...(t.rollout ? { rollout: t.rollout } : {}),
    sources: t.sources.map(explainSource),
  };
}

function explainSource(s: SourceReport): ExplainedSource {
  const { cls, sources, ...rest } = s;
  return { kind: cls, ...rest, ...(sources ? { sources: sources.map(explainSource) } : {}) };
}
