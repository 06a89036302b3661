// mergeRefs (function/discover/index.ts) merges a target's references per source object (#37: each use made once,
// its id only for a new object). Held here to the rule it implements, written plainly: one use per id, in byte
// order of ids; keys united, a key optional only if every reference naming it is; whole if any reference is;
// optional and ConfigMap-data-only only if all are; every field in order, the first required one kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRefs } from '../../function/discover/index.ts';
import { byteOrder } from '../../function/model/order.ts';
import type { SourceRef, SourceUse } from '../../function/model/dependencies.ts';
import type { KObject } from '../../function/model/object.ts';

const obj = { namespace: 'home' } as KObject;

function expected(refs: readonly SourceRef[]): unknown[] {
  const byId = new Map<string, { id: string; refs: SourceRef[]; namespace: string }>();
  for (const ref of refs) {
    const namespace = ref.namespace || obj.namespace;
    const id = `${ref.cls}/${namespace}/${ref.name}`;
    if (!byId.has(id)) byId.set(id, { id, refs: [], namespace });
    byId.get(id)!.refs.push(ref);
  }
  return [...byId.values()].sort((a, b) => byteOrder(a.id, b.id)).map(({ id, refs: rs, namespace }) => {
    const keys = new Map<string, { optional: boolean; field: string }>();
    for (const r of rs) if (r.keys !== 'whole') for (const k of r.keys) {
      const known = keys.get(k);
      if (!known || (known.optional && !r.optional)) keys.set(k, { optional: r.optional, field: r.field });
    }
    const required = rs.find((r) => !r.optional)?.field;
    return {
      id, slot: undefined, cls: rs[0]!.cls, namespace, name: rs[0]!.name,
      whole: rs.some((r) => r.keys === 'whole'),
      keys: [...keys],
      optional: rs.every((r) => r.optional),
      fields: rs.map((r) => r.field),
      dataOnly: rs.every((r) => r.dataOnly === true),
      ...(required === undefined ? {} : { requiredField: required }),
    };
  });
}

const plain = (uses: SourceUse[]): unknown[] => uses.map((u) => {
  const { keys, requiredField, ...rest } = u;
  return { ...rest, keys: [...keys], ...(requiredField === undefined ? {} : { requiredField }) };
});

/** A small deterministic generator, so a failure names its case. */
function* cases(): Generator<SourceRef[]> {
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  // Names that spell one id two ways (`a/b` + `c` and `a` + `b/c`) as well as ordinary ones.
  const spots: Array<[string, string]> = [['', 'creds'], ['', 'settings'], ['a/b', 'c'], ['a', 'b/c'], ['home', 'creds'], ['other', 'creds']];
  for (let c = 0; c < 400; c++) {
    const refs: SourceRef[] = [];
    const count = next(c % 10 === 0 ? 30 : 7);
    const many = c % 5 === 0; // past eight distinct sources a map is used
    for (let i = 0; i < count; i++) {
      const [namespace, name] = many ? ['', `s-${next(14)}`] : spots[next(spots.length)]!;
      const keys: SourceRef['keys'] = next(3) === 0 ? 'whole' : ['password', 'token', 'user'].slice(next(3), 3);
      refs.push({ cls: next(4) === 0 ? 'ConfigMap' : 'Secret', namespace, name, keys, optional: next(2) === 0, field: `f${i}`, ...(next(3) === 0 ? { dataOnly: true } : {}) });
    }
    yield refs;
  }
}

test('mergeRefs merges as the rule says, ids spelt two ways and long lists included', () => {
  let n = 0;
  let merged = 0;
  for (const refs of cases()) {
    const got = plain(mergeRefs(obj, refs));
    assert.equal(got, expected(refs), `case ${n++}`);
    merged += refs.length - got.length;
  }
  assert.ok(merged > 0, 'some references merge');
});

test.run();
