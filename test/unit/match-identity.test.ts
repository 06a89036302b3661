// One identity matcher for both diffs (function/compare/match-identity.ts, #36): what pairs with what across two
// renders, in which order, and how keys compare.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffKeyMaps, identityOf, matchById } from '../../function/compare/match-identity.ts';

const ref = (apiVersion: string, name: string, namespace?: string) => ({ apiVersion, kind: 'Agent', name, ...(namespace ? { namespace } : {}) });

test('an object is the same object under another API version, and a group may stand for another', () => {
  assert.is(identityOf(ref('kagent.dev/v1alpha2', 'a', 'x')), identityOf(ref('kagent.dev/v1alpha3', 'a', 'x')));
  assert.is.not(identityOf(ref('kagent.dev/v1', 'a', 'x')), identityOf(ref('api.kagent.dev/v1', 'a', 'x')));
  const same = (g: string): string => (g === 'kagent.dev' ? 'api.kagent.dev' : g);
  assert.is(identityOf(ref('kagent.dev/v1', 'a', 'x'), same), identityOf(ref('api.kagent.dev/v1', 'a', 'x'), same));
  assert.is(identityOf(ref('v1', 'a')), '/Agent//a');
});

test('pairs come in byte order of the id, each side present or not', () => {
  const id = (s: string): string => s[0]!;
  assert.equal(matchById(['b1', 'a1'], ['c2', 'b2'], id, 'first'), [
    { id: 'a', old: 'a1', new: undefined },
    { id: 'b', old: 'b1', new: 'b2' },
    { id: 'c', old: undefined, new: 'c2' },
  ]);
});

test('an id held twice is matched copy by copy in order, or by its first or last copy', () => {
  const id = (s: string): string => s[0]!;
  assert.equal(matchById(['a1', 'a2'], ['a3'], id, 'in-order'), [
    { id: 'a', old: 'a1', new: 'a3' },
    { id: 'a#2', old: 'a2', new: undefined },
  ]);
  assert.equal(matchById(['a1', 'a2'], ['a3', 'a4'], id, 'first'), [{ id: 'a', old: 'a1', new: 'a3' }]);
  assert.equal(matchById(['a1', 'a2'], ['a3', 'a4'], id, 'last'), [{ id: 'a', old: 'a2', new: 'a4' }]);
});

test('keys: only in NEW added, only in OLD removed, different digests changed, the same digest nothing', () => {
  const olds = new Map<string, string | undefined>([['same', 'd1'], ['gone', 'd2'], ['moved', 'd3'], ['nodigest', undefined]]);
  const news = new Map<string, string | undefined>([['same', 'd1'], ['new', 'd4'], ['moved', 'd5'], ['nodigest', undefined]]);
  assert.equal(diffKeyMaps(olds, news), [
    { key: 'gone', change: 'removed' },
    { key: 'moved', change: 'changed' },
    { key: 'new', change: 'added' },
  ]);
});

test.run();
