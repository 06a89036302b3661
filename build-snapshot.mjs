// `node build-snapshot.mjs [--fixed-flags] DIR [SCRIPT]`: makes DIR/rollstamp.blob, a V8 startup snapshot of the CLI
// (#37), with the node that runs this script and its flags: a blob runs only on the node binary that made it. DIR is
// an install of dist/ (the image's /app); a process started from the blob runs DIR/rollstamp.js, whose worker thread
// loads DIR/main.mjs, so the blob is made in place and not moved. SCRIPT is what it is made from: by default
// build/snapshot/rollstamp.cjs (`npm run build`); the Dockerfile, whose final stage has no checkout, names its copy.
//
// The blob is checked before it is kept: a process started from it must find the CLI, start a worker thread that
// loads what a run loads, and start under a V8 flag it was not made with (an operator's NODE_OPTIONS=
// --max-old-space-size). Node 20 refuses that last one ("built with different V8 configurations"), so a node 20
// blob is kept only with --fixed-flags: for the tests and the bench, which run it under its own flags, never for
// an image. A failed check removes the blob and exits 1, or NODE_FIXED_FLAGS (4) for that refusal alone (the
// Dockerfile then builds an image that runs the bundle, as one built with node 20 must).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exit status when this node refuses a blob under other V8 flags (node 20): no blob, by design. */
const NODE_FIXED_FLAGS = 4;
const args = process.argv.slice(2);
const fixedFlags = args[0] === '--fixed-flags';
const [dirArg, scriptArg] = fixedFlags ? args.slice(1) : args;
if (!dirArg) {
  process.stderr.write('usage: node build-snapshot.mjs [--fixed-flags] DIR [SCRIPT]  (DIR: a copy of dist/; SCRIPT: default build/snapshot/rollstamp.cjs)\n');
  process.exit(2);
}
const fail = (line, status = 1) => {
  process.stderr.write(`rollstamp build-snapshot: ${line}\n`);
  process.exit(status);
};
const dir = resolve(dirArg);
const script = resolve(scriptArg ?? fileURLToPath(new URL('./build/snapshot/rollstamp.cjs', import.meta.url)));
if (!existsSync(script)) fail(`the snapshot script is not there (run \`npm run build\` first): ${script}`);
if (!existsSync(join(dir, 'main.mjs'))) fail(`DIR must be a copy of dist/, and has no main.mjs: ${dir}`);

// The script sits in DIR while the blob is made: the bundle's README and main.mjs are found beside it then. The
// builder gets no environment but PATH: nothing of the build's environment can end up in the blob.
const inPlace = join(dir, 'rollstamp-snapshot.cjs');
const blob = join(dir, 'rollstamp.blob');
const env = { PATH: process.env.PATH ?? '' };
copyFileSync(script, inPlace);
try {
  rmSync(blob, { force: true });
  execFileSync(process.execPath, [...process.execArgv, '--snapshot-blob', blob, '--build-snapshot', inPlace], { stdio: ['ignore', 'inherit', 'inherit'], env });
} finally {
  rmSync(inPlace, { force: true });
}

// Node 24 aborts a worker thread of a process started from a blob whose heap holds crypto's or a libuv stream's
// bindings (snapshot-entry.ts): the worker here loads those a render's worker loads.
const CHECK = `if (!globalThis[Symbol.for('rollstamp.snapshot')]) process.exit(3);
new (require('node:worker_threads').Worker)("for (const m of ['v8', 'net', 'tty', 'child_process', 'crypto']) require('node:' + m)", { eval: true }).on('exit', (code) => process.exit(code));`;
const starts = (flags) => {
  try {
    execFileSync(process.execPath, [...process.execArgv, ...flags, '--snapshot-blob', blob, '-e', CHECK], { stdio: 'ignore', env });
    return true;
  } catch {
    return false;
  }
};
if (!starts([])) {
  rmSync(blob, { force: true });
  fail('a process started from the blob cannot run the CLI or start its worker thread; no blob written');
}
if (!fixedFlags && !starts(['--max-old-space-size=4096'])) {
  rmSync(blob, { force: true });
  fail(`node ${process.version} refuses the blob under a V8 flag it was not made with (NODE_OPTIONS=--max-old-space-size would stop every run); no blob written`, NODE_FIXED_FLAGS);
}
