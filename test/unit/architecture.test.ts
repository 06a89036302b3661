// The layout guards itself: the core's stage folders import only the stages below them, nothing in the core
// imports a cycle (type imports included), plugin/ reaches the core only through function/index.ts and never
// drives the run itself, the core touches no files, environment or clock, only the read and write stages (and
// plugin/) import the yaml library, and no source file grows past 400 lines. plugin/ has no import cycle either,
// reads the environment only in settings/, and names its commands and -o formats only in their tables (#36).
// Each rule is also tried on a small made-up graph or text, so a rule that could never fire fails here too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS } from '../../plugin/commands/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_LINES = 400;

/**
 * Which stage folders of function/ each folder may import (besides itself). `index` is function/index.ts, the
 * API, which may import every stage. Reading the table top to bottom is reading the pipeline.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  model: [],
  read: ['model'],
  // Settings arrive as YAML text too (a --config file, .rollstamp.yaml): config/ reads it with read/'s parser (#36).
  config: ['model', 'read'],
  discover: ['model', 'config'],
  // A target kind is one module: its selection and stamp site, and what it references, read with discover/.
  kinds: ['model', 'config', 'discover'],
  // A producer kind (kinds/producers.ts) names what it makes and which fields decide it; resolve/ reads them.
  resolve: ['model', 'kinds'],
  plan: ['model', 'config', 'discover', 'kinds', 'resolve'],
  hash: ['model', 'config', 'discover', 'kinds', 'resolve', 'plan'],
  write: ['model', 'read'],
  compare: ['model', 'hash'],
  // `rollstamp refresh`'s decision: live-read records against live objects, with the record digest of hash/.
  refresh: ['model', 'hash'],
  // The runs: read → plan → (the plugin's live reads) → apply → write, for each input shape.
  run: ['model', 'config', 'read', 'discover', 'kinds', 'resolve', 'plan', 'hash', 'write'],
  index: ['model', 'config', 'read', 'discover', 'kinds', 'resolve', 'plan', 'hash', 'write', 'compare', 'run', 'refresh'],
};
/** Node modules the core may use: hashing and bytes only (no fs, no env, no clock, no network). */
const CORE_NODE_MODULES = new Set(['node:crypto', 'node:buffer']);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * What only the core's runs (function/run/) may call: the readers, the planner and apply. A plugin file that
 * names one of them drives the pipeline itself.
 */
const RUN_INTERNALS = ['plan', 'apply', 'startPlan', 'Planner', 'parseStream', 'streamDocuments', 'streamItems', 'subsetDocuments', 'parseResourceList', 'splitResourceList', 'serializeStream', 'serializeResourceList'];

