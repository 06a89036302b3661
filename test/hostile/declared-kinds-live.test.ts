// SECURITY.md "A repository may declare workload kinds" (#33, item 11): live reads through a declared kind's
// Secret- and ConfigMap-name paths, tried by a repository under `generate` with the operator's ROLLSTAMP_LIVE,
// against the loopback fake API server. A declared name list reads only what a pod spec could: `get` by name in
// the destination namespace (and the operator's allowlist); a name that is not a Kubernetes name, an object
// in another namespace, more names than ROLLSTAMP_MAX_REFERENCES or more reads than ROLLSTAMP_MAX_LIVE_READS
// end before any request; no live value reaches any channel.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess, type CliRun } from '../support/run-cli.ts';
import { configMapPath, secretPath, startFakeApiServer, writeKubeconfig, type FakeApiServer } from '../support/fake-apiserver.ts';
import { pkiOrSkip, tempDir, TOKEN } from '../support/live.ts';

const pki = pkiOrSkip('hostile/declared-kinds-live.test.ts');
const CANARY = 'CANARY-declared-live-51c0ffee';
const FAST_ENV = { ROLLSTAMP_LIVE_TIMEOUT_SECONDS: '1', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '4' };

const SETTINGS = `apiVersion: rollstamp.dev/v1alpha1
kind: RollstampConfig
spec:
  kinds:
  - apiVersion: example.com/v1
    kind: WebApp
    podSpecPaths: [spec.podTemplate.spec]
    secretNamePaths: [spec.secrets]
    configMapNamePaths: [spec.configs]
    stampAnnotationsPath: spec.podTemplate.metadata.annotations
`;

/** A WebApp that opts in and lists `secrets` (and `configs`) by name, in `namespace`. */
function webApp(name: string, secrets: readonly string[], namespace = 'shop', configs: readonly string[] = []): string {
  const list = (items: readonly string[]): string => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;
  return `---
apiVersion: example.com/v1
kind: WebApp
metadata: {name: ${name}, namespace: ${namespace}, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  secrets: ${list(secrets)}
  configs: ${list(configs)}
  podTemplate:
    spec:
      containers: [{name: web, image: example/web:1}]
`;
}

interface Cluster {
  server: FakeApiServer;
  dir: string;
  kubeconfig: string;
}

async function cluster(): Promise<Cluster> {
  const server = await startFakeApiServer(pki!, { tokens: [TOKEN] });
  server.addSecret('shop', 'db', { password: CANARY });
  server.addSecret('kube-system', 'db', { password: CANARY });
  server.addConfigMap('shop', 'settings', { mode: CANARY });
  const dir = tempDir();
  return { server, dir, kubeconfig: writeKubeconfig(dir, { server: server.url, caFile: pki!.caFile, user: { token: TOKEN } }) };
}

/** `generate` over `docs` with the settings above, as the operator's sidecar with live reads on. */
async function generate(c: Cluster, docs: string, extra: Record<string, string> = {}): Promise<CliRun> {
  const app = join(c.dir, `app-${Math.random().toString(16).slice(2)}`);
  mkdirSync(app);
  writeFileSync(join(app, '.rollstamp.yaml'), SETTINGS);
  writeFileSync(join(app, 'app.yaml'), docs);
  const env = { ...FAST_ENV, HOME: '/nonexistent', ARGOCD_APP_NAME: 'shop', ARGOCD_APP_NAMESPACE: 'shop', KUBECONFIG: c.kubeconfig, ROLLSTAMP_LIVE: 'missing', ...extra };
  const r = await runInProcess(['generate'], { cwd: app, env });
  const b64 = Buffer.from(CANARY).toString('base64');
  for (const form of [CANARY, b64, b64.replace(/=+$/, ''), Buffer.from(CANARY).toString('hex')]) {
    assert.not.ok(r.stdout.includes(form) || r.stderr.includes(form), 'a live value reached a channel');
  }
  return r;
}

async function withCluster(body: (c: Cluster) => Promise<void>): Promise<void> {
  if (!pki) return;
  const c = await cluster();
  try {
    await body(c);
  } finally {
    await c.server.close();
  }
}

