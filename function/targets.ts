// Target stage: which objects get a stamp. Opt-in by annotation or label, by the config's selector, or all;
// `rollstamp.dev/enabled: "false"` always wins. Immutable templates are reported, never stamped.
import type { YAMLMap } from 'yaml';
import type { Config } from './config.ts';
import { ENABLED_ANNOTATION } from './constants.ts';
import type { Inventory, KObject } from './inventory.ts';
import { errorResult, infoResult, warningResult, type Result } from './results.ts';
import { matchesSelector } from './selector.ts';
import { workloadKindOf, type WorkloadKind } from './workload-kinds.ts';
import { childIn, findUnsafeNode, formatPath, NodeReader, stringValue } from './yaml-nodes.ts';

/** A workload that will be stamped. */
export interface Target {
  obj: KObject;
  kind: WorkloadKind;
  /** The pod template map (PodTemplateSpec). */
  template: YAMLMap;
  /** Path from the object to the annotations map that receives the stamp. */
  annotationsPath: readonly string[];
}

/** Deepest nesting rollstamp walks inside an object it interprets. */
export const MAX_DEPTH = 100;

/**
 * Selects targets.
 * - Reports: a bad `rollstamp.dev/enabled` value (error), an immutable template (info), an OnDelete strategy
 *   or a ReplicaSet (warning), a missing template (error, info for a Rollout with workloadRef).
 */
export function selectTargets(inventory: Inventory, config: Config, results: Result[]): Target[] {
  const targets: Target[] = [];
  for (const obj of inventory.objects) {
    const kind = workloadKindOf(obj);
    if (kind && obj.metadataProblems.length > 0) {
      results.push(...obj.metadataProblems);
      continue;
    }
    const fromAnnotation = obj.annotations.get(ENABLED_ANNOTATION);
    const enabled = fromAnnotation ?? obj.labels.get(ENABLED_ANNOTATION);
    if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') {
      const field = formatPath(['metadata', fromAnnotation !== undefined ? 'annotations' : 'labels', ENABLED_ANNOTATION]);
      results.push(errorResult('BAD_ANNOTATION', `${ENABLED_ANNOTATION} must be "true" or "false"`, obj.subject, field));
      continue;
    }
    if (!kind) {
      if (enabled === 'true') {
        results.push(warningResult('NO_TEMPLATE', `${obj.kind} has no pod template rollstamp knows; not stamped`, obj.subject));
      }
      continue;
    }
    const wanted =
      enabled === 'true' ||
      (enabled === undefined && (config.targets === 'all' || (config.selector !== undefined && matchesSelector(config.selector, obj.labels))));
    if (!wanted) continue;
    const target = readTarget(obj, kind, results);
    if (target) targets.push(target);
  }
  return targets;
}

function readTarget(obj: KObject, kind: WorkloadKind, results: Result[]): Target | undefined {
  if (kind.caveat === 'immutable') {
    results.push(infoResult('IMMUTABLE_TEMPLATE', `the pod template of a ${obj.kind} is immutable; not stamped`, obj.subject));
    return undefined;
  }
  const unsafe = findUnsafeNode(obj.item.node, MAX_DEPTH);
  if (unsafe) {
    results.push(unsafeResult(unsafe.problem, obj, formatPath(unsafe.path)));
    return undefined;
  }
  const reader = new NodeReader(obj.subject, results);
  const before = results.length;
  const template = reader.mapIn(obj.item.node, [], kind.templatePath);
  if (results.length > before) return undefined;
  const templateField = formatPath(kind.templatePath);
  if (!template) {
    if (kind.templateOptional) {
      results.push(infoResult('NO_TEMPLATE', `${obj.kind} has no ${templateField} (workloadRef?); not stamped`, obj.subject));
    } else {
      results.push(errorResult('MISSING_TEMPLATE', `${obj.kind} has no pod template`, obj.subject, templateField));
    }
    return undefined;
  }
  if (kind.strategyPath) {
    const strategy = stringValue(childIn(obj.item.node, kind.strategyPath));
    if (strategy === 'OnDelete') {
      results.push(warningResult('ON_DELETE_STRATEGY', 'updateStrategy OnDelete: pods roll only when deleted', obj.subject, formatPath(kind.strategyPath)));
    }
  }
  if (kind.caveat === 'no-rollout') {
    results.push(warningResult('NO_AUTOMATIC_ROLLOUT', `a ${obj.kind} does not replace running pods when its template changes`, obj.subject));
  }
  return { obj, kind, template, annotationsPath: [...kind.templatePath, 'metadata', 'annotations'] };
}

/** The result for an alias, merge key or over-deep nesting found inside an object rollstamp reads. */
export function unsafeResult(problem: 'alias' | 'merge' | 'depth', obj: KObject, field: string): Result {
  const message =
    problem === 'alias'
      ? 'YAML aliases are not allowed in objects rollstamp reads'
      : problem === 'merge'
        ? 'YAML merge keys (<<) are not allowed in objects rollstamp reads'
        : `nesting deeper than ${MAX_DEPTH} levels`;
  const code = problem === 'alias' ? 'ALIAS_NOT_ALLOWED' : problem === 'merge' ? 'MERGE_KEY_NOT_ALLOWED' : 'TOO_DEEP';
  return errorResult(code, message, obj.subject, field === '' ? undefined : field);
}
