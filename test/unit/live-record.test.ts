// The live-read record (#34): one canonical text per record, a strict reader that refuses whatever a repository might
// write there instead, and a digest that the render (from values) and the refresher (from per-key digests) compute
// alike — unchanged by anything but the consumed keys' bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EMPTY_RECORD, encodeRecord, MAX_RECORD_BYTES, parseRecord, type RecordEntry } from '../../function/model/live-record.ts';
import { keyDigests, recordDigest } from '../../function/hash/record-digest.ts';
import { makeHasher } from '../../function/hash/scheme.ts';
import { markBinaryDataKeys } from '../../function/resolve/bundle.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const db: RecordEntry = { kind: 'Secret', namespace: 'shop', name: 'db', uid: 'u-1', resourceVersion: '42', keys: ['password'] };

test('a record is written in one canonical form: entries and keys in byte order, fields in a fixed order', () => {
  const a = encodeRecord([{ ...db, keys: ['b', 'a', 'a'] }, { kind: 'ConfigMap', namespace: 'shop', name: 'z', uid: 'u', resourceVersion: '1', whole: true, keys: [] }]);
  const b = encodeRecord([{ kind: 'ConfigMap', namespace: 'shop', name: 'z', uid: 'u', resourceVersion: '1', whole: true, keys: [] }, { ...db, keys: ['a', 'b'] }]);
  assert.is(a, b);
  assert.is(a, '{"v":1,"reads":[{"kind":"ConfigMap","namespace":"shop","name":"z","uid":"u","resourceVersion":"1","whole":true,"keys":[]},{"kind":"Secret","namespace":"shop","name":"db","uid":"u-1","resourceVersion":"42","keys":["a","b"]}]}');
  assert.is(encodeRecord([]), EMPTY_RECORD);
});

test('what is written reads back as the same entries', () => {
  const entries: RecordEntry[] = [db, { kind: 'Secret', namespace: 'shop', name: 'gone', missing: true, whole: true, keys: [] }, { kind: 'ConfigMap', namespace: 'kagent', name: 'ep', uid: 'x', resourceVersion: '7', dataOnly: true, keys: ['url'], digest: `hmac-sha256:${'a'.repeat(64)}` }];
  const parsed = parseRecord(encodeRecord(entries));
  assert.ok('entries' in parsed, JSON.stringify(parsed));
  assert.is(encodeRecord((parsed as { entries: RecordEntry[] }).entries), encodeRecord(entries));
});

test('a record a repository wrote by hand is refused whole when anything in it is not what a render writes', () => {
  const entry = JSON.stringify(db).slice(1, -1);
  const refused: Array<[string, RegExp]> = [
    ['not json', /not JSON/],
    ['{"v":2,"reads":[]}', /version is not 1/],
    ['{"v":1,"reads":[],"extra":1}', /not a record/],
    ['[1]', /not a record/],
    [`{"v":1,"reads":[{${entry},"kind":"Pod"}]}`, /kind is not Secret or ConfigMap/],
    [`{"v":1,"reads":[{${entry},"namespace":"../etc"}]}`, /namespace is not a namespace name/],
    [`{"v":1,"reads":[{${entry},"name":"UPPER"}]}`, /name is not an object name/],
    [`{"v":1,"reads":[{${entry},"keys":["a/b"]}]}`, /keys are not data keys/],
    [`{"v":1,"reads":[{${entry},"digest":"sha256:${'0'.repeat(64)}"}]}`, /digest is not hmac-sha256/],
    [`{"v":1,"reads":[{${entry},"uid":"has space"}]}`, /uid and resourceVersion/],
    [`{"v":1,"reads":[{${entry},"whole":false}]}`, /may only be true/],
    [`{"v":1,"reads":[{${entry},"__proto__":{}}]}`, /unknown field/],
    [`{"v":1,"reads":[{${entry}},{${entry}}]}`, /named twice/],
    [`{"v":1,"reads":[{${entry},"missing":true}]}`, /missing object has no uid/],
    [`{"v":1,"reads":[{${entry},"dataOnly":true}]}`, /dataOnly is for ConfigMaps/],
    [`{"v":1,"reads":[${Array.from({ length: 1001 }, () => '{}').join(',')}]}`, /more than 1000 entries/],
    [`{"v":1,"reads":[],"pad":"${'x'.repeat(MAX_RECORD_BYTES)}"}`, /longer than/],
  ];
  for (const [text, why] of refused) {
    const parsed = parseRecord(text);
    assert.ok('refused' in parsed, `accepted: ${text.slice(0, 80)}`);
    assert.match((parsed as { refused: string }).refused, why);
  }
});

