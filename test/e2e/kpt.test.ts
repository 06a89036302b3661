// The real kpt (tested with 1.0.0-beta.56) running the built bundle over a copy of examples/kpt:
// `kpt fn eval DIR --exec`, the `-- key=value` and `--fn-config` forms, `kpt fn eval -` on stdin,
// `kpt fn render --allow-exec` with the Kptfile's exec mutator, and failures that must write nothing. Every
// kpt run of rollstamp is repeated with ROLLSTAMP_READER=full and must print and write the same.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMap, isSeq, parseAllDocuments, parseDocument, type YAMLMap } from 'yaml';
import { runBundle } from '../support/run-cli.ts';
import {
  BUNDLE,
  commentsOf,
  EXAMPLE_KPT,
  fullReaderEnv,
  assertSameWithFullReader,
  insertedLines,
  removeTempDirs,
  requireBundle,
  ROOT,
  run,
  snapshot,
  STAMP_LINE,
  stampsIn,
  tempDir,
  testNeeding,
  type Run,
} from '../support/tools.ts';
import { PROCESS_TWINS } from '../support/sizes.ts';

const it = testNeeding('kpt');

/** What `--exec` gets: kpt splits it on spaces, so the repository path must not contain one. */
const EXEC = `node ${BUNDLE}`;

test.before.each(() => {
  requireBundle();
  assert.not.ok(BUNDLE.includes(' '), `kpt splits --exec on spaces; move the checkout to a path without spaces (${BUNDLE})`);
});
test.after(removeTempDirs);

/** A private copy of the example package. */
function copyPackage(): string {
  const dir = join(tempDir('kpt'), 'pkg');
  cpSync(EXAMPLE_KPT, dir, { recursive: true });
  return dir;
}

/**
 * kpt; when it runs rollstamp (`--exec` of the bundle, or `fn render` of the example's exec mutator), first
 * over a copy of the package with ROLLSTAMP_READER=full (under PROCESS_TWINS, sizes.ts): both runs must print
 * the same (durations aside) and leave the same files.
 */
function kpt(args: string[], opts: { input?: string; cwd?: string } = {}): Run {
  if (!args.includes(EXEC) && args[1] !== 'render') return run('kpt', args, { ...opts, timeoutMs: 20_000 });
  const dir = args[2] !== '-' ? args[2]! : undefined;
  const twin = dir && PROCESS_TWINS ? join(tempDir('kpt-full'), 'pkg') : undefined;
  if (dir && twin) cpSync(dir, twin, { recursive: true });
  const twinArgs = dir && twin ? args.map((a) => (a.startsWith(dir) ? twin + a.slice(dir.length) : a)) : args;
  const full = PROCESS_TWINS ? run('kpt', twinArgs, { ...opts, env: fullReaderEnv(), timeoutMs: 20_000 }) : undefined;
  const r = run('kpt', args, { ...opts, timeoutMs: 20_000 });
  if (!full) return r;
  const normalize = (t: string): string => (dir && twin ? t.split(twin).join(dir) : t).replace(/ in \d+(?:\.\d+)?(?:ms|s|m)\b/g, ' in …');
  assertSameWithFullReader(r, full, `kpt ${args.slice(0, 2).join(' ')}`, normalize);
  if (dir && twin) assert.equal(Object.fromEntries(snapshot(twin)), Object.fromEntries(snapshot(dir)), 'the package is written the same with ROLLSTAMP_READER=full');
  return r;
}

function assertOk(r: Run, what: string): void {
  assert.is(r.code, 0, `${what} exited ${r.code}\n--- stderr:\n${r.stderr}\n--- stdout:\n${r.stdout}`);
}

/** The stamps the CLI computes for the pristine package (the KRM function must agree with it). */
function cliStamps(args: string[] = []): string[] {
  const r = runBundle(['stamp', ...args, EXAMPLE_KPT]);
  assertOk(r, 'rollstamp stamp examples/kpt');
  return stampsIn(r.stdout);
}

/**
 * Each file of `dir` against the pristine package: the files in `stamped` gained exactly one hash line
 * (plus an `annotations:` line where the template had none) and nothing else changed; every other file is
 * byte-identical; no comment line appears more (or less) often than in the original.
 */
