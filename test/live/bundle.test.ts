// The reader still works when bundled with plugin/live/client-node-stubs.mjs (client-node's unused modules
// stubbed out): token, client certificate and exec plugin all read through the bundle, and the auth-providers
// and proxy-url the stubs replace are refused with a clear line before a stub could be reached.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { slimClientNode } from '../../plugin/live/client-node-stubs.mjs';
import type { readLive as ReadLive } from '../../plugin/live/reader.ts';
import { startFakeApiServer, writeKubeconfig } from '../support/fake-apiserver.ts';
import { cleanEnv, FAST, pkiOrSkip, secret, tempDir, TOKEN, VALUE_MARKER } from '../support/live.ts';

const pki = pkiOrSkip('test/live/bundle.test.ts');
const it = pki ? test : test.skip;

async function bundledReader(): Promise<{ readLive: typeof ReadLive; source: string }> {
  const out = join(tempDir(), 'reader.mjs');
  const result = await build({
    stdin: { contents: "export { readLive } from './plugin/live/reader.ts';", resolveDir: process.cwd(), loader: 'ts', sourcefile: 'entry.ts' },
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);" },
    logLevel: 'silent',
    metafile: true,
    plugins: [slimClientNode],
  });
  const source = Object.keys(result.metafile.inputs).join('\n');
  return { readLive: ((await import(pathToFileURL(out).href)) as { readLive: typeof ReadLive }).readLive, source };
}

it('a bundle with the stubs leaves out the unused modules and still reads with a token, a client certificate and an exec plugin', async () => {
  const { readLive, source } = await bundledReader();
  for (const gone of ['@kubernetes/client-node/dist/gen/', 'openid-client/', 'socks-proxy-agent/', 'hpagent/', 'node-fetch/', 'jsonpath-plus/']) {
    assert.not.ok(source.includes(`node_modules/${gone}`), `${gone} is still bundled`);
  }
  assert.ok(source.includes('rollstamp-client-node-stub:gen/index.js'), 'the stubs are in place');
  assert.ok(source.includes('@kubernetes/client-node/dist/config.js'), 'KubeConfig itself is bundled');

  const server = await startFakeApiServer(pki!, { tokens: [TOKEN], clientCerts: true });
  try {
    server.addSecret('ns', 's', { k: VALUE_MARKER });
    const dir = tempDir();
    const users: Array<Record<string, unknown>> = [
      { token: TOKEN },
      { 'client-certificate': pki!.clientCertFile, 'client-key': pki!.clientKeyFile },
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: '/bin/sh',
          args: ['-c', `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${TOKEN}"}}'`],
        },
      },
    ];
    for (const [i, user] of users.entries()) {
      const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user }, `kc-${i}`);
      const out = await readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST });
      assert.equal(out.fetched.get('Secret/ns/s')?.get('k'), new TextEncoder().encode(VALUE_MARKER), `user ${Object.keys(user)[0]}`);
    }

    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ 'auth-provider': { name: 'oidc', config: { 'id-token': TOKEN } } }, /uses the "oidc" auth-provider, which live reads do not support; use an exec credential plugin$/],
      [{ 'auth-provider': { name: 'gcp', config: {} } }, /uses the "gcp" auth-provider/],
    ];
    for (const [user, pattern] of refused) {
      const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user }, 'kc-refused');
      const err = await readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST }).then(() => undefined, (e: Error) => e);
      assert.ok(err, 'refused');
      assert.match(err!.message, /^live read: kubeconfig user "main-user" /);
      assert.match(err!.message, pattern);
      assert.not.ok(err!.message.includes(TOKEN));
    }
    assert.is(server.count(), users.length, 'no request for a refused auth-provider');
  } finally {
    await server.close();
  }
});

test('the refresher bundles client-node\'s informer (ListWatch) without node-fetch, the generated models or their serializer (#34)', async () => {
  const result = await build({
    stdin: { contents: "export { runRefresh } from './plugin/commands/refresh/refresh.ts';", resolveDir: process.cwd(), loader: 'ts', sourcefile: 'entry.ts' },
    write: false,
    outdir: tempDir(),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    metafile: true,
    plugins: [slimClientNode],
  });
  const source = Object.keys(result.metafile.inputs).join('\n');
  assert.ok(source.includes('@kubernetes/client-node/dist/cache.js'), 'ListWatch is bundled');
  for (const gone of ['@kubernetes/client-node/dist/gen/', 'node-fetch/', 'openid-client/', 'jsonpath-plus/']) {
    assert.not.ok(source.includes(`node_modules/${gone}`), `${gone} is still bundled`);
  }
  assert.ok(source.includes('rollstamp-client-node-stub:serializer.js'), 'the serializer stub is in place');
});

test.run();
