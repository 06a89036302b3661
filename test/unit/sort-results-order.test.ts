// sortResults compares results part by part (#37): the order must stay the one of a key per result, its parts
// (file, padded file index, object id, field, message) joined with NUL, severity first; equal keys keep their order.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resourceId, sortResults, type Result } from '../../function/model/results.ts';

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** The order as it was defined: one joined key per result. */
function byJoinedKeys(results: readonly Result[]): Result[] {
  const key = (r: Result): string => [r.file?.path ?? '', String(r.file?.index ?? 0).padStart(8, '0'), resourceId(r.resourceRef), r.field?.path ?? '', r.message].join('\u0000');
  return results
    .map((r, i) => ({ r, i, k: key(r) }))
    .sort((a, b) => RANK[a.r.severity] - RANK[b.r.severity] || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) || a.i - b.i)
    .map((x) => x.r);
}

/** A small deterministic generator (xorshift), so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function randomResults(random: () => number, count: number, parts: readonly string[]): Result[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const indexes = [0, 1, 2, 9, 10, 11, 99_999_999, 100_000_000, 123_456_789, -1, 2.5];
  return Array.from({ length: count }, () => {
    const r: Result = { message: pick(parts), severity: pick(['error', 'warning', 'info'] as const), tags: { code: 'STAMPED' } };
    if (random() < 0.8) r.resourceRef = { apiVersion: pick(['v1', 'apps/v1', '']), kind: pick(['Deployment', 'Secret', 'a']), name: pick(parts), ...(random() < 0.7 ? { namespace: pick(parts) } : {}) };
    if (random() < 0.7) r.field = { path: pick(parts) };
    if (random() < 0.7) r.file = { path: pick(parts), ...(random() < 0.8 ? { index: pick(indexes) } : {}) };
    return r;
  });
}

test('part by part, the order of the joined keys: prefixes, empty parts, slashes, long and odd file indexes', () => {
  const parts = ['', 'a', 'ab', 'a/b', 'b', 'a b', 'A', 'é', '\u{1F600}', 'x-1', 'x-10', 'x-2', 'metadata.annotations'];
  for (let seed = 1; seed <= 200; seed++) {
    const results = randomResults(rng(seed), 60, parts);
    assert.equal(sortResults(results), byJoinedKeys(results), `seed ${seed}`);
  }
});

test('parts holding NUL sort as their joined keys did', () => {
  const parts = ['a', 'a\u0000b', 'a\u0000', 'b', '', '\u0000'];
  for (let seed = 1; seed <= 100; seed++) {
    const results = randomResults(rng(seed), 30, parts);
    assert.equal(sortResults(results), byJoinedKeys(results), `seed ${seed}`);
  }
});

test('equal results keep their order (the same objects, in the order given)', () => {
  const one = (): Result => ({ message: 'same', severity: 'info', tags: { code: 'STAMPED' } });
  const results = [one(), one(), one()];
  const sorted = sortResults(results);
  sorted.forEach((r, i) => assert.is(r, results[i]));
});

test.run();
