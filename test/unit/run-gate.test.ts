// The size gate that decides whether a run happens on the process's own thread or in its worker (#37).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HEAP_HEADROOM_BYTES, HEAP_PER_INPUT_BYTE, heapHeadroom, IN_PROCESS_MAX_BYTES, inProcessLimit, REPORT_HEAP_HEADROOM_BYTES } from '../../plugin/run-gate.ts';

const MIB = 1024 * 1024;

test('with V8\'s default heap (GiBs), inputs up to 256 KiB run on the main thread (#37)', () => {
  assert.is(inProcessLimit(4144 * MIB, HEAP_HEADROOM_BYTES), IN_PROCESS_MAX_BYTES);
  assert.is(IN_PROCESS_MAX_BYTES, 256 * 1024);
});

test('under --max-old-space-size=16 (a 64 MiB heap limit) no input runs on the main thread, not even an empty one (#37)', () => {
  assert.ok(inProcessLimit(64 * MIB, HEAP_HEADROOM_BYTES) < 0);
});

test('the limit is the largest input for which input × 128 + headroom stays under the heap limit (#37)', () => {
  for (const heap of [65 * MIB, 96 * MIB, 100 * MIB + 7, 112 * MIB, 300 * MIB]) {
    for (const headroom of [HEAP_HEADROOM_BYTES, REPORT_HEAP_HEADROOM_BYTES]) {
      const limit = inProcessLimit(heap, headroom);
      if (limit < 0) continue;
      if (limit < IN_PROCESS_MAX_BYTES) {
        assert.ok(limit * HEAP_PER_INPUT_BYTE + headroom < heap, `${limit} bytes fit under ${heap}`);
        assert.ok((limit + 1) * HEAP_PER_INPUT_BYTE + headroom >= heap, `${limit + 1} bytes do not fit under ${heap}`);
      }
    }
  }
  assert.is(inProcessLimit(96 * MIB, HEAP_HEADROOM_BYTES), (32 * MIB) / HEAP_PER_INPUT_BYTE - 1);
});

test('explain and diff get the larger headroom (their key rows do not grow with the input); other commands the usual one (#37)', () => {
  assert.is(heapHeadroom(['explain', '-']), REPORT_HEAP_HEADROOM_BYTES);
  assert.is(heapHeadroom(['--debug', 'diff', 'a.yaml', 'b.yaml']), REPORT_HEAP_HEADROOM_BYTES);
  for (const argv of [['stamp', '-'], [], ['fn'], ['--debug', 'stamp'], ['stamp', 'explain']]) assert.is(heapHeadroom(argv), HEAP_HEADROOM_BYTES, argv.join(' '));
});

test.run();
