// docs/develop.md's "Extending the core" and "Extending the CLI" recipes, applied as written: the workload row and
// the producer row join their tables in a copy of function/, which is type-checked and run over a stream with the
// new kind; the output format row joins diff's table and the command record and module join the command list, in
// a temporary directory; each then surfaces where the page says (#36).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { completionScript, SHELLS } from '../../plugin/commands/completion.ts';
import type { CommandRecord } from '../../plugin/commands/command.ts';
import { COMMANDS, commandsHelp } from '../../plugin/commands/index.ts';
import { flagsHelp, parseFlags } from '../../plugin/cli/flags.ts';
import { DIFF_OUTPUT, type DiffReport } from '../../plugin/output/diff-formats.ts';
import { chosenFormat, outputFlag, type OutputFormat } from '../../plugin/output/output-format.ts';
import type { Io } from '../../plugin/process/io.ts';
import { withRunSettings } from '../../plugin/settings/run-settings.ts';
import * as core from '../../function/index.ts';
import { fences } from '../support/markdown.ts';
import { ROOT, runInProcess } from '../support/run-cli.ts';

const page = readFileSync(join(ROOT, 'docs/develop.md'), 'utf8');
/** The one `ts recipe=NAME` block of the page (or of another language). */
function recipe(name: string, lang = 'ts'): string {
  const blocks = fences(page).filter((f) => f.lang === lang && f.flags.includes(`recipe=${name}`));
  assert.is(blocks.length, 1, `docs/develop.md has one ${name} recipe`);
  return blocks[0]!.body;
}
/** A repository module as an absolute URL, for code written to the temporary directory. */
const repo = (path: string): string => pathToFileURL(join(ROOT, path)).href;
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-recipes-'));

