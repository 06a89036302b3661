// The bundle's command-line entry, dist/rollstamp.js, built as CommonJS (build.mjs): it answers
// `rollstamp --version` itself and hands every other run to the CLI (main.ts, dist/main.mjs) by dynamic import.
//
// Why a CommonJS file in front of an ES module bundle (#37): node's ES module loader is set up on the first
// ES module a process loads, which a plain `node dist/rollstamp.js --version` paid on every call (about 25 M
// instructions, a third of bare node's start-up again). A CommonJS entry does not set it up, and a run that goes
// on to main.mjs sets it up then, for no more than before. The file uses nothing but `process` and `import()`,
// so it runs the same if a copy of dist/ lands under a package.json of "type": "module".
import pkg from '../package.json' with { type: 'json' };

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
else void import('./main.ts');
