// SECURITY.md "Its work is bounded" (#37): standard input is read no further than the input limit
// (ROLLSTAMP_MAX_INPUT_BYTES) and one byte. A pipe, a socket or a redirected file far over it is refused with the
// limit's one line, without being read to its end and without its bytes held; exactly the limit passes; the limit
// is shared with the files named before `-`, on the process's own thread and in the run's worker alike.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readInputs } from '../../plugin/inputs/read-inputs.ts';
import type { Io } from '../../plugin/process/io.ts';
import { BUNDLE, cleanup, requireBundle, runMeasured, tempDir } from '../support/hostile.ts';
import { configMap, deployment, stream } from '../support/objects.ts';
import { runBundle } from '../support/run-cli.ts';

test.before(requireBundle);
test.after(cleanup);

const MIB = 1024 * 1024;
const LIMIT = MIB;
/** What the writers offer: 200 times the limit, far more than a run may read. */
const OFFERED = 200 * MIB;
/** Bytes a refused run may have taken from its writer: the limit, the chunks in flight and the pipe's buffer. */
const TAKEN_AT_MOST = 16 * MIB;
/** Peak RSS a refused run may add to a run of a small input measured in the same test. */
const RSS_OVER_BASELINE_KIB = 48 * 1024;
const REFUSED = /^rollstamp: error: <stdin>: input exceeds the limit of (\d+) bytes \(ROLLSTAMP_MAX_INPUT_BYTES\)\n$/;
const APP = stream([configMap('settings', '  mode: fast'), deployment('web', { configMap: 'settings' })]);

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Bytes the writer got into the pipe or socket before the run ended. */
  taken: number;
  /** Peak RSS of the rollstamp process, KiB. */
  maxRssKiB: number;
}

/** Records the process's peak RSS as it exits (a refused run exits through process.exit). */
function rssPreload(dir: string): string {
  const file = join(dir, 'rss.cjs');
  writeFileSync(file, "process.on('exit', () => require('node:fs').writeFileSync(process.env.STDIN_RSS_FILE, String(process.resourceUsage().maxRSS)));\n");
  return file;
}

/**
 * A writer that offers OFFERED bytes of YAML on its stdout and never closes it: once all is written it waits to
 * be killed. It records how much it wrote when its reader went away (EPIPE), or all of it.
 */
function writerScript(dir: string): string {
  const file = join(dir, 'writer.cjs');
  writeFileSync(
    file,
    `const fs = require('node:fs');
const chunk = Buffer.from('a: b\\n'.repeat(13107));
let written = 0;
const record = () => fs.writeFileSync(process.argv[3], String(written));
try {
  while (written < Number(process.argv[2])) written += fs.writeSync(1, chunk);
} catch (err) {
  if (err.code !== 'EPIPE') throw err;
  record();
  process.exit(0);
}
record();
setInterval(() => {}, 1000);
`,
  );
  return file;
}

