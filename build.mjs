// Bundles the CLI into dist/ (what the package and the image ship): dist/rollstamp.js, the entry, and the chunks
// it loads, all running with plain `node` and no node_modules.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deferBuiltins } from './build/defer-builtins.mjs';

// The build needs the devDependencies. On a clone without `npm install` (`npm pack`, whose prepack builds, is
// the usual way in) say so in one line instead of an import stack trace.
const requireHere = createRequire(import.meta.url);
const missing = ['esbuild', 'yaml', 'ajv'].filter((name) => {
  try {
    requireHere.resolve(`${name}/package.json`);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  process.stderr.write(`rollstamp build: ${missing.join(', ')} not installed: run \`npm ci\` (or \`npm install\`) first, then \`npm run build\` or \`npm pack\`\n`);
  process.exit(1);
}
const { build } = await import('esbuild');
const { slimClientNode } = await import('./plugin/live/client-node-stubs.mjs');
const { standaloneSchemaValidator } = await import('./build/schema-validator.mjs');

/** `git ARGS` in this directory, or '' (no git, not a checkout). */
function git(...args) {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}
// What `rollstamp version -o json` reports (plugin/commands/version.ts): the commit built, and its date (or
// SOURCE_DATE_EPOCH), so two builds of one commit are the same bytes.
const epoch = process.env.SOURCE_DATE_EPOCH;
const commitDate = epoch ? new Date(Number(epoch) * 1000) : git('log', '-1', '--format=%cI') ? new Date(git('log', '-1', '--format=%cI')) : undefined;
const buildInfo = {
  commit: process.env.ROLLSTAMP_COMMIT || git('rev-parse', 'HEAD') || 'unknown',
  buildDate: commitDate && !Number.isNaN(commitDate.getTime()) ? commitDate.toISOString() : 'unknown',
};

// yaml's package sends the `node` condition to its CommonJS build; its ESM build (`browser/`, same code) bundles
// without CommonJS wrappers and their start-up cost.
const yamlDir = dirname(requireHere.resolve('yaml/package.json'));
const yamlEsm = {
  name: 'yaml-esm',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(yamlDir, 'browser/index.js') }));
    b.onResolve({ filter: /^yaml\/util$/ }, () => ({ path: join(yamlDir, 'browser/dist/util.js') }));
  },
};

// Node built-ins that only some commands use. esbuild hoists every `import` of a built-in to the top of the one
// output file, so all of them would load at start-up, `--version` included. Each is imported instead through a
// small bundled module that require()s it; a command module (a lazy dynamic import) initializes it when it runs.
const LAZY_BUILTINS = ['crypto', 'http', 'https', 'tls', 'net', 'child_process'];
// Of those, the ones a module on every run's path imports but only some runs call, each loaded on the first call of
// one of its functions (build/defer-builtins.mjs, ahead of lazyBuiltins in both builds' plugins): child_process
// (plugin/process/exec.ts, which the main-thread run imports for its process groups) on the first spawn, not with
// its chunk (#37: about 14 M instructions, 3 % of a 3-object render, for a run that starts no renderer); crypto (the
// core's hashing) on the first digest, so a run with nothing to hash (no target, a usage error found by the
// command) does not load it (#37: about 30 M instructions).
const DEFERRED_BUILTINS = ['child_process', 'crypto'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      // The module's own require() is the real built-in.
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const real = await import(`node:${args.path}`);
      // Plain properties only: a getter (crypto.webcrypto, http.globalAgent) stays on the default export, read when used.
      const plain = Object.entries(Object.getOwnPropertyDescriptors(real.default)).filter(([name, d]) => !('get' in d) && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      const contents = `const m = require('node:${args.path}');\nexport default m;\nexport const { ${plain.map(([name]) => name).join(', ')} } = m;\n`;
      return { contents, loader: 'js', resolveDir: process.cwd() };
    });
  },
};

