// A closed stdout (#12): `rollstamp stamp big.yaml | head -1` must end quietly — no stack trace, no
// "internal error" — with exit 0 or the SIGPIPE status 141, as other filters do. Run against the built
// bundle with a multi-MB input, so the write is far larger than any pipe buffer.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, removeTempDirs, requireBundle, tempDir } from '../support/tools.ts';

test.after(removeTempDirs);

/** About 4 MB of ConfigMaps and one opted-in Deployment (so the output is a stamped stream). */
function bigInput(): string {
  const parts: string[] = ['apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        envFrom:\n        - configMapRef: {name: c0}\n'];
  for (let i = 0; i < 25_000; i++) parts.push(`---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  value: "${'x'.repeat(100)}"\n`);
  return parts.join('');
}

/** Runs the bundle and closes the read end of its stdout after the first chunk, as `head -1` does. */
function runAndCloseStdout(args: string[], cwd: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; first: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.once('data', (c: Buffer) => {
      first = c.toString('utf8');
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, first }));
  });
}

for (const args of [['stamp', 'big.yaml'], ['stamp', '--targets', 'all', 'big.yaml']]) {
  test(`rollstamp ${args.join(' ')} with stdout closed after the first chunk ends quietly (#12)`, async () => {
    requireBundle();
    const dir = tempDir('closed-stdout');
    writeFileSync(join(dir, 'big.yaml'), bigInput());
    const r = await runAndCloseStdout(args, dir);
    assert.ok(r.first.length > 0, 'some output was read before the pipe closed');
    assert.is(r.stderr, '', 'nothing on stderr: no stack trace, no internal error');
    assert.ok(r.code === 0 || r.code === 141 || r.signal === 'SIGPIPE', `exit ${r.code} / ${r.signal}`);
  });
}

test.run();
