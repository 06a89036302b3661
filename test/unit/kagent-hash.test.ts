// kagent's published test vectors for status.secretHash (TestComputeStatusSecretHash_Output in kagent's
// reconciler tests), recomputed by rollstamp's `hashScheme: kagent`.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { kagentSecretHash } from '../../function/hash/kagent-scheme.ts';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const secret = (namespacedName: string, data: Record<string, string>) => ({ namespacedName, data: new Map(Object.entries(data).map(([k, v]) => [k, bytes(v)])) });

const vectors: Array<[string, ReturnType<typeof secret>[], string]> = [
  ['no secrets', [], 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['one secret, no keys', [secret('test/secret1', {})], '68a268d3f02147004cfa8b609966ec4cba7733f8c652edb80be8071eb1b91574'],
  ['one secret, one key', [secret('test/secret1', { key1: 'value1' })], '62dc22ecd609281a5939efd60fae775e6b75b641614c523c400db994a09902ff'],
  ['one secret, two keys', [secret('test/secret1', { key2: 'value2', key1: 'value1' })], 'ba6798ec591d129f78322cdae569eaccdb2f5a8343c12026f0ed6f4e156cd52e'],
  ['two secrets', [secret('test/secret2', { key2: 'value2' }), secret('test/secret1', { key1: 'value1' })], 'f174f0e21a4427a87a23e4f277946a27f686d023cbe42f3000df94a4df94f7b5'],
];

for (const [name, input, want] of vectors) {
  test(`kagent secret hash vector: ${name}`, () => {
    assert.is(kagentSecretHash(input).toString('hex'), want);
  });
}

test('kagent secret hash equals sha256sum of the plain concatenation', () => {
  const viaTool = execFileSync('sha256sum', { input: 'test/secret1key1value1test/secret2key2value2', encoding: 'utf8' }).split(' ')[0];
  assert.is(kagentSecretHash([secret('test/secret1', { key1: 'value1' }), secret('test/secret2', { key2: 'value2' })]).toString('hex'), viaTool);
});

test.run();