const oneErrorLine = (r: CliRun, what: string): void => {
  assert.is(r.code, 1, `${what}: ${r.stderr}`);
  assert.is(r.stdout, '', what);
  assert.ok(/^rollstamp: error: [^\n]*\n$/.test(r.stderr), `${what}: one line (got ${JSON.stringify(r.stderr.slice(0, 300))})`);
};

test('a declared name list is read like a pod spec reference: get by name in the destination namespace, and the live bytes decide (#33)', () =>
  withCluster(async (c) => {
    const r = await generate(c, webApp('web', ['db']));
    assert.is(r.code, 0, r.stderr);
    assert.equal(c.server.paths, [secretPath('shop', 'db')]);
    // The same Secret in the input gives the same stamp: the live bytes are what was hashed.
    writeFileSync(join(c.dir, 'settings.yaml'), SETTINGS);
    const secretDoc = `---\napiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: shop}\nstringData: {password: ${CANARY}}\n`;
    const fromInput = await runInProcess(['stamp', '-c', join(c.dir, 'settings.yaml'), '-'], { stdin: webApp('web', ['db']) + secretDoc });
    const stamp = (text: string): string | undefined => /rollstamp\.dev\/hash: "(sha256:[0-9a-f]{64})"/.exec(text)?.[1];
    assert.ok(stamp(r.stdout) !== undefined, r.stdout);
    assert.is(stamp(r.stdout), stamp(fromInput.stdout));
  }));

for (const name of ['../kube-system/db', 'kube-system/db', 'db?watch=true', '..', '.', '%2e%2e', 'DB', 'db/../../kube-system/secrets/db', `${'a'.repeat(254)}`]) {
  test(`a declared Secret name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 10)}… (${name.length} characters)` : name)} is refused before any request (#33)`, () =>
    withCluster(async (c) => {
      const r = await generate(c, webApp('web', [name]));
      oneErrorLine(r, name);
      assert.match(r.stderr, /does not name a Secret or ConfigMap|not a valid/);
      assert.is(c.server.count(), 0, 'no request was made');
    }));
}

test('a declared kind in another namespace reads nothing there: missing without a request (#33)', () =>
  withCluster(async (c) => {
    const r = await generate(c, webApp('spy', ['db'], 'kube-system'));
    assert.is(r.code, 0, r.stderr);
    assert.is(c.server.count(secretPath('kube-system', 'db')), 0, 'no request outside the scope');
    assert.is(c.server.count(), 0);
    assert.match(r.stderr, /Secret kube-system\/db is outside the live-read scope/);
  }));

test('a ConfigMap name path reads ConfigMaps only, in the destination namespace (#33)', () =>
  withCluster(async (c) => {
    const r = await generate(c, webApp('web', [], 'shop', ['settings']));
    assert.is(r.code, 0, r.stderr);
    assert.equal(c.server.paths, [configMapPath('shop', 'settings')]);
  }));

test('1,001 declared names in one object: refused naming ROLLSTAMP_MAX_REFERENCES, before any request (#33)', () =>
  withCluster(async (c) => {
    const r = await generate(c, webApp('web', Array.from({ length: 1001 }, (_, i) => `s${i}`)));
    oneErrorLine(r, '1,001 names');
    assert.match(r.stderr, /more than 1000 .*ROLLSTAMP_MAX_REFERENCES/);
    assert.is(c.server.count(), 0);
  }));

test('600 distinct names over 60 objects: refused naming ROLLSTAMP_MAX_LIVE_READS, before any request (#33)', () =>
  withCluster(async (c) => {
    const docs = Array.from({ length: 60 }, (_, i) => webApp(`web-${i}`, Array.from({ length: 10 }, (_, j) => `s-${i}-${j}`))).join('');
    const r = await generate(c, docs);
    oneErrorLine(r, '600 reads');
    assert.match(r.stderr, /600 Secrets and ConfigMaps.*ROLLSTAMP_MAX_LIVE_READS.*nothing was read/);
    assert.is(c.server.count(), 0);
  }));

test.run();
