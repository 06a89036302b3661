// readLive's transport: every request is bounded in time (hang, silent server, trickled body), the run has a
// deadline, TLS is verified whatever NODE_TLS_REJECT_UNAUTHORIZED says, and plain http is refused unless the
// kubeconfig opts out of TLS verification for that cluster.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readLive } from '../../plugin/live/reader.ts';
import { secretPath, startBlackhole, startFakeApiServer, writeKubeconfig } from '../support/fake-apiserver.ts';
import { cleanEnv, expectFailure, FAST, pkiOrSkip, secret, tempDir, TOKEN, VALUE_MARKER } from '../support/live.ts';

const pki = pkiOrSkip('test/live/transport.test.ts');
const it = pki ? test : test.skip;

it('a request the server never answers fails by the request timeout, naming the object', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  try {
    server.addSecret('ns', 'ok', { k: 'v' });
    server.always(secretPath('team-a', 'db-creds'), { kind: 'hang' });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
    const { ms } = await expectFailure(
      () => readLive([secret('ns', 'ok'), secret('team-a', 'db-creds')], { kubeconfig, env: cleanEnv(), ...FAST, requestTimeoutMs: 300 }),
      'timeout',
      [/^live read of Secret team-a\/db-creds: timed out after 0\.3 s \(no complete answer from https:\/\/127\.0\.0\.1:\d+\)$/],
      1000,
    );
    assert.ok(ms >= 290, `failed before the timeout: ${ms} ms`);
    assert.is(server.count(secretPath('team-a', 'db-creds')), 1, 'a timeout is not retried');
  } finally {
    await server.close();
  }
});

it('a server that accepts the connection and never sends a byte fails by the request timeout', async () => {
  const hole = await startBlackhole();
  try {
    const kubeconfig = writeKubeconfig(tempDir(), { server: hole.url, caFile: pki!.caFile, user: { token: TOKEN } });
    await expectFailure(
      () => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST, requestTimeoutMs: 300 }),
      'timeout',
      [/^live read of Secret ns\/s: timed out after 0\.3 s/],
      1000,
    );
  } finally {
    await hole.close();
  }
});

it('a body trickled one byte at a time fails by the request timeout (it covers the whole body)', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  try {
    server.addSecret('ns', 'slow', { k: VALUE_MARKER });
    server.always(secretPath('ns', 'slow'), { kind: 'trickle', intervalMs: 100 });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
    const { ms } = await expectFailure(
      () => readLive([secret('ns', 'slow')], { kubeconfig, env: cleanEnv(), ...FAST, requestTimeoutMs: 600 }),
      'timeout',
      [/^live read of Secret ns\/slow: timed out after 0\.6 s/],
      1500,
    );
    assert.ok(ms >= 590, `${ms} ms`);
  } finally {
    await server.close();
  }
});

it('the run deadline stops everything and says how far it got', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN], answerDelayMs: 150 });
  try {
    const needs = Array.from({ length: 40 }, (_, i) => secret('ns', `s${i}`));
    for (const n of needs) server.addSecret('ns', n.name, { k: 'v' });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
    const { ms } = await expectFailure(
      () => readLive(needs, { kubeconfig, env: cleanEnv(), requestTimeoutMs: 1000, deadlineMs: 700, concurrency: 2 }),
      'deadline',
      [/^live read: deadline of 0\.7 s passed with \d+ of 40 objects read \(waiting for Secret ns\/s\d+ and 1 more\)$/],
      1000,
    );
    assert.ok(ms >= 690, `${ms} ms`);
    assert.ok(server.count() < 40);
  } finally {
    await server.close();
  }
});

it('a certificate from another CA fails, even with NODE_TLS_REJECT_UNAUTHORIZED=0 in the env and in process.env', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  const saved = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  try {
    server.addSecret('ns', 's', { k: VALUE_MARKER });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, caFile: pki!.otherCaFile, user: { token: TOKEN } });
    const tls = [/^live read of Secret ns\/s: TLS verification of https:\/\/127\.0\.0\.1:\d+ failed \([A-Z_]+\); check certificate-authority in the kubeconfig$/];
    await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST }), 'tls', tls);
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    await expectFailure(
      () => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }), ...FAST }),
      'tls',
      tls,
    );
    // No certificate-authority at all: the system roots do not know the test CA either.
    const noCa = writeKubeconfig(tempDir(), { server: server.url, user: { token: TOKEN } });
    await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: noCa, env: cleanEnv(), ...FAST }), 'tls', tls);
    assert.is(server.count(), 0, 'no request reached the server, so the token was never sent');
  } finally {
    if (saved === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = saved;
    await server.close();
  }
});

it('insecure-skip-tls-verify: true in the kubeconfig is the one way to skip verification', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  try {
    server.addSecret('ns', 's', { k: 'v' });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, insecure: true, user: { token: TOKEN } });
    const out = await readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST });
    assert.ok(out.fetched.get('Secret/ns/s'));
  } finally {
    await server.close();
  }
});

it('an http:// server is refused before any request, unless the kubeconfig says insecure-skip-tls-verify', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN], plainHttp: true });
  try {
    server.addSecret('ns', 's', { k: 'v' });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, user: { token: TOKEN } });
    await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST }), 'kubeconfig', [
      /^live read: the server of cluster "main" \(context "main"\) is http:\/\/127\.0\.0\.1:\d+: plain http is refused unless the kubeconfig sets insecure-skip-tls-verify: true for that cluster$/,
    ]);
    assert.is(server.count(), 0);
    const optedOut = writeKubeconfig(tempDir(), { server: server.url, insecure: true, user: { token: TOKEN } });
    const out = await readLive([secret('ns', 's')], { kubeconfig: optedOut, env: cleanEnv(), ...FAST });
    assert.ok(out.fetched.get('Secret/ns/s'));
  } finally {
    await server.close();
  }
});

it('a refused connection fails at once, naming the server', async () => {
  const hole = await startBlackhole();
  const url = hole.url;
  await hole.close(); // nothing listens there now
  const kubeconfig = writeKubeconfig(tempDir(), { server: url, caFile: pki!.caFile, user: { token: TOKEN } });
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST }), 'network', [
    /^live read of Secret ns\/s: cannot reach https:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
  ]);
});

test.run();
