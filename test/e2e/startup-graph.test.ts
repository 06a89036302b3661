// What a run loads (#37): the bundle's import graph, read from the build's metafile (build.mjs writes it to
// build/metafile.json), not from timing. A module that only some runs need is a chunk loaded by dynamic import:
// `--version` loads no command and none of the core; `stamp` of a plain input loads neither the run's worker
// nor the live reader and its Kubernetes client, nor the code of diff, explain, generate or refresh.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run } from '../support/tools.ts';
import { tempDir } from '../support/temp-dirs.ts';

const METAFILE = join(ROOT, 'build/metafile.json');

interface Output {
  imports: { path: string; kind: string; external?: boolean }[];
  entryPoint?: string;
  inputs: Record<string, { bytesInOutput: number }>;
}

function outputs(): Record<string, Output> {
  requireBundle();
  assert.ok(existsSync(METAFILE), `${METAFILE} is written with the bundle`);
  return (JSON.parse(readFileSync(METAFILE, 'utf8')) as { outputs: Record<string, Output> }).outputs;
}

/** The chunks `from` loads before any of its code runs: itself and its static imports, transitively. */
function staticClosure(all: Record<string, Output>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of all[file]!.imports) if (!i.external && i.kind === 'import-statement') todo.push(i.path);
  }
  return seen;
}

/** The chunk whose entry point (a module loaded by dynamic import) is `source`. */
function chunkOf(all: Record<string, Output>, source: string): string {
  const found = Object.keys(all).find((f) => all[f]!.entryPoint === source);
  assert.ok(found, `${source} is a chunk of its own`);
  return found!;
}

/** The source files bundled into `chunks`. */
const sourcesOf = (all: Record<string, Output>, chunks: Iterable<string>): string[] => [...chunks].flatMap((c) => Object.keys(all[c]!.inputs));

/** Every source file in the bundle that matches `pattern`: the modules a graph must not hold are really bundled. */
function bundled(all: Record<string, Output>, pattern: RegExp): string[] {
  const found = sourcesOf(all, Object.keys(all).filter((f) => /\.m?js$/.test(f))).filter((s) => pattern.test(s));
  assert.ok(found.length > 0, `the bundle holds ${pattern}`);
  return found;
}

const NOT_FOR_STAMP = [
  /^node_modules\/@kubernetes\/client-node\//,
  // live-sources.ts decides which sources a run reads live, and loads the reader (client-node with it) only then.
  /^plugin\/live\/(?!live-sources\.ts$)/,
  /^plugin\/run-worker\.ts$/,
  /^plugin\/output\/(diff-format|diff-formats|kagent1x-format|kagent1x-explain|explain-document|explain-formats|explain-text)\.ts$/,
  /^plugin\/commands\/(diff|explain|generate|refresh\/.*)\.ts$/,
  /^plugin\/argocd\//,
];

test('--version loads neither the CLI nor the command table nor a command nor the core nor the yaml library (#37)', () => {
  const all = outputs();
  const entry = 'dist/rollstamp.js';
  const loaded = sourcesOf(all, staticClosure(all, entry));
  for (const pattern of [/^plugin\/main\.ts$/, /^node_modules\/yaml\//, /^function\//, /^plugin\/commands\//, /^plugin\/run-(in-process|worker)\.ts$/, /^plugin\/cli\//]) {
    bundled(all, pattern);
    assert.equal(loaded.filter((s) => pattern.test(s)), [], `--version loads ${pattern}`);
  }
  // The entry is CommonJS (no ES module loader for --version); every other run imports the CLI's ES module. Beside
  // it, only built-ins node has loaded before any script runs, required where a run looks for the code cache an
  // image ships, never at the top.
  assert.equal(all[entry]!.imports.filter((i) => !i.path.startsWith('node:')), [{ path: './main.mjs', kind: 'dynamic-import', external: true }]);
  assert.equal(all[entry]!.imports.filter((i) => i.path.startsWith('node:')).map((i) => `${i.path} ${i.kind}`).sort(), ['node:fs require-call', 'node:module require-call']);
  assert.ok(all['dist/main.mjs']?.entryPoint === 'plugin/main.ts', 'dist/main.mjs is the CLI');
});

test('--help and a usage error load the CLI and the command table but neither the core nor the yaml library nor the settings table (#37)', () => {
  const all = outputs();
  const loaded = sourcesOf(all, new Set([...staticClosure(all, 'dist/main.mjs'), ...staticClosure(all, chunkOf(all, 'plugin/cli/run-cli.ts'))]));
  assert.ok(loaded.includes('plugin/commands/index.ts'), 'the graph was read');
  for (const pattern of [/^function\//, /^node_modules\/yaml\//, /^plugin\/settings\/settings-table\.ts$/, /^standalone-validator:/, /^plugin\/commands\/(?!index\.ts$)/]) {
    bundled(all, pattern);
    assert.equal(loaded.filter((s) => pattern.test(s)), [], `--help loads ${pattern}`);
  }
});

test('the bundle carries the version of package.json, not the manifest (#37: every run parsed its scripts and dependencies)', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; description: string };
  const files = Object.keys(outputs()).filter((f) => /\.m?js$/.test(f));
  const texts = files.map((f) => readFileSync(join(ROOT, f), 'utf8'));
  assert.ok(texts.some((t) => t.includes(JSON.stringify(pkg.version))), 'the version is in the bundle');
  for (const [i, text] of texts.entries()) {
    for (const part of [pkg.description, 'devDependencies']) assert.not.ok(text.includes(part), `${files[i]} holds ${part}`);
  }
});