/** The names a file imports from the core's API (function/index.ts), as written. */
export function coreNamesOf(text: string): string[] {
  const names: string[] = [];
  const forms = /import\s+(?:type\s+)?\{([^{}]*)\}\s*from\s*['"][^'"]*function\/index\.ts['"]|\{([^{}]*)\}\s*=\s*await\s+import\(\s*['"][^'"]*function\/index\.ts['"]/g;
  for (const m of text.matchAll(forms)) {
    for (const part of (m[1] ?? m[2]!).split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
      if (name !== '') names.push(name);
    }
  }
  return names;
}

/** Run internals a plugin file imports, as `file: name` lines. */
export function runInternalsIn(files: ReadonlyMap<string, string>): string[] {
  return [...files].flatMap(([file, text]) => coreNamesOf(text).filter((n) => RUN_INTERNALS.includes(n)).map((n) => `${file}: ${n}`));
}

/** The process's environment, argv, streams or exit, or the clock (a core file must reach none of them). */
const PROCESS_OR_CLOCK = /\bprocess\.(env|argv|stdout|stderr|stdin|cwd|exit|hrtime)\b|\bDate\.now\(|new Date\(|\bperformance\.now\(|\bglobalThis\.process\b|\bset(Timeout|Interval|Immediate)\(/;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module a file names in an import or re-export (type-only ones included), as written. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]!);
}

/** Repository-relative path of a relative import from `file`; the specifier itself for a package. */
function resolveImport(file: string, spec: string): string {
  return spec.startsWith('.') ? normalize(join(dirname(file), spec)) : spec;
}

const graph = new Map<string, string[]>();
for (const file of [...sourceFiles('function'), ...sourceFiles('plugin')]) {
  graph.set(file, importsOf(readFileSync(join(ROOT, file), 'utf8')).map((s) => resolveImport(file, s)));
}

/** The stage folder of a core file: `function/read/x.ts` → `read`, `function/index.ts` → `index`. */
function stageOf(file: string): string {
  const parts = relative('function', file).split('/');
  return parts.length === 1 ? 'index' : parts[0]!;
}

/** A cycle among `nodes` as a list of files (first = last), or undefined. Depth-first, colours per node. */
export function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    if (state.get(node) !== undefined) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

/** Imports of core files that cross stages against ALLOWED, as `from -> to` lines. */
export function forbiddenEdges(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of edges) {
    if (!from.startsWith('function/')) continue;
    const stage = stageOf(from);
    for (const to of targets) {
      if (to.startsWith('plugin/') || to.startsWith('test/')) out.push(`${from} -> ${to}`);
      else if (to.startsWith('node:') && !CORE_NODE_MODULES.has(to)) out.push(`${from} -> ${to}`);
      else if (to.startsWith('function/')) {
        const target = stageOf(to);
        if (target !== stage && !(ALLOWED[stage] ?? []).includes(target)) out.push(`${from} -> ${to}`);
      }
    }
  }
  return out;
}

/** Folders whose files may import the yaml library: the two front-ends' read stage, the writer, the CLI. */
const YAML_FOLDERS = ['function/read/', 'function/write/', 'plugin/'];

/** Files outside YAML_FOLDERS that import the yaml package (or one of its entry points), as `file -> spec` lines. */
export function yamlImportsOutside(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of edges) {
    if (YAML_FOLDERS.some((dir) => from.startsWith(dir))) continue;
    for (const to of targets) if (to === 'yaml' || to.startsWith('yaml/')) out.push(`${from} -> ${to}`);
  }
  return out;
}

const coreGraph = new Map([...graph].filter(([file]) => file.startsWith('function/')));

test('every folder of function/ is a stage the table knows', () => {
  const stages = new Set([...coreGraph.keys()].map(stageOf));
  for (const stage of stages) assert.ok(stage in ALLOWED, `function/${stage}/ is not in the architecture table`);
});

test('function/ has no import cycle, counting type imports', () => {
  const cycle = findCycle(coreGraph);
  assert.is(cycle, undefined, `import cycle: ${cycle?.join(' -> ')}`);
});

test('function/ stages import only the stages below them, and never plugin/, fs, env or the clock', () => {
  assert.equal(forbiddenEdges(coreGraph), []);
  for (const [file] of coreGraph) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    assert.not.match(text, PROCESS_OR_CLOCK, `${file} reaches the process or the clock`);
  }
});

test('only function/read/, function/write/ and plugin/ import the yaml library; the other stages read model nodes', () => {
  assert.equal(yamlImportsOutside(graph), []);
});

test('plugin/ reaches the core only through function/index.ts', () => {
  for (const [file, targets] of graph) {
    if (!file.startsWith('plugin/')) continue;
    const inner = targets.filter((t) => t.startsWith('function/') && t !== 'function/index.ts');
    assert.equal(inner, [], `${file} imports core modules directly`);
  }
});

