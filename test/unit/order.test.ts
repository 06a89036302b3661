// byteOrder must be exactly UTF-8 byte order (Buffer.compare of the encoded strings), also where UTF-16 unit
// order is not: astral characters against U+E000–U+FFFF, and lone surrogates (encoded as U+FFFD).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { byteOrder, itself, sortInByteOrder } from '../../function/model/order.ts';
import { Rng } from '../support/property-generate.ts';

const reference = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

// Units and characters on both sides of every boundary that matters.
const PIECES = [
  'a', 'b', 'z', '/', '-', '0', '\u0000', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '\ud7ff',
  '\ue000', '\uf8ff', '\ufb01', '\ufffd', '\uffff',
  '\u{10000}', '\u{1f600}', '\u{1f601}', '\u{10ffff}',
  '\ud800', '\udbff', '\udc00', '\udfff', // lone surrogates
];

/** Seeded, so a failure names a reproducible pair. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
const show = (s: string): string => JSON.stringify([...s].map((c) => c.codePointAt(0)!.toString(16)));

test('byteOrder equals Buffer.compare on random strings with a shared prefix', () => {
  const random = rng(15);
  const word = (n: number): string => Array.from({ length: n }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
  for (let i = 0; i < 50000; i++) {
    const prefix = word(Math.floor(random() * 4));
    const a = prefix + word(Math.floor(random() * 4));
    const b = prefix + word(Math.floor(random() * 4));
    const expected = sign(reference(a, b));
    if (sign(byteOrder(a, b)) !== expected) assert.unreachable(`byteOrder(${show(a)}, ${show(b)}) should be ${expected}`);
  }
});

test('byteOrder differs from UTF-16 order exactly where UTF-8 says so', () => {
  // '\u{1f600}' is the units D83D DE00: below U+E000 in UTF-16, above it in UTF-8.
  assert.ok('\u{1f600}' < '\ue000');
  assert.is(byteOrder('\u{1f600}', '\ue000'), 1);
  assert.is(byteOrder('\ue000', '\u{1f600}'), -1);
  assert.is(byteOrder('k\u{1f600}', 'k\uffff'), 1);
  // A lone surrogate encodes as U+FFFD: equal bytes, so equal order.
  assert.is(byteOrder('\ud800', '\ufffd'), 0);
  assert.is(byteOrder('x\udc00y', 'x\ufffdy'), 0);
  assert.is(byteOrder('\ud83d', '\u{1f600}'), -1);
});

test('byteOrder on ASCII ids: plain order, prefixes first, equal is 0', () => {
  assert.is(byteOrder('Secret/team-1/a', 'Secret/team-1/b'), -1);
  assert.is(byteOrder('ConfigMap/x/y', 'Secret/x/y'), -1);
  assert.is(byteOrder('Secret/a', 'Secret/a/b'), -1);
  assert.is(byteOrder('Secret/a/b', 'Secret/a'), 1);
  assert.is(byteOrder('Secret/a', 'Secret/a'), 0);
  assert.is(byteOrder('', ''), 0);
  assert.is(byteOrder('', 'a'), -1);
  assert.equal(['b', 'a', 'C', '\ue000', '\u{1f600}', 'é'].sort(byteOrder), ['C', 'a', 'b', 'é', '\ue000', '\u{1f600}']);
});

test('sortInByteOrder gives the order of a stable Array#sort by byteOrder, ties (lone surrogates) in input order, at every length', () => {
  const random = rng(37);
  const word = (n: number): string => Array.from({ length: n }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
  for (let i = 0; i < 20000; i++) {
    const length = Math.floor(random() * 20);
    // Short words repeat, and lone surrogates tie with U+FFFD: both ways for a sort to keep or break input order.
    const items = Array.from({ length }, (_, at) => ({ key: word(1 + Math.floor(random() * 2)), at }));
    const expected = [...items].sort((a, b) => byteOrder(a.key, b.key)).map((x) => x.at);
    assert.equal(sortInByteOrder([...items], (x) => x.key).map((x) => x.at), expected);
  }
  assert.equal(sortInByteOrder(['b', 'a', 'c'], itself), ['a', 'b', 'c']);
});

test.run();
