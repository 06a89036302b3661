// Hash scheme v1, pinned by tools that are not rollstamp: examples/hash-by-hand/recompute.sh rebuilds the
// stamp with printf, openssl and sha256sum, and the encoding is checked byte for byte.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { makeHasher, sourceDigest, sourceMessage, targetDigest, targetMessage } from '../../function/hash/scheme.ts';
import { ROOT, runInProcess } from '../support/run-cli.ts';

const EXAMPLE = join(ROOT, 'examples/hash-by-hand');
const stampOf = (stdout: string): string | undefined => /rollstamp\.dev\/hash: "([^"]+)"/.exec(stdout)?.[1];
const byHand = (env: Record<string, string> = {}): string =>
  execFileSync('bash', [join(EXAMPLE, 'recompute.sh')], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' }).trim();

test('the worked example of docs/hash-scheme.md: rollstamp and printf+openssl agree (SHA-256)', async () => {
  const run = await runInProcess(['stamp', 'input.yaml'], { cwd: EXAMPLE });
  assert.is(run.code, 0, run.stderr);
  assert.is(stampOf(run.stdout), byHand());
  assert.is(byHand(), 'sha256:a74ed2921f8a1c35c39fc439de5fdfb9cb375ff0a2992cf20ccce9210e4f1ae8');
});

test('the worked example of docs/hash-scheme.md: rollstamp and openssl agree under an HMAC key', async () => {
  const env = { ROLLSTAMP_HASH_KEY: 'example-key' };
  const run = await runInProcess(['stamp', 'input.yaml'], { cwd: EXAMPLE, env });
  assert.is(run.code, 0, run.stderr);
  assert.match(stampOf(run.stdout) ?? '', /^hmac-sha256:[0-9a-f]{64}$/);
  assert.is(stampOf(run.stdout), byHand(env));
});

test('a source message is length-prefixed fields, keys in byte order, absent keys marked', () => {
  const msg = sourceMessage({
    cls: 'Secret',
    namespace: 'ns',
    name: 'n',
    entries: new Map([['b', new Uint8Array([0x00, 0xff])], ['a', new Uint8Array()]]),
    keys: ['b', 'a', 'z'],
  });
  const field = (s: string | Buffer): string => {
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    return b.length.toString(16).padStart(16, '0') + b.toString('hex');
  };
  const expected = [
    'rollstamp.v1', 'source', 'Secret', 'ns', 'n', 'present',
    'a', 'value', '',
    'b', 'value', Buffer.from([0x00, 0xff]),
    'z', 'absent',
  ].map(field).join('');
  assert.is(msg.toString('hex'), expected);
});

test('a field is its UTF-8 bytes, length counted in bytes: multi-byte, astral and lone-surrogate names (U+FFFD) alike', () => {
  const names = ['caf\u00e9', '\u{1f600}x', 'lone-\ud800', '\udc00-lone', 'pair-\ud83d\ude00-\ud800'];
  for (const name of names) {
    const msg = sourceMessage({ cls: 'Secret', namespace: 'ns', name, entries: undefined, keys: [] });
    const expected = ['rollstamp.v1', 'source', 'Secret', 'ns', name, 'missing']
      .map((s) => Buffer.from(s, 'utf8'))
      .map((b) => b.length.toString(16).padStart(16, '0') + b.toString('hex'))
      .join('');
    assert.is(msg.toString('hex'), expected, JSON.stringify(name));
  }
});

test('sha256sum over the encoded message gives the digest rollstamp uses', () => {
  const msg = targetMessage([{ id: 'Secret/default/x', digest: Buffer.alloc(32, 7) }]);
  const viaTool = execFileSync('sha256sum', { input: msg, encoding: 'utf8' }).split(' ')[0];
  assert.is(makeHasher().digest(msg).toString('hex'), viaTool);
});

test('a missing source and an empty source have different digests', () => {
  const base = { cls: 'Secret', namespace: 'd', name: 'x', keys: [] };
  assert.is.not(sourceMessage({ ...base, entries: undefined }).toString('hex'), sourceMessage({ ...base, entries: new Map() }).toString('hex'));
});

test('an absent key and an empty value have different digests', () => {
  const base = { cls: 'Secret', namespace: 'd', name: 'x', keys: ['k'] };
  const absent = sourceMessage({ ...base, entries: new Map() });
  const empty = sourceMessage({ ...base, entries: new Map([['k', new Uint8Array()]]) });
  assert.is.not(absent.toString('hex'), empty.toString('hex'));
});

test('field boundaries cannot be shifted: name "ab"+key "c" differs from name "a"+key "bc"', () => {
  const one = sourceMessage({ cls: 'Secret', namespace: 'd', name: 'ab', entries: new Map([['c', new Uint8Array([1])]]), keys: ['c'] });
  const two = sourceMessage({ cls: 'Secret', namespace: 'd', name: 'a', entries: new Map([['bc', new Uint8Array([1])]]), keys: ['bc'] });
  assert.is.not(one.toString('hex'), two.toString('hex'));
});

test('keys sort by UTF-8 bytes, not UTF-16 code units', () => {
  // U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8, after it in UTF-16.
  const entries = new Map([['\uff61', new Uint8Array([1])], ['\u{1f600}', new Uint8Array([2])]]);
  const msg = sourceMessage({ cls: 'ConfigMap', namespace: 'd', name: 'x', entries, keys: ['\u{1f600}', '\uff61'] }).toString('hex');
  assert.ok(msg.indexOf(Buffer.from('\uff61').toString('hex')) < msg.indexOf(Buffer.from('\u{1f600}').toString('hex')));
});

/** The scheme v1 encoding of `fields`, written out independently of rollstamp's encoder. */
const encoded = (fields: Array<string | Uint8Array>): Buffer =>
  Buffer.concat(fields.flatMap((f) => {
    const bytes = typeof f === 'string' ? Buffer.from(f, 'utf8') : Buffer.from(f);
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(bytes.length));
    return [length, bytes];
  }));

