// Standard input that is a regular file (`rollstamp stamp - < render.yaml`) is read straight into one buffer of its
// size (#37, plugin/process/read-stdin.ts), not through node's stream: the run must see the same bytes as through a
// pipe, from where the file stands to its end, on the main thread and in the worker alike.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { BUNDLE, cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { deployment, secret, stampsIn, stream } from '../support/objects.ts';
import { IN_PROCESS_MAX_BYTES } from '../../plugin/run-gate.ts';

test.before(requireBundle);
test.after(cleanup);

const WORKER = /^rollstamp: debug: run in a worker thread/m;
const MAIN = /^rollstamp: debug: run on the main thread/m;

const small = stream([secret('db', '  password: cGFzcw=='), deployment('web', { secret: 'db' }), deployment('api', { secret: 'db' })]);

/** A stream over the size gate: `n` Secrets, each read by its own Deployment. */
function large(n: number): string {
  const docs = [];
  for (let i = 0; i < n; i++) docs.push(secret(`s${i}`, `  password: ${Buffer.from(`pass-${i}`).toString('base64')}`), deployment(`d${i}`, { secret: `s${i}` }));
  return stream(docs);
}

/** The bundle with `file` as its standard input (an fd of a regular file), read from `skip` bytes in. */
function fromFile(argv: string[], file: string, skip = 0, env: NodeJS.ProcessEnv = {}): { code: number; stdout: string; stderr: string } {
  const fd = openSync(file, 'r');
  try {
    if (skip > 0) readSync(fd, Buffer.alloc(skip), 0, skip, null); // moves the fd's position, as a shell's `read` does
    const r = spawnSync(process.execPath, [BUNDLE, ...argv], { stdio: [fd, 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

test('a regular file on stdin gives the same run as the same bytes through a pipe, on the main thread and in the worker (#37)', () => {
  const dir = tempDir('stdin-file');
  const big = large(1500);
  assert.ok(Buffer.byteLength(big) > IN_PROCESS_MAX_BYTES, 'the large input is over the gate');
  for (const [name, text, where] of [['small', small, MAIN], ['large', big, WORKER]] as const) {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, text);
    const piped = runBundle(['--debug', 'stamp', '-'], { stdin: text });
    const read = fromFile(['--debug', 'stamp', '-'], file);
    assert.is(read.code, 0, `${name}: ${read.stderr.slice(0, 300)}`);
    assert.match(read.stderr, where, `${name}: ${read.stderr.slice(0, 300)}`);
    assert.is(read.stdout, piped.stdout, `${name}: same stdout`);
    assert.is(read.stderr, piped.stderr, `${name}: same stderr`);
  }
  assert.is(stampsIn(fromFile(['stamp', '-'], join(dir, 'large.yaml')).stdout).length, 1500);
});

test('a file already partly read is read from where it stands, as a stream reads it (#37)', () => {
  const dir = tempDir('stdin-file');
  const first = 'not: [yaml\n';
  for (const [name, text] of [['small', small], ['large', large(1500)]] as const) {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, first + text);
    const read = fromFile(['stamp', '-'], file, Buffer.byteLength(first));
    assert.is(read.code, 0, `${name}: ${read.stderr.slice(0, 300)}`);
    assert.is(read.stdout, runBundle(['stamp', '-'], { stdin: text }).stdout, `${name}: the rest of the file, not all of it`);
  }
});

test('an empty file and a file over ROLLSTAMP_MAX_INPUT_BYTES are said as through a pipe (#37)', () => {
  const dir = tempDir('stdin-file');
  const empty = join(dir, 'empty.yaml');
  writeFileSync(empty, '');
  const full = join(dir, 'full.yaml');
  writeFileSync(full, small);
  const cases: { file: string; text: string; env: NodeJS.ProcessEnv }[] = [
    { file: empty, text: '', env: {} },
    { file: full, text: small, env: { ROLLSTAMP_MAX_INPUT_BYTES: '100' } },
  ];
  for (const { file, text, env } of cases) {
    const read = fromFile(['stamp', '-'], file, 0, env);
    const piped = runBundle(['stamp', '-'], { stdin: text, env });
    assert.not.equal(read.code, 0);
    assert.is(read.code, piped.code);
    assert.is(read.stderr, piped.stderr);
    assert.is(read.stdout, '');
  }
});

test.run();
