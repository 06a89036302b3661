// Mutations of a bundle's Secrets and ConfigMaps, each described by what it touches (source id and key), so a
// test can say from the model alone which targets must change and which must not.
import {
  addSource,
  asText,
  differentBytes,
  editSource,
  findSource,
  genEntry,
  genKey,
  genSource,
  idOfSource,
  isTarget,
  removeSource,
  usesOf,
  type Bundle,
  type Rng,
  type SourceClass,
  type SourceModel,
} from './property-generate.ts';

export type MutationKind = 'value' | 'add-key' | 'remove-key' | 'add-source' | 'remove-source' | 'relabel' | 'shadow';

export interface Mutation {
  kind: MutationKind;
  /** What it does, for messages: `change value of Secret/prod/db["password"]`. */
  desc: string;
  /** The source it touches. */
  id: string;
  /** The key it touches; undefined: the whole object appears or disappears. */
  key?: string;
  /** Touches no byte any target could use (labels, a shadowed `data` value). */
  inert?: boolean;
  apply(rng: Rng): Bundle;
}

const isText = (s: SourceModel, field: string): boolean => field === 'stringData' || (s.cls === 'ConfigMap' && field === 'data');
const q = (k: string): string => JSON.stringify(k);

/** A new value for key `key` of source `index` (different bytes; sometimes also moved between data and stringData). */
export function changeValue(b: Bundle, index: number, key: string): Mutation {
  const s = b.sources[index]!;
  return {
    kind: 'value',
    desc: `change value of ${idOfSource(s)}[${q(key)}]`,
    id: idOfSource(s),
    key,
    apply: (rng) =>
      editSource(b, index, (src) => {
        const e = src.entries.find((x) => x.key === key)!;
        e.bytes = differentBytes(rng, e.bytes, isText(src, e.field));
        if (src.cls === 'Secret' && !e.shadow && rng.bool(0.3)) {
          const to = e.field === 'data' ? 'stringData' : 'data';
          if (to === 'data' || asText(e.bytes) !== undefined) e.field = to;
        }
      }),
  };
}

export function removeKey(b: Bundle, index: number, key: string): Mutation {
  const s = b.sources[index]!;
  return {
    kind: 'remove-key',
    desc: `remove key ${idOfSource(s)}[${q(key)}]`,
    id: idOfSource(s),
    key,
    apply: () =>
      editSource(b, index, (src) => {
        src.entries = src.entries.filter((e) => e.key !== key);
      }),
  };
}

export function addKey(b: Bundle, index: number, key: string): Mutation {
  const s = b.sources[index]!;
  return {
    kind: 'add-key',
    desc: `add key ${idOfSource(s)}[${q(key)}]`,
    id: idOfSource(s),
    key,
    apply: (rng) =>
      editSource(b, index, (src) => {
        src.entries.splice(rng.int(src.entries.length + 1), 0, genEntry(rng, src.cls, key));
      }),
  };
}

export function dropSource(b: Bundle, index: number): Mutation {
  const s = b.sources[index]!;
  return { kind: 'remove-source', desc: `remove ${idOfSource(s)}`, id: idOfSource(s), apply: () => removeSource(b, index) };
}

/** A source nothing in the bundle defines appears. */
export function appear(b: Bundle, cls: SourceClass, namespace: string, name: string): Mutation {
  const id = `${cls}/${namespace}/${name}`;
  return {
    kind: 'add-source',
    desc: `add missing ${id}`,
    id,
    apply: (rng) => {
      const written = namespace === 'default' ? rng.pick([undefined, 'default']) : namespace;
      return addSource(b, genSource(rng, cls, name, written), rng);
    },
  };
}

/** New labels and annotations on a source. */
export function relabel(b: Bundle, index: number): Mutation {
  const s = b.sources[index]!;
  return {
    kind: 'relabel',
    desc: `relabel ${idOfSource(s)}`,
    id: idOfSource(s),
    inert: true,
    apply: (rng) =>
      editSource(b, index, (src) => {
        const r = rng.int(4);
        const set = (list: Array<[string, string]>, k: string, v: string): Array<[string, string]> => [...list.filter(([x]) => x !== k), [k, v]];
        if (r === 0 || src.labels.length === 0) src.labels = set(src.labels, 'changed', rng.hex(6));
        else if (r === 1) src.labels = [];
        else if (r === 2) src.annotations = [['kubectl.kubernetes.io/last-applied-configuration', `{"rotated":"${rng.hex(8)}"}`]];
        else src.annotations = set(src.annotations, 'note', `rotated ${rng.hex(6)}`);
      }),
  };
}

