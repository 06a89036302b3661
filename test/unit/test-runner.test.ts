// test/run.mjs, the runner `npm test` ends with (#25): shards in parallel processes, the files of a tier
// sharing them yet reported, counted and failed one by one (#36), the files that must run alone after
// them, one summary line totalled over every file, and a failing, crashing or empty run that fails; and the
// rules that keep the shards independent (what runs alone, one CLI runner, one Argo CD request builder).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/run-cli.ts';

const PASSING = "import { test } from 'uvu';\ntest('one', () => {});\ntest('two', () => {});\ntest.skip('later', () => {});\ntest.run();\n";
const FAILING = "import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('fine', () => {});\ntest('broken', () => assert.ok(false));\ntest.run();\n";
const CRASHING = "throw new Error('crash while loading');\n";
const ALONE = "// Runs alone: a check of the runner\nimport { test } from 'uvu';\ntest('alone', () => {});\ntest.run();\n";
const EMPTY = "import { test } from 'uvu';\ntest.run();\n";
// A test whose child process spins for 0.8 s of CPU: the runner counts the children a shard waited for.
const BUSY_CHILD = "import { spawnSync } from 'node:child_process';\nimport { test } from 'uvu';\ntest('busy', () => { spawnSync(process.execPath, ['-e', 'const u = () => process.cpuUsage(); const t = u(); while ((u().user + u().system - t.user - t.system) < 800000);']); });\ntest.run();\n";

/** The runner over a hidden directory of test files below test/ (hidden, so a real run never picks it up). */
function runner(files: Record<string, string>, args: string[] = []): { code: number; stdout: string } {
  const dir = join(ROOT, 'test', `.runner-check-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const r = spawnSync(process.execPath, ['test/run.mjs', ...args, relative(ROOT, dir)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ROLLSTAMP_TEST_JOBS: '2' }, timeout: 120_000 });
    return { code: r.status ?? -1, stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lastLine = (out: string): string => out.trimEnd().split('\n').pop()!;

// Two parallel files and one that runs alone: one run, read by the two tests below.
let withAlone: { code: number; stdout: string } | undefined;
const runWithAlone = (): { code: number; stdout: string } => (withAlone ??= runner({ 'a.test.ts': PASSING, 'b.test.ts': PASSING, 'c.test.ts': ALONE }));

test('the summary line is the total over all shards, and the run passes when every shard does', () => {
  const r = runWithAlone();
  assert.is(r.code, 0, r.stdout);
  assert.is(lastLine(r.stdout), 'tests: 5 passed, 0 failed, 2 skipped');
  assert.match(r.stdout, /file durations, slowest first:\n(\s+\d+\.\d s {2}test\/\.runner-check-\d+\/[abc]\.test\.ts {2}.*\n){3}/);
});

test('a file marked "Runs alone" runs after every parallel shard has finished', () => {
  const r = runWithAlone();
  const order = [...r.stdout.matchAll(/^── test\/\.runner-check-\d+\/(\w)\.test\.ts: ok/gm)].map((m) => m[1]);
  assert.is(order.length, 3, r.stdout);
  assert.is(order[2], 'c', `alone last: ${order.join(', ')}`);
  assert.match(r.stdout, /2 in parallel as 2 shards \(2 at a time\), 1 alone/);
});

test('one failing test fails the run and counts once in the total', () => {
  const r = runner({ 'a.test.ts': PASSING, 'b.test.ts': FAILING });
  assert.is(r.code, 1);
  assert.is(lastLine(r.stdout), 'tests: 3 passed, 1 failed, 1 skipped');
  assert.match(r.stdout, /failed files: test\/\.runner-check-\d+\/b\.test\.ts/);
});

test('a file that crashes before any test runs fails the run', () => {
  const r = runner({ 'a.test.ts': PASSING, 'b.test.ts': CRASHING });
  assert.is(r.code, 1);
  assert.is(lastLine(r.stdout), 'tests: 2 passed, 1 failed, 1 skipped');
  assert.match(r.stdout, /crash while loading/, 'its output is shown');
});

test("each shard's CPU time includes its children's, beside its duration and in the total", () => {
  const r = runner({ 'a.test.ts': PASSING, 'b.test.ts': BUSY_CHILD });
  assert.is(r.code, 0, r.stdout);
  const cpu = (file: string): number => Number(new RegExp(`\\.test\\.ts: ok, [\\d.]+ s, cpu ([\\d.]+) s\\n`).exec(r.stdout.slice(r.stdout.indexOf(`/${file}: ok`)))?.[1]);
  assert.ok(cpu('b.test.ts') >= 0.8, `the busy child's 0.8 s counts: ${cpu('b.test.ts')} s`);
  assert.ok(cpu('a.test.ts') < cpu('b.test.ts'), `${cpu('a.test.ts')} s without a child`);
  assert.match(r.stdout, /\n\s+[\d.]+ s {2}test\/\.runner-check-\d+\/b\.test\.ts {2}cpu [\d.]+ s, 1 passed, 0 skipped\n/);
  assert.match(r.stdout, /\nwall [\d.]+ s, 2 jobs, 2 files in 2 shards, cpu [\d.]+ s \(0\.0 s of it alone\)\n/);
});

