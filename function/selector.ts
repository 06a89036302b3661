// Target stage helper: Kubernetes label selectors in their string form (`app=web,tier!=db,env in (a,b),!legacy`).

export type Requirement =
  | { op: 'exists' | 'absent'; key: string }
  | { op: 'in' | 'notin'; key: string; values: string[] };

export type Selector = Requirement[];

const KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * Parses a selector string.
 * - Equality (`k=v`, `k==v`, `k!=v`), existence (`k`, `!k`) and sets (`k in (a,b)`, `k notin (a)`).
 * - Returns a message naming the bad term, or the requirements (all must match).
 */
export function parseSelector(text: string): { selector: Selector } | { error: string } {
  const terms = splitTerms(text);
  if (terms === undefined) return { error: 'unbalanced parentheses' };
  const selector: Selector = [];
  for (const raw of terms) {
    const term = raw.trim();
    if (term === '') return { error: 'empty requirement' };
    const req = parseTerm(term);
    if (typeof req === 'string') return { error: `${req} in "${term}"` };
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
    const values = set[3]!.split(',').map((v) => v.trim());
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

/** Splits on commas outside parentheses; undefined when parentheses do not balance. */
function splitTerms(text: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth < 0 || depth > 1) return undefined;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0) return undefined;
  out.push(cur);
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
