// The npm package as a user gets it: `npm pack` (whose prepack builds the bundle), then a global install of
// the tarball into a temporary prefix with an empty npm cache and --offline, so any dependency it asked for
// would fail to resolve. The installed `rollstamp` must then run: --version and a stamp of examples/basic.
// Leaves dist/ alone: the pack runs in a copy of the checkout (its files as a clone has them, node_modules
// linked), so its prepack builds the copy's dist/ from the sources, not this checkout's, which other shards run.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyCheckout, removeTempDirs, ROOT, run, stampsIn, tempDir, testNeeding } from '../support/tools.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  scripts: Record<string, string>;
  files: string[];
};
const npmTest = testNeeding('npm');

/** npm with its configuration cut off from the user's and from the `npm test` that runs us. */
function npmEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: home };
  // A global .npmrc or an inherited npm_config_* (set by `npm test`) could point at a registry or cache.
  env.npm_config_userconfig = join(home, '.npmrc');
  env.npm_config_globalconfig = join(home, 'npmrc-global');
  return env;
}

test.after(removeTempDirs);

test('the package declares no runtime dependencies (the bundle carries yaml, the generated schema validator and client-node)', () => {
  assert.equal(pkg.dependencies ?? {}, {});
  assert.ok(pkg.files.includes('LICENSE'), 'LICENSE is shipped');
  assert.match(pkg.scripts.prepack ?? '', /npm run build/);
});

npmTest('npm pack carries the bundle and LICENSE, and the tarball installs offline and runs', () => {
  const dir = tempDir('pack');
  const home = join(dir, 'home');
  const env = npmEnv(home);
  mkdirSync(home);
  writeFileSync(join(home, '.npmrc'), '');

  const checkout = join(dir, 'checkout');
  copyCheckout(checkout);
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  assert.not.ok(existsSync(join(checkout, 'dist')), 'the copy has no dist/ until prepack builds it');

  const packed = run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: checkout, env, timeoutMs: 120_000 });
  assert.is(packed.code, 0, `npm pack failed: ${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = info!.files.map((f) => f.path).sort();
  for (const want of ['LICENSE', 'dist/rollstamp.js', 'package.json', 'README.md']) assert.ok(files.includes(want), `tarball lacks ${want}: ${files.join(', ')}`);
  assert.not.ok(files.some((f) => f.endsWith('.ts')), 'no TypeScript sources in the tarball');

  const prefix = join(dir, 'prefix');
  const cache = join(dir, 'empty-cache');
  const installed = run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--cache', cache, '--offline', '--no-audit', '--no-fund', join(dir, info!.filename)],
    { cwd: dir, env, timeoutMs: 120_000 },
  );
  assert.is(installed.code, 0, `offline global install failed: ${installed.stderr}`);
  const libDir = join(prefix, 'lib', 'node_modules', 'rollstamp');
  assert.ok(existsSync(join(libDir, 'dist', 'rollstamp.js')));
  assert.not.ok(existsSync(join(libDir, 'node_modules')), `runtime packages were installed: ${existsSync(join(libDir, 'node_modules')) ? readdirSync(join(libDir, 'node_modules')).join(', ') : ''}`);

  // Only node on PATH besides the prefix: the binary must not lean on anything from the repository.
  const runEnv = { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home };
  const version = run('rollstamp', ['--version'], { cwd: dir, env: runEnv });
  assert.is(version.code, 0, version.stderr);
  assert.is(version.stdout, `rollstamp ${pkg.version}\n`);
  const help = run('rollstamp', ['--help'], { cwd: dir, env: runEnv });
  assert.ok(help.stdout.includes(`\nDocs: ${join(libDir, 'README.md')} `), `--help names the installed README by its path (#22):\n${help.stdout}`);
  assert.ok(existsSync(join(libDir, 'README.md')));

  const stamped = run('rollstamp', ['stamp', join(ROOT, 'examples', 'basic', 'app.yaml')], { cwd: dir, env: runEnv });
  assert.is(stamped.code, 0, stamped.stderr);
  assert.ok(stampsIn(stamped.stdout).length > 0, 'the installed binary stamps examples/basic');
});

test.run();
