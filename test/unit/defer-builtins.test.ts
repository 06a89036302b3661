// build/defer-builtins.mjs: a deferred built-in loads on the first call of one of its functions, and what its
// functions give is what the built-in's give — also a class made with `new`, whose objects keep the built-in's
// prototype (the wrapper's would have none of its methods). With stand-ins (the startup snapshot's build), one on
// globalThis answers only while it is there.
// Leaves dist/ alone: it bundles small entries into temp directories with esbuild's API, never with build.mjs.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deferBuiltins, STAND_IN_KEY } from '../../build/defer-builtins.mjs';
import { tempDir, removeTempDirs } from '../support/temp-dirs.ts';

/** The bundle's require(), as the CLI's bundle gets it (its banner). */
const REQUIRE = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);";

/** Bundles `source` with child_process and crypto deferred (`standIns` as the snapshot's build), runs it, and gives its stdout's lines. */
async function runDeferred(source: string, standIns = false): Promise<string[]> {
  const dir = tempDir('defer-builtins');
  writeFileSync(join(dir, 'entry.mjs'), source);
  await build({ entryPoints: [join(dir, 'entry.mjs')], bundle: true, platform: 'node', format: 'esm', outfile: join(dir, 'out.mjs'), plugins: [deferBuiltins(['child_process', 'crypto'], { standIns })], logLevel: 'silent', banner: { js: REQUIRE } });
  const r = spawnSync(process.execPath, [join(dir, 'out.mjs')], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

test.after(removeTempDirs);

test('a deferred built-in loads on its first call, not when the bundle starts', async () => {
  const lines = await runDeferred(`import { createHash } from 'node:crypto';
const loaded = () => process.moduleLoadList.some((m) => m === 'NativeModule crypto');
console.log(loaded());
console.log(createHash('sha256').update('abc').digest('hex'));
console.log(loaded());
`);
  assert.equal(lines, ['false', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'true']);
});

test('new on a deferred class makes an object of the built-in class, with its methods', async () => {
  const lines = await runDeferred(`import { ChildProcess } from 'node:child_process';
import * as real from 'node:child_process';
const child = new ChildProcess();
console.log(typeof child.kill, typeof child.on, Object.getPrototypeOf(child) === real.default.ChildProcess.prototype);
`);
  assert.equal(lines, ['function function true']);
});

test('with stand-ins, one on globalThis answers while it is there and is not kept; then the built-in loads', async () => {
  const lines = await runDeferred(`import { createHash } from 'node:crypto';
const key = Symbol.for(${JSON.stringify(STAND_IN_KEY)});
const loaded = () => process.moduleLoadList.some((m) => m === 'NativeModule crypto');
globalThis[key] = { crypto: { createHash: () => ({ update() { return this; }, digest: () => 'stand-in' }) } };
console.log(createHash('sha256').update('abc').digest('hex'), loaded());
delete globalThis[key];
console.log(createHash('sha256').update('abc').digest('hex'), loaded());
`, true);
  assert.equal(lines, ['stand-in false', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad true']);
});

test('without stand-ins (the CLI\'s build), one on globalThis is never asked', async () => {
  const lines = await runDeferred(`import { createHash } from 'node:crypto';
globalThis[Symbol.for(${JSON.stringify(STAND_IN_KEY)})] = { crypto: { createHash: () => ({ update() { return this; }, digest: () => 'stand-in' }) } };
console.log(createHash('sha256').update('abc').digest('hex'));
`);
  assert.equal(lines, ['ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad']);
});

test.run();
