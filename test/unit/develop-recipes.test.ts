// docs/develop.md's "Extending the CLI" recipes, applied as written: the output format row joins diff's table and
// the command record and module join the command list, in a temporary directory, and each then surfaces where
// the page says — parsing, --help, completion, its output (#36).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
import { fences } from '../support/markdown.ts';
import { ROOT, runInProcess } from '../support/run-cli.ts';

const page = readFileSync(join(ROOT, 'docs/develop.md'), 'utf8');
/** The one `ts recipe=NAME` block of the page. */
function recipe(name: string): string {
  const blocks = fences(page).filter((f) => f.lang === 'ts' && f.flags.includes(`recipe=${name}`));
  assert.is(blocks.length, 1, `docs/develop.md has one ${name} recipe`);
  return blocks[0]!.body;
}
/** A repository module as an absolute URL, for code written to the temporary directory. */
const repo = (path: string): string => pathToFileURL(join(ROOT, path)).href;
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-recipes-'));

const APP = (token: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
      - name: web
        env:
        - name: TOKEN
          valueFrom: {secretKeyRef: {name: api, key: token}}
---
apiVersion: v1
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

test.run();
