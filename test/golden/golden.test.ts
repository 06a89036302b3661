// Golden fixtures: every case through `stamp` in-process, again over its own output (idempotence), through
// the KRM function (same hashes), and through the built bundle under plain node (every case when CI is set;
// elsewhere every third case of each area, as each costs a node start-up and the in-process runs hold them all).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCases, resourceListOf, stampArgs, type GoldenCase } from '../support/fixtures.ts';
import { inParallel, runBundleAsync, runInProcess } from '../support/run-cli.ts';
import { sized } from '../support/sizes.ts';

const cases = loadCases();
const HASH = /"((?:hmac-)?sha256:[0-9a-f]{64})"/g;
const hashesIn = (text: string): string[] => [...text.matchAll(HASH)].map((m) => m[1]!);

test('there are golden cases, and each has an expectation', () => {
  assert.ok(cases.length >= 30, `only ${cases.length} golden cases`);
  for (const c of cases) {
    assert.ok(c.input !== '', `${c.name}: no input.yaml`);
    assert.ok((c.expected === undefined) !== (c.errors === undefined), `${c.name}: needs exactly one of expected.yaml, errors.txt`);
  }
});

for (const c of cases) {
  test(`golden ${c.name}: stamp output`, async () => {
    const run = await runInProcess(stampArgs(c), { cwd: c.dir });
    if (c.errors !== undefined) {
      assert.is(run.stdout, '', 'nothing on stdout after an error');
      assert.is(run.code, 1);
      assert.is(run.stderr, c.errors);
    } else {
      assert.is(run.stderr, c.warnings);
      assert.is(run.code, 0);
      assert.fixture(run.stdout, c.expected!);
    }
  });

  if (c.expected !== undefined) {
    test(`golden ${c.name}: stamping the output again changes nothing`, async () => {
      const run = await runInProcess(stampArgs(c, '-'), { cwd: c.dir, stdin: c.expected });
      assert.is(run.code, 0);
      assert.fixture(run.stdout, c.expected!);
      // --allow-no-targets: a case with no target is a fixpoint too (without it --check refuses zero targets, #23).
      const check = await runInProcess([...stampArgs(c, '-'), '--check', '--allow-no-targets'], { cwd: c.dir, stdin: c.expected });
      assert.is(check.code, 0, '--check passes on stamped output');
    });
  }

  test(`golden ${c.name}: the KRM function agrees`, async () => {
    const run = await runInProcess(['fn'], { cwd: c.dir, stdin: resourceListOf(c) });
    if (c.errors !== undefined) {
      assert.is(run.code, 1);
      assert.is(run.stdout, '');
      assert.ok(run.stderr.startsWith('rollstamp: error: '), run.stderr);
    } else {
      assert.is(run.code, 0, run.stderr);
      assert.equal(hashesIn(run.stdout), hashesIn(c.expected!));
    }
  });
}

/** Every third case of each fixtures area, from its first: each area is still run through the bundle. */
function everyThirdOfEachArea(all: readonly GoldenCase[]): GoldenCase[] {
  const seen = new Map<string, number>();
  return all.filter((c) => {
    const area = c.name.split('/')[0]!;
    const n = seen.get(area) ?? 0;
    seen.set(area, n + 1);
    return n % 3 === 0;
  });
}

const bundleCases = sized(cases, everyThirdOfEachArea(cases));

test(`golden cases through the bundle under plain node (${bundleCases.length} of ${cases.length})`, async () => {
  const runs = await inParallel(bundleCases, (c) => runBundleAsync(stampArgs(c), { cwd: c.dir }));
  bundleCases.forEach((c, i) => {
    const run = runs[i]!;
    assert.is(run.code, c.errors !== undefined ? 1 : 0, `${c.name}: exit code`);
    assert.is(run.stdout, c.expected ?? '', `${c.name}: stdout`);
    assert.is(run.stderr, c.errors ?? c.warnings, `${c.name}: stderr`);
  });
});

test.run();
