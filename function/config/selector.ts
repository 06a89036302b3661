// Config stage helper: Kubernetes label selectors in their string form (`app=web,tier!=db,env in (a,b),!legacy`).
import type { Requirement, Selector } from '../model/config.ts';

const KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
/**
 * Bounds on a selector: every workload is matched against every requirement and every value of a set, so a
 * selector of a megabyte would cost (workloads × its size). Real selectors hold a handful of terms (#12).
 */
export const MAX_REQUIREMENTS = 100;
export const MAX_SET_VALUES = 100;

/**
 * Parses a selector string.
 * - Equality (`k=v`, `k==v`, `k!=v`), existence (`k`, `!k`) and sets (`k in (a,b)`, `k notin (a)`).
 * - Returns a message naming the bad term, or the requirements (all must match).
 * - At most MAX_REQUIREMENTS requirements, and MAX_SET_VALUES values in a set.
 */
export function parseSelector(text: string): { selector: Selector } | { error: string } {
  const terms = splitTerms(text);
  if (terms === undefined) return { error: 'unbalanced parentheses' };
  if (terms === 'too many') return { error: `more than ${MAX_REQUIREMENTS} requirements` };
  const selector: Selector = [];
  for (const raw of terms) {
    const term = raw.trim();
    if (term === '') return { error: 'empty requirement' };
    const req = parseTerm(term);
    if (typeof req === 'string') return { error: `${req} in "${term.length > 80 ? `${term.slice(0, 80)}…` : term}"` };
    selector.push(req);
  }
  return { selector };
}

/** True when `labels` satisfy every requirement. */
export function matchesSelector(selector: Selector, labels: ReadonlyMap<string, string>): boolean {
  return selector.every((req) => {
    const value = labels.get(req.key);
    switch (req.op) {
      case 'exists':
        return value !== undefined;
      case 'absent':
        return value === undefined;
      case 'in':
        return value !== undefined && req.values.includes(value);
      case 'notin':
        return value === undefined || !req.values.includes(value);
    }
  });
}

function parseTerm(term: string): Requirement | string {
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
  if (set) {
    const values = set[3]!.split(',', MAX_SET_VALUES + 1).map((v) => v.trim());
    if (values.length > MAX_SET_VALUES) return `more than ${MAX_SET_VALUES} values`;
    if (!KEY.test(set[1]!)) return 'invalid label key';
    if (values.some((v) => !VALUE.test(v))) return 'invalid label value';
    return { op: set[2] as 'in' | 'notin', key: set[1]!, values };
  }
  const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (eq) {
    if (!KEY.test(eq[1]!)) return 'invalid label key';
    if (!VALUE.test(eq[3]!)) return 'invalid label value';
    return { op: eq[2] === '!=' ? 'notin' : 'in', key: eq[1]!, values: [eq[3]!] };
  }
  const absent = term.startsWith('!');
  const key = absent ? term.slice(1).trim() : term;
  if (!KEY.test(key)) return 'invalid label key';
  return { op: absent ? 'absent' : 'exists', key };
}

/**
 * Splits on commas outside parentheses; undefined when parentheses do not balance, `too many` past
 * MAX_REQUIREMENTS terms.
 * - Slices, not a string grown a character at a time: a megabyte selector in a repository's
 *   `.rollstamp.yaml` must cost no more than reading it (#12).
 */
function splitTerms(text: string): string[] | 'too many' | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x28) depth++;
    else if (ch === 0x29) depth--;
    if (depth < 0 || depth > 1) return undefined;
    if (ch === 0x2c && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
      if (out.length >= MAX_REQUIREMENTS) return 'too many';
    }
  }
  if (depth !== 0) return undefined;
  out.push(text.slice(start));
  return out;
}

/**
 * A metav1.LabelSelector (`matchLabels`, `matchExpressions` with In, NotIn, Exists, DoesNotExist) as
 * requirements; undefined when its shape is not one of those.
 */
export function selectorFromObject(value: unknown): Selector | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { matchLabels, matchExpressions } = value as { matchLabels?: unknown; matchExpressions?: unknown };
  const out: Selector = [];
  if (matchLabels !== undefined && matchLabels !== null) {
    if (typeof matchLabels !== 'object') return undefined;
    for (const [key, v] of Object.entries(matchLabels)) {
      if (typeof v !== 'string') return undefined;
      out.push({ op: 'in', key, values: [v] });
    }
  }
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) return undefined;
    for (const e of matchExpressions as Array<{ key?: unknown; operator?: unknown; values?: unknown }>) {
      const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [];
      if (typeof e.key !== 'string') return undefined;
      if (e.operator === 'In' || e.operator === 'NotIn') out.push({ op: e.operator === 'In' ? 'in' : 'notin', key: e.key, values });
      else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') out.push({ op: e.operator === 'Exists' ? 'exists' : 'absent', key: e.key });
      else return undefined;
    }
  }
  return out;
}
