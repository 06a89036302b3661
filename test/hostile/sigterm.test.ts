// SECURITY.md "It stops when told" (#12, #21): SIGTERM ends rollstamp within 2 s — waiting for stdin, parsing
// a large input (synchronous work in the run's worker; main.ts's thread handles the signal), waiting for the
// cluster — with nothing on stdout; a SIGTERM while the output is written never truncates it. (Rendering:
// renderers.test.ts; planning, hashing and building the output: sigterm-phases.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { deployment, secret, stream } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

const TERM_LIMIT_MS = 2000;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the SIGTERM to the exit. */
  afterTermMs: number;
}

function start(argv: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BUNDLE, ...argv], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Sends SIGTERM once `ready` resolves (the child must still be running then) and waits for the exit. */
async function termWhen(child: ChildProcess, ready: Promise<void>, readStdout = true): Promise<Ended> {
  let stdout = '';
  let stderr = '';
  if (readStdout) child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  await ready;
  assert.is(child.exitCode, null, `still running when SIGTERM is sent (stderr: ${stderr.slice(0, 200)})`);
  const t0 = Date.now();
  child.kill('SIGTERM');
  if (!readStdout) {
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stdout!.resume();
  }
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const { code, signal } = await exited;
  clearTimeout(guard);
  return { code, signal, stdout, stderr, afterTermMs: Date.now() - t0 };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function assertTerminated(e: Ended, what: string): void {
  assert.ok(e.signal === 'SIGTERM' || e.code === 143, `${what}: ended by SIGTERM (code ${e.code}, signal ${e.signal}, stderr ${e.stderr.slice(0, 200)})`);
  assert.ok(e.afterTermMs < TERM_LIMIT_MS, `${what}: ended ${e.afterTermMs} ms after SIGTERM (limit ${TERM_LIMIT_MS} ms)`);
  assert.is(e.stdout, '', `${what}: nothing on stdout`);
}

test('SIGTERM while waiting for stdin: ends within 2 s, nothing on stdout', async () => {
  const child = start(['stamp', '-'], tempDir('term'));
  const e = await termWhen(child, sleep(500));
  assertTerminated(e, 'stdin');
});

test('SIGTERM while parsing a large input: ends within 2 s, nothing on stdout (#12)', async () => {
  // 300,000 keys behind an anchor: the yaml library's composer runs for seconds, synchronously.
  const lines = ['  k0: &a v0'];
  for (let i = 1; i < 300_000; i++) lines.push(`  k${i}: v${i}`);
  const dir = tempDir('term');
  writeFileSync(join(dir, 'big.yaml'), stream([`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${lines.join('\n')}\n`, deployment('web', { secret: 'db' })]));
  const child = start(['stamp', 'big.yaml'], dir);
  // Parsing has begun once the process has spent a second of CPU time (start-up and reading take far less).
  const ready = (async (): Promise<void> => {
    for (let i = 0; i < 400 && child.exitCode === null; i++) {
      await sleep(50);
      if (cpuSeconds(child.pid!) >= 1) return;
    }
  })();
  const e = await termWhen(child, ready);
  assertTerminated(e, 'parsing');
});

test('SIGTERM while waiting for the cluster: ends within 2 s, nothing on stdout (#12)', async () => {
  // A server that accepts connections and never answers: the live read waits for its request timeout.
  const sockets: Socket[] = [];
  let connected!: () => void;
  const firstConnection = new Promise<void>((r) => (connected = r));
  const server: Server = createServer((s) => {
    sockets.push(s);
    connected();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const dir = tempDir('term');
  writeFileSync(join(dir, 'kubeconfig'), `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`);
  writeFileSync(join(dir, 'app.yaml'), deployment('web', { secret: 'db' }));
  try {
    const child = start(['stamp', '--live', 'missing', '--kubeconfig', 'kubeconfig', 'app.yaml'], dir, { ROLLSTAMP_LIVE_TIMEOUT_SECONDS: '60', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '120' });
    const e = await termWhen(child, firstConnection);
    assertTerminated(e, 'live read');
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
});

test('SIGTERM while the output is written: the output is complete, never cut short (#12)', async () => {
  // ~6 MB of output into a pipe nobody reads yet: the write blocks after the pipe's buffer fills.
  const value = 'dmFsdWU='.repeat(64);
  const docs = [secret('db', '  password: cGFzcw=='), deployment('web', { secret: 'db' })];
  for (let i = 0; i < 6000; i++) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  a: "${value}"\n  b: "${value}"\n`);
  const dir = tempDir('term');
  const text = stream(docs);
  writeFileSync(join(dir, 'app.yaml'), text);
  const child = start(['stamp', 'app.yaml'], dir);
  // The first bytes on stdout mean the write has begun; nothing more is read until SIGTERM is sent.
  const writing = new Promise<void>((resolve) => child.stdout!.once('readable', () => resolve()));
  const e = await termWhen(child, writing, false);
  assert.ok(e.code === 0 || e.code === 143, `exit 0 or 143 (code ${e.code}, signal ${e.signal}, stderr ${e.stderr.slice(0, 200)})`);
  assert.ok(e.stdout.length > text.length, `the whole stream was written (${e.stdout.length} of at least ${text.length} bytes)`);
  assert.ok(e.stdout.endsWith(docs[docs.length - 1]!), 'it ends with the last document');
});

/** CPU seconds (user + system) a process has used, from /proc (0 when unreadable). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

test.run();
