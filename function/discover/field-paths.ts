// Discover stage: a reference's field path as text, made once per distinct path. Every workload of a render
// names its references at the same few paths (`spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef`),
// and formatting each anew made a list, a string per segment and the joined path per reference, all garbage once
// the plan's SharedStrings kept the first copy (#37).
import { formatPath, type FieldPath } from '../model/nodes.ts';

/** One segment of a path already formatted: its text, and the segments seen below it. */
interface Step {
  text: string;
  below: Map<string | number, Step> | undefined;
}

/**
 * The most paths kept. Past it a path is formatted as before: the table is the module's, so a long-running
 * process keeps at most this many short strings, and an input with thousands of distinct paths (long lists)
 * costs what it did.
 */
const MAX_PATHS = 4096;

const root: Step = { text: '', below: undefined };
let kept = 0;

/** `formatPath(path)`: the same text, the same string for the same path each time while the table has room. */
export function fieldPath(path: FieldPath): string {
  let step = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    let next = step.below?.get(seg);
    if (next === undefined) {
      if (kept >= MAX_PATHS) return formatPath(path);
      next = { text: formatPath(path.slice(0, i + 1)), below: undefined };
      (step.below ??= new Map()).set(seg, next);
      kept++;
    }
    step = next;
  }
  return step.text;
}