test('stamp of a plain input runs without the worker, the live reader and its Kubernetes client, and the code of other commands (#37)', () => {
  const all = outputs();
  // Every stamp loads the entry, the CLI, the main-thread run and the stamp command; the live reader and the
  // worker are dynamic imports made only by a run that reads the cluster, or whose input is over the size gate.
  const graph = new Set([
    ...staticClosure(all, 'dist/rollstamp.js'),
    ...staticClosure(all, 'dist/main.mjs'),
    ...staticClosure(all, chunkOf(all, 'plugin/run-in-process.ts')),
    ...staticClosure(all, chunkOf(all, 'plugin/commands/stamp.ts')),
  ]);
  const loaded = sourcesOf(all, graph);
  assert.ok(loaded.includes('plugin/commands/stamp.ts') && loaded.includes('plugin/run-in-process.ts'), 'the graph was read');
  for (const pattern of NOT_FOR_STAMP) {
    bundled(all, pattern);
    assert.equal(loaded.filter((s) => pattern.test(s)), [], `stamp loads ${pattern}`);
  }
});

test('the live reader, the worker and each other command are chunks of their own, loaded on demand (#37)', () => {
  const all = outputs();
  for (const source of ['plugin/live/reader.ts', 'plugin/run-worker.ts', 'plugin/commands/diff.ts', 'plugin/commands/explain.ts', 'plugin/commands/generate.ts']) {
    const chunk = chunkOf(all, source);
    const loadedBy = Object.keys(all).filter((f) => all[f]!.imports.some((i) => i.path === chunk));
    assert.ok(loadedBy.length > 0, `${source} is loaded by some chunk`);
    for (const f of loadedBy) assert.ok(all[f]!.imports.filter((i) => i.path === chunk).every((i) => i.kind === 'dynamic-import'), `${f} imports ${source} statically`);
  }
});

/**
 * The node built-ins a run of the bundle loaded (process.moduleLoadList, read as the process exits), for what the
 * import graph cannot show: a built-in that a bundled module imports but loads only when called (build.mjs).
 */
function builtinsLoaded(args: readonly string[], input = ''): string[] {
  requireBundle();
  const dir = tempDir('startup-builtins');
  const out = join(dir, 'loaded.txt');
  const preload = join(dir, 'record.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  const r = run(process.execPath, ['--require', preload, BUNDLE, ...args], { input, env: { PATH: process.env.PATH ?? '' } });
  assert.is(r.code, 0, r.stderr);
  return readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('NativeModule ')).map((l) => l.slice('NativeModule '.length));
}

const SMALL_STREAM = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  k: dg==\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          envFrom:\n            - secretRef:\n                name: db\n';

test('a stamp on the main thread loads node:child_process only when it starts a renderer and node:worker_threads only for its worker, node:crypto only when it hashes, and --help loads neither (#37)', () => {
  const stamp = builtinsLoaded(['stamp', '-'], SMALL_STREAM);
  assert.ok(stamp.includes('crypto'), 'the list was read (a stamp hashes)');
  for (const name of ['child_process', 'worker_threads']) assert.not.ok(stamp.includes(name), `stamp loaded node:${name}`);
  // The same stream with no opt-in: nothing to hash, so no node:crypto either (build.mjs DEFERRED_BUILTINS).
  const untargeted = builtinsLoaded(['stamp', '-'], SMALL_STREAM.replace('    rollstamp.dev/enabled: "true"\n', '    team: web\n'));
  assert.ok(untargeted.includes('fs'), 'the list was read');
  assert.not.ok(untargeted.includes('crypto'), 'a stamp with no target loaded node:crypto');
  const help = builtinsLoaded(['--help']);
  for (const name of ['crypto', 'child_process']) assert.not.ok(help.includes(name), `--help loaded node:${name}`);
});

/**
 * How a run of the bundle used standard input: whether it made process.stdin, and whether it read a stream with
 * `for await` (the async iterator of node's Readable), recorded by a preload that wraps both.
 */
function stdinUse(args: readonly string[], input: string, cwd?: string): { made: boolean; iterated: boolean; stdout: string } {
  requireBundle();
  const dir = tempDir('startup-stdin');
  const out = join(dir, 'used.json');
  const preload = join(dir, 'record.cjs');
  writeFileSync(
    preload,
    [
      `const used = { made: false, iterated: false };`,
      `const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');`,
      `Object.defineProperty(process, 'stdin', { configurable: true, enumerable: stdin.enumerable, get() { used.made = true; return stdin.get.call(process); } });`,
      `const { Readable } = require('node:stream');`,
      `const iterate = Readable.prototype[Symbol.asyncIterator];`,
      `Readable.prototype[Symbol.asyncIterator] = function () { used.iterated = true; return iterate.call(this); };`,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(used)));`,
    ].join('\n'),
  );
  const r = run(process.execPath, ['--require', preload, BUNDLE, ...args], { input, env: { PATH: process.env.PATH ?? '' }, ...(cwd ? { cwd } : {}) });
  assert.is(r.code, 0, r.stderr);
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as { made: boolean; iterated: boolean }), stdout: r.stdout };
}

test('stamp - reads stdin by its events, not the stream\'s async iterator, and a stamp of files with stdin a pipe makes no process.stdin (#37)', () => {
  const piped = stdinUse(['stamp', '-'], SMALL_STREAM);
  assert.ok(piped.made && piped.stdout.includes('rollstamp.dev/hash'), 'stdin was read and stamped');
  assert.not.ok(piped.iterated, 'stdin was read with for await');
  const dir = tempDir('startup-stdin-file');
  writeFileSync(join(dir, 'app.yaml'), SMALL_STREAM);
  const files = stdinUse(['stamp', 'app.yaml'], '', dir);
  assert.equal(files.stdout, piped.stdout, 'the same output from a file');
  assert.not.ok(files.made, 'a stamp of files made process.stdin');
});

test.after(removeTempDirs);
test.run();
