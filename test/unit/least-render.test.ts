// The per-render benches' reference program (bench/least-render.mjs): it must do what the benches say every
// render does — read all of standard input, digest it with SHA-256, write it back — or the room they print for
// rollstamp's own code would be measured against a program that does less.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/tools.ts';

const LEAST = join(ROOT, 'bench/least-render.mjs');

test('it writes its whole input back after one line that depends on the digest', () => {
  const input = `${'apiVersion: v1\nkind: ConfigMap\n'.repeat(5000)}ünïcode: ✓\n`;
  const r = spawnSync(process.execPath, [LEAST], { input, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const digest = createHash('sha256').update(input).digest('hex');
  assert.is(r.stdout, `# ${digest.length}\n${input}`);
});

test('it answers SIGTERM while it waits for its input', async () => {
  const child = spawn(process.execPath, [LEAST], { stdio: ['pipe', 'ignore', 'ignore'] });
  // The input stays open: the program is waiting in the stream's events when the signal comes. A write of more
  // than a pipe holds is flushed only once the program reads, which it does after setting its handler.
  await new Promise<void>((resolve, reject) => child.stdin.write('kind: ConfigMap\n'.repeat(65536), (e) => (e ? reject(e) : resolve())));
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.is(code, 143);
});

test.run();
