import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBase64Strict } from '../../function/resolve/base64.ts';
import { decodeUtf8, firstInvalidUtf8 } from '../../function/read/text.ts';

test('valid UTF-8 decodes, and a BOM is dropped', () => {
  assert.equal(decodeUtf8(Buffer.from('\ufeffa: é\n')), { ok: true, text: 'a: é\n' });
});

test('invalid UTF-8 reports the offset of the first bad byte', () => {
  assert.equal(decodeUtf8(Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a])), { ok: false, offset: 3 });
  assert.is(firstInvalidUtf8(Buffer.from([0x61, 0xc3])), 1, 'truncated sequence');
  assert.is(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0x80])), 0, 'overlong encoding');
  assert.is(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1, 'surrogate');
});

const good: Array<[string, string]> = [
  ['aHVudGVyMg==', 'hunter2'],
  ['', ''],
  ['YWJj', 'abc'],
  ['YW\nJj\r\n', 'abc'],
];
for (const [input, want] of good) {
  test(`base64 ${JSON.stringify(input)} decodes like the API server`, () => {
    assert.is(Buffer.from(decodeBase64Strict(input)!).toString(), want);
  });
}
for (const bad of ['a$b=', 'YW J j', 'YWJ', '-_-_', 'YQ', 'YQ=', 'Y===', '=YWJ']) {
  test(`base64 ${JSON.stringify(bad)} is refused`, () => {
    assert.is(decodeBase64Strict(bad), undefined);
  });
}

test.run();