/** A different `data` value under a key that stringData overrides. */
export function changeShadow(b: Bundle, index: number, key: string): Mutation {
  const s = b.sources[index]!;
  return {
    kind: 'shadow',
    desc: `change shadowed data value of ${idOfSource(s)}[${q(key)}]`,
    id: idOfSource(s),
    key,
    inert: true,
    apply: (rng) =>
      editSource(b, index, (src) => {
        const e = src.entries.find((x) => x.key === key)!;
        e.shadow = differentBytes(rng, e.shadow ?? new Uint8Array(), false);
      }),
  };
}

/** Sources some workload references that the bundle does not define, by id. */
export function missingSources(b: Bundle): Array<{ cls: SourceClass; namespace: string; name: string }> {
  const out = new Map<string, { cls: SourceClass; namespace: string; name: string }>();
  for (const w of b.workloads) {
    for (const u of usesOf(w).values()) if (!findSource(b, u.id)) out.set(u.id, { cls: u.cls, namespace: u.namespace, name: u.name });
  }
  return [...out.values()];
}

/** Keys workloads name in source `id` that it does not have. */
function absentKeys(b: Bundle, s: SourceModel): string[] {
  const present = new Set(s.entries.map((e) => e.key));
  const out = new Set<string>();
  for (const w of b.workloads) {
    const u = usesOf(w).get(idOfSource(s));
    if (u) for (const k of u.keys) if (!present.has(k)) out.add(k);
  }
  return [...out];
}

/** A key the source does not have. */
function newKey(rng: Rng, s: SourceModel, avoid: ReadonlySet<string> = new Set()): string {
  for (;;) {
    const k = genKey(rng);
    if (!s.entries.some((e) => e.key === k) && !avoid.has(k)) return k;
  }
}

/** Every mutation of the bundle's sources (and every missing source appearing). */
export function allMutations(b: Bundle, rng: Rng): Mutation[] {
  const out: Mutation[] = [];
  b.sources.forEach((s, i) => {
    for (const e of s.entries) {
      out.push(changeValue(b, i, e.key), removeKey(b, i, e.key));
      if (e.shadow) out.push(changeShadow(b, i, e.key));
    }
    for (const k of absentKeys(b, s)) out.push(addKey(b, i, k));
    out.push(addKey(b, i, newKey(rng, s)), dropSource(b, i), relabel(b, i));
  });
  for (const m of missingSources(b)) out.push(appear(b, m.cls, m.namespace, m.name));
  return out;
}

/**
 * Mutations that change a byte target `w` uses: a used key's value, a used key appearing or disappearing, a key
 * appearing in or disappearing from a whole-object source, the source itself appearing or disappearing.
 */
export function sensitiveMutations(b: Bundle, wIndex: number, rng: Rng): Mutation[] {
  const w = b.workloads[wIndex]!;
  const out: Mutation[] = [];
  for (const u of usesOf(w).values()) {
    const index = b.sources.findIndex((s) => idOfSource(s) === u.id);
    if (index < 0) {
      out.push(appear(b, u.cls, u.namespace, u.name));
      continue;
    }
    const s = b.sources[index]!;
    const present = new Set(s.entries.map((e) => e.key));
    const used = u.whole ? new Set([...present, ...u.keys]) : u.keys;
    for (const k of used) {
      if (present.has(k)) out.push(changeValue(b, index, k), removeKey(b, index, k));
      else out.push(addKey(b, index, k));
    }
    if (u.whole) out.push(addKey(b, index, newKey(rng, s)));
    out.push(dropSource(b, index));
  }
  return out;
}

/** Mutations of keys target `w` does not use, in sources it uses by specific keys only. */
export function unusedKeyMutations(b: Bundle, wIndex: number, rng: Rng): Mutation[] {
  const w = b.workloads[wIndex]!;
  const out: Mutation[] = [];
  for (const u of usesOf(w).values()) {
    if (u.whole) continue;
    const index = b.sources.findIndex((s) => idOfSource(s) === u.id);
    if (index < 0) continue;
    const s = b.sources[index]!;
    for (const e of s.entries) if (!u.keys.has(e.key)) out.push(changeValue(b, index, e.key), removeKey(b, index, e.key));
    out.push(addKey(b, index, newKey(rng, s, u.keys)));
  }
  return out;
}

/** Indices of the bundle's targets. */
export function targetIndices(b: Bundle): number[] {
  return b.workloads.flatMap((w, i) => (isTarget(w) ? [i] : []));
}
