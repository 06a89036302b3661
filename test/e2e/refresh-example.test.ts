// examples/refresh (#34): `npm run start:refresh` shows, against the fake cluster, a labels-only change requesting
// nothing, a rotated password hard-refreshing only the Application whose workload reads it, the render that follows
// rolling only that workload, and SIGTERM ending the refresher with 0 — in seconds, with no value printed.
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/run-cli.ts';

test('start:refresh: rotation → one hard refresh of the right Application → only its reader rolls (#34)', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/refresh/run-refresh.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.is(code, 0, out);
  assert.match(out, /no consumed key changed\.\n {2}Applications refreshed: 0\n/);
  assert.match(out, /\| rollstamp refresh: requested a hard refresh of Application argocd\/shop: Secret shop\/db changed: key password \(read by Deployment shop\/web\)\n/);
  assert.match(out, /Application argocd\/shop: argocd\.argoproj\.io\/refresh=hard {2}\(billing: untouched\)/);
  assert.match(out, /shop\/web +new hash: rolls\n {2}shop\/report +unchanged\n {2}billing\/api +unchanged\n/);
  assert.match(out, /SIGTERM: rollstamp refresh exited 0\./);
  assert.equal(out.match(/requested a hard refresh/g)?.length, 1, 'one request in all');
  for (const value of ['example-password-1', 'example-password-2', 'example-token-1']) assert.not.ok(out.includes(value), 'no value printed');
});

test.run();
