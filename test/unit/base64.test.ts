import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBase64Strict } from '../../function/base64.ts';

test('decodes standard base64 with padding', () => {
  assert.equal(Buffer.from(decodeBase64Strict('aHVudGVyMg==')!).toString(), 'hunter2');
});
test.run();