function assertOnlyStamped(dir: string, stamped: Record<string, string>): void {
  const before = snapshot(EXAMPLE_KPT);
  const after = snapshot(dir);
  assert.equal([...after.keys()].sort(), [...before.keys()].sort(), 'the package has the same files');
  for (const [file, original] of before) {
    const now = after.get(file)!;
    assert.equal(
      Object.fromEntries(commentsOf(now)),
      Object.fromEntries(commentsOf(original)),
      `${file}: every comment appears as often as in the original (none duplicated or lost)\n--- now:\n${now}`,
    );
    const hash = stamped[file];
    if (hash === undefined) {
      assert.is(now, original, `${file} must not change`);
      continue;
    }
    const added = insertedLines(original, now);
    assert.ok(added, `${file}: only lines were inserted; the original lines are unchanged and in order\n--- now:\n${now}`);
    const hashLines = added!.filter((l) => STAMP_LINE.test(l));
    const other = added!.filter((l) => !STAMP_LINE.test(l));
    assert.equal(hashLines.map((l) => STAMP_LINE.exec(l)![1]), [hash], `${file}: one stamp line with the expected hash`);
    assert.ok(
      other.every((l) => /^\s*annotations:$/.test(l)),
      `${file}: besides the stamp, only an annotations: line may be added; got ${JSON.stringify(other)}`,
    );
  }
}

const API = 'deployment.yaml';
const WORKER = 'worker.yaml';

it('kpt fn eval DIR --exec, three times: the same stamp each time, no comment duplicated, nothing else changed', () => {
  const [apiHash] = cliStamps();
  assert.ok(apiHash, 'rollstamp stamp stamps orders-api in the example');
  const dir = copyPackage();
  let previous: Map<string, string> | undefined;
  for (let i = 1; i <= 3; i++) {
    const r = kpt(['fn', 'eval', dir, '--exec', EXEC]);
    assertOk(r, `kpt fn eval (run ${i})`);
    assertOnlyStamped(dir, { [API]: apiHash! });
    const now = snapshot(dir);
    if (previous) assert.equal(Object.fromEntries(now), Object.fromEntries(previous), `run ${i} changed nothing`);
    previous = now;
  }
});

it('kpt fn eval -- selector=restart-on-config-update=true (ConfigMap functionConfig) also stamps the labelled worker', () => {
  const [apiHash, workerHash] = cliStamps(['--selector', 'restart-on-config-update=true']);
  assert.ok(apiHash && workerHash, 'rollstamp stamp --selector stamps both workloads');
  const dir = copyPackage();
  const r = kpt(['fn', 'eval', dir, '--exec', EXEC, '--', 'selector=restart-on-config-update=true']);
  assertOk(r, 'kpt fn eval -- selector=…');
  assertOnlyStamped(dir, { [API]: apiHash!, [WORKER]: workerHash! });
  assert.ok(/\[info\].*orders-worker/.test(r.stderr), `kpt prints the function's results:\n${r.stderr}`);
});

it('kpt fn eval --fn-config with a RollstampConfig file', () => {
  const [apiHash, workerHash] = cliStamps(['--config', join(EXAMPLE_KPT, 'rollstamp-config.yaml')]);
  const dir = copyPackage();
  const r = kpt(['fn', 'eval', dir, '--exec', EXEC, '--fn-config', join(dir, 'rollstamp-config.yaml')]);
  assertOk(r, 'kpt fn eval --fn-config');
  assertOnlyStamped(dir, { [API]: apiHash!, [WORKER]: workerHash! });
});

it('kpt fn eval - reads stdin and writes a ResourceList (or, with -o unwrap, plain YAML) to stdout', () => {
  const [apiHash] = cliStamps();
  const input = ['deployment.yaml', 'secret.yaml', 'configmap.yaml'].map((f) => readFileSync(join(EXAMPLE_KPT, f), 'utf8')).join('---\n');
  const r = kpt(['fn', 'eval', '-', '--exec', EXEC], { input });
  assertOk(r, 'kpt fn eval -');
  const rl = parseDocument(r.stdout);
  assert.equal(rl.errors, [], 'stdout is YAML');
  assert.is(rl.get('kind'), 'ResourceList');
  const items = rl.get('items');
  assert.ok(isSeq(items), 'items is a list');
  const api = (items.items as YAMLMap[]).find((i) => isMap(i) && i.getIn(['metadata', 'name']) === 'orders-api');
  assert.is(api?.getIn(['spec', 'template', 'metadata', 'annotations', 'rollstamp.dev/hash']), apiHash);
  assert.is(items.items.length, 3, 'all three objects come back');
  assert.equal(Object.fromEntries(commentsOf(r.stdout)), Object.fromEntries(commentsOf(input)), 'every comment once, as in the input');

  const unwrapped = kpt(['fn', 'eval', '-', '--exec', EXEC, '-o', 'unwrap'], { input });
  assertOk(unwrapped, 'kpt fn eval - -o unwrap');
  const docs = parseAllDocuments(unwrapped.stdout);
  assert.equal(
    docs.map((d) => d.get('kind')),
    ['Deployment', 'Secret', 'ConfigMap'],
  );
  assert.equal(stampsIn(unwrapped.stdout), [apiHash]);
});

