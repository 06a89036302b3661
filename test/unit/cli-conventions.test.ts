// The command line as kubectl, helm and kustomize users expect it: unknown flags with a suggestion, bad
// values as usage errors (exit 2, one line, nothing on stdout), `version`, `-f`, `explain -o`, and a hint
// instead of silence when a command would read a terminal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { closest, flagsHelp, parseFlags, type FlagSpec } from '../../plugin/cli/flags.ts';
import { runInProcess, type CliRun } from '../support/run-cli.ts';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
      - name: web
        envFrom: [{configMapRef: {name: settings}}]
        env:
        - {name: TOKEN, valueFrom: {secretKeyRef: {name: api, key: token}}}
---
apiVersion: v1
kind: Secret
metadata: {name: api, namespace: shop}
stringData: {token: CANARY-51c0e2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {LOG_LEVEL: info}
`;

/** Exit 2, nothing on stdout, exactly one line on stderr. */
function assertUsage(run: CliRun, line: RegExp): void {
  assert.is(run.code, 2, run.stderr);
  assert.is(run.stdout, '');
  assert.is(run.stderr.split('\n').filter((l) => l !== '').length, 1, run.stderr);
  assert.match(run.stderr, line);
}

const usageCases: Array<{ name: string; argv: string[]; line: RegExp }> = [
  { name: 'a misspelt flag gets the nearest one', argv: ['stamp', '--chek', '-'], line: /^rollstamp: error: unknown flag --chek; did you mean --check\?$/m },
  { name: 'a transposed flag gets the nearest one', argv: ['explain', '--slector', 'a=b', '-'], line: /unknown flag --slector; did you mean --selector\?/ },
  { name: 'a flag with = is matched by its name', argv: ['stamp', '--on-mising=warn', '-'], line: /unknown flag --on-mising; did you mean --on-missing\?/ },
  { name: 'a flag far from every other points at the help', argv: ['stamp', '--frobnicate', '-'], line: /unknown flag --frobnicate; see rollstamp stamp --help$/m },
  { name: 'an unknown short flag', argv: ['stamp', '-x', '-'], line: /unknown flag -x; see rollstamp stamp --help/ },
  { name: 'a global flag misspelt', argv: ['--verison'], line: /unknown flag --verison; did you mean --version\?/ },
  { name: 'a flag given to fn', argv: ['fn', '--check'], line: /unknown flag --check; see rollstamp fn --help/ },
  { name: 'a misspelt command', argv: ['stmap', 'x'], line: /unknown command "stmap"; did you mean stamp\?/ },
  { name: 'a value outside the allowed set', argv: ['stamp', '--on-missing', 'fail', '-'], line: /invalid value "fail" for --on-missing: use one of warn, error, ignore/ },
  { name: 'an -o format explain does not have', argv: ['explain', '-o', 'xml', '-'], line: /invalid value "xml" for -o: use one of text, json, yaml/ },
  { name: 'a flag without its value', argv: ['stamp', '--targets'], line: /flag --targets needs a value \(opted-in, all\)/ },
  { name: 'a value given to a boolean flag', argv: ['stamp', '--check=yes', '-'], line: /flag --check takes no value/ },
  { name: 'a selector the config rejects', argv: ['stamp', '-l', 'a in (b', '-'], line: /--selector/ },
  { name: '--json beside another -o', argv: ['explain', '--json', '-o', 'yaml', '-'], line: /--json and -o yaml disagree/ },
];

for (const c of usageCases) {
  test(`usage error: ${c.name} (exit 2, one line)`, async () => {
    assertUsage(await runInProcess(c.argv, { stdin: APP }), c.line);
  });
}

test('a bad config file stays an input error (exit 1), not a usage error', async () => {
  const run = await runInProcess(['stamp', '--config', 'no-such-file.yaml', '-'], { stdin: APP });
  assert.is(run.code, 1);
  assert.match(run.stderr, /no-such-file\.yaml: cannot read config file/);
});

test('rollstamp version, --version and -V print the same line', async () => {
  const outs = await Promise.all([['version'], ['--version'], ['-V']].map((argv) => runInProcess(argv)));
  for (const r of outs) {
    assert.is(r.code, 0);
    assert.match(r.stdout, /^rollstamp \d+\.\d+\.\d+\n$/);
  }
  assert.is(outs[0]!.stdout, outs[1]!.stdout);
  assertUsage(await runInProcess(['version', 'extra']), /version takes no arguments/);
});

test('-f and --filename read files like PATH arguments, and may repeat', async () => {
  const byPath = await runInProcess(['stamp', 'examples/basic/app.yaml', '--config', 'examples/basic/rollstamp.yaml']);
  const byFlag = await runInProcess(['stamp', '-f', 'examples/basic/app.yaml', '--filename=examples/basic/rollstamp.yaml', '-c', 'examples/basic/rollstamp.yaml']);
  assert.is(byPath.code, 0, byPath.stderr);
  assert.is(byFlag.code, 0, byFlag.stderr);
  assert.ok(byFlag.stdout.startsWith(byPath.stdout.trimEnd()), 'the -f stream starts with the PATH stream');
  assert.match(byPath.stdout, /rollstamp\.dev\/hash: "sha256:/);
});

test('explain -o json says what a stamp would change and names kinds `kind`', async () => {
  const run = await runInProcess(['explain', '-o', 'json', '-'], { stdin: APP });
  assert.is(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  assert.is(doc.kind, 'Explanation');
  assert.is(doc.dryRun, true);
  assert.equal(doc.wouldChange, ['apps/v1/Deployment/shop/web']);
  assert.is(doc.targets[0].state, 'new');
  assert.equal(doc.targets[0].sources.map((s: { kind: string; name: string }) => `${s.kind}/${s.name}`), ['ConfigMap/settings', 'Secret/api']);
  assert.not.ok(run.stdout.includes('"cls"'), 'no internal field names');
  assert.not.ok(run.stdout.includes('CANARY-51c0e2'));
});

test('explain on stamped input: nothing would change, and the target is "unchanged"', async () => {
  const stamped = (await runInProcess(['stamp', '-'], { stdin: APP })).stdout;
  const doc = JSON.parse((await runInProcess(['explain', '--json', '-'], { stdin: stamped })).stdout);
  assert.equal(doc.wouldChange, []);
  assert.is(doc.targets[0].state, 'unchanged');
});

test('explain -o yaml is the same document as -o json and --json', async () => {
  const json = await runInProcess(['explain', '-o', 'json', '-'], { stdin: APP });
  const legacy = await runInProcess(['explain', '--json', '-'], { stdin: APP });
  const yaml = await runInProcess(['explain', '-o', 'yaml', '-'], { stdin: APP });
  assert.is(legacy.stdout, json.stdout);
  assert.not.match(yaml.stdout, /&a\d|\*a\d/, 'no YAML anchors or aliases');
  assert.equal(parse(yaml.stdout), JSON.parse(json.stdout));
});

test('bare rollstamp, rollstamp stamp and stamp - at a terminal print a hint (exit 2), not an error about input', async () => {
  for (const argv of [[], ['fn'], ['stamp'], ['stamp', '-'], ['explain']]) {
    const run = await runInProcess(argv, { stdinIsTTY: true });
    assertUsage(run, /terminal|KRM function/);
    assert.match(run.stderr, /rollstamp (stamp|explain) manifests\//, `${argv.join(' ')}: the hint shows a command to run`);
  }
});

test('diff with - at a terminal prints a hint instead of waiting; two paths at a terminal still work', async () => {
  const hint = await runInProcess(['diff', 'examples/basic/app.yaml', '-'], { stdinIsTTY: true });
  assert.is(hint.code, 2);
  assert.match(hint.stderr, /^rollstamp: error: rollstamp diff reads one render from stdin \(-\), which is a terminal/);
  const paths = await runInProcess(['diff', 'examples/basic/app.yaml', 'examples/basic/app.yaml'], { stdinIsTTY: true });
  assert.is(paths.code, 0, paths.stderr);
});

test('at a terminal, paths still work; piped input is read as before', async () => {
  const withPath = await runInProcess(['stamp', 'examples/basic/app.yaml'], { stdinIsTTY: true });
  assert.is(withPath.code, 0, withPath.stderr);
  const piped = await runInProcess(['stamp', '-'], { stdin: APP, stdinIsTTY: false });
  assert.match(piped.stdout, /rollstamp\.dev\/hash/);
});

test('help is generated from the flag table: every declared flag is listed once', async () => {
  for (const command of ['stamp', 'explain']) {
    const help = (await runInProcess([command, '--help'])).stdout;
    for (const flag of ['--config', '--on-missing', '--live', '--filename', '-f,', '--context']) assert.ok(help.includes(flag), `${command} --help lists ${flag}`);
  }
  const explainHelp = (await runInProcess(['explain', '--help'])).stdout;
  assert.match(explainHelp, /-o, --output text\|json\|yaml/);
  for (const where of ['bundle', 'producer', 'cluster', 'missing', 'ignored']) assert.ok(explainHelp.includes(where), `explain --help names ${where}`);
});

test('help for a command the way kubectl and helm users ask for it: help X, --help X, -h X, X --help', async () => {
  for (const command of ['stamp', 'explain', 'diff', 'fn', 'generate']) {
    const own = (await runInProcess([command, '--help'])).stdout;
    assert.match(own, new RegExp(`^Usage: rollstamp \\[?${command}`));
    for (const argv of [['help', command], ['--help', command], ['-h', command]]) assert.is((await runInProcess(argv)).stdout, own, argv.join(' '));
  }
});

test('parseFlags: a table row is all a new flag needs (parsing, checking and help)', () => {
  const table: FlagSpec[] = [
    { name: 'allow-empty', type: 'boolean', help: 'succeed on an empty render' },
    { name: 'mode', short: 'm', type: 'string', values: ['a', 'b'], help: 'which mode' },
  ];
  assert.equal(parseFlags(['x', '--allow-empty', '-mb', '--', '--not-a-flag'], table, 'demo'), {
    values: { 'allow-empty': true, mode: 'b' },
    positionals: ['x', '--not-a-flag'],
  });
  assert.throws(() => parseFlags(['--allow-emtpy'], table, 'demo'), /unknown flag --allow-emtpy; did you mean --allow-empty\?/);
  assert.match(flagsHelp(table), /^ {6}--allow-empty {13}succeed on an empty render\n {2}-m, --mode a\|b {16}which mode$/);
});

test('closest: suggests only near misses', () => {
  assert.is(closest('--chek', ['--check', '--quiet']), '--check');
  assert.is(closest('--qiuet', ['--check', '--quiet']), '--quiet');
  assert.is(closest('--x', ['--check', '--quiet']), undefined);
  assert.is(closest('--zzzzzz', ['--check', '--quiet']), undefined);
});

test.run();