/** `writer | rollstamp argv` through a shell: a real pipe, the writer never closing it. Killed after 60 s. */
async function throughPipe(argv: readonly string[], env: Record<string, string> = {}): Promise<Ended> {
  const dir = tempDir('stdin-pipe');
  const counted = join(dir, 'written');
  const rss = join(dir, 'rss');
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const line = `${q(process.execPath)} ${q(writerScript(dir))} ${OFFERED} ${q(counted)} | ${q(process.execPath)} --require ${q(rssPreload(dir))} ${q(BUNDLE)} ${argv.map(q).join(' ')}`;
  writeFileSync(join(dir, 'new.yaml'), APP); // diff's second render
  const child = spawn('sh', ['-c', line], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ROLLSTAMP_MAX_INPUT_BYTES: String(LIMIT), STDIN_RSS_FILE: rss, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // The shell's exit is rollstamp's; the writer, the pipeline's first part, has ended by then or is killed here.
  const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(guard);
  try {
    process.kill(-child.pid!, 'SIGKILL'); // a writer still waiting after a run that read it all
  } catch {
    // the group has ended
  }
  return { code, stdout, stderr, taken: existsSync(counted) ? Number(readFileSync(counted, 'utf8')) : OFFERED, maxRssKiB: peak(rss) };
}

/** rollstamp with a socket for stdin (as node's and Go's child processes get), this process writing it. */
async function throughSocket(argv: readonly string[]): Promise<Ended> {
  const dir = tempDir('stdin-socket');
  const rss = join(dir, 'rss');
  const child = spawn(process.execPath, ['--require', rssPreload(dir), BUNDLE, ...argv], {
    env: { PATH: process.env.PATH ?? '', ROLLSTAMP_MAX_INPUT_BYTES: String(LIMIT), STDIN_RSS_FILE: rss },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let taken = 0;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.on('error', () => undefined); // the reader went away: that is the point
  const chunk = Buffer.from('a: b\n'.repeat(13107));
  const offer = (): void => {
    while (taken < OFFERED && !child.stdin.destroyed) {
      taken += chunk.length;
      if (!child.stdin.write(chunk)) return void child.stdin.once('drain', offer);
    }
  };
  offer();
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(guard);
  // Written into the socket's buffers, not necessarily read; what was queued behind them never left this process.
  return { code, stdout, stderr, taken: taken - child.stdin.writableLength, maxRssKiB: peak(rss) };
}

function peak(file: string): number {
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) : Number.NaN;
}

/** Peak RSS of a run of a small input, in this test, as the bound's base. */
function baselineRssKiB(): number {
  const run = runMeasured(['stamp', '-'], { stdin: APP });
  assert.is(run.code, 0, run.stderr);
  return run.maxRssKiB;
}

function assertRefused(e: Ended, limit: number, what: string, base: number): void {
  assert.is(e.code, 1, `${what}: exit 1 (stderr: ${e.stderr.slice(0, 300)})`);
  assert.match(e.stderr, REFUSED, `${what}: the limit's one line`);
  assert.is(Number(REFUSED.exec(e.stderr)?.[1]), limit, what);
  assert.is(e.stdout, '', `${what}: nothing on stdout`);
  assert.ok(e.taken < TAKEN_AT_MOST, `${what}: ${e.taken} of ${OFFERED} bytes offered were taken (at most ${TAKEN_AT_MOST})`);
  assert.ok(e.maxRssKiB < base + RSS_OVER_BASELINE_KIB, `${what}: peak RSS ${e.maxRssKiB} KiB, a small run's ${base} KiB`);
}

for (const command of [['stamp', '-'], ['fn'], ['explain', '-'], ['diff', '-', 'new.yaml']]) {
  test(`${command[0]}: a pipe offering ${OFFERED / MIB} MiB over a limit of 1 MiB, never closed, is refused with one line and not drained`, async () => {
    const base = baselineRssKiB();
    assertRefused(await throughPipe(command), LIMIT, command.join(' '), base);
  });
}

test('a socket for stdin offering 200 MiB over a limit of 1 MiB is refused with one line and not drained', async () => {
  const base = baselineRssKiB();
  assertRefused(await throughSocket(['stamp', '-']), LIMIT, 'stamp - (socket)', base);
});

test("a named file over the main thread's gate, then a pipe: the worker's stdin is read no further than what the file left of the limit", async () => {
  const dir = tempDir('stdin-worker');
  const big = join(dir, 'big.yaml');
  // Over run-gate.ts's 256 KiB, so the run moves to its worker before standard input is read.
  writeFileSync(big, `# ${'x'.repeat(400 * 1024)}\n${APP}`);
  const base = baselineRssKiB();
  const e = await throughPipe(['--debug', 'stamp', big, '-']);
  assert.match(e.stderr, /run in a worker thread/);
  assertRefused({ ...e, stderr: e.stderr.replace(/^rollstamp: debug: .*\n/gm, '') }, LIMIT, 'stamp big.yaml - (worker)', base);
});

test('a redirected regular file of 200 MiB over a limit of 1 MiB is refused with one line, read no further than the limit', () => {
  const dir = tempDir('stdin-file');
  const file = join(dir, 'huge.yaml');
  writeFileSync(file, APP);
  truncateSync(file, OFFERED); // sparse: 200 MiB to read, next to nothing on disk
  const base = baselineRssKiB();
  const fd = openSync(file, 'r');
  try {
    const run = throughFile(fd);
    // The child shared this open file: where it left the offset is how far it read (Linux shows it in fdinfo).
    const info = `/proc/self/fdinfo/${fd}`;
    const taken = existsSync(info) ? Number(/^pos:\s*(\d+)/m.exec(readFileSync(info, 'utf8'))?.[1]) : 0;
    assertRefused({ ...run, taken }, LIMIT, 'stamp - < huge.yaml', base);
  } finally {
    closeSync(fd);
  }
});

/** `stamp -` with the open file `fd` as its stdin, as a shell's `<` gives it. */
function throughFile(fd: number): Omit<Ended, 'taken'> {
  const dir = tempDir('stdin-fd');
  const rss = join(dir, 'rss');
  const r = spawnSync(process.execPath, ['--require', rssPreload(dir), BUNDLE, 'stamp', '-'], {
    env: { PATH: process.env.PATH ?? '', ROLLSTAMP_MAX_INPUT_BYTES: String(LIMIT), STDIN_RSS_FILE: rss },
    stdio: [fd, 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, maxRssKiB: peak(rss) };
}

/** A stream of exactly `size` bytes: APP, a comment padding it. */
function sized(size: number): string {
  const pad = size - APP.length - 3;
  assert.ok(pad >= 0);
  return `${APP}# ${'x'.repeat(pad)}\n`;
}

test('standard input of exactly the limit passes, one byte more is refused, for stamp and fn', () => {
  const text = sized(64 * 1024);
  const expected = runBundle(['stamp', '-'], { stdin: text });
  assert.is(expected.code, 0, expected.stderr);
  const exact = runBundle(['stamp', '-'], { stdin: text, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(text.length) } });
  assert.is(exact.code, 0, exact.stderr);
  assert.is(exact.stdout, expected.stdout);
  const under = runBundle(['stamp', '-'], { stdin: text, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(text.length - 1) } });
  assert.is(under.code, 1);
  assert.is(under.stdout, '');
  assert.match(under.stderr, REFUSED);
  const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n# ${'y'.repeat(1000)}\n`;
  assert.is(runBundle(['fn'], { stdin: list, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(list.length) } }).code, 0);
  const fnOver = runBundle(['fn'], { stdin: list, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(list.length - 1) } });
  assert.is(fnOver.code, 1);
  assert.match(fnOver.stderr, REFUSED);
});

