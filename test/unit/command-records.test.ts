// The command records (plugin/commands/index.ts) drive the dispatcher, the main help's command list and the
// shell completion scripts: a record added there is listed, dispatched and completed with no other edit (#36).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAIN_HELP } from '../../plugin/cli/run-cli.ts';
import { COMMANDS, commandsHelp, findCommand } from '../../plugin/commands/index.ts';
import { completionScript, SHELLS, type CommandFlags } from '../../plugin/commands/completion.ts';
import { runInProcess } from '../support/run-cli.ts';

test('the main help lists every command record, in order, with its summary', () => {
  const listed = MAIN_HELP.slice(MAIN_HELP.indexOf('Commands:\n') + 10, MAIN_HELP.indexOf('\n\nFlags:')).split('\n');
  assert.equal(
    listed.map((l) => /^ {2}(\S+)/.exec(l)?.[1]),
    COMMANDS.map((c) => c.name),
  );
  for (const c of COMMANDS) assert.ok(listed.some((l) => l.endsWith(`  ${c.summary}`)), `${c.name}'s summary is listed`);
});

test('a made-up record appears in the command list and in every shell script, with its flags and values', () => {
  const made: CommandFlags = { name: 'graph', description: 'draw the sources as a graph', files: true, flags: [{ name: 'layout', type: 'string', values: ['tb', 'lr'], help: 'direction' }] };
  assert.is(commandsHelp([{ name: made.name, summary: made.description }]), '  graph     draw the sources as a graph');
  for (const shell of SHELLS) {
    const script = completionScript(shell, [made]);
    assert.match(script, 'graph', shell);
    assert.match(script, shell === 'fish' ? '-l layout' : '--layout', shell);
    assert.match(script, shell === 'fish' ? "'tb lr'" : 'values="tb lr"', shell);
  }
  assert.not.match(completionScript('bash', []), 'graph');
});

test('each record loads a module whose help is the one --help prints, and which parses the flags it declares', async () => {
  for (const c of COMMANDS) {
    const loaded = await c.load();
    assert.is((await runInProcess([c.name, '--help'])).stdout, `${loaded.help}\n`, c.name);
    for (const f of loaded.flags) assert.match(loaded.help, `--${f.name}`, `${c.name} --${f.name} is in its help`);
  }
});

test('a command is found by its record; an unknown one gets a suggestion from the records', async () => {
  assert.is(findCommand('diff')?.name, 'diff');
  assert.is(findCommand('dif'), undefined);
  const run = await runInProcess(['explian']);
  assert.is(run.code, 2);
  assert.match(run.stderr, 'did you mean explain?');
});

test('only the long-running command says so', () => {
  assert.equal(COMMANDS.filter((c) => c.longRunning).map((c) => c.name), ['refresh']);
});

test.run();
