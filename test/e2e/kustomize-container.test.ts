// The real `kubectl kustomize --enable-alpha-plugins` (tested with v1.32.4, kustomize v5.5.0) running
// rollstamp as a containerized KRM function over a copy of examples/kustomize. There is no Docker engine in
// the test: a stand-in `docker` script, first on PATH, checks the arguments kustomize passes to
// `docker run` and runs `node dist/rollstamp.js` in place of the image, with stdin, stdout and stderr
// passed through and, as in a container, only the environment named by `-e`.
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { BUNDLE, pipe, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding, type Run } from '../support/tools.ts';

const it = testNeeding('kubectl');

const EXAMPLE = join(ROOT, 'examples', 'kustomize');
/** The placeholder image named in examples/kustomize/rollstamp.yaml. */
const IMAGE = 'registry.example.invalid/rollstamp:0.1.0';
const HASH = /^sha256:[0-9a-f]{64}$/;

test.before.each(requireBundle);
test.after(removeTempDirs);

// Kept out of the way so that a developer's own key cannot change the host-side (pipe form) stamps.
const HOST_ENV: NodeJS.ProcessEnv = { ...process.env };
delete HOST_ENV.ROLLSTAMP_HASH_KEY;

/**
 * The stand-in: records its argv (one JSON line per call), refuses arguments a real kustomize would not
 * pass (exit 125, as docker does for a bad `run`), then runs the bundle like the image would: stdio
 * inherited, cwd `/`, and an environment made only of the `-e NAME=VALUE` / `-e NAME` flags.
 */
function dockerStandIn(log: string): string {
  return `#!${process.execPath}
'use strict';
const { spawnSync } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const argv = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(argv) + '\\n');
const problems = [];
const valueOf = (flag) => {
  const i = argv.indexOf(flag);
  if (i >= 0) return argv[i + 1];
  const joined = argv.find((a) => a.startsWith(flag + '='));
  return joined === undefined ? undefined : joined.slice(flag.length + 1);
};
if (argv[0] !== 'run') problems.push('the first argument is not "run"');
if (!argv.includes('-i') && !argv.includes('--interactive')) problems.push('no -i (stdin would not reach the function)');
if (valueOf('--network') !== 'none') problems.push('--network is not "none"');
const user = valueOf('--user');
if (user === undefined || user === '' || /^(0|root)(:|$)/.test(user)) problems.push('not asked to run as a non-root user (--user ' + user + ')');
if (argv[argv.length - 1] !== ${JSON.stringify(IMAGE)}) problems.push('the last argument is not the image ${IMAGE}');
if (problems.length > 0) {
  process.stderr.write('docker (test stand-in): ' + problems.join('; ') + '\\n');
  process.exit(125);
}
const env = {};
for (let i = 1; i < argv.length - 1; i++) {
  if (argv[i] !== '-e' && argv[i] !== '--env') continue;
  const spec = argv[++i];
  const eq = spec.indexOf('=');
  if (eq >= 0) env[spec.slice(0, eq)] = spec.slice(eq + 1);
  else if (process.env[spec] !== undefined) env[spec] = process.env[spec];
}
const r = spawnSync(process.execPath, [${JSON.stringify(BUNDLE)}], { stdio: 'inherit', cwd: '/', env });
if (r.error) {
  process.stderr.write('docker (test stand-in): ' + r.error.message + '\\n');
  process.exit(125);
}
process.exit(r.status === null ? 128 : r.status);
`;
}

interface Setup {
  /** The copy of examples/kustomize. */
  dir: string;
  /** Every `docker` call so far, as its argv. */
  calls(): string[][];
  kustomize(args: string[], extraEnv?: NodeJS.ProcessEnv): Run;
}

/** A private copy of the example and a bin/ directory with the stand-in, put first on PATH. */
function setup(): Setup {
  const root = tempDir('kustomize-container');
  const dir = join(root, 'example');
  cpSync(EXAMPLE, dir, { recursive: true });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const log = join(root, 'docker-calls.jsonl');
  writeFileSync(log, '');
  writeFileSync(join(bin, 'docker'), dockerStandIn(log));
  chmodSync(join(bin, 'docker'), 0o755);
  return {
    dir,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[]),
    kustomize: (args, extraEnv = {}) =>
      run('kubectl', ['kustomize', ...args], {
        env: { ...HOST_ENV, ...extraEnv, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
        timeoutMs: 15_000,
      }),
  };
}

/** Replaces text in a file of the copy; the replacement must change the file. */
function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  assert.is.not(next, text, `${file}: the edit must change something`);
  writeFileSync(file, next);
}

function assertOk(r: Run, what: string): void {
  assert.is(r.code, 0, `${what} exited ${r.code}\n--- stderr:\n${r.stderr}\n--- stdout:\n${r.stdout}`);
}

/** The documents of a YAML stream as plain data (quoting and key order do not matter). */
function docsOf(text: string): Record<string, unknown>[] {
  const docs = parseAllDocuments(text);
  for (const d of docs) assert.equal(d.errors, [], 'the output is YAML');
  return docs.map((d) => d.toJS() as Record<string, unknown>);
}

