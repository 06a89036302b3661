// test/support/image-gate.ts: when image.test.ts builds the image. CI and ROLLSTAMP_IMAGE_TESTS=1 always build;
// ROLLSTAMP_IMAGE_TESTS=0 never does outside CI and says how to ask; the inputs it watches exist.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IMAGE_INPUTS, inputsDigest, whyNotBuild } from '../support/image-gate.ts';
import { ROOT } from '../support/run-cli.ts';

test('CI set, or ROLLSTAMP_IMAGE_TESTS=1: the image is built, whatever changed', () => {
  assert.is(whyNotBuild({ CI: 'true', ROLLSTAMP_IMAGE_TESTS: '0' }), undefined);
  assert.is(whyNotBuild({ ROLLSTAMP_IMAGE_TESTS: '1' }), undefined);
});

test('ROLLSTAMP_IMAGE_TESTS=0 outside CI: skipped, with a reason that says how to run it', () => {
  const why = whyNotBuild({ ROLLSTAMP_IMAGE_TESTS: '0' });
  assert.type(why, 'string');
  assert.match(why!, /ROLLSTAMP_IMAGE_TESTS=1 runs it \(CI always does\)/);
});

test('CI set to the empty string counts as unset', () => {
  assert.type(whyNotBuild({ CI: '', ROLLSTAMP_IMAGE_TESTS: '0' }), 'string');
});

test('every watched input exists, and the digest is stable between two reads', () => {
  for (const f of IMAGE_INPUTS) assert.ok(existsSync(join(ROOT, f)), `${f} is watched but does not exist`);
  assert.match(inputsDigest(), /^[0-9a-f]{64}$/);
  assert.is(inputsDigest(), inputsDigest());
});

test.run();