test('plugin/ starts and finishes the core\'s runs and never reimplements them: no reader, planner or apply of its own', () => {
  const plugin = new Map([...graph.keys()].filter((f) => f.startsWith('plugin/')).map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
  assert.equal(runInternalsIn(plugin), []);
  // The API exports none of them either: the plugin could not reach them through function/index.ts.
  const api = readFileSync(join(ROOT, 'function/index.ts'), 'utf8');
  for (const name of RUN_INTERNALS) assert.not.match(api, new RegExp(`[{,\\s]${name}[,\\s}]`), `function/index.ts exports ${name}`);
});

test('function/index.ts exports only what plugin/ uses', () => {
  const used = new Set([...graph.keys()].filter((f) => f.startsWith('plugin/')).flatMap((f) => coreNamesOf(readFileSync(join(ROOT, f), 'utf8'))));
  const api = readFileSync(join(ROOT, 'function/index.ts'), 'utf8');
  const exported = [...api.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((p) => p.trim().replace(/^type\s+/, '')).filter((n) => n !== ''));
  assert.ok(exported.length > 10, 'the export lists were read');
  assert.equal(exported.filter((n) => !used.has(n)), []);
});

test('the run and clock rules fire on made-up files', () => {
  const made = new Map([
    ['plugin/a.ts', "import { apply, type Config, startStreamRun } from '../function/index.ts';"],
    ['plugin/b.ts', "import {\n  hasErrors,\n  type Plan as P,\n  streamItems,\n} from '../../function/index.ts';"],
    ['plugin/c.ts', "import { startListRun } from '../function/index.ts';"],
    ['plugin/d.ts', "const { oneLine, plan } = await import('../function/index.ts');"],
  ]);
  assert.equal(runInternalsIn(made), ['plugin/a.ts: apply', 'plugin/b.ts: streamItems', 'plugin/d.ts: plan']);
  for (const text of ['const t = Date.now();', 'if (process.env.X) {}', 'performance.now()', 'setTimeout(f, 1)', 'globalThis.process.exit(1)']) assert.match(text, PROCESS_OR_CLOCK, text);
  assert.not.match('const updated = dateOf(x); // the process of reading', PROCESS_OR_CLOCK);
});

test(`no source file in function/ or plugin/ is longer than ${MAX_LINES} lines, and each opens with a header comment`, () => {
  for (const file of graph.keys()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= MAX_LINES, `${file} has ${lines} lines`);
    assert.ok(text.startsWith('// '), `${file} does not start with a header comment`);
  }
});

/** The stage a core file's header names (`// Plan stage, …` → `plan`), if it names one. */
export function headerStage(text: string): string | undefined {
  return /^\/\/ (\w+) stage\b/.exec(text)?.[1]?.toLowerCase();
}

test('a core file whose header names a stage lives in that stage\'s folder (#25)', () => {
  for (const file of coreGraph.keys()) {
    const named = headerStage(readFileSync(join(ROOT, file), 'utf8'));
    if (named !== undefined && stageOf(file) !== 'index') assert.is(named, stageOf(file), `${file}: its header names the ${named} stage`);
  }
  assert.is(headerStage('// Stamp stage, text form: …'), 'stamp');
  assert.is(headerStage('// Model: targets'), undefined);
});

test('the rules fire on a made-up graph: a type-import cycle, an upward edge, plugin and fs imports', () => {
  const cyclic = new Map([
    ['function/model/a.ts', ['function/model/b.ts']],
    ['function/model/b.ts', ['function/model/a.ts']],
  ]);
  assert.equal(findCycle(cyclic), ['function/model/a.ts', 'function/model/b.ts', 'function/model/a.ts']);
  assert.equal(importsOf("import type { A } from './a.ts';\nexport { b } from \"./b.ts\";\nconst c = await import('./c.ts');"), ['./a.ts', './b.ts', './c.ts']);
  const upward = new Map([
    ['function/model/x.ts', ['function/hash/y.ts']],
    ['function/read/z.ts', ['plugin/process/io.ts', 'node:fs', 'node:crypto', 'function/model/x.ts']],
    ['function/hash/y.ts', []],
  ]);
  assert.equal(forbiddenEdges(upward), ['function/model/x.ts -> function/hash/y.ts', 'function/read/z.ts -> plugin/process/io.ts', 'function/read/z.ts -> node:fs']);
  const yamlUsers = new Map([
    ['function/model/n.ts', ['yaml', './o.ts']],
    ['function/resolve/r.ts', ['yaml/util']],
    ['function/read/p.ts', ['yaml']],
    ['function/write/w.ts', ['yaml']],
    ['plugin/q.ts', ['yaml', 'yaml-language']],
  ]);
  assert.equal(yamlImportsOutside(yamlUsers), ['function/model/n.ts -> yaml', 'function/resolve/r.ts -> yaml/util']);
});

// plugin/: its own rules (#36).

