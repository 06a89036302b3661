// Live reads through the commands, against the loopback fake API server: the same bytes give the same hash
// from the cluster as from the input; `missing` and `always` read exactly what they should; a failed read
// writes nothing; `generate` reads only the destination namespace and the operator's allowlist, and refuses
// live settings from the repository; no live value reaches any channel.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE, runInProcess, type CliRun } from '../support/run-cli.ts';
import { secretPath, startFakeApiServer, writeKubeconfig, type FakeApiServer } from '../support/fake-apiserver.ts';
import { pkiOrSkip, tempDir, TOKEN } from '../support/live.ts';
import { deployment } from '../support/objects.ts';

const pki = pkiOrSkip('e2e/live-commands.test.ts');
const CANARY = 'CANARY-live-9d1e5a77';
const FAST_ENV = { ROLLSTAMP_LIVE_TIMEOUT_SECONDS: '1', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '4' };

const plainSecret = (namespace: string, name: string): string =>
  `---\napiVersion: v1\nkind: Secret\nmetadata: {name: ${name}, namespace: ${namespace}}\nstringData:\n  password: ${CANARY}\n  user: app\n`;

const externalSecret = (namespace: string, name: string): string => `---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  data:
  - secretKey: password
    remoteRef: {key: prod/db, property: password}
`;