const key = makeHasher(utf8('operator key'));
const entriesOf = (data: Record<string, string>): Map<string, Uint8Array> => new Map(Object.entries(data).map(([k, v]) => [k, utf8(v)]));
const digestOf = (data: Record<string, string>, consumed = { keys: ['password'], whole: false, dataOnly: false }, name = 'db'): string => {
  const entries = entriesOf(data);
  return recordDigest(key, 'Secret', 'shop', name, consumed, { digests: keyDigests(key, 'Secret', 'shop', name, entries), binaryKeys: new Set() });
};

test('the record digest changes with a consumed key and nothing else', () => {
  const base = digestOf({ password: 'p', username: 'u' });
  assert.match(base, /^hmac-sha256:[0-9a-f]{64}$/);
  assert.is(digestOf({ username: 'other', password: 'p' }), base, 'another key changed');
  assert.is.not(digestOf({ password: 'q', username: 'u' }), base, 'the consumed key changed');
  assert.is.not(digestOf({ username: 'u' }), base, 'the consumed key went away');
  assert.is.not(digestOf({ password: 'p', username: 'u' }, undefined, 'db2'), base, 'another object');
  const whole = { keys: [], whole: true, dataOnly: false };
  assert.is.not(digestOf({ password: 'p', username: 'other' }, whole), digestOf({ password: 'p', username: 'u' }, whole), 'a whole read counts every key');
  assert.is.not(digestOf({ password: 'p', extra: 'e' }, whole), digestOf({ password: 'p' }, whole), 'and a key added');
  const missing = recordDigest(key, 'Secret', 'shop', 'db', { keys: ['password'], whole: false, dataOnly: false }, undefined);
  assert.is.not(missing, base, 'a missing object has a digest of its own');
});

test('a data-only read does not see binaryData keys, a whole read does', () => {
  const entries = entriesOf({ url: 'u' });
  entries.set('blob', utf8('b'));
  markBinaryDataKeys(entries, new Set(['blob']));
  const view = { digests: keyDigests(key, 'ConfigMap', 'k', 'ep', entries), binaryKeys: new Set(['blob']) };
  const withBlob = recordDigest(key, 'ConfigMap', 'k', 'ep', { keys: [], whole: true, dataOnly: false }, view);
  const dataOnly = recordDigest(key, 'ConfigMap', 'k', 'ep', { keys: [], whole: true, dataOnly: true }, view);
  const without = new Map(entries);
  without.delete('blob');
  const plainView = { digests: keyDigests(key, 'ConfigMap', 'k', 'ep', without), binaryKeys: new Set<string>() };
  assert.is(dataOnly, recordDigest(key, 'ConfigMap', 'k', 'ep', { keys: [], whole: true, dataOnly: true }, plainView));
  assert.is.not(withBlob, dataOnly);
});

test('another hash key gives another digest (the refresher must hold the sidecar\'s key)', () => {
  const other = makeHasher(utf8('another key'));
  const entries = entriesOf({ password: 'p' });
  const consumed = { keys: ['password'], whole: false, dataOnly: false };
  const a = recordDigest(key, 'Secret', 'shop', 'db', consumed, { digests: keyDigests(key, 'Secret', 'shop', 'db', entries), binaryKeys: new Set() });
  const b = recordDigest(other, 'Secret', 'shop', 'db', consumed, { digests: keyDigests(other, 'Secret', 'shop', 'db', entries), binaryKeys: new Set() });
  assert.is.not(a, b);
});

test.run();
