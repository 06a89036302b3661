// SECURITY.md "Live reads" (#21), through the built bundle: an API server that redirects, or answers with a
// body over the 4 MiB cap (declared, or chunked with no length), fails the run closed — exit 1, nothing on
// stdout, one stderr line — and a redirect is never followed, so the token never reaches the other host.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE } from '../support/run-cli.ts';
import { secretPath, startFakeApiServer, STATUS_MESSAGE_MARKER, writeKubeconfig, type Behaviour } from '../support/fake-apiserver.ts';
import { pkiOrSkip, tempDir, TOKEN, VALUE_MARKER } from '../support/live.ts';

const pki = pkiOrSkip('test/live/hostile-server.test.ts');
const it = pki ? test : test.skip;

const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  template:
    spec:
      containers:
      - name: c
        envFrom:
        - secretRef: {name: db}
`;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `rollstamp stamp --live missing` of APP against a fake API server scripted with `behaviour` for Secret shop/db. */
async function stampAgainst(behaviour: Behaviour | undefined, secretData?: Record<string, string>): Promise<Ended & { requests: number }> {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  try {
    if (behaviour) server.always(secretPath('shop', 'db'), behaviour);
    if (secretData) server.addSecret('shop', 'db', secretData);
    const dir = tempDir();
    const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
    writeFileSync(join(dir, 'app.yaml'), APP);
    const ended = await new Promise<Ended>((resolve) => {
      // Asynchronous: the fake server runs in this process and must answer while the bundle waits.
      const child = spawn(process.execPath, [BUNDLE, 'stamp', '--live', 'missing', '--kubeconfig', kubeconfig, 'app.yaml'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, ROLLSTAMP_LIVE_TIMEOUT_SECONDS: '10', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '20' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(guard);
        resolve({ code, stdout, stderr });
      });
    });
    return { ...ended, requests: server.count(secretPath('shop', 'db')) };
  } finally {
    await server.close();
  }
}

function assertClosed(r: Ended, message: RegExp, what: string): void {
  assert.is(r.code, 1, `${what}: exit 1 (stderr: ${r.stderr})`);
  assert.is(r.stdout, '', `${what}: nothing on stdout`);
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `${what}: one stderr line: ${JSON.stringify(r.stderr)}`);
  assert.match(r.stderr, message, what);
  for (const leak of [TOKEN, VALUE_MARKER, STATUS_MESSAGE_MARKER]) assert.not.ok(r.stderr.includes(leak), `${what}: ${leak} leaked`);
}

it('a control: the same request against a server that answers is stamped', async () => {
  const r = await stampAgainst(undefined, { password: VALUE_MARKER });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"/);
});

it('an API server that redirects fails closed with one line, and the redirect is not followed (#21)', async () => {
  // Where the redirects point: a plain server that counts what reaches it (and would see the token).
  let reached = 0;
  let sawToken = false;
  const other = http.createServer((req, res) => {
    reached++;
    if (String(req.headers.authorization ?? '').includes(TOKEN)) sawToken = true;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(other.address() as { port: number }).port}/api/v1/namespaces/shop/secrets/db`;
  try {
    for (const code of [301, 302, 303, 307, 308]) {
      const r = await stampAgainst({ kind: 'raw', code, body: '', headers: { location: target } });
      assertClosed(r, new RegExp(`live read of Secret shop/db: HTTP ${code} from https://127\\.0\\.0\\.1:\\d+: a redirect, not followed`), `HTTP ${code}`);
      assert.is(r.requests, 1, `HTTP ${code}: not retried`);
    }
  } finally {
    await new Promise<void>((r) => other.close(() => r()));
  }
  assert.is(reached, 0, 'no request reached the redirect target');
  assert.not.ok(sawToken);
});

it('an answer over the 4 MiB cap fails closed with one line, declared or chunked (#21)', async () => {
  const big = JSON.stringify({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 'db', namespace: 'shop' }, data: { k: 'QUFB'.repeat(1.25 * 1024 * 1024) } });
  const cases: [string, Behaviour][] = [
    ['with content-length', { kind: 'raw', code: 200, body: big, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) } }],
    ['chunked, no length', { kind: 'raw', code: 200, body: big, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }],
  ];
  for (const [what, behaviour] of cases) {
    const r = await stampAgainst(behaviour);
    assertClosed(r, /^rollstamp: error: live read of Secret shop\/db: the answer is larger than 4 MiB/, what);
  }
});

test.run();
