// The two read front-ends side by side over every golden case: `stamp` of the input, `stamp` again over the
// expected output (idempotence), `stamp --check` over it, and `fn` over the case as a ResourceList each run
// with the default reader and with ROLLSTAMP_READER=full, and must print the same stdout and stderr with the
// same exit code. The fuzz, property and end-to-end suites compare the same way where they run the CLI
// (test/support/both-readers.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { bothReaders, firstDifference, readerDifferences, withFullReader } from '../support/both-readers.ts';
import { loadCases, resourceListOf, stampArgs } from '../support/fixtures.ts';
import { runBundle } from '../support/run-cli.ts';

const cases = loadCases();

test('the comparison fails on any difference and names where it starts without the text', () => {
  const base = { code: 0, stdout: 'a: 1\nb: secret-value\n', stderr: '' };
  assert.equal(readerDifferences(base, { ...base }), []);
  const d = readerDifferences(base, { code: 1, stdout: 'a: 1\nb: other-value\n', stderr: 'rollstamp: error: x\n' });
  assert.is(d.length, 3);
  assert.match(d[0]!, /exit code 0 .* 1/);
  assert.match(d[1]!, /^stderr differs from line 1 column 1/);
  assert.match(d[2]!, /^stdout differs from line 2 column 4/);
  assert.not.ok(d.join('\n').includes('secret'), 'no value in the message');
  assert.is(firstDifference('stdout', 'x\n', 'x\ny\n'), 'stdout differs from line 2 column 1 (default: 2 lines, ""; full: 3 lines, "a")');
});

test('the golden inputs mostly take the subset reader (so the comparison compares two readers)', () => {
  const fast = cases.filter((c) => readSubsetStream(readFileSync(join(c.dir, 'input.yaml'), 'utf8'))).length;
  assert.ok(cases.length >= 30 && fast > 130, `only ${fast} of ${cases.length} golden inputs take the fast path`);
});

for (const c of cases) {
  test(`golden ${c.name}: stamp, stamp again, --check and fn print the same with either reader`, async () => {
    await bothReaders(stampArgs(c), { cwd: c.dir }, 'stamp');
    if (c.expected !== undefined) {
      await bothReaders(stampArgs(c, '-'), { cwd: c.dir, stdin: c.expected }, 'stamp over the expected output');
      await bothReaders([...stampArgs(c, '-'), '--check'], { cwd: c.dir, stdin: c.expected }, 'stamp --check over the expected output');
      await bothReaders([...stampArgs(c), '--check'], { cwd: c.dir }, 'stamp --check over the input');
    }
    await bothReaders(['fn'], { cwd: c.dir, stdin: resourceListOf(c) }, 'fn over the ResourceList form');
  });
}

/*
 * Collections nested deeper than the yaml library can compose: its composer recurses per level and catches its
 * own stack overflow, wherever the stack happens to run out (that depends on how much stack the code compiled
 * so far uses). rollstamp refuses such text before composing it, at a fixed depth, so every run prints the
 * same error, with either reader, in flow and in block form.
 */
test('nesting deeper than the stack: every run, with either reader, prints the same error', () => {
  const depth = 10_000;
  const flow = `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  const block = `${'- '.repeat(depth)}x\n`;
  const stdin = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? flow : block)).join('---\n');
  const runs = [0, 1, 2].flatMap(() => [runBundle(['stamp', '-'], { stdin }), runBundle(['stamp', '-'], withFullReader({ stdin }))]);
  for (const r of runs) {
    assert.is(r.code, 1);
    assert.match(r.stderr, /^rollstamp: error: <stdin>: invalid YAML: nesting too deep \(the limit is 256 levels\)\n$/);
  }
  const distinct = [...new Set(runs.map((r) => r.stderr.trim()))];
  assert.is(distinct.length, 1, `${runs.length} runs printed ${distinct.length} different errors: ${distinct.map((e) => e.replace(/^.*(column \d+.*)$/, '$1')).join(' | ')}`);
});

test.run();