/** A ResourceList holding one document, with functionConfig `live: missing`. */
function resourceList(doc: string): string {
  const items = doc.replace(/^/gm, '  ').replace(/^ {2}apiVersion/, '- apiVersion');
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {live: missing}\nitems:\n${items}`;
}

const hashOf = (out: string): string | undefined => /rollstamp\.dev\/hash: "?([a-z0-9-]+:[0-9a-f]{64})/.exec(out)?.[1];

interface Env {
  server: FakeApiServer;
  dir: string;
  kubeconfig: string;
}

async function cluster(): Promise<Env> {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN], forbiddenNamespaces: ['locked'] });
  server.addSecret('shop', 'db', { password: CANARY, user: 'app' });
  const dir = tempDir();
  const kubeconfig = writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } });
  return { server, dir, kubeconfig };
}

/** Runs the CLI and checks the canary is on no channel (stamp never echoes a live value: it is not in the input). */
async function run(argv: string[], opts: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const r = await runInProcess(argv, { ...opts, env: { ...FAST_ENV, HOME: '/nonexistent', ...opts.env } });
  const b64 = Buffer.from(CANARY).toString('base64');
  for (const form of [CANARY, b64, b64.replace(/=+$/, ''), Buffer.from(CANARY).toString('hex')]) {
    assert.not.ok(r.stdout.includes(form) || r.stderr.includes(form), `a live value reached a channel (${argv.join(' ')})`);
  }
  return r;
}

test('a Secret read live hashes exactly like the same Secret in the input', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const fromInput = await run(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + plainSecret('shop', 'db').replace(CANARY, 'PLACEHOLDER') });
    const fromInputSame = await runInProcess(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + plainSecret('shop', 'db') });
    assert.is(fromInput.code, 0, fromInput.stderr);
    const live = await run(['stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) });
    assert.is(live.code, 0, live.stderr);
    assert.is(live.stderr, '');
    assert.is(hashOf(live.stdout), hashOf(fromInputSame.stdout));
    assert.is.not(hashOf(live.stdout), hashOf(fromInput.stdout));
    assert.is(env.server.count(secretPath('shop', 'db')), 1);
  } finally {
    await env.server.close();
  }
});

test('live: never (the default) makes no request; missing reads only what the input lacks', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const never = await run(['stamp', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) });
    assert.is(never.code, 0);
    assert.match(never.stderr, /Secret shop\/db is not in the input/);
    assert.is(env.server.paths.length, 0);
    const inInput = await run(['stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + plainSecret('shop', 'db').replace(CANARY, 'in-git') });
    assert.is(inInput.code, 0, inInput.stderr);
    const withProducer = await run(['stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + externalSecret('shop', 'db') });
    assert.is(withProducer.code, 0, withProducer.stderr);
    assert.is(env.server.paths.length, 0, 'missing never reads what the input or a producer defines');
  } finally {
    await env.server.close();
  }
});

test('live: always reads what a producer defines, and the live bytes decide', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const producer = await run(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + externalSecret('shop', 'db') });
    const always = await run(['stamp', '--live', 'always', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + externalSecret('shop', 'db') });
    const plain = await runInProcess(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + plainSecret('shop', 'db') });
    assert.is(always.code, 0, always.stderr);
    assert.is(env.server.count(secretPath('shop', 'db')), 1);
    assert.is(hashOf(always.stdout), hashOf(plain.stdout), 'the live Secret hashes like the plain one');
    assert.is.not(hashOf(always.stdout), hashOf(producer.stdout));
    const explained = await run(['explain', '--live', 'always', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + externalSecret('shop', 'db') });
    assert.match(explained.stdout, /Secret shop\/db {2}\[cluster\]/);
    const json = await run(['explain', '--json', '--live', 'always', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + externalSecret('shop', 'db') });
    assert.is(JSON.parse(json.stdout).targets[0].sources[0].from, 'cluster');
  } finally {
    await env.server.close();
  }
});

test('404 is missing: onMissing applies, and the hash is the missing marker', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const offline = await run(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'gone' }) });
    const live = await run(['stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'gone' }) });
    assert.is(live.code, 0, live.stderr);
    assert.match(live.stderr, /Secret shop\/gone is not in the input or the cluster/);
    assert.is(hashOf(live.stdout), hashOf(offline.stdout));
    const strict = await run(['stamp', '--live', 'missing', '--on-missing', 'error', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'gone' }) });
    assert.is(strict.code, 1);
    assert.is(strict.stdout, '');
  } finally {
    await env.server.close();
  }
});

test('a failed read fails every command closed: exit 1, nothing on stdout, one line naming the object', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    env.server.always(secretPath('shop', 'db'), { kind: 'status', code: 503 });
    for (const argv of [['stamp'], ['explain'], ['explain', '--json']]) {
      const r = await run([...argv, '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) });
      assert.is(r.code, 1, argv.join(' '));
      assert.is(r.stdout, '', argv.join(' '));
      assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /Secret shop\/db/);
    }
    const viaFn = await run(['fn'], { stdin: resourceList(deployment('web', { namespace: 'shop', secret: 'db' })), env: { KUBECONFIG: env.kubeconfig } });
    assert.is(viaFn.code, 1, 'fn');
    assert.is(viaFn.stdout, '', 'fn');
    assert.match(viaFn.stderr, /Secret shop\/db/);
    const forbidden = await run(['stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], { stdin: deployment('web', { namespace: 'locked', secret: 'db' }) });
    assert.is(forbidden.code, 1);
    assert.is(forbidden.stdout, '');
    assert.match(forbidden.stderr, /"get" on secrets in namespace locked/);
  } finally {
    await env.server.close();
  }
});

test('fn reads live with functionConfig live: missing and KUBECONFIG', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const r = await run(['fn'], { stdin: resourceList(deployment('web', { namespace: 'shop', secret: 'db' })), env: { KUBECONFIG: env.kubeconfig } });
    assert.is(r.code, 0, r.stderr);
    assert.ok(hashOf(r.stdout));
    assert.is(env.server.count(secretPath('shop', 'db')), 1);
  } finally {
    await env.server.close();
  }
});

test('the built bundle reads live too (the lazily loaded reader and client-node are in a chunk of dist/)', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    // Not spawnSync: the fake API server answers from this process's event loop.
    const child = spawn(process.execPath, [BUNDLE, 'stamp', '--live', 'missing', '--kubeconfig', env.kubeconfig, '-'], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...FAST_ENV },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(deployment('web', { namespace: 'shop', secret: 'db' }));
    const [code] = (await once(child, 'close')) as [number];
    assert.is(code, 0, stderr);
    assert.is(stderr, '');
    const inProcess = await runInProcess(['stamp', '-'], { stdin: deployment('web', { namespace: 'shop', secret: 'db' }) + plainSecret('shop', 'db') });
    assert.is(hashOf(stdout), hashOf(inProcess.stdout));
    assert.is(env.server.count(secretPath('shop', 'db')), 1);
  } finally {
    await env.server.close();
  }
});

function app(env: Env, files: Record<string, string>): string {
  const dir = join(env.dir, `app-${Math.random().toString(16).slice(2)}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const argo = (env: Env, extra: Record<string, string> = {}): Record<string, string> => ({
  ARGOCD_APP_NAME: 'shop',
  ARGOCD_APP_NAMESPACE: 'shop',
  KUBECONFIG: env.kubeconfig,
  ROLLSTAMP_LIVE: 'missing',
  ...extra,
});

test('generate reads only the destination namespace and the allowlist; no request elsewhere', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    env.server.addSecret('shared', 'db', { password: 'shared-value' });
    env.server.addSecret('other-team', 'db', { password: 'other-value' });
    const cwd = app(env, { 'a.yaml': deployment('web', { namespace: 'shop', secret: 'db' }) + '---\n' + deployment('spy', { namespace: 'other-team', secret: 'db' }) + '---\n' + deployment('uses-shared', { namespace: 'shared', secret: 'db' }) });
    const r = await run(['generate'], { cwd, env: argo(env) });
    assert.is(r.code, 0, r.stderr);
    assert.is(env.server.count(secretPath('shop', 'db')), 1);
    assert.is(env.server.count(secretPath('other-team', 'db')), 0, 'no request outside the scope');
    assert.is(env.server.count(secretPath('shared', 'db')), 0);
    assert.match(r.stderr, /Secret other-team\/db is outside the live-read scope/);
    const allowed = await run(['generate'], { cwd, env: argo(env, { ROLLSTAMP_LIVE_NAMESPACES: 'shared' }) });
    assert.is(allowed.code, 0, allowed.stderr);
    assert.is(env.server.count(secretPath('shared', 'db')), 1);
    assert.is(env.server.count(secretPath('other-team', 'db')), 0);
  } finally {
    await env.server.close();
  }
});