test('digests written one after another into one buffer equal digests of fresh messages, over values larger than it (#37)', () => {
  const big = new Uint8Array(70_000).map((_, i) => i % 251);
  const inputs = [
    { cls: 'Secret', namespace: 'ns', name: 'big', entries: new Map([['blob', big], ['a', new Uint8Array([1])]]), keys: ['blob', 'a'] },
    { cls: 'ConfigMap', namespace: 'ns', name: 'caf\u00e9-\ud800', entries: new Map([['k\u00fc', new Uint8Array([2])]]), keys: ['k\u00fc', 'gone'] },
    { cls: 'Secret', namespace: 'ns', name: 'short', entries: undefined, keys: [] },
  ];
  for (const hasher of [makeHasher(), makeHasher(Buffer.from('k'))]) {
    for (const input of inputs) {
      const expected = hasher.algorithm === 'sha256' ? createHash('sha256') : createHmac('sha256', 'k');
      assert.is(sourceDigest(hasher, input).toString('hex'), expected.update(sourceMessage(input)).digest('hex'), input.name);
    }
  }
  const blob = encoded(['rollstamp.v1', 'source', 'Secret', 'ns', 'big', 'present', 'a', 'value', new Uint8Array([1]), 'blob', 'value', big]);
  assert.is(sourceMessage(inputs[0]!).toString('hex'), blob.toString('hex'));
});

test('a target digest is SHA-256 of its message, sources in byte order of id whatever order they come in', () => {
  const a = { id: 'Secret/d/a', digest: Buffer.alloc(32, 1) };
  const b = { id: 'ConfigMap/d/b', digest: Buffer.alloc(32, 2) };
  const message = encoded(['rollstamp.v1', 'target', 'ConfigMap/d/b', b.digest, 'Secret/d/a', a.digest]);
  assert.is(targetMessage([a, b]).toString('hex'), message.toString('hex'));
  assert.is(targetDigest(makeHasher(), [a, b]).toString('hex'), createHash('sha256').update(message).digest('hex'));
});

test('keys given twice are encoded once; keys said to be distinct are encoded as given, sorted', () => {
  const entries = new Map([['b', new Uint8Array([2])], ['a', new Uint8Array([1])]]);
  const base = { cls: 'Secret', namespace: 'd', name: 'x', entries };
  const once = sourceMessage({ ...base, keys: ['b', 'a', 'b', 'a'] }).toString('hex');
  assert.is(once, sourceMessage({ ...base, keys: ['a', 'b'] }).toString('hex'));
  assert.is(once, sourceMessage({ ...base, keys: ['b', 'a'], distinct: true }).toString('hex'));
});

test.run();