/** A file's text without its comments, which may name what the code must not do. */
export function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/**
 * Where plugin/ may read the environment besides plugin/settings/, each with the reason. Everything else reads
 * the settings (settings/run-settings.ts copies a run's environment once, settings-table.ts names each variable).
 */
const ENV_READERS: Readonly<Record<string, string>> = {
  'plugin/main.ts': 'the process edge: it hands the whole environment to the worker (whose settings/ reads it) and reads NODE_OPTIONS for the worker heap limit, as node does',
  'plugin/run-in-process.ts': 'the process edge on the main thread (#37): it hands the whole environment to a run there, as main.ts hands it to the worker (settings/ reads it)',
};

/** `process.env`, `io.env` or `process['env']`, or `{ env } = process`. */
const ENV_READ = /\b(?:process|io)\s*(?:\.\s*env\b|\[\s*['"]env['"]\s*\])|\{[^{}]*\benv\b[^{}]*\}\s*=\s*(?:process|io)\b/;

/** Files outside plugin/settings/ (and ENV_READERS) that read the environment. */
export function envReadsOutsideSettings(files: ReadonlyMap<string, string>): string[] {
  return [...files].filter(([file, text]) => !file.startsWith('plugin/settings/') && !(file in ENV_READERS) && ENV_READ.test(codeOf(text))).map(([file]) => file);
}

/** A list of two or more quoted strings: `['text', 'json']`. */
const STRING_LIST = /\[\s*((?:'[^'\n]*'|"[^"\n]*")(?:\s*,\s*(?:'[^'\n]*'|"[^"\n]*"))+)\s*,?\s*\]/g;

/**
 * Hand-written lists of `names` (two or more of them in one list of strings) in files not in `allowed`, as
 * `file: ['a', 'b']` lines. A table holds rows, never such a list, so a list is a copy that goes stale.
 */
export function handWrittenLists(files: ReadonlyMap<string, string>, names: ReadonlySet<string>, allowed: Readonly<Record<string, string>> = {}): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    if (file in allowed) continue;
    for (const m of codeOf(text).matchAll(STRING_LIST)) {
      const items = [...m[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((i) => i[1] ?? i[2]!);
      if (items.filter((i) => names.has(i)).length >= 2) out.push(`${file}: ${m[0]}`);
    }
  }
  return out;
}

/**
 * Output formats chosen outside their tables: an `-o` flag declared by hand (only outputFlag builds one, from a
 * table) or a branch on the format's name (`format === 'markdown'`), as `file: what` lines.
 */
export function formatsOutsideTables(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const code = codeOf(text);
    if (file !== 'plugin/output/output-format.ts' && /\bshort:\s*['"]o['"]/.test(code)) out.push(`${file}: an -o flag by hand`);
    if (/\b(?:format|values\.output)\s*[!=]==?\s*['"]/.test(code)) out.push(`${file}: a branch on a format's name`);
  }
  return out;
}

/** Command names compared by hand (`c.name === 'fn'`), as `file: what` lines. */
export function commandNamesCompared(files: ReadonlyMap<string, string>, names: ReadonlySet<string>): string[] {
  return [...files].flatMap(([file, text]) => [...codeOf(text).matchAll(/\.name\s*[!=]==?\s*['"]([^'"]+)['"]/g)].filter((m) => names.has(m[1]!)).map((m) => `${file}: ${m[0]}`));
}

const pluginGraph = new Map([...graph].filter(([file]) => file.startsWith('plugin/')));
const pluginFiles = new Map([...pluginGraph.keys()].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const COMMAND_NAMES = new Set(COMMANDS.map((c) => c.name));

test('plugin/ has no import cycle, counting type and lazy imports', () => {
  assert.ok(pluginGraph.size > 50, 'the plugin files were read');
  const cycle = findCycle(pluginGraph);
  assert.is(cycle, undefined, `import cycle: ${cycle?.join(' -> ')}`);
});

test('plugin/ reads the environment only in settings/ (and where ENV_READERS says why)', () => {
  assert.equal(envReadsOutsideSettings(pluginFiles), []);
  for (const file of Object.keys(ENV_READERS)) assert.ok(ENV_READ.test(codeOf(pluginFiles.get(file) ?? '')), `${file} no longer reads the environment: drop its exception`);
});

test('plugin/ names its commands only in their records (commands/index.ts)', () => {
  assert.ok(COMMAND_NAMES.size >= 8, 'the records were read');
  assert.equal(handWrittenLists(pluginFiles, COMMAND_NAMES, { 'plugin/commands/index.ts': 'the records' }), []);
  assert.equal(commandNamesCompared(pluginFiles, COMMAND_NAMES), []);
});

/** Lists of -o values plugin/ may hold outside a format table, each with the reason. */
const FORMAT_LISTS_ALLOWED: Readonly<Record<string, string>> = {
  'plugin/settings/settings-table.ts': "ROLLSTAMP_OUTPUT (yaml|json) is generate's setting, read from the environment Argo CD passes, not an -o flag",
};

test('plugin/ names its -o formats only in their tables: no hand-written list, flag or branch', async () => {
  const values = new Set<string>();
  for (const c of COMMANDS) for (const v of (await c.load()).flags.find((f) => f.name === 'output')?.values ?? []) values.add(v);
  assert.ok(['text', 'json', 'markdown', 'yaml'].every((v) => values.has(v)), 'the -o values were read from the records');
  assert.equal(handWrittenLists(pluginFiles, values, FORMAT_LISTS_ALLOWED), []);
  assert.equal(formatsOutsideTables(pluginFiles), []);
});

test('the plugin rules fire on made-up files: a cycle through a lazy import, an environment read, hand-written lists, flags and branches', () => {
  const lazy = new Map([
    ['plugin/cli/a.ts', importsOf("const c = await import('../commands/c.ts');").map((s) => resolveImport('plugin/cli/a.ts', s))],
    ['plugin/commands/c.ts', importsOf("import type { A } from '../cli/a.ts';").map((s) => resolveImport('plugin/commands/c.ts', s))],
  ]);
  assert.equal(findCycle(lazy), ['plugin/cli/a.ts', 'plugin/commands/c.ts', 'plugin/cli/a.ts']);
  const made = new Map([
    ['plugin/live/a.ts', 'const home = process.env.HOME;'],
    ['plugin/live/b.ts', "const { env } = process;\nconst t = io.env['X'];"],
    ['plugin/live/c.ts', '// process.env is read by settings/ only\nconst x = 1;'],
    ['plugin/settings/d.ts', 'const e = io.env;'],
    ['plugin/main.ts', 'const o = process.env.NODE_OPTIONS;'],
  ]);
  assert.equal(envReadsOutsideSettings(made), ['plugin/live/a.ts', 'plugin/live/b.ts']);
  const lists = new Map([
    ['plugin/commands/completion.ts', "const words = ['stamp', 'explain', 'diff'];\nconst shells = ['bash', 'zsh'];"],
    ['plugin/output/x.ts', "const f = { values: ['text', 'markdown', 'json'] };\nconst one = ['json'];"],
  ]);
  assert.equal(handWrittenLists(lists, COMMAND_NAMES), ["plugin/commands/completion.ts: ['stamp', 'explain', 'diff']"]);
  assert.equal(handWrittenLists(lists, new Set(['text', 'markdown', 'json'])), ["plugin/output/x.ts: ['text', 'markdown', 'json']"]);
  assert.equal(handWrittenLists(lists, COMMAND_NAMES, { 'plugin/commands/completion.ts': 'made up' }), []);
  const formats = new Map([
    ['plugin/commands/graph.ts', "const F = [{ name: 'output', short: 'o', type: 'string' }];\nif (format === 'mermaid') draw();"],
    ['plugin/commands/list.ts', "const out = values.output === 'json' ? a : b;"],
    ['plugin/output/output-format.ts', "return { name: 'output', short: 'o' };"],
  ]);
  assert.equal(formatsOutsideTables(formats), ['plugin/commands/graph.ts: an -o flag by hand', "plugin/commands/graph.ts: a branch on a format's name", "plugin/commands/list.ts: a branch on a format's name"]);
  assert.equal(commandNamesCompared(new Map([['plugin/x.ts', "if (c.name === 'fn' || f.name === 'output') {}"]]), COMMAND_NAMES), ["plugin/x.ts: .name === 'fn'"]);
});

test.run();