test('generate refuses live settings from the repository and the Application', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    const cwd = app(env, { 'a.yaml': deployment('web', { namespace: 'shop', secret: 'db' }) });
    const attempts: Array<Record<string, string>> = [
      { ARGOCD_ENV_ROLLSTAMP_LIVE: 'always' },
      { ARGOCD_ENV_ROLLSTAMP_KUBECONFIG: '/etc/passwd' },
      { ARGOCD_ENV_ROLLSTAMP_LIVE_NAMESPACES: 'other-team' },
      { ARGOCD_ENV_ROLLSTAMP_KUBE_CONTEXT: 'prod' },
      { ARGOCD_ENV_ROLLSTAMP_LIVE_DEADLINE_SECONDS: '999' },
      { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'live', string: 'always' }]) },
      { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'live-namespaces', array: ['other-team'] }]) },
    ];
    for (const extra of attempts) {
      const r = await run(['generate'], { cwd, env: { ARGOCD_APP_NAMESPACE: 'shop', ...extra } });
      assert.is(r.code, 2, JSON.stringify(extra));
      assert.is(r.stdout, '');
      assert.match(r.stderr, /operator-only/);
    }
    const fileCwd = app(env, { 'a.yaml': deployment('web', { namespace: 'shop', secret: 'db' }), '.rollstamp.yaml': 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nmetadata: {name: r}\nspec: {live: always}\n' });
    const fromFile = await run(['generate'], { cwd: fileCwd, env: { ARGOCD_APP_NAMESPACE: 'shop' } });
    assert.is(fromFile.code, 2);
    assert.match(fromFile.stderr, /live cannot be set by the repository/);
    assert.is(env.server.paths.length, 0);
  } finally {
    await env.server.close();
  }
});

test('generate fails closed on a read that times out: nothing on stdout', async () => {
  if (!pki) return;
  const env = await cluster();
  try {
    env.server.always(secretPath('shop', 'db'), { kind: 'hang' });
    const cwd = app(env, { 'a.yaml': deployment('web', { namespace: 'shop', secret: 'db' }) });
    const started = Date.now();
    const r = await run(['generate'], { cwd, env: argo(env) });
    assert.is(r.code, 1);
    assert.is(r.stdout, '');
    assert.match(r.stderr, /Secret shop\/db/);
    assert.ok(Date.now() - started < 8000, 'within the deadline');
  } finally {
    await env.server.close();
  }
});

test.run();
