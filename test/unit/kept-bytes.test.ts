// Decoded Secret and ConfigMap values kept in shared slabs (#37): each must be exactly the bytes the plain decoders
// give, whatever slab it lands in, however long, and unchanged by the values decoded after it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBase64Strict, decodeBase64StrictKept, utf8Kept } from '../../function/resolve/base64.ts';

const texts = ['', 'a', 'päss', 'line\nbreak', '\u{1F600} and \uD800 lone', 'x'.repeat(4095), 'y'.repeat(4097), 'z'.repeat(70_000)];

test('utf8Kept gives what TextEncoder gives, across many slabs, and each value stays as it was', () => {
  const encoder = new TextEncoder();
  const kept: Array<[Uint8Array, Uint8Array]> = [];
  for (let round = 0; round < 200; round++) {
    for (const t of texts) {
      const text = `${t}${round}`;
      kept.push([utf8Kept(text), encoder.encode(text)]);
    }
  }
  kept.forEach(([got, want], i) => assert.equal(got, want, `value ${i}`));
});

test('decodeBase64StrictKept decodes and refuses as decodeBase64Strict does, and each value stays as it was', () => {
  const kept: Array<[Uint8Array | undefined, Uint8Array | undefined]> = [];
  for (let round = 0; round < 200; round++) {
    for (const t of texts) {
      const b64 = Buffer.from(`${t}${round}`).toString('base64');
      const wrapped = b64.replace(/(.{76})/g, '$1\n');
      for (const text of [b64, wrapped, `${b64}=`, b64.slice(1), `${b64} `]) kept.push([decodeBase64StrictKept(text), decodeBase64Strict(text)]);
    }
  }
  kept.forEach(([got, want], i) => assert.equal(got, want, `value ${i}`));
  assert.ok(kept.some(([, want]) => want === undefined), 'some inputs are refused');
});

test.run();
