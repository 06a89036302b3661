// Model: the one check every stage runs before it interprets an object's tree — no alias, no merge key, no
// nesting deeper than MAX_DEPTH — and the result that reports a failure. Items the subset reader read are
// vouched for at read time (it declines all three), so only the yaml front-end's trees are walked.
import { findUnsafeNode, formatPath } from './nodes.ts';
import { isVouchedFor, type KObject } from './object.ts';
import { type Result, errorResult } from './results.ts';
import { MAX_DEPTH } from './target.ts';

/** False (with an error result) when an object rollstamp is about to read holds an alias, a merge key or over-deep nesting. */
export function isSafeToRead(obj: KObject, results: Result[]): boolean {
  if (isVouchedFor(obj.item.readBy)) return true; // the subset reader declines all three
  const unsafe = findUnsafeNode(obj.item.node, MAX_DEPTH);
  if (unsafe) results.push(unsafeResult(unsafe.problem, obj, formatPath(unsafe.path)));
  return unsafe === undefined;
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