/** `Deployment name → stamp` (undefined when not stamped), from any YAML form of the output. */
function stampsByName(text: string, key = 'rollstamp.dev/hash'): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const d of docsOf(text)) {
    if (d.kind !== 'Deployment') continue;
    const name = (d.metadata as { name: string }).name;
    const spec = d.spec as { template?: { metadata?: { annotations?: Record<string, string> } } };
    out[name] = spec.template?.metadata?.annotations?.[key];
  }
  return out;
}

/** The README's plain pipe: `kubectl kustomize DIR/app | rollstamp stamp --config DIR/rollstamp.yaml -`. */
async function pipeForm(dir: string, env: NodeJS.ProcessEnv = HOST_ENV): Promise<string> {
  const { first, second } = await pipe(
    { cmd: 'kubectl', args: ['kustomize', join(dir, 'app')] },
    { cmd: process.execPath, args: [BUNDLE, 'stamp', '--config', join(dir, 'rollstamp.yaml'), '-'] },
    { env },
  );
  assert.is(first.code, 0, `kubectl kustomize app failed: ${first.stderr}`);
  assert.is(second.code, 0, `rollstamp stamp - failed: ${second.stderr}`);
  return second.stdout;
}

it('container form: docker is asked for `run -i --network none --user <non-root> IMAGE`; the stamps equal the pipe form', async () => {
  const s = setup();
  const r = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(r, 'kubectl kustomize --enable-alpha-plugins');
  assert.is(r.stderr, '', 'a successful run prints nothing on stderr');

  const calls = s.calls();
  assert.is(calls.length, 1, `kustomize runs the function once per build; calls: ${JSON.stringify(calls)}`);
  const argv = calls[0]!;
  const at = (flag: string): string | undefined => argv[argv.indexOf(flag) + 1];
  assert.is(argv[0], 'run');
  assert.ok(argv.includes('-i'), `stdin attached: ${JSON.stringify(argv)}`);
  assert.ok(argv.includes('--rm'), 'the container is removed afterwards');
  assert.is(at('--network'), 'none', 'no network');
  assert.is(at('--user'), 'nobody', 'kustomize runs functions as nobody unless --as-current-user');
  assert.is(argv[argv.length - 1], IMAGE, 'the image from rollstamp.yaml, with no command after it');

  const stamps = stampsByName(r.stdout);
  assert.match(String(stamps['shop-web']), HASH);
  assert.match(String(stamps['shop-mailer']), HASH);
  const piped = await pipeForm(s.dir);
  assert.equal(stamps, stampsByName(piped), 'the same stamps as `kubectl kustomize app | rollstamp stamp -`');
  assert.equal(docsOf(r.stdout), docsOf(piped), 'and the same objects otherwise (only quoting may differ)');
  assert.not.ok(r.stdout.includes('config.kubernetes.io/'), 'no orchestrator annotation leaks into the output');
});

it('kubectl kustomize twice: byte-identical output', () => {
  const s = setup();
  const first = s.kustomize(['--enable-alpha-plugins', s.dir]);
  const second = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(first, 'first kubectl kustomize');
  assertOk(second, 'second kubectl kustomize');
  assert.is(second.stdout, first.stdout);
  assert.is(s.calls().length, 2);
});

it('the RollstampConfig reaches rollstamp: its selector stamps shop-mailer; without it, only shop-web is stamped, with the same hash', () => {
  const s = setup();
  const withSelector = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(withSelector, 'kubectl kustomize with the selector');
  const both = stampsByName(withSelector.stdout);
  assert.ok(both['shop-mailer'], 'shop-mailer (label restart-on-config-update=true, not opted in) is stamped');

  edit(join(s.dir, 'rollstamp.yaml'), /^ {2}selector: .*\n/m, '');
  const without = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(without, 'kubectl kustomize without the selector');
  assert.equal(stampsByName(without.stdout), { 'shop-mailer': undefined, 'shop-web': both['shop-web'] });

  edit(join(s.dir, 'rollstamp.yaml'), 'onMissing: error', 'onMissing: error\n  annotationKey: example.com/config-hash');
  const renamed = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(renamed, 'kubectl kustomize with annotationKey');
  assert.equal(stampsByName(renamed.stdout, 'example.com/config-hash'), { 'shop-mailer': undefined, 'shop-web': both['shop-web'] });
  assert.not.ok(renamed.stdout.includes('rollstamp.dev/hash'), 'the default key is not written');
});

it('a used Secret with invalid base64: kubectl kustomize exits non-zero, prints rollstamp\'s one line, and nothing on stdout', () => {
  const s = setup();
  edit(join(s.dir, 'app', 'secret.yaml'), /password: \S+/, 'password: "n0t*base64!"');
  const r = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assert.is.not(r.code, 0, `kubectl kustomize must fail\n${r.stderr}`);
  assert.is(r.stdout, '', 'nothing on stdout');
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('rollstamp:'));
  assert.equal(lines, ['rollstamp: error: v1/Secret/shop-db data.password: value is not valid base64'], `stderr:\n${r.stderr}`);
  assert.match(r.stderr, /couldn't execute function: exit status 1/);
  assert.not.ok(r.stderr.includes('n0t*base64!'), 'the invalid value is not echoed');
  assert.is(s.calls().length, 1, 'the function did run');
});

