// The worker's output in parts (plugin/process/output-parts.ts): every byte in order, no character split, one
// buffer reused, and nothing handed on when the output fails while it is made (fail closed, #37).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handInParts } from '../../plugin/process/output-parts.ts';

interface Part {
  text: string;
  more: boolean;
  buffer: ArrayBuffer;
}

/** A hand that keeps a decoded copy of each part and gives the buffer back, as main.ts does once written. */
function keeper(): { parts: Part[]; hand: Parameters<typeof handInParts>[1] } {
  const parts: Part[] = [];
  // fatal: a part cut inside a character is an error here, not U+FFFD.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    parts,
    hand: async (bytes, buffer, more) => {
      assert.is(bytes.buffer, buffer, 'the part is a view of the buffer handed on');
      parts.push({ text: decoder.decode(bytes), more, buffer });
      return buffer;
    },
  };
}

/** The message `run` rejects with; a run that resolves fails the test. */
async function failureOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (err) {
    return (err as Error).message;
  }
  assert.unreachable('the run should have failed');
  return '';
}

test('pieces are encoded into parts of at most the size, in order, no character split, the last one without more (#37)', async () => {
  // 'é' is 2 bytes, '€' 3, '𝄞' 4: with 8-byte parts, characters straddle every boundary.
  const pieces = ['abc', 'é€𝄞', '', 'xy𝄞𝄞z', '€€€'];
  const { parts, hand } = keeper();
  await handInParts(pieces, hand, 8);
  assert.is(parts.map((p) => p.text).join(''), pieces.join(''));
  assert.ok(parts.length > 3, `several parts (${parts.length})`);
  for (const p of parts) assert.ok(new TextEncoder().encode(p.text).length <= 8, `a part of at most 8 bytes: ${JSON.stringify(p.text)}`);
  assert.equal(parts.map((p) => p.more), [...parts.slice(1).map(() => true), false]);
  assert.ok(parts.every((p) => p.buffer === parts[0]!.buffer), 'the buffer given back is filled again');
});

test('a string, an array and a generator of the same text give the same parts (#37)', async () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\n# ünïcødé €\n'.repeat(40);
  const of = async (t: Parameters<typeof handInParts>[0]): Promise<string[]> => {
    const { parts, hand } = keeper();
    await handInParts(t, hand, 64);
    return parts.map((p) => p.text);
  };
  const whole = await of(text);
  assert.equal(await of(text.match(/[^\n]*\n/g)!), whole);
  assert.equal(await of((function* () { yield* text.match(/[^\n]*\n/g)!; })()), whole);
});

test('an output that fails while it is made hands nothing on, though it had made more than a part (#37)', async () => {
  let made = 0;
  function* failing(): Generator<string> {
    for (let i = 0; i < 10; i++) {
      made++;
      yield 'x'.repeat(100);
    }
    throw new Error('made partway');
  }
  const { parts, hand } = keeper();
  assert.match(await failureOf(handInParts(failing(), hand, 64)), /made partway/);
  assert.is(made, 10, 'the generator ran up to its failure');
  assert.equal(parts, [], 'no part was handed on to be written');
});

test('a new buffer when the hand gives none back, and an empty output is one empty last part (#37)', async () => {
  const buffers: ArrayBuffer[] = [];
  await handInParts('0123456789', async (bytes, buffer, more) => {
    buffers.push(buffer);
    assert.is(bytes.byteLength, more ? 4 : 2);
    return undefined;
  }, 4);
  assert.is(buffers.length, 3);
  assert.is(new Set(buffers).size, 3, 'each part in a buffer of its own');
  const { parts, hand } = keeper();
  await handInParts([], hand, 8);
  assert.equal(parts.map((p) => [p.text, p.more]), [['', false]]);
});

test('a part too small for a character is refused, not looped on (#37)', async () => {
  assert.match(await failureOf(handInParts('𝄞', async () => undefined, 3)), /at least one character/);
});

test.run();
