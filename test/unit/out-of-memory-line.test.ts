// The out-of-memory line main.ts prints for a worker that ran out of heap (#21, #37): one line, exit 1 either way,
// and true of stdout — "nothing was written" only while no part of the output had been handed on to be written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { outOfMemoryLine } from '../../plugin/process/errors.ts';

const HEAD = /^rollstamp: error: out of memory: the run needed more than the JavaScript heap limit of 48 MiB \(raise it with node --max-old-space-size, or lower ROLLSTAMP_MAX_INPUT_BYTES\); /;

test('out of memory before any output: nothing was written', () => {
  const line = outOfMemoryLine(48, false);
  assert.match(line, HEAD);
  assert.ok(line.endsWith('; nothing was written\n'), line);
  assert.is(line.split('\n').length, 2, 'one line');
});

test('out of memory after a part was handed on: the output is said to be incomplete, not unwritten', () => {
  const line = outOfMemoryLine(48, true);
  assert.match(line, HEAD);
  assert.ok(line.endsWith('; the output written is incomplete\n'), line);
  assert.not.match(line, /nothing was written/);
  assert.is(line.split('\n').length, 2, 'one line');
});

test.run();