// What the CLI reads of package.json is its version (launch.ts, cli/run-cli.ts, commands/version.ts): their
// `import pkg from '…/package.json'` bundles that one field, not the whole manifest with its scripts and
// dependencies, which every run parsed (#37).
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const packageVersion = {
  name: 'package-version',
  setup(b) {
    b.onResolve({ filter: /(^|\/)package\.json$/ }, (args) => (args.importer.includes('/plugin/') ? { path: 'package.json', namespace: 'package-version' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'package-version' }, () => ({ contents: JSON.stringify({ version }), loader: 'json' }));
  },
};

/** Where the build leaves its metafile (esbuild's record of every output, its inputs and its imports). */
const METAFILE = 'build/metafile.json';

mkdirSync('dist', { recursive: true });
// Minified, every file: node parses and compiles less on every run (a 3-object `stamp` about 7 % fewer
// instructions, the core chunk 541 → 290 KB). Without keepNames, which costs back about 3 %: nothing reads a
// bundled function's or class's name (RollstampError names itself; yaml's and client-node's errors set theirs).
// The source maps go to build/sourcemap/, not dist/: a `--debug` stack of an internal error is mapped back
// from there, and the package and the image ship the same bytes as before, without them.
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', minify: true, sourcemap: 'external', logLevel: 'warning', metafile: true };

// The CLI: dist/main.mjs and the chunks it loads, ES modules named .mjs (so wherever dist/ is copied node parses
// each once, as a module).
const cli = await build({
  ...common,
  entryPoints: { main: 'plugin/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  // Each command (and the live reader, client-node with it) is its own chunk: start-up compiles only the entry and
  // what it imports statically, not all 0.6 MB.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  // Bundled CommonJS dependencies (client-node, ajv's runtime helpers) and the lazy built-ins call require();
  // give them a real one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __rollstampRequire } from 'node:module';\nconst require = __rollstampRequire(import.meta.url);" },
  // Live reads need only client-node's KubeConfig: leave out the API models and auth providers it never reaches.
  // The functionConfig validator is generated here (ajv standalone code), so ajv itself is not bundled.
  plugins: [packageVersion, slimClientNode, yamlEsm, deferBuiltins(DEFERRED_BUILTINS), lazyBuiltins, standaloneSchemaValidator],
  define: { __ROLLSTAMP_BUILD__: JSON.stringify(buildInfo) },
});

// The entry, dist/rollstamp.js (plugin/launch.ts): CommonJS, so `--version` is answered without node's ES module
// loader; every other run imports main.mjs. Its package.json says so wherever dist/ is copied.
const launchMain = {
  name: 'launch-main',
  setup(b) {
    b.onResolve({ filter: /^\.\/main\.ts$/ }, () => ({ path: './main.mjs', external: true }));
  },
};
const launcher = await build({
  ...common,
  entryPoints: { rollstamp: 'plugin/launch.ts' },
  outdir: 'dist',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [packageVersion, launchMain],
});
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
const metafile = { inputs: { ...cli.metafile.inputs, ...launcher.metafile.inputs }, outputs: { ...cli.metafile.outputs, ...launcher.metafile.outputs } };

// The build's import graph, for test/e2e/startup-graph.test.ts (which chunks a run loads) and for anyone asking
// why a chunk is there: kept in this checkout's build/ (ignored by git), not in dist/, which ships, nor in
// node_modules/, which a copy of the checkout may share.
mkdirSync(dirname(METAFILE), { recursive: true });
writeFileSync(METAFILE, JSON.stringify(metafile));

// The source maps leave dist/ (which ships) for build/sourcemap/.
const SOURCEMAPS = 'build/sourcemap';
rmSync(SOURCEMAPS, { recursive: true, force: true });
mkdirSync(SOURCEMAPS, { recursive: true });
for (const f of readdirSync('dist')) if (/\.m?js\.map$/.test(f)) renameSync(`dist/${f}`, `${SOURCEMAPS}/${f}`);

// Chunks of an earlier build (.js ones too, from before the entry was CommonJS) must not ship. They are removed
// after the new files are written (not by emptying dist/ first), so a run of dist/rollstamp.js meanwhile still
// finds every file it loads.
const written = new Set(Object.keys(metafile.outputs).map((f) => f.replace(/^dist\//, '')));
for (const f of readdirSync('dist')) if (/\.m?js$/.test(f) && !written.has(f)) rmSync(`dist/${f}`);

await buildSnapshotScript();

/**
 * #37: build/snapshot/rollstamp.cjs, the script an image's V8 startup snapshot is made from (build-snapshot.mjs,
 * the Dockerfile): the CLI (plugin/snapshot-entry.ts) as one CommonJS file, as node's --build-snapshot takes it. It
 * does not ship in the package; a blob made from it refers to main.mjs in the directory it is built in, for the
 * worker thread, which loads that file as a run without the snapshot does.
 */
async function buildSnapshotScript() {
  await build({
    ...common,
    metafile: false,
    entryPoints: { rollstamp: 'plugin/snapshot-entry.ts' },
    outdir: 'build/snapshot',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // main.mjs beside the blob: main.ts's worker and run-cli.ts's README are found from it.
    define: { __ROLLSTAMP_BUILD__: JSON.stringify(buildInfo), 'import.meta.url': 'globalThis.__rollstampMainUrl' },
    banner: { js: "globalThis.__rollstampMainUrl = require('node:url').pathToFileURL(`${__dirname}/main.mjs`).href;" },
    // Deferred built-ins matter here too: crypto's native bindings are ones a worker of a process started from the
    // blob must be able to set up itself.
    plugins: [packageVersion, slimClientNode, yamlEsm, deferBuiltins(DEFERRED_BUILTINS, { standIns: true }), lazyBuiltins, standaloneSchemaValidator],
  });
  // A stack from the blob names DIR/rollstamp-snapshot.cjs, the name build-snapshot.mjs gives the script while the blob
  // is made: its map sits with the others under that name (`external`: the script itself names no map).
  renameSync('build/snapshot/rollstamp.cjs.map', `${SOURCEMAPS}/rollstamp-snapshot.cjs.map`);
}
