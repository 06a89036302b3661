// The V8 code cache an image ships (#37; plugin/launch.ts, the Dockerfile): the entry uses compile-cache/ beside it
// when that directory is there and node can keep a cache (22.1 and later), and changes nothing otherwise. Whatever
// the directory holds (nothing, another node's entries, junk) or whatever stands in its place, the output is the
// same, nothing is said on stderr and nothing is written outside it.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, removeTempDirs, requireBundle, run, tempDir, type Run } from '../support/tools.ts';

/** Whether this node keeps a compile cache at all (22.1 and later). */
const CAN_CACHE = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

const MANIFESTS = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
data:
  password: cGFzcw==
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  template:
    spec:
      containers:
        - name: web
          image: web
          envFrom:
            - secretRef:
                name: db
`;

test.after(removeTempDirs);

/** A copy of dist/ alone, in a fresh temp directory. */
function copyOfDist(name: string): string {
  requireBundle();
  const dir = tempDir(name);
  cpSync(dirname(BUNDLE), dir, { recursive: true });
  return dir;
}

const stamp = (dir: string): Run => run(process.execPath, [join(dir, 'rollstamp.js'), 'stamp', '-'], { cwd: dir, input: MANIFESTS, env: { PATH: process.env.PATH ?? '' } });

/** Every file and directory under `dir` with its size, except what is under `except`. */
function tree(dir: string, except?: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (except !== undefined && path.startsWith(except)) continue;
      const st = statSync(path);
      out.push(`${relative(dir, path)} ${st.isDirectory() ? 'dir' : st.size}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

const reference = (): Run => stamp(copyOfDist('code-cache-reference'));

test('without compile-cache/ beside the entry, a run writes no cache and prints what it prints (#37)', () => {
  const dir = copyOfDist('code-cache-none');
  const before = tree(dir);
  const r = stamp(dir);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"/);
  assert.is(r.stderr, '');
  assert.equal(tree(dir), before, 'nothing was written beside the bundle');
});

test('with compile-cache/ holding junk and another node version\'s entries, the output is the same and nothing is written outside it (#37)', () => {
  const expected = reference();
  const dir = copyOfDist('code-cache-junk');
  const cache = join(dir, 'compile-cache');
  mkdirSync(join(cache, 'v0.0.0-x64-00000000-0'), { recursive: true });
  writeFileSync(join(cache, 'v0.0.0-x64-00000000-0', '0a1b2c3d'), 'not a code cache');
  writeFileSync(join(cache, 'junk'), 'not a code cache');
  const outside = tree(dir, cache);
  const inside = tree(cache);
  for (const round of ['first', 'second']) {
    const r = stamp(dir);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, expected.stdout, `${round} run: the output is byte-identical`);
    assert.is(r.stderr, '', `${round} run: nothing on stderr`);
    assert.equal(tree(dir, cache), outside, `${round} run: nothing written outside compile-cache/`);
  }
  // Node 22.1 and later keep this user's entries there (what the image's build does); node 20 leaves it alone.
  if (CAN_CACHE) assert.ok(tree(cache).length > inside.length, 'node kept a code cache in compile-cache/');
  else assert.equal(tree(cache), inside, 'a node without a compile cache writes nothing there');
});

test('compile-cache/ that cannot be a cache (a file) changes neither the output nor anything beside the bundle (#37)', () => {
  const expected = reference();
  const dir = copyOfDist('code-cache-file');
  writeFileSync(join(dir, 'compile-cache'), 'not a directory');
  const before = tree(dir);
  const r = stamp(dir);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, expected.stdout);
  assert.is(r.stderr, '');
  assert.equal(tree(dir), before);
  assert.is(readFileSync(join(dir, 'compile-cache'), 'utf8'), 'not a directory');
});

test.run();
