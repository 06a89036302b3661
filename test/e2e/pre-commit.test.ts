// .pre-commit-hooks.yaml (#23) with the real pre-commit: a project repository whose config points at a
// repository holding this hooks file runs `rollstamp-check` over its hydrated manifests (the directory in
// `args`); a stamped tree passes, a rotated Secret without a new stamp fails the commit. rollstamp is the
// built bundle behind a `rollstamp` wrapper on PATH.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding } from './helpers.ts';
import { git } from './util-ci-runner.ts';

const preCommitTest = testNeeding('pre-commit');

test('.pre-commit-hooks.yaml declares rollstamp-check: `rollstamp stamp --check` over the paths in args, not the changed files', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; pass_filenames: boolean }[];
  assert.equal(hooks.map((h) => [h.id, h.entry, h.pass_filenames]), [['rollstamp-check', 'rollstamp stamp --check', false]]);
});

preCommitTest('pre-commit runs rollstamp-check: a stamped tree passes, a rotated Secret with a stale stamp fails the commit', () => {
  requireBundle();
  const hooksRepo = tempDir('hooks-repo');
  git(hooksRepo, 'init', '-q', '-b', 'main');
  copyFileSync(join(ROOT, '.pre-commit-hooks.yaml'), join(hooksRepo, '.pre-commit-hooks.yaml'));
  git(hooksRepo, 'add', '-A');
  git(hooksRepo, 'commit', '-q', '-m', 'hooks');
  const rev = git(hooksRepo, 'rev-parse', 'HEAD');

  const bin = tempDir('hooks-bin');
  writeFileSync(join(bin, 'rollstamp'), `#!/bin/sh\nexec node "${BUNDLE}" "$@"\n`);
  chmodSync(join(bin, 'rollstamp'), 0o755);
  const home = tempDir('hooks-home');
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: home, PRE_COMMIT_HOME: join(home, 'cache') };

  const project = tempDir('hooks-project');
  git(project, 'init', '-q', '-b', 'main');
  mkdirSync(join(project, 'hydrated'));
  const stamped = run('node', [BUNDLE, 'stamp', join(ROOT, 'examples/basic/app.yaml')]);
  assert.is(stamped.code, 0, stamped.stderr);
  writeFileSync(join(project, 'hydrated', 'app.yaml'), stamped.stdout);
  writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hooksRepo}\n    rev: ${rev}\n    hooks:\n      - id: rollstamp-check\n        args: [hydrated]\n`);
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'hydrated');

  const pass = run('pre-commit', ['run', '--all-files'], { cwd: project, env, timeoutMs: 120_000 });
  assert.is(pass.code, 0, `${pass.stdout}\n${pass.stderr}`);
  assert.match(pass.stdout, /rollstamp stamp --check\.+Passed/);

  writeFileSync(join(project, 'hydrated', 'app.yaml'), stamped.stdout.replace('example-password-1', 'example-password-2'));
  git(project, 'add', '-A');
  const fail = run('pre-commit', ['run'], { cwd: project, env, timeoutMs: 120_000 });
  assert.is(fail.code, 1, `${fail.stdout}\n${fail.stderr}`);
  assert.match(fail.stdout, /rollstamp stamp --check\.+Failed\n- hook id: rollstamp-check\n- exit code: 3/);
});

test.after(removeTempDirs);
test.run();
