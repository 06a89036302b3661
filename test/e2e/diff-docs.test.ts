// What docs/diff.md, docs/ci/README.md and `rollstamp diff --help` show of `rollstamp diff` (#16) is what it
// prints: docs/diff.md's console block runs as written (the built bundle as `rollstamp`), the other examples are
// rerun from the repository's examples.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DIFF_HELP } from '../../plugin/commands/diff.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, tempDir } from '../support/tools.ts';
import { runInProcess } from '../support/run-cli.ts';

const CI_README = readFileSync(join(ROOT, 'docs/ci/README.md'), 'utf8');
const BASIC = readFileSync(join(ROOT, 'examples/basic/app.yaml'), 'utf8');
const CONFIG = 'examples/basic/rollstamp.yaml';

/** The page on diff. */
const section = readFileSync(join(ROOT, 'docs/diff.md'), 'utf8');

/** The basic example with its password rotated, as a file in a temp dir. */
function rotated(): string {
  const file = join(tempDir('diff-docs'), 'new.yaml');
  assert.ok(BASIC.includes('example-password-1'));
  writeFileSync(file, BASIC.replace('example-password-1', 'example-password-2'));
  return file;
}

test('docs/diff.md: the console block of the basic example runs as written and prints what it shows', () => {
  requireBundle();
  const block = /```console[^\n]*\n([\s\S]*?)```/.exec(section)![1]!;
  const commands = block.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2));
  const last = commands[commands.length - 1]!;
  const shown = block.slice(block.indexOf(`$ ${last}\n`) + last.length + 3);
  const work = tempDir('diff-readme');
  symlinkSync(join(ROOT, 'examples'), join(work, 'examples'));
  writeFileSync(join(work, 'rollstamp'), `#!/bin/sh\nexec "${process.execPath}" "${BUNDLE}" "$@"\n`);
  chmodSync(join(work, 'rollstamp'), 0o755);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-c', commands.join('\n')], { cwd: work, encoding: 'utf8', env: { PATH: `${work}:${process.env.PATH}` } });
  assert.is(r.status, 3, r.stderr);
  assert.is(r.stdout, shown);
  assert.match(shown, /ConfigMap shop\/web-settings .* changed: LOG_LEVEL/);
  assert.match(shown, /Secret shop\/db-credentials .* changed: password/);
});

test('docs/diff.md: the kagent block is what rotating the OpenAI key prints', async () => {
  const dir = tempDir('diff-kagent');
  const files = readdirSync(join(ROOT, 'examples/kagent')).filter((f) => f.endsWith('.yaml'));
  for (const f of files) writeFileSync(join(dir, f), readFileSync(join(ROOT, 'examples/kagent', f), 'utf8').replace('sk-example-openai-key-1', 'sk-example-openai-key-2'));
  const r = await runInProcess(['diff', 'examples/kagent', dir]);
  assert.is(r.code, 3, r.stderr);
  const shown = /```\n(\d+ targets? roll[\s\S]*?)```/.exec(section)![1]!;
  assert.is(r.stdout, shown);
  // Every Agent on the ModelConfig, and no other.
  const agents = [...readFileSync(join(ROOT, 'examples/kagent/agents.yaml'), 'utf8').matchAll(/kind: Agent\nmetadata:\n {2}name: ([\w-]+)[\s\S]*?modelConfig: ([\w-]+)/g)];
  const onOpenai = agents.filter((m) => m[2] === 'openai-gateway').map((m) => m[1]!);
  assert.ok(onOpenai.length >= 2);
  for (const [, name, mc] of agents) assert.is(r.stdout.includes(`Agent/agents/${name} `), mc === 'openai-gateway', `${name} (${mc})`);
});

test('docs/ci: the Markdown block is what the basic example with a rotated password prints', async () => {
  const r = await runInProcess(['diff', '-o', 'markdown', '--config', CONFIG, 'examples/basic/app.yaml', rotated()]);
  assert.is(r.code, 3, r.stderr);
  assert.is(r.stdout, /```markdown\n([\s\S]*?)```/.exec(CI_README)![1]!);
});

test('--help: its example output is what the basic example with a rotated password prints', async () => {
  const r = await runInProcess(['diff', '--config', CONFIG, 'examples/basic/app.yaml', rotated()]);
  const lines = DIFF_HELP.split('\n');
  const from = lines.findIndex((l) => l.startsWith('  rollstamp diff --config examples/basic/rollstamp.yaml'));
  const to = lines.findIndex((l, i) => i > from && l.startsWith('Exit status'));
  const shown = lines.slice(from + 1, to).map((l) => l.slice(2)).join('\n').trimEnd();
  assert.is(r.stdout.trimEnd(), shown);
  const help = await runInProcess(['diff', '--help']);
  assert.is(help.stdout, `${DIFF_HELP}\n`);
  assert.match((await runInProcess(['--help'])).stdout, /\n {2}diff {6}compare two renders/);
});

test.after(removeTempDirs);
test.run();
