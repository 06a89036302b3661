// Plan stage, targets: which objects get a stamp. The target kinds (kinds/index.ts) decide what an object is, where
// its stamp goes and whether it is selected without a label; this stage applies what is common to all of
// them: objects that are never written are passed through, metadata problems stop a target, and
// `rollstamp.dev/enabled` ("true" selects, "false" always wins) is checked.
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { PASS_THROUGH, selectionFor } from '../kinds/index.ts';
import { errorResult, warningResult, type Result } from '../model/results.ts';
import { formatPath } from '../model/nodes.ts';
import type { Config } from '../model/config.ts';
import type { KObject } from '../model/object.ts';
import type { Subject } from '../model/results.ts';
import type { Target } from '../model/target.ts';

/** What selecting one object found: its targets (one, or one per component), and whether a target kind selects its kind. */
export interface Selected {
  targets?: readonly Target[];
  /** Of a kind some target kind selects (chosen or not), and not passed through. */
  selectable: boolean;
}

/**
 * Whether one object is a target, and how. Objects are selected one at a time, in input order; targets that
 * carry another's hash are linked afterwards (Planner.finish).
 * - Reports: a bad `rollstamp.dev/enabled` value (error), `enabled: "true"` on a kind rollstamp does not know
 *   (warning), and what the kind reports of the object.
 * - `notesGiven`: the once-per-run pass-through notes already reported (by code), kept by the caller
 *   for the whole run, so a render of many kagent 1.x objects is not scanned once per object.
 */
export function selectTarget(obj: KObject, config: Config, results: Result[], notesGiven: Set<string>): Selected {
  for (const passThrough of PASS_THROUGH) {
    const note = passThrough(obj, config);
    if (!note) continue;
    const optedOut = (obj.annotations.get(ENABLED_ANNOTATION) ?? obj.labels.get(ENABLED_ANNOTATION)) === 'false';
    // Once per run: by code alone, so a render of several kagent 1.x APIs still gets one line.
    const once = note.tags.code;
    if (!optedOut && !(passThrough.oncePerRun && notesGiven.has(once))) {
      results.push(note);
      if (passThrough.oncePerRun) notesGiven.add(once);
    }
    return NOT_SELECTABLE;
  }
  const selection = selectionFor(obj, config);
  if (selection && obj.metadataProblems.length > 0) {
    results.push(...obj.metadataProblems);
    return SELECTABLE;
  }
  const fromAnnotation = obj.annotations.get(ENABLED_ANNOTATION);
  const enabled = fromAnnotation ?? obj.labels.get(ENABLED_ANNOTATION);
  if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') {
    const field = formatPath(['metadata', fromAnnotation !== undefined ? 'annotations' : 'labels', ENABLED_ANNOTATION]);
    results.push(errorResult('BAD_ANNOTATION', `${ENABLED_ANNOTATION} must be "true" or "false"`, obj.subject, field));
    return selection !== undefined ? SELECTABLE : NOT_SELECTABLE;
  }
  if (!selection) {
    if (enabled === 'true') {
      results.push(warningResult('NO_TEMPLATE', `${obj.kind} has no pod template rollstamp knows; not stamped`, obj.subject));
    }
    return NOT_SELECTABLE;
  }
  const wanted = enabled === 'true' || (enabled === undefined && selection.byDefault(obj, config));
  const read = wanted ? selection.read(obj, results, config) : undefined;
  const targets = read === undefined ? [] : 'obj' in read ? [read] : read;
  return targets.length > 0 ? { targets, selectable: true } : SELECTABLE;
}

// The answers without targets, one object each, written as the one with targets is: the planner reads every
// answer at one site, and answers of three layouts there made it optimized again at the first workload (#37). Not
// frozen: freezing gives an object a layout of its own. Nothing writes to an answer.
const NOT_SELECTABLE: Selected = { targets: undefined, selectable: false };
const SELECTABLE: Selected = { targets: undefined, selectable: true };

/** Most workloads the double-roll warning names; the rest are counted. */
const NAMED = 10;

/**
 * The one warning of a run about targets Stakater Reloader reloads too (Target.alsoRolledBy, #38): while
 * Reloader runs, a changed Secret or ConfigMap rolls each of them twice, once by Reloader's patch and once by
 * the sync of the new stamp. Undefined when there are none.
 */
export function alsoReloadedWarning(subjects: readonly Subject[]): Result | undefined {
  if (subjects.length === 0) return undefined;
  const names = subjects.slice(0, NAMED).map((s) => `${s.ref?.kind ?? ''} ${s.ref?.namespace ?? ''}/${s.ref?.name ?? ''}`);
  const more = subjects.length > NAMED ? ` and ${subjects.length - NAMED} more` : '';
  const count = subjects.length === 1 ? '1 stamped workload carries' : `${subjects.length} stamped workloads carry`;
  const message =
    `${count} Reloader's annotations (${names.join(', ')}${more}): while Reloader runs, a changed Secret or ConfigMap rolls each twice, ` +
    'once by Reloader and once by the new stamp; once Reloader is gone, write them as rollstamp.dev/enabled and rollstamp.dev/secrets or /configmaps; ' +
    'to keep them with Reloader, set reloader: disabled and drop rollstamp.dev/enabled from them';
  return warningResult('ALSO_RELOADED', message);
}
