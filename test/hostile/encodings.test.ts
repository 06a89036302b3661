// SECURITY.md "It fails closed" / "It never flaps", for encodings, against the built bundle: invalid UTF-8 is
// refused naming the file and byte offset; BOM and CRLF do not change stamps; non-base64 Secret data is
// refused naming the Secret and key (never the value); line-wrapped base64 is accepted and hashes the same.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { assertFailsClosed, cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { deployment, secret, stampsIn, stream } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

const PLAIN = stream([secret('db', '  password: c2VjcmV0LXZhbHVlLXRoYXQtaXMtbG9uZw=='), deployment('web', { secret: 'db' })]);

test('invalid UTF-8: error names the file and the byte offset', () => {
  const dir = tempDir('utf8');
  const good = Buffer.from(PLAIN, 'utf8');
  const offset = good.indexOf('image:') + 3;
  const bad = Buffer.concat([good.subarray(0, offset), Buffer.from([0xc3, 0x28]), good.subarray(offset)]);
  writeFileSync(join(dir, 'ok.yaml'), PLAIN);
  writeFileSync(join(dir, 'bad.yaml'), bad);
  const r = runBundle(['stamp', 'ok.yaml', 'bad.yaml'], { cwd: dir });
  assertFailsClosed(r, 'invalid UTF-8');
  assert.ok(r.stderr.includes('bad.yaml'), `names the file: ${r.stderr}`);
  assert.ok(r.stderr.includes(`byte ${offset}`), `names byte ${offset}: ${r.stderr}`);
  const s = runBundle(['stamp', '-'], { stdin: bad });
  assertFailsClosed(s, 'invalid UTF-8 on stdin');
  assert.ok(s.stderr.includes(`byte ${offset}`), `names byte ${offset}: ${s.stderr}`);
  const f = runBundle(['fn'], { stdin: bad });
  assertFailsClosed(f, 'invalid UTF-8 to fn');
});

test('a BOM and CRLF line ends give the same stamps as the plain bundle', () => {
  const plain = runBundle(['stamp', '-'], { stdin: PLAIN });
  assert.is(plain.code, 0, plain.stderr);
  const want = stampsIn(plain.stdout);
  assert.is(want.length, 1);
  for (const [name, text] of [
    ['BOM', `\uFEFF${PLAIN}`],
    ['CRLF', PLAIN.replace(/\n/g, '\r\n')],
    ['BOM+CRLF', `\uFEFF${PLAIN.replace(/\n/g, '\r\n')}`],
  ] as const) {
    const r = runBundle(['stamp', '-'], { stdin: text });
    assert.is(r.code, 0, `${name}: ${r.stderr}`);
    assert.equal(stampsIn(r.stdout), want, `${name}: same stamps`);
  }
});

for (const [name, value] of [
  ['a $ sign', 'a$b'],
  ['URL-safe alphabet', 'c2Vj-_mV0'],
  ['inner spaces', '"c2Vj cmV0"'],
] as const) {
  test(`non-base64 Secret data (${name}): error names the Secret and key, not the value`, () => {
    const input = stream([secret('db', `  api-token: ${value}`), deployment('web', { secret: 'db' })]);
    const r = runBundle(['stamp', '-'], { stdin: input });
    assertFailsClosed(r, name);
    assert.ok(r.stderr.includes('db'), `names the Secret: ${r.stderr}`);
    assert.ok(r.stderr.includes('api-token'), `names the key: ${r.stderr}`);
    assert.not.ok(r.stderr.includes(value.replace(/"/g, '')), `does not print the value: ${r.stderr}`);
  });
}

test('line-wrapped base64 in a | block is accepted and hashes like the one-line form', () => {
  const oneLine = 'c2VjcmV0LXZhbHVlLXRoYXQtaXMtbG9uZw==';
  const wrapped = `  password: |\n    c2VjcmV0LXZhbHVl\n    LXRoYXQtaXMtbG9u\n    Zw==`;
  const a = runBundle(['stamp', '-'], { stdin: stream([secret('db', `  password: ${oneLine}`), deployment('web', { secret: 'db' })]) });
  const b = runBundle(['stamp', '-'], { stdin: stream([secret('db', wrapped), deployment('web', { secret: 'db' })]) });
  assert.is(a.code, 0, a.stderr);
  assert.is(b.code, 0, b.stderr);
  assert.equal(stampsIn(b.stdout), stampsIn(a.stdout));
});

test.run();
