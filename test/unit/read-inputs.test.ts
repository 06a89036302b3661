// Directory inputs follow only symlinks that stay inside the directory (or the repository, for generate) at
// every step; everything else is refused by name, and a refused file's bytes appear nowhere.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const CANARY = 'CANARY-6d1f0e9b';
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n';

/** A fresh tree: <base>/outside/secret.yaml (the canary) and <base>/app/cm.yaml. */
function tree(): { base: string; app: string } {
  const base = mkdtempSync(join(tmpdir(), 'rollstamp-links-'));
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.yaml'), `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: ${CANARY}}\n`);
  const app = join(base, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'cm.yaml'), CONFIG_MAP);
  return { base, app };
}

async function stampDir(app: string): Promise<{ code: number; out: string }> {
  const r = await runInProcess(['stamp', '.'], { cwd: app });
  return { code: r.code, out: r.stdout + r.stderr };
}

const refused: Array<[string, (t: { base: string; app: string }) => void, RegExp]> = [
  ['an absolute symlink', (t) => symlinkSync(join(t.base, 'outside', 'secret.yaml'), join(t.app, 'leak.yaml')), /leak\.yaml: symlink points outside/],
  ['a relative symlink that leaves', (t) => symlinkSync('../outside/secret.yaml', join(t.app, 'leak.yaml')), /leak\.yaml: symlink points outside/],
  ['a symlink that leaves and comes back in', (t) => symlinkSync(`../${basename(t.app)}/cm.yaml`, join(t.app, 'again.yaml')), /again\.yaml: symlink points outside/],
  ['a directory symlink that leaves', (t) => symlinkSync('../outside', join(t.app, 'dir')), /dir: symlink points outside/],
  ['a symlink to itself', (t) => symlinkSync('loop.yaml', join(t.app, 'loop.yaml')), /loop\.yaml: symlink loop/],
  ['a directory symlink to its own parent', (t) => symlinkSync('.', join(t.app, 'self')), /self: symlink loop/],
  ['a dangling symlink', (t) => symlinkSync('missing.yaml', join(t.app, 'gone.yaml')), /gone\.yaml: dangling symlink/],
  ['a FIFO named like a manifest', (t) => execFileSync('mkfifo', [join(t.app, 'pipe.yaml')]), /pipe\.yaml: not a regular file/],
];

for (const [name, make, message] of refused) {
  test(`a directory input with ${name} is refused by name, and the canary appears nowhere`, async () => {
    const t = tree();
    make(t);
    const r = await stampDir(t.app);
    assert.is(r.code, 1);
    assert.match(r.out, message);
    assert.not.ok(r.out.includes(CANARY));
  });
}

test('in-bound symlinks (a file and a directory) read like copies', async () => {
  const linked = tree();
  mkdirSync(join(linked.app, 'sub'));
  writeFileSync(join(linked.app, 'sub', 'more.yaml'), CONFIG_MAP.replace('name: a', 'name: b'));
  symlinkSync('cm.yaml', join(linked.app, 'alias.yaml'));
  symlinkSync('sub', join(linked.app, 'subdir'));
  const copied = tree();
  mkdirSync(join(copied.app, 'sub'));
  mkdirSync(join(copied.app, 'subdir'));
  writeFileSync(join(copied.app, 'sub', 'more.yaml'), CONFIG_MAP.replace('name: a', 'name: b'));
  writeFileSync(join(copied.app, 'subdir', 'more.yaml'), CONFIG_MAP.replace('name: a', 'name: b'));
  writeFileSync(join(copied.app, 'alias.yaml'), CONFIG_MAP);
  const a = await stampDir(linked.app);
  const b = await stampDir(copied.app);
  assert.is(a.code, 0, a.out);
  assert.is(a.out, b.out);
});

test.run();