for (const [where, fileBytes] of [
  ['on the main thread', 4 * 1024],
  ["in the worker (the file over the main thread's gate)", 300 * 1024],
] as const) {
  test(`the limit is shared with a named file before -, ${where}: the file and stdin of exactly the limit pass, one byte more is refused naming stdin`, () => {
    const dir = tempDir('stdin-shared');
    const named = join(dir, 'first.yaml');
    const first = sized(fileBytes).replace(/name: (settings|web)/g, 'name: first-$1');
    writeFileSync(named, first);
    const text = sized(16 * 1024);
    const limit = Buffer.byteLength(first) + text.length;
    const exact = runBundle(['stamp', named, '-'], { stdin: text, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(limit) } });
    assert.is(exact.code, 0, exact.stderr);
    assert.match(exact.stdout, /name: first-web/);
    const over = runBundle(['stamp', named, '-'], { stdin: text, env: { ROLLSTAMP_MAX_INPUT_BYTES: String(limit - 1) } });
    assert.is(over.code, 1);
    assert.is(over.stdout, '');
    assert.match(over.stderr, REFUSED);
    assert.is(Number(REFUSED.exec(over.stderr)?.[1]), limit - 1);
  });
}

test('the read stage asks standard input for what the files before it left of the limit, and refuses it by name when told it held more', async () => {
  const dir = tempDir('stdin-left');
  writeFileSync(join(dir, 'a.yaml'), APP);
  const asked: number[] = [];
  const io: Io = {
    readStdin: async (most) => {
      asked.push(most);
      return undefined;
    },
    writeStdout: async () => {},
    writeStderr: () => {},
    env: {},
    cwd: dir,
  };
  const limit = APP.length + 100;
  const err = await readInputs(['a.yaml', '-'], io, limit).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.equal(asked, [100]);
  assert.instance(err, Error);
  assert.is((err as Error).message, `<stdin>: input exceeds the limit of ${limit} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
});

test.run();