it('envs: [ROLLSTAMP_HASH_KEY] in the function annotation passes the key into the container: HMAC stamps, as the pipe form with the key', async () => {
  const s = setup();
  edit(join(s.dir, 'rollstamp.yaml'), `image: ${IMAGE}\n`, `image: ${IMAGE}\n        envs:\n          - ROLLSTAMP_HASH_KEY\n`);
  const key = { ROLLSTAMP_HASH_KEY: 'kustomize-test-key' };
  const r = s.kustomize(['--enable-alpha-plugins', s.dir], key);
  assertOk(r, 'kubectl kustomize with envs');
  const argv = s.calls()[0]!;
  assert.is(argv[argv.indexOf('ROLLSTAMP_HASH_KEY') - 1], '-e', `docker gets -e ROLLSTAMP_HASH_KEY (value from the environment): ${JSON.stringify(argv)}`);
  assert.not.ok(argv.some((a) => a.includes('kustomize-test-key')), 'the key is not on the docker command line');
  const stamps = stampsByName(r.stdout);
  assert.match(String(stamps['shop-web']), /^hmac-sha256:[0-9a-f]{64}$/);
  assert.equal(stamps, stampsByName(await pipeForm(s.dir, { ...HOST_ENV, ...key })));
});

it('a generated Secret: kustomize runs the function before it adds the name suffix, so the stamp differs from the pipe form yet follows the content', async () => {
  const s = setup();
  const withToken = (token: string): void => {
    writeFileSync(
      join(s.dir, 'app', 'kustomization.yaml'),
      `${readFileSync(join(EXAMPLE, 'app', 'kustomization.yaml'), 'utf8')}secretGenerator:\n  - name: api-token\n    literals: [token=${token}]\n`,
    );
  };
  edit(
    join(s.dir, 'app', 'deployment.yaml'),
    '          envFrom:\n',
    '            - name: API_TOKEN\n              valueFrom:\n                secretKeyRef: {name: api-token, key: token}\n          envFrom:\n',
  );
  withToken('first');
  const first = s.kustomize(['--enable-alpha-plugins', s.dir]);
  assertOk(first, 'kubectl kustomize with a secretGenerator');
  assert.match(first.stdout, /name: api-token-[a-z0-9]{10}\n/, 'the output has the suffixed name');
  const piped = stampsByName(await pipeForm(s.dir));
  const stamps = stampsByName(first.stdout);
  assert.is(stamps['shop-mailer'], piped['shop-mailer'], 'a workload without generated sources: same stamp in both forms');
  assert.is.not(stamps['shop-web'], piped['shop-web'], 'the function hashed Secret default/api-token, the pipe default/api-token-<suffix>');
  assert.is(stampsByName(s.kustomize(['--enable-alpha-plugins', s.dir]).stdout)['shop-web'], stamps['shop-web'], 'stable');
  withToken('second');
  const rotated = stampsByName(s.kustomize(['--enable-alpha-plugins', s.dir]).stdout);
  assert.is.not(rotated['shop-web'], stamps['shop-web'], 'a new literal changes the stamp');
  assert.is(rotated['shop-mailer'], stamps['shop-mailer']);
});

it('exec form (exec/): kubectl kustomize skips it silently (exit 0, nothing stamped, nothing run) and has no --enable-exec', () => {
  const s = setup();
  const execDir = join(s.dir, 'exec');
  const r = s.kustomize(['--enable-alpha-plugins', execDir]);
  assertOk(r, 'kubectl kustomize --enable-alpha-plugins exec/');
  assert.equal(stampsByName(r.stdout), { 'shop-mailer': undefined, 'shop-web': undefined }, 'no stamp: the function did not run');
  assert.equal(docsOf(r.stdout), docsOf(s.kustomize([join(s.dir, 'app')]).stdout), 'the output is the plain app');
  assert.is(s.calls().length, 0, 'docker was not called');
  const flag = s.kustomize(['--enable-alpha-plugins', '--enable-exec', execDir]);
  assert.is.not(flag.code, 0, 'kubectl kustomize does not know --enable-exec');
  assert.match(flag.stderr, /unknown flag: --enable-exec/);
});

it('without --enable-alpha-plugins kubectl kustomize refuses the transformer; the app alone renders', () => {
  const s = setup();
  const r = s.kustomize([s.dir]);
  assert.is.not(r.code, 0);
  assert.match(r.stderr, /external plugins disabled/);
  assertOk(s.kustomize([join(s.dir, 'app')]), 'kubectl kustomize app');
  assert.is(s.calls().length, 0);
});

test.run();