test('a run in which no test ran fails', () => {
  const r = runner({ 'a.test.ts': EMPTY });
  assert.is(r.code, 1);
  assert.is(lastLine(r.stdout), 'no test ran');
});

// The files of a directory named like a tier share one process (the check's own files are few).
const ENV_SETTER = "import { test } from 'uvu';\nprocess.env.ROLLSTAMP_RUNNER_CHECK = 'set';\ntest('sets', () => {});\ntest.run();\n";
const ENV_READER = "import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('reads', () => assert.is(process.env.ROLLSTAMP_RUNNER_CHECK, undefined));\ntest.run();\n";
const EXITING = "import { test } from 'uvu';\ntest('exits', () => process.exit(0));\ntest.run();\n";
const PID = "import { test } from 'uvu';\ntest('pid', () => console.log(`pid ${process.pid}`));\ntest.run();\n";
const OWN = `// Runs in its own process: a check of the runner\n${PID}`;
const pids = (out: string): string[] => [...out.matchAll(/^pid (\d+)$/gm)].map((m) => m[1]!);

test('files of a tier share a process, yet each is reported, counted and failed on its own', () => {
  const r = runner({ 'unit/a.test.ts': PASSING, 'unit/b.test.ts': FAILING, 'unit/c.test.ts': CRASHING, 'unit/d.test.ts': PID, 'unit/e.test.ts': PID });
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stdout, /5 in parallel as 1 shards/);
  assert.is(new Set(pids(r.stdout)).size, 1, 'd and e ran in one process');
  assert.match(r.stdout, /── test\/\.runner-check-\d+\/unit\/a\.test\.ts: ok, [\d.]+ s, cpu [\d.]+ s\n/);
  assert.match(r.stdout, /── test\/\.runner-check-\d+\/unit\/b\.test\.ts: FAILED \(a test failed\)[^]*?broken/);
  assert.match(r.stdout, /── test\/\.runner-check-\d+\/unit\/c\.test\.ts: FAILED \(a test failed\)[^]*?crash while loading/);
  assert.match(r.stdout, /failed files: test\/\.runner-check-\d+\/unit\/b\.test\.ts, test\/\.runner-check-\d+\/unit\/c\.test\.ts\n/);
  assert.is(lastLine(r.stdout), 'tests: 5 passed, 2 failed, 1 skipped');
});

test('a file that ends a shared process fails by name, and the files after it fail as not run', () => {
  const r = runner({ 'unit/a.test.ts': PASSING, 'unit/b.test.ts': EXITING, 'unit/c.test.ts': PASSING });
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stdout, /── test\/\.runner-check-\d+\/unit\/b\.test\.ts: FAILED \(exit 1\)[^]*?b\.test\.ts: the process exited before its tests finished/);
  assert.match(r.stdout, /── test\/\.runner-check-\d+\/unit\/c\.test\.ts: FAILED \(not run: the shard's process ended \(exit 1\) before it\)/);
});

test('a shared process gives each file the environment the process started with', () => {
  const r = runner({ 'unit/a.test.ts': ENV_SETTER, 'unit/b.test.ts': ENV_READER });
  assert.is(r.code, 0, r.stdout);
  assert.is(lastLine(r.stdout), 'tests: 2 passed, 0 failed, 0 skipped');
});

test('a file marked "Runs in its own process" and a file outside the tiers keep a process each', () => {
  const r = runner({ 'unit/a.test.ts': PID, 'unit/b.test.ts': OWN, 'other/c.test.ts': PID, 'other/d.test.ts': PID });
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /4 in parallel as 4 shards/);
  assert.is(new Set(pids(r.stdout)).size, 4);
});

