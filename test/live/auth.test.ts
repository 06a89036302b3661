// Which kubeconfig, which context, which credentials: --context, KUBECONFIG, ~/.kube/config, in-cluster,
// client certificates, and exec credential plugins (one that answers, one that never returns, one that fails).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readLive, readLiveWith } from '../../plugin/live/reader.ts';
import { startFakeApiServer, writeKubeconfig, type FakeApiServer } from '../support/fake-apiserver.ts';
import { cleanEnv, expectFailure, FAST, pkiOrSkip, secret, tempDir, TOKEN, VALUE_MARKER } from '../support/live.ts';

const pki = pkiOrSkip('test/live/auth.test.ts');
const it = pki ? test : test.skip;

let server: FakeApiServer;
let other: FakeApiServer;
const OTHER_TOKEN = 'TOKEN-MARKER-other-cluster';

test.before(async () => {
  if (!pki) return;
  server = await startFakeApiServer(pki, { tokens: [TOKEN], clientCerts: true });
  server.addSecret('ns', 's', { k: `main ${VALUE_MARKER}` });
  other = await startFakeApiServer(pki, { tokens: [OTHER_TOKEN] });
  other.addSecret('ns', 's', { k: `other ${VALUE_MARKER}` });
});

test.after(async () => {
  await server?.close();
  await other?.close();
});

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function twoContexts(dir: string, current?: string | null): string {
  return writeKubeconfig(dir, {
    server: server.url,
    caFile: pki!.caFile,
    user: { token: TOKEN },
    more: { other: { server: other.url, caFile: pki!.caFile, user: { token: OTHER_TOKEN } } },
    current,
  });
}

