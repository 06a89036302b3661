// 500 Secrets across 10 namespaces: one GET per object (no list, no duplicate, no retry), every byte right.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readLive } from '../../plugin/live/reader.ts';
import { secretPath, startFakeApiServer, writeKubeconfig } from '../support/fake-apiserver.ts';
import { cleanEnv, pkiOrSkip, secret, tempDir, TOKEN } from '../support/live.ts';

const pki = pkiOrSkip('test/live/scale.test.ts');
const it = pki ? test : test.skip;

it('reads 500 Secrets in 10 namespaces with exactly one request each', async () => {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN], answerDelayMs: 2 });
  try {
    const needs = Array.from({ length: 500 }, (_, i) => secret(`team-${i % 10}`, `app-${i}`));
    for (const n of needs) server.addSecret(n.namespace, n.name, { password: `pw-${n.name}` });
    const kubeconfig = writeKubeconfig(tempDir(), { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
    const started = performance.now();
    const out = await readLive(needs, { kubeconfig, env: cleanEnv() });
    const ms = performance.now() - started;
    console.log(`  500 Secrets / 10 namespaces: ${out.requests} requests in ${ms.toFixed(0)} ms`);
    assert.is(out.requests, 500);
    assert.is(server.count(), 500);
    assert.equal([...new Set(server.paths)].sort(), needs.map((n) => secretPath(n.namespace, n.name)).sort());
    assert.is(out.fetched.size, 500);
    for (const n of needs) assert.equal(out.fetched.get(n.id)?.get('password'), new TextEncoder().encode(`pw-${n.name}`));
  } finally {
    await server.close();
  }
});

test.run();