test('an unknown option or a path that is not a test is a usage error (exit 2)', () => {
  for (const args of [['--frobnicate'], ['--jobs', '0'], ['package.json']]) {
    const r = spawnSync(process.execPath, ['test/run.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
    assert.is(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^test\/run\.mjs: .*\nusage: /);
  }
});

/** Every test file and test helper under test/ (relative path → text). */
function testSources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const full = join(d, e);
      if (e.startsWith('.')) continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (e.endsWith('.ts')) out.set(relative(ROOT, full), readFileSync(full, 'utf8'));
    }
  };
  walk(join(ROOT, 'test'));
  return out;
}

/** Whether an `npm pack` call (its arguments and options) leaves this checkout's dist/ alone: scripts off, or run elsewhere. */
const packLeavesDist = (call: string): boolean => call.includes("'--ignore-scripts'") || /cwd: (?!ROOT\b)\w/.test(call);

test('a test file that packs or builds runs alone, or says why it leaves dist/ alone and packs only elsewhere or without scripts', () => {
  const rebuilds = /\['pack'|'pack', |npm run build|build\.mjs|\['run', 'build'/;
  const marked = [...testSources()].filter(([f, text]) => f.endsWith('.test.ts') && f !== 'test/unit/test-runner.test.ts' && rebuilds.test(text.replace(/^\s*(\/\/|\/?\*).*$/gm, '')));
  assert.ok(marked.some(([f]) => f === 'test/e2e/package.test.ts'), 'package.test.ts packs the bundle');
  for (const [f, text] of marked) {
    const head = text.slice(0, 2000);
    if (/^\/\/ Runs alone: \S/m.test(head)) continue;
    assert.match(head, /^\/\/ Leaves dist\/ alone: \S/m, `${f} packs or builds but neither runs alone nor says why it leaves dist/ alone`);
    for (const call of text.matchAll(/\['pack',[^\]]*\][^)]*\)/g)) assert.ok(packLeavesDist(call[0]), `${f}: ${call[0]} may rebuild this checkout's dist/`);
  }
});

test('a pack in the checkout with its scripts on does not count as leaving dist/ alone', () => {
  assert.not.ok(packLeavesDist("['pack', '--json'], { cwd: ROOT, env })"));
  assert.not.ok(packLeavesDist("['pack', '--json'], { env })"));
  assert.ok(packLeavesDist("['pack', '--json'], { cwd: checkout, env })"));
  assert.ok(packLeavesDist("['pack', '--ignore-scripts'], { cwd: ROOT })"));
});

test('the bundle is run to completion through test/support/run-cli.ts only', () => {
  const copies = /spawnSync\(process\.execPath, \[(\.\.\.[^\]]*, )?BUNDLE|\brun\(process\.execPath, \[BUNDLE/;
  for (const [f, text] of testSources()) {
    if (f === 'test/support/run-cli.ts') continue;
    assert.not.match(text, copies, `${f} spawns dist/rollstamp.js itself: use runBundle from test/support/run-cli.ts`);
  }
});

test("Argo CD's request environment is built by test/support/argocd-request.ts only", () => {
  for (const [f, text] of testSources()) {
    if (f === 'test/support/argocd-request.ts' || f === 'test/unit/test-runner.test.ts') continue;
    assert.not.match(text, /ARGOCD_APP_REVISION_SHORT|ARGOCD_APP_SOURCE_REPO_URL/, `${f} builds Argo CD's request by hand: use requestEnv or generateEnv`);
  }
});

test("the recorded durations and CPU times keep only files that are still there", () => {
  const cache = (name: string): Record<string, number> => JSON.parse(readFileSync(join(ROOT, 'node_modules', '.cache', 'rollstamp', name), 'utf8'));
  const scratch = `test/.runner-check-${process.pid}`;
  assert.is(runner({ 'gone.test.ts': PASSING }).code, 0);
  assert.ok(`${scratch}/gone.test.ts` in cache('test-cpu.json'), 'recorded while it was there');
  assert.is(runner({ 'kept.test.ts': PASSING }).code, 0);
  for (const name of ['test-cpu.json', 'test-durations.json']) {
    assert.not.ok(`${scratch}/gone.test.ts` in cache(name), `${name} drops a file that is gone`);
    assert.ok(`${scratch}/kept.test.ts` in cache(name), `${name} keeps the file it ran`);
  }
});

test.run();
