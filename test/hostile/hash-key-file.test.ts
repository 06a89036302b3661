// A hash key file is a small regular file (#12): a FIFO, a device such as /dev/zero, a directory or a file
// over 4 KiB is refused at once with one line, never read to the end and never waited on.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { cleanup, requireBundle, tempDir } from '../support/hostile.ts';

const INPUT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers:
      - {name: web, envFrom: [{secretRef: {name: db}}]}
`;

test.before(requireBundle);
test.after(cleanup);

/** `rollstamp stamp --hash-key-file FILE -`, killed after 20 s so a blocking read fails instead of hanging. */
function stampWithKey(file: string, viaEnv = false): { code: number | null; stdout: string; stderr: string; killed: boolean } {
  const argv = viaEnv ? ['stamp', '-'] : ['stamp', '--hash-key-file', file, '-'];
  const r = runBundle(argv, { stdin: INPUT, env: viaEnv ? { ROLLSTAMP_HASH_KEY_FILE: file } : {}, timeoutMs: 20_000, killSignal: 'SIGKILL' });
  return { code: r.signal === null ? r.code : null, stdout: r.stdout, stderr: r.stderr, killed: r.signal === 'SIGKILL' };
}

function assertRefused(r: ReturnType<typeof stampWithKey>, message: RegExp, what: string): void {
  assert.not.ok(r.killed, `${what}: rollstamp hung on the key file`);
  assert.is(r.code, 1, `${what}: exit 1\n${r.stderr}`);
  assert.is(r.stdout, '', what);
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `${what}: one line`);
  assert.match(r.stderr, message, what);
}

test('a FIFO as hash key file is refused at once, from the flag and from ROLLSTAMP_HASH_KEY_FILE (#12)', () => {
  const fifo = join(tempDir('fifo'), 'key');
  const made = spawnSync('mkfifo', [fifo]);
  assert.is(made.status, 0, `mkfifo: ${made.stderr}`);
  assertRefused(stampWithKey(fifo), /hash key file .*key: not a regular file/, 'FIFO via --hash-key-file');
  assertRefused(stampWithKey(fifo, true), /hash key file .*key: not a regular file/, 'FIFO via ROLLSTAMP_HASH_KEY_FILE');
});

test('/dev/zero, a directory and a file over 4 KiB are refused; a 4 KiB key is read (#12)', () => {
  assertRefused(stampWithKey('/dev/zero'), /^rollstamp: error: hash key file \/dev\/zero: not a regular file$/m, '/dev/zero');
  const dir = tempDir('keys');
  mkdirSync(join(dir, 'subdir'));
  assertRefused(stampWithKey(join(dir, 'subdir')), /not a regular file/, 'a directory');
  writeFileSync(join(dir, 'big'), 'k'.repeat(4097));
  assertRefused(stampWithKey(join(dir, 'big')), /: larger than 4096 bytes$/m, 'a 4097-byte file');
  writeFileSync(join(dir, 'max'), 'k'.repeat(4096));
  const ok = stampWithKey(join(dir, 'max'));
  assert.is(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /rollstamp\.dev\/hash: "hmac-sha256:[0-9a-f]{64}"/);
});

test.run();
