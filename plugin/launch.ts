// The bundle's command-line entry, dist/rollstamp.js, built as CommonJS (build.mjs): it answers
// `rollstamp --version` itself and hands every other run to the CLI (main.ts, dist/main.mjs) by dynamic import.
//
// Why a CommonJS file in front of an ES module bundle (#37): node's ES module loader is set up on the first
// ES module a process loads, which a plain `node dist/rollstamp.js --version` paid on every call (about 25 M
// instructions, a third of bare node's start-up again). A CommonJS entry does not set it up, and a run that goes
// on to main.mjs sets it up then, for no more than before. The file uses nothing but `process` and `import()`,
// so it runs the same if a copy of dist/ lands under a package.json of "type": "module".
import pkg from '../package.json' with { type: 'json' };
import { snapshotCli } from './snapshot-cli.ts';

/** The directory, beside this file, of the V8 code cache an image ships (see useShippedCodeCache). */
const CODE_CACHE_DIR = 'compile-cache';

/**
 * Only a version asked for, `--debug` aside: `rollstamp --version` or `-V` reads nothing and loads nothing
 * more (the command table answers `--version` with more arguments, as it answers `rollstamp version`).
 */
function isVersionOnly(argv: readonly string[]): boolean {
  const args = argv.filter((a) => a !== '--debug');
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V');
}

if (isVersionOnly(process.argv.slice(2))) process.stdout.write(`rollstamp ${pkg.version}\n`);
// The CLI's own failures are its to report (main.ts prints one line and sets the exit code); a failure to load it
// at all is a broken install, and node's report of that (the missing file) is what to see.
else if (!startFromSnapshot()) {
  useShippedCodeCache();
  void import('./main.ts');
}

/**
 * #37: a process the image starts from its V8 startup snapshot (`node --snapshot-blob /app/rollstamp.blob
 * /app/rollstamp.js …`, the image's `rollstamp` launcher) finds the CLI already loaded in its heap
 * (snapshot-entry.ts) and runs it from there. Returns false, doing nothing, in every other process.
 */
function startFromSnapshot(): boolean {
  const cli = snapshotCli();
  if (cli === undefined) return false;
  cli.start(__dirname);
  return true;
}

/**
 * #37: node 22.1 and later can keep a V8 code cache of the modules they compile (module.enableCompileCache), which
 * saves a render most of compiling the CLI and the core again. The image ships one, written when it was built
 * (Dockerfile), in compile-cache/ beside this file, owned by root and read-only to the user rollstamp runs as. It is
 * used only when that directory is there: node checks each entry against the module's source and its own version and
 * flags, and compiles afresh where one does not match; what it cannot write to a read-only directory it leaves
 * unwritten, silently. Without the directory (an npm install, a copy of dist/) or on Node 20, nothing changes and
 * nothing is written: a cache node made in a directory another user can write would be code that user runs as
 * rollstamp, which reads Secrets.
 */
function useShippedCodeCache(): void {
  // This file runs as CommonJS (build.mjs), from dist/ or the image's /app: `require` and `__dirname` are its own,
  // and the built-ins are required here, not at the top, so that `--version` does not pay for them.
  const { enableCompileCache } = require('node:module') as { enableCompileCache?: (dir: string) => unknown };
  if (typeof enableCompileCache !== 'function') return;
  const { existsSync } = require('node:fs') as typeof import('node:fs');
  const dir = `${__dirname}/${CODE_CACHE_DIR}`;
  if (existsSync(dir)) enableCompileCache(dir);
}
