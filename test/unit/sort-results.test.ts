// sortResults builds each result's sort key once (#26): the order is the one a comparison on keys rebuilt
// every time gives — severity first, then file, document index, resource, field and message, ties kept in
// input order.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resourceId, sortResults, type Result } from '../../function/model/results.ts';
import { Rng } from '../support/property-generate.ts';

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** The order as it was defined before: the key rebuilt on every comparison. */
function referenceSort(results: readonly Result[]): Result[] {
  const key = (r: Result): string =>
    [r.file?.path ?? '', String(r.file?.index ?? 0).padStart(8, '0'), resourceId(r.resourceRef), r.field?.path ?? '', r.message].join('\u0000');
  return [...results].sort((a, b) => RANK[a.severity] - RANK[b.severity] || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function randomResult(rng: Rng, i: number): Result {
  const severity = rng.pick(['error', 'warning', 'info'] as const);
  return {
    severity,
    code: 'not-a-map',
    message: rng.pick(['a', 'b', 'b c', '']),
    ...(rng.bool(0.8) ? { file: { path: rng.pick(['x.yaml', 'y.yaml', 'x.yaml/z']), ...(rng.bool() ? { index: rng.int(12) } : {}) } } : {}),
    ...(rng.bool(0.7) ? { resourceRef: { apiVersion: 'v1', kind: rng.pick(['ConfigMap', 'Secret']), name: rng.pick(['a', 'b']), ...(rng.bool() ? { namespace: 'ns' } : {}) } } : {}),
    ...(rng.bool(0.4) ? { field: { path: rng.pick(['data', 'metadata.name']) } } : {}),
    // a tag no key holds, to see that ties keep their input order
    tag: i,
  } as unknown as Result;
}

test('sortResults orders random results exactly as the key-per-comparison sort, ties in input order (#26)', () => {
  for (let c = 0; c < 200; c++) {
    const rng = new Rng(0x5027 + c);
    const results = Array.from({ length: rng.range(0, 40) }, (_, i) => randomResult(rng, i));
    const tags = (rs: Result[]): unknown[] => rs.map((r) => (r as unknown as { tag: number }).tag);
    assert.equal(tags(sortResults(results)), tags(referenceSort(results)), `case ${c}`);
  }
});

test('sortResults leaves its input as it was (#26)', () => {
  const rng = new Rng(7);
  const results = Array.from({ length: 20 }, (_, i) => randomResult(rng, i));
  const before = [...results];
  sortResults(results);
  assert.equal(results, before);
});

test.run();