it('kpt fn render --allow-exec runs the exec: mutator of the Kptfile (run from the repository root)', () => {
  const [apiHash, workerHash] = cliStamps(['--config', join(EXAMPLE_KPT, 'rollstamp-config.yaml')]);
  const dir = copyPackage();
  const r = kpt(['fn', 'render', dir, '--allow-exec'], { cwd: ROOT });
  assertOk(r, 'kpt fn render --allow-exec');
  assertOnlyStamped(dir, { [API]: apiHash!, [WORKER]: workerHash! });
  const first = snapshot(dir);
  assertOk(kpt(['fn', 'render', dir, '--allow-exec'], { cwd: ROOT }), 'second kpt fn render');
  assert.equal(Object.fromEntries(snapshot(dir)), Object.fromEntries(first), 'rendering again changes nothing');
});

/** Runs kpt over `dir`, expecting it to fail and leave every file as it was. */
function assertFailsWithoutWriting(dir: string, args: string[], expect: RegExp): string {
  const before = snapshot(dir);
  const r = kpt(['fn', 'eval', dir, '--exec', EXEC, ...args]);
  assert.is.not(r.code, 0, `kpt must fail\n${r.stderr}`);
  assert.equal(Object.fromEntries(snapshot(dir)), Object.fromEntries(before), 'no file changed');
  assert.match(r.stderr, expect);
  return r.stderr;
}

it('a referenced Secret with invalid base64 data: kpt fails, writes nothing, and the value is not printed', () => {
  const dir = copyPackage();
  const secret = join(dir, 'secret.yaml');
  writeFileSync(secret, readFileSync(secret, 'utf8').replace(/password: \S+/, 'password: "n0t*base64!"'));
  const stderr = assertFailsWithoutWriting(dir, [], /rollstamp: .*orders-db.*base64/);
  assert.not.ok(stderr.includes('n0t*base64!'), 'the invalid value is not echoed');
});

it('-- onMissing=error with the Secret missing: kpt fails and writes nothing', () => {
  const dir = copyPackage();
  rmSync(join(dir, 'secret.yaml'));
  assertFailsWithoutWriting(dir, ['--', 'onMissing=error'], /rollstamp: .*Secret default\/orders-db/);
});

it('-- onMising=warn (a typo): kpt fails, writes nothing, and the line names the setting meant (#38)', () => {
  const dir = copyPackage();
  assertFailsWithoutWriting(dir, ['--', 'onMising=warn'], /rollstamp: error: functionConfig: data\.onMising: unknown setting; did you mean onMissing\?/);
});

it('a warning next to the stamp (ConfigMap missing, onMissing=warn) does not break kpt: the stamp is written', () => {
  const dir = copyPackage();
  rmSync(join(dir, 'configmap.yaml'));
  const r = kpt(['fn', 'eval', dir, '--exec', EXEC]);
  assertOk(r, 'kpt fn eval with a warning result');
  assert.match(r.stderr, /\[warning\].*orders-settings/);
  assert.is(stampsIn(readFileSync(join(dir, API), 'utf8')).length, 1, 'orders-api is stamped');
});

it('a comment right after `- ` of a container: rollstamp leaves it as kpt itself does with --exec cat', () => {
  // kpt beta.56 itself doubles such a comment on this level even when the function is `cat`, so the
  // reference is what `cat` produces, not the original file.
  const withComment = (dir: string): void => {
    const file = join(dir, API);
    writeFileSync(file, readFileSync(file, 'utf8').replace('        - name: api\n', '        - # the API container\n          name: api\n'));
  };
  const viaCat = copyPackage();
  const viaRollstamp = copyPackage();
  withComment(viaCat);
  withComment(viaRollstamp);
  for (let i = 1; i <= 2; i++) {
    assertOk(kpt(['fn', 'eval', viaCat, '--exec', 'cat']), `kpt --exec cat (run ${i})`);
    assertOk(kpt(['fn', 'eval', viaRollstamp, '--exec', EXEC]), `kpt --exec rollstamp (run ${i})`);
  }
  const cat = readFileSync(join(viaCat, API), 'utf8');
  const stamped = readFileSync(join(viaRollstamp, API), 'utf8');
  assert.equal(Object.fromEntries(commentsOf(stamped)), Object.fromEntries(commentsOf(cat)), 'same comments as with cat');
  assert.ok(insertedLines(cat, stamped), `only the stamp lines differ from the cat result\n--- cat:\n${cat}\n--- rollstamp:\n${stamped}`);
});

test.run();
