// .pre-commit-hooks.yaml (#23, #38) with the real pre-commit: a project repository whose config points at a
// repository holding this hooks file runs a hook over its hydrated manifests (the directory in `args`); a
// stamped tree passes, a rotated Secret without a new stamp fails the commit. rollstamp-check runs the bundle
// of the hook repository's rev (a release tag holds dist/) with no rollstamp on PATH; rollstamp-check-system
// runs the built bundle behind a `rollstamp` wrapper on PATH.
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding } from '../support/tools.ts';
import { git } from '../support/ci-runner.ts';

const preCommitTest = testNeeding('pre-commit');

test('.pre-commit-hooks.yaml declares rollstamp-check (the bundle of the rev, nothing installed) and rollstamp-check-system (the rollstamp on PATH), over the paths in args', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; language: string; pass_filenames: boolean }[];
  assert.equal(hooks.map((h) => [h.id, h.entry, h.language, h.pass_filenames]), [
    ['rollstamp-check', 'hooks/rollstamp-check', 'script', false],
    ['rollstamp-check-system', 'rollstamp stamp --check', 'system', false],
  ]);
  assert.is(run('git', ['ls-files', '-s', 'hooks/rollstamp-check']).stdout.slice(0, 6), '100755', 'the script is executable in git');
});

/** A hook repository at one commit: the hooks file and script, and dist/ when it stands for a release tag. */
function hooksRepository(withDist: boolean): { repo: string; rev: string } {
  requireBundle();
  const repo = tempDir('hooks-repo');
  git(repo, 'init', '-q', '-b', 'main');
  copyFileSync(join(ROOT, '.pre-commit-hooks.yaml'), join(repo, '.pre-commit-hooks.yaml'));
  mkdirSync(join(repo, 'hooks'));
  copyFileSync(join(ROOT, 'hooks', 'rollstamp-check'), join(repo, 'hooks', 'rollstamp-check'));
  chmodSync(join(repo, 'hooks', 'rollstamp-check'), 0o755);
  if (withDist) cpSync(dirname(BUNDLE), join(repo, 'dist'), { recursive: true });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'hooks');
  return { repo, rev: git(repo, 'rev-parse', 'HEAD') };
}

/** A project with stamped manifests in hydrated/, committed, whose pre-commit config uses `hook` from `hooks`. */
function project(hooks: { repo: string; rev: string }, hook: string): { dir: string; stamped: string } {
  const dir = tempDir('hooks-project');
  git(dir, 'init', '-q', '-b', 'main');
  mkdirSync(join(dir, 'hydrated'));
  const stamped = run('node', [BUNDLE, 'stamp', join(ROOT, 'examples/basic/app.yaml')]);
  assert.is(stamped.code, 0, stamped.stderr);
  writeFileSync(join(dir, 'hydrated', 'app.yaml'), stamped.stdout);
  writeFileSync(join(dir, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hooks.repo}\n    rev: ${hooks.rev}\n    hooks:\n      - id: ${hook}\n        args: [hydrated]\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'hydrated');
  return { dir, stamped: stamped.stdout };
}

/** pre-commit's environment: its own cache, and PATH as given (node and git are on the machine's). */
function preCommitEnv(path: string): NodeJS.ProcessEnv {
  const home = tempDir('hooks-home');
  return { ...process.env, PATH: path, HOME: home, PRE_COMMIT_HOME: join(home, 'cache') };
}

function assertPassThenFail(dir: string, stamped: string, env: NodeJS.ProcessEnv): void {
  const pass = run('pre-commit', ['run', '--all-files'], { cwd: dir, env, timeoutMs: 120_000 });
  assert.is(pass.code, 0, `${pass.stdout}\n${pass.stderr}`);
  assert.match(pass.stdout, /rollstamp stamp --check\.+Passed/);
  writeFileSync(join(dir, 'hydrated', 'app.yaml'), stamped.replace('example-password-1', 'example-password-2'));
  git(dir, 'add', '-A');
  const fail = run('pre-commit', ['run'], { cwd: dir, env, timeoutMs: 120_000 });
  assert.is(fail.code, 1, `${fail.stdout}\n${fail.stderr}`);
  assert.match(fail.stdout, /rollstamp stamp --check\.+Failed\n- hook id: rollstamp-check(-system)?\n- exit code: 3/);
}

preCommitTest('rollstamp-check from a release tag runs with no rollstamp installed: a stamped tree passes, a rotated Secret with a stale stamp fails the commit (#38)', () => {
  const { dir, stamped } = project(hooksRepository(true), 'rollstamp-check');
  const path = (process.env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'rollstamp'))).join(':');
  assert.is(run('sh', ['-c', 'command -v rollstamp || echo none'], { env: { PATH: path } }).stdout.trim(), 'none', 'no rollstamp on PATH');
  assertPassThenFail(dir, stamped, preCommitEnv(path));
});

preCommitTest('rollstamp-check from a rev without dist/ (a branch) fails with one line that says to use a release tag', () => {
  const { dir } = project(hooksRepository(false), 'rollstamp-check');
  const r = run('pre-commit', ['run', '--all-files'], { cwd: dir, env: preCommitEnv(process.env.PATH ?? ''), timeoutMs: 120_000 });
  assert.is(r.code, 1);
  assert.match(r.stdout, /rollstamp-check: this rev of the hook repository has no dist\/ \(release tags have it, branches do not\): set rev to a release tag/);
});

preCommitTest('rollstamp-check-system runs the rollstamp on PATH: a stamped tree passes, a stale stamp fails', () => {
  const bin = tempDir('hooks-bin');
  writeFileSync(join(bin, 'rollstamp'), `#!/bin/sh\nexec node "${BUNDLE}" "$@"\n`);
  chmodSync(join(bin, 'rollstamp'), 0o755);
  const { dir, stamped } = project(hooksRepository(false), 'rollstamp-check-system');
  assertPassThenFail(dir, stamped, preCommitEnv(`${bin}:${process.env.PATH}`));
});

test.after(removeTempDirs);
test.run();