/** The opted-in Deployment both the diff and the producer recipe stamp: it reads key `token` of Secret `secret`. */
const WEB = (secret: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
      - name: web
        env:
        - name: TOKEN
          valueFrom: {secretKeyRef: {name: ${secret}, key: token}}
---
`;

const APP = (token: string): string => `${WEB('api')}apiVersion: v1
kind: Secret
metadata: {name: api, namespace: shop}
stringData: {token: ${token}}
`;

test('the output format recipe: its row is parsed, helped, completed and renders a real diff', async () => {
  const file = join(dir, 'row.ts');
  writeFileSync(file, `import { targetId } from '${repo('function/index.ts')}';
import type { DiffReport } from '${repo('plugin/output/diff-formats.ts')}';
import type { OutputFormat } from '${repo('plugin/output/output-format.ts')}';
export const ROW: OutputFormat<DiffReport> = ${recipe('output-format').trim().replace(/,$/, '')};
`);
  const { ROW } = (await import(pathToFileURL(file).href)) as { ROW: OutputFormat<DiffReport> };
  const table = [...DIFF_OUTPUT, ROW];
  const { values } = parseFlags(['-o', ROW.name], [outputFlag(table)], 'diff');
  assert.match(flagsHelp([outputFlag(table)]).replace(/\n\s+/g, ' '), `${ROW.name}: ${ROW.help}`);
  for (const shell of SHELLS) assert.match(completionScript(shell, [{ name: 'diff', description: 'd', files: true, flags: [outputFlag(table)] }]), ROW.name, shell);
  writeFileSync(join(dir, 'old.yaml'), APP('CANARY-old-5e1d'));
  writeFileSync(join(dir, 'new.yaml'), APP('CANARY-new-8b2c'));
  const json = await runInProcess(['diff', '-o', 'json', 'old.yaml', 'new.yaml'], { cwd: dir });
  assert.is(json.code, 3, json.stderr);
  const report: DiffReport = { diff: JSON.parse(json.stdout) as DiffReport['diff'], stamped: true };
  assert.is(chosenFormat(table, values).render(report), 'apps/v1/Deployment/shop/web rolls\n');
});

test('the command recipe: its record is listed, completed and loads a module that runs and helps', async () => {
  const commands = join(dir, 'commands');
  mkdirSync(commands, { recursive: true });
  const module = recipe('command-module').replace(/from '\.\.\/([^']+)'/g, (_, p: string) => `from '${repo(`plugin/${p}`)}'`).replace("from './command.ts'", `from '${repo('plugin/commands/command.ts')}'`);
  writeFileSync(join(commands, 'hello.ts'), module);
  writeFileSync(join(commands, 'record.ts'), `import type { CommandRecord } from '${repo('plugin/commands/command.ts')}';\nexport const RECORD: CommandRecord = ${recipe('command').trim().replace(/,$/, '')};\n`);
  const { RECORD } = (await import(pathToFileURL(join(commands, 'record.ts')).href)) as { RECORD: CommandRecord };
  const all = [...COMMANDS, RECORD];
  assert.match(commandsHelp(all), `  hello     ${RECORD.summary}`);
  const loaded = await RECORD.load();
  for (const shell of SHELLS) {
    const script = completionScript(shell, [{ name: RECORD.name, description: RECORD.summary, files: true, flags: loaded.flags }]);
    assert.match(script, 'hello', shell);
    assert.match(script, shell === 'fish' ? '-l name' : '--name', shell);
  }
  assert.match(loaded.help, '-n, --name NAME');
  let out = '';
  const io = withRunSettings({ writeStdout: async (t: string) => void (out += t), writeStderr: () => {}, env: {}, cwd: dir, readStdin: async () => new Uint8Array() } as unknown as Io);
  assert.is(await loaded.run(['-n', 'kpt'], io), 0);
  assert.is(out, 'hello, kpt\n');
  const typo = await loaded.run(['--nam', 'x'], io).then(() => undefined, (err: unknown) => err);
  assert.match(String(typo), 'did you mean --name?');
});

/** The core's API, as the copy below and the repository each export it. */
type Core = typeof core;

/** `function/` copied to `into`, with the schema it validates settings with and the repository's node_modules. */
function copyCore(into: string): void {
  cpSync(join(ROOT, 'function'), join(into, 'function'), { recursive: true });
  cpSync(join(ROOT, 'schemas'), join(into, 'schemas'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'));
  writeFileSync(join(into, 'package.json'), JSON.stringify({ type: 'module' }));
}

/** `text` with `insert` placed before the one match of `before` (the recipe's place, as the page says it). */
function insertBefore(text: string, before: RegExp, insert: string): string {
  const at = text.search(before);
  assert.ok(at > 0 && text.slice(at + 1).search(before) < 0, `one place matches ${before}`);
  return `${text.slice(0, at)}${insert}${text.slice(at)}`;
}

// One copy of the core with both core recipes applied: the workload row at the end of OPERATORS, the producer
// before PRODUCERS and its name at the end of that list.
const copy = join(dir, 'core');
copyCore(copy);
const rowsFile = join(copy, 'function/kinds/workload-rows.ts');
writeFileSync(rowsFile, insertBefore(readFileSync(rowsFile, 'utf8'), /\n\];\n\n\/\*\* Every built-in row/, `\n${recipe('workload-row').trimEnd()}`));
const producersFile = join(copy, 'function/kinds/producers.ts');
const producer = recipe('producer-row');
const producerName = /^const (\w+): ProducerKind/m.exec(producer)?.[1];
const withProducer = insertBefore(readFileSync(producersFile, 'utf8'), /^export const PRODUCERS\b/m, `${producer}\n`);
writeFileSync(producersFile, withProducer.replace(/(export const PRODUCERS: readonly ProducerKind\[\] = \[[^\]]*)\];/, `$1, ${producerName}];`));

/** A stream run of `text` through `api`, everything opted in by its annotation, with the source reports explain prints. */
function stamp(api: Core, text: string): ReturnType<ReturnType<Core['startStreamRun']>['finish']> {
  const read = api.readConfig(undefined);
  if (!('config' in read)) throw new Error('default config');
  return api.startStreamRun([{ path: 'in.yaml', text }], { config: read.config, sourceReports: true }).finish();
}

test('the core recipes type-check where the page puts them', () => {
  const options = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ compilerOptions: options.compilerOptions, files: ['function/kinds/workload-rows.ts', 'function/kinds/producers.ts'] }));
  assert.ok(producerName, 'the producer recipe names its row');
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', copy], { encoding: 'utf8' });
  assert.is(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
});

const WIDGET = (value: string): string => `apiVersion: widgets.example.com/v1
kind: Widget
metadata: {name: w, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  credentialSecrets: [creds]
  template:
    spec:
      containers: [{name: w, image: w}]
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: shop}
stringData: {key: ${value}}
`;

test('the workload row recipe: its kind is stamped on its pod template, over the Secrets its operator mounts', async () => {
  const api = (await import(pathToFileURL(join(copy, 'function/index.ts')).href)) as Core;
  const one = stamp(api, WIDGET('CANARY-one-71a3'));
  assert.equal(one.results.filter((r) => r.severity === 'error'), []);
  assert.equal(one.targets.map((t) => [t.resourceRef.kind, t.field, t.rollout?.how, t.sources.map((x) => x.name)]), [['Widget', 'spec.template.metadata.annotations["rollstamp.dev/hash"]', 'rolling', ['creds']]]);
  assert.match(one.outputPieces.join(''), /template:\n {4}metadata:\n {6}annotations:\n {8}rollstamp\.dev\/hash: "sha256:/);
  assert.is.not(stamp(api, WIDGET('CANARY-two-9c04')).targets[0]?.hash, one.targets[0]!.hash, 'a changed Secret rolls it');
  assert.equal(stamp(core, WIDGET('CANARY-one-71a3')).targets, [], 'without the row the kind is not a target');
  // The line the page gives docs/kinds.md passes the check test/unit/workload-rows.test.ts makes of every row.
  const line = recipe('workload-row-doc', 'md').trim();
  assert.ok(line.startsWith('| `widgets.example.com` | Widget |') && line.includes('example.com/widget-operator api/v1/widget_types.go') && line.includes('**rolling**'), line);
});

const TOKEN = (spec: string): string => `${WEB('api-token')}apiVersion: tokens.example.com/v1
kind: TokenRequest
metadata: {name: api, namespace: shop}
spec: {secretName: api-token, ${spec}}
`;

test('the producer row recipe: a workload reading what it makes is stamped from the fields that decide the value', async () => {
  const api = (await import(pathToFileURL(join(copy, 'function/index.ts')).href)) as Core;
  const base = stamp(api, TOKEN('audience: payments, scopes: [read], refreshInterval: 1h'));
  assert.equal(base.results.filter((r) => r.tags.code === 'MISSING_SOURCE'), [], 'the Secret it makes is found');
  assert.equal(base.targets.map((t) => t.sources.map((x) => [x.cls, x.name, x.producedBy])), [[['Secret', 'api-token', 'TokenRequest shop/api']]]);
  assert.is.not(stamp(api, TOKEN('audience: billing, scopes: [read], refreshInterval: 1h')).targets[0]?.hash, base.targets[0]!.hash, 'a new audience rolls it');
  assert.is(stamp(api, TOKEN('audience: payments, scopes: [read], refreshInterval: 24h')).targets[0]?.hash, base.targets[0]!.hash, 'a new refreshInterval does not');
  const without = stamp(core, TOKEN('audience: payments, scopes: [read], refreshInterval: 1h'));
  assert.ok(without.results.some((r) => r.tags.code === 'MISSING_SOURCE'), 'without the row the Secret is missing');
});

test.run();