/** An executable /bin/sh script in `dir`. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

it('--context picks the cluster and user; without it the current-context is used', async () => {
  const kubeconfig = twoContexts(tempDir());
  const viaCurrent = await readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST });
  assert.is(text(viaCurrent.fetched.get('Secret/ns/s')?.get('k')), `main ${VALUE_MARKER}`);
  const viaOther = await readLive([secret('ns', 's')], { kubeconfig, context: 'other', env: cleanEnv(), ...FAST });
  assert.is(text(viaOther.fetched.get('Secret/ns/s')?.get('k')), `other ${VALUE_MARKER}`);
});

it('an unknown context, or none at all, is one clear line', async () => {
  const kubeconfig = twoContexts(tempDir());
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig, context: 'prod', env: cleanEnv() }), 'kubeconfig', [
    /^live read: context "prod" is not in \/.*\/kubeconfig$/,
  ]);
  const noCurrent = twoContexts(tempDir(), null);
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: noCurrent, env: cleanEnv() }), 'kubeconfig', [
    /^live read: \/.*\/kubeconfig sets no current-context; pass --context$/,
  ]);
});

it('a missing, unreadable or invalid kubeconfig is one clear line that quotes nothing from it', async () => {
  const dir = tempDir();
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: join(dir, 'nope'), env: cleanEnv() }), 'kubeconfig', [
    /^live read: kubeconfig \/.*\/nope does not exist$/,
  ]);
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: dir, env: cleanEnv() }), 'kubeconfig', [/is not a readable regular file$/]);
  const broken = join(dir, 'broken');
  writeFileSync(broken, `users:\n- name: u\n  user: {token: ${TOKEN}\n  : [\n`);
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: broken, env: cleanEnv() }), 'kubeconfig', [
    /^live read: kubeconfig \/.*\/broken: not valid YAML$/,
  ]);
  const noServer = join(dir, 'no-server');
  writeFileSync(noServer, JSON.stringify({ clusters: [{ name: 'c', cluster: {} }] }));
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: noServer, env: cleanEnv() }), 'kubeconfig', [
    /^live read: kubeconfig \/.*\/no-server: clusters\[0\]\.cluster\.server is missing$/,
  ]);
  // Certificate-authority data that is not a certificate adds no trust (Node ignores it): verification fails.
  const kcWith = (file: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string => {
    writeFileSync(
      join(dir, file),
      JSON.stringify({
        clusters: [{ name: 'c', cluster: { server: server.url, ...cluster } }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    return join(dir, file);
  };
  const junk = Buffer.from(`not PEM ${TOKEN}`).toString('base64');
  const badCa = kcWith('bad-ca', { 'certificate-authority-data': junk }, { token: TOKEN });
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: badCa, env: cleanEnv() }), 'tls', [/TLS verification of .* failed/]);
  const badKey = kcWith('bad-key', { 'certificate-authority': pki!.caFile }, { 'client-certificate': pki!.clientCertFile, 'client-key-data': junk });
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: badKey, env: cleanEnv() }), 'kubeconfig', [
    /^live read: cluster "c" \(context "x"\): the certificate authority or client certificate\/key of kubeconfig user "u" is not valid \(ERR_OSSL_[A-Z_]+\)$/,
  ]);
  const missingCa = writeKubeconfig(dir, { server: server.url, caFile: join(dir, 'no-ca.crt'), user: { token: TOKEN } }, 'missing-ca');
  await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig: missingCa, env: cleanEnv() }), 'kubeconfig', [
    /the kubeconfig names \/.*\/no-ca\.crt, which cannot be read \(ENOENT\)$/,
  ]);
});

it('KUBECONFIG: missing entries are skipped, the first file wins a name clash; then ~/.kube/config; then nothing', async () => {
  const dir = tempDir();
  const first = twoContexts(dir);
  const second = writeKubeconfig(dir, { server: 'https://127.0.0.1:1', caFile: pki!.caFile, user: { token: 'x' } }, 'second');
  const env = cleanEnv({ KUBECONFIG: [join(dir, 'absent'), first, second].join(':') });
  const out = await readLive([secret('ns', 's')], { env, ...FAST });
  assert.is(text(out.fetched.get('Secret/ns/s')?.get('k')), `main ${VALUE_MARKER}`);
  await expectFailure(() => readLive([secret('ns', 's')], { env: cleanEnv({ KUBECONFIG: join(dir, 'absent') }) }), 'kubeconfig', [
    /^live read: none of the files in KUBECONFIG exists/,
  ]);

  const home = tempDir();
  mkdirSync(join(home, '.kube'));
  twoContexts(join(home, '.kube')); // writes .kube/kubeconfig
  writeFileSync(join(home, '.kube', 'config'), readFileSync(join(home, '.kube', 'kubeconfig')));
  const viaHome = await readLive([secret('ns', 's')], { env: { ...cleanEnv(), HOME: home }, context: 'other', ...FAST });
  assert.is(text(viaHome.fetched.get('Secret/ns/s')?.get('k')), `other ${VALUE_MARKER}`);

  await expectFailure(() => readLive([secret('ns', 's')], { env: cleanEnv() }), 'kubeconfig', [
    /^live read: no kubeconfig: pass --kubeconfig, set KUBECONFIG, create ~\/\.kube\/config, or run in a pod with a service account token$/,
  ]);
});

it('in a pod: KUBERNETES_SERVICE_HOST/PORT and the service account token (trailing newline and all)', async () => {
  const sa = tempDir();
  writeFileSync(join(sa, 'token'), `${TOKEN}\n`);
  writeFileSync(join(sa, 'ca.crt'), readFileSync(pki!.caFile));
  const env = cleanEnv({ KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(server.port) });
  const out = await readLiveWith([secret('ns', 's')], { env, ...FAST }, { serviceAccountDir: sa });
  assert.is(text(out.fetched.get('Secret/ns/s')?.get('k')), `main ${VALUE_MARKER}`);
  await expectFailure(() => readLiveWith([secret('ns', 's')], { env, ...FAST }, { serviceAccountDir: tempDir() }), 'kubeconfig', [
    /^live read: running in a pod but there is no service account token at \/.*\/token \(mount a projected token into this container, or pass --kubeconfig\)$/,
  ]);
  writeFileSync(join(sa, 'token'), 'TOKEN-MARKER-expired');
  await expectFailure(() => readLiveWith([secret('ns', 's')], { env, ...FAST }, { serviceAccountDir: sa }), 'unauthorized', [
    /refused the credentials of the service account token/,
  ]);
});

it('a client certificate from the kubeconfig authenticates', async () => {
  const kubeconfig = writeKubeconfig(tempDir(), {
    server: server.url,
    caFile: pki!.caFile,
    user: { 'client-certificate': pki!.clientCertFile, 'client-key': pki!.clientKeyFile },
  });
  const out = await readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST });
  assert.ok(out.fetched.get('Secret/ns/s'));
});

it('an exec credential plugin that returns a token works, runs once per run, and is told it is not interactive', async () => {
  const dir = tempDir();
  const log = join(dir, 'runs.log');
  const plugin = script(
    dir,
    'get-token.sh',
    `printf '%s\\n' "$KUBERNETES_EXEC_INFO" >> '${log}'\n` +
      `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$PLUGIN_TOKEN"`,
  );
  for (let i = 0; i < 20; i++) server.addSecret('ns', `e${i}`, { k: 'v' });
  const kubeconfig = writeKubeconfig(dir, {
    server: server.url,
    caFile: pki!.caFile,
    user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './get-token.sh', env: [{ name: 'PLUGIN_TOKEN', value: TOKEN }] } },
  });
  const needs = Array.from({ length: 20 }, (_, i) => secret('ns', `e${i}`));
  const out = await readLive(needs, { kubeconfig, env: cleanEnv(), ...FAST });
  assert.is(out.fetched.size, 20);
  const runs = readFileSync(log, 'utf8').trim().split('\n');
  assert.is(runs.length, 1, 'the plugin runs once per run, not once per request');
  assert.equal(JSON.parse(runs[0]!), { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false } });
  assert.ok(existsSync(plugin));
});

it('an exec credential plugin that never returns fails within the deadline, names the plugin, and is killed', async () => {
  const dir = tempDir();
  const pidFile = join(dir, 'pid');
  const plugin = script(dir, 'hang.sh', `echo $$ > '${pidFile}'\nexec sleep 600`);
  const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin } } });
  const { ms } = await expectFailure(
    () => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST, deadlineMs: 800 }),
    'exec',
    [new RegExp(`^live read: exec credential plugin "${plugin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" \\(kubeconfig user "main-user"\\)`), /0\.8 s deadline/],
    1300,
  );
  assert.ok(ms >= 750, `${ms} ms`);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  // Killed, not killed quickly: the wait ends as soon as the process is gone, and a loaded machine may take a
  // while to reap it, so it allows 10 s rather than a bound a slow reap could miss.
  const gone = async (): Promise<boolean> => {
    for (let i = 0; i < 200; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  assert.ok(await gone(), `plugin process ${pid} still runs after the failure`);
});

it('an exec plugin that fails, prints garbage or is missing: one line with the command, never its output', async () => {
  const dir = tempDir();
  const failing = script(dir, 'fail.sh', `echo "error: token ${TOKEN} expired" >&2\nexit 3`);
  const garbage = script(dir, 'garbage.sh', `echo '{"kind":"ExecCredential","status":{"note":"${VALUE_MARKER}"}}'`);
  const cases: Array<[string, RegExp]> = [
    [failing, /fail\.sh failed \(exit 3\)$/],
    [garbage, /its output is not an ExecCredential with a status\.token or client certificate$/],
    [join(dir, 'absent.sh'), /could not start|not installed/],
  ];
  for (const [command, pattern] of cases) {
    const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user: { exec: { command } } }, 'kc-exec');
    await expectFailure(() => readLive([secret('ns', 's')], { kubeconfig, env: cleanEnv(), ...FAST }), 'exec', [/^live read: exec credential plugin "/, pattern]);
  }
});

test.run();
