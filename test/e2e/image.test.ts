// The image, built from the Dockerfile with buildah (no Docker engine) and run (#22). Base images cannot be
// pulled here, so stand-ins are tagged as the Dockerfile's ARG defaults (without their digests, which only the
// registry's own images have): Debian bookworm from debootstrap, slimmed as the official slim image is, and the
// node image as that plus this machine's node binary and npm. helm and kubectl are served from local files
// (the devDependency the tests take helm from) through the Dockerfile's base URL and sha256 arguments. The image
// then runs as its configured user (uid 999) with a read-only root filesystem and its own /tmp, as the Argo CD
// sidecar does: `rollstamp version`, `fn` on a ResourceList, `generate` on three examples with Argo CD's
// environment; each output must equal the checkout's bundle run with the same tools.
// Needs root, buildah and debootstrap (.ci/run installs them); without CI set, a missing one skips with a reason,
// and so does a run where the image's inputs have not changed (test/support/image-gate.ts; ROLLSTAMP_IMAGE_TESTS=1
// builds it anyway).
// Runs alone: the build takes minutes of CPU and GBs of vfs layer copies, which would slow timed shards.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { PLUGIN_FILE, requestEnv, type ArgoParam } from '../support/argocd-request.ts';
import { runBundle } from '../support/run-cli.ts';
import { findOnPath, removeTempDirs, requireBundle, ROOT, run, stampsIn, tempDir, type Run } from '../support/tools.ts';
import { buildImage, type Image } from '../support/image-build.ts';
import { recordPassed, whyNotBuild } from '../support/image-gate.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const helm = obtainHelm();

/** Why the image cannot be built on this machine, or undefined. */
function missing(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the image test builds linux/amd64 only (this is ${process.platform}-${process.arch})`;
  if (process.getuid?.() !== 0) return 'building and running the image needs root (buildah with the vfs driver, mount namespaces)';
  for (const tool of ['buildah', 'debootstrap', 'unshare', 'chroot']) if (!findOnPath(tool)) return `${tool} not found on PATH (apt-get install buildah debootstrap)`;
  if (!helm.ok) return `helm for the image is unavailable: ${helm.reason}`;
  return undefined;
}

const why = whyNotBuild() ?? missing();
let failed = false;
const it = why === undefined ? noteFailures : gate(why);
/** `test`, noting a failure so that a run where every test passed is recorded (image-gate.ts). */
function noteFailures(name: string, fn: () => void | Promise<void>): void {
  test(name, async () => {
    try {
      await fn();
    } catch (err) {
      failed = true;
      throw err;
    }
  });
}
function gate(reason: string): (name: string, fn: () => void | Promise<void>) => void {
  if (process.env.CI) {
    test('the image can be built here (required because CI is set)', () => {
      throw new Error(`${reason}, and CI is set: the image must be built and run in CI (.ci/run installs buildah and debootstrap)`);
    });
  } else process.stdout.write(`skip: image test: ${reason}\n`);
  return (name, fn) => test.skip(name, fn);
}

let image: Image | undefined;
/** The image, built once for all tests of this file. */
async function built(): Promise<Image> {
  if (!image) {
    requireBundle();
    image = await buildImage(helm.ok ? helm.path : '');
  }
  return image;
}

/**
 * `entrypoint + args` in the image as the sidecar runs it: a private mount namespace, the image's root
 * filesystem bound read-only, `tmp` bound at /tmp (the sidecar's emptyDir), the image's user, and only the
 * image's environment plus `env`, in `cwd`.
 */
function runInImage(img: Image, args: readonly string[], opts: { env?: Record<string, string>; cwd?: string; input?: string; tmp?: string; entrypoint?: readonly string[] } = {}): Run {
  const tmp = opts.tmp ?? img.newTmp();
  const env = { ...Object.fromEntries(img.config.Env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])), ...opts.env };
  const script = [
    'set -e',
    'R=$1; T=$2; U=$3; shift 3',
    'mount --bind "$R" "$R"',
    'mount -o remount,bind,ro "$R"',
    'mount --bind "$T" "$R/tmp"',
    'mount -t proc proc "$R/proc"',
    'mount --rbind /dev "$R/dev"',
    'exec chroot --userspec="$U" "$R" /usr/bin/env -i "$@"',
  ].join('\n');
  const command = [...(opts.entrypoint ?? img.config.Entrypoint), ...args];
  const argv = ['-m', '-p', '-f', '--propagation', 'private', 'sh', '-c', script, 'sh', img.rootfs, tmp, img.config.User];
  argv.push(...Object.entries(env).map(([k, v]) => `${k}=${v}`), '/bin/sh', '-c', 'cd "$0" && exec "$@"', opts.cwd ?? '/', ...command);
  return run('unshare', argv, { input: opts.input ?? '', timeoutMs: 120_000 });
}

/** The checkout's bundle with the same helm and kubectl as the image. */
function runOnHost(img: Image, args: readonly string[], opts: { env?: Record<string, string>; cwd?: string; input?: string }): Run {
  const env = { PATH: `${img.toolsDir}:/usr/bin:/bin`, HOME: tempDir('image-host-home'), ...opts.env };
  return runBundle(args, { cwd: opts.cwd ?? ROOT, env, stdin: opts.input ?? '', timeoutMs: 120_000 });
}

it('the Dockerfile builds with buildah from the stand-in bases and local tool files; the image runs as uid 999 from its launcher (the startup snapshot of /app/rollstamp.js)', async () => {
  const img = await built();
  assert.is(img.config.User, '999:999');
  assert.equal(img.config.Entrypoint, ['/usr/local/bin/rollstamp']);
  // The startup snapshot (#37): made by the image's node unless that node refuses a blob under other V8 flags, as
  // node 20 does (build-snapshot.mjs); the stand-in here is this machine's node.
  const blobPath = join(img.rootfs, 'app', 'rollstamp.blob');
  if (process.versions.node.startsWith('20.')) assert.not.ok(existsSync(blobPath), 'node 20: no blob, the launcher runs the bundle');
  else {
    const blob = statSync(blobPath);
    assert.is(blob.uid, 0, 'the blob is root\'s');
    assert.is(blob.mode & 0o777, 0o444, 'and read-only');
    const fromBlob = runInImage(img, ['-c', 'node --snapshot-blob /app/rollstamp.blob -e "process.exit(globalThis[Symbol.for(\'rollstamp.snapshot\')] ? 0 : 1)"'], { entrypoint: ['/bin/sh'] });
    assert.is(fromBlob.code, 0, `the image's node starts from the blob and finds the CLI there: ${fromBlob.stderr}`);
  }
  assert.ok(img.config.Env.includes('HOME=/tmp'));
  assert.is(img.config.Labels['org.opencontainers.image.version'], pkg.version);
  process.stdout.write(`image: built in ${img.buildSeconds} s, ${img.sizeMiB} MiB unpacked (${img.sizeBreakdown})\n`);
});

it('rollstamp version, on a read-only root filesystem as uid 999', async () => {
  const img = await built();
  const r = runInImage(img, ['version']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `rollstamp ${pkg.version}\n`);
  const probe = runInImage(img, ['-c', 'id -u; touch /probe 2>/dev/null && echo writable || echo read-only; touch /tmp/probe && echo tmp-ok'], { entrypoint: ['/bin/sh'] });
  assert.is(probe.stdout, '999\nread-only\ntmp-ok\n', probe.stderr);
  const help = runInImage(img, ['--help']);
  assert.match(help.stdout, /^Docs: \/README\.md /m, '--help names the README by its path in the image');
  assert.ok(readFileSync(join(img.rootfs, 'README.md'), 'utf8').startsWith('# rollstamp\n'));
});

it('the image carries git and an ssh client that run as uid 999, and the tools the build was given', async () => {
  const img = await built();
  const r = runInImage(img, ['-c', 'git --version && ssh -V 2>&1 && helm version --short && kubectl version --client'], { entrypoint: ['/bin/sh'] });
  assert.is(r.code, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^git version 2\.\d+/m);
  assert.match(r.stdout, /^OpenSSH_\d/m);
  assert.ok(r.stdout.includes(img.helmVersion), `helm ${img.helmVersion}`);
  assert.ok(r.stdout.includes(`Client Version: ${img.kubectlVersion}`), `kubectl ${img.kubectlVersion}`);
});

it('rollstamp fn on a ResourceList: the same stamped list as the checkout bundle', async () => {
  const img = await built();
  const dir = join(ROOT, 'examples', 'kpt');
  const items = ['configmap.yaml', 'secret.yaml', 'deployment.yaml', 'worker.yaml'].flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS()));
  const functionConfig = parse(readFileSync(join(dir, 'rollstamp-config.yaml'), 'utf8'));
  const input = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig });
  const inImage = runInImage(img, ['fn'], { input });
  assert.is(inImage.code, 0, inImage.stderr);
  assert.ok(stampsIn(inImage.stdout).length >= 2, 'workloads are stamped');
  assert.is(inImage.stdout, runOnHost(img, ['fn'], { input }).stdout);
});

for (const app of ['basic', 'kustomize', 'helm']) {
  it(`the plugin's generate command on argocd/examples/${app}-app.yaml with Argo CD's environment and the kit's sidecar env: the checkout bundle's output`, async () => {
    const img = await built();
    const application = parse(readFileSync(join(ROOT, 'argocd', 'examples', `${app}-app.yaml`), 'utf8'));
    const source = application.spec.source;
    const sidecar = parse(readFileSync(join(ROOT, 'argocd', 'install', 'repo-server-patch.yaml'), 'utf8')).spec.template.spec.containers[0];
    const sidecarEnv = Object.fromEntries((sidecar.env as { name: string; value?: string }[]).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
    // argocd-cmp-server unpacks the repository into $TMPDIR/_cmp_server/<uuid> and runs in the app path.
    const tmp = img.newTmp();
    const checkout = join(tmp, '_cmp_server', '2f4b1c9e-6d3a-4e8f-9a71-0c5d2e8b4f16');
    mkdirSync(checkout, { recursive: true });
    cpSync(join(ROOT, 'examples'), join(checkout, 'examples'), { recursive: true });
    spawnSync('chown', ['-R', '999:999', tmp]);
    const env: Record<string, string> = {
      ...sidecarEnv,
      ...requestEnv({
        path: source.path,
        name: application.metadata.name,
        namespace: application.spec.destination.namespace,
        env: Object.fromEntries(((source.plugin.env ?? []) as { name: string; value: string }[]).map((e) => [e.name, e.value])),
        ...(source.plugin.parameters ? { params: source.plugin.parameters as ArgoParam[] } : {}),
      }),
    };
    // As argocd-cmp-server runs it: argocd/plugin.yaml's command and args, found on the image's PATH, no entrypoint.
    const generate = parse(readFileSync(PLUGIN_FILE, 'utf8')).spec.generate as { command: string[]; args?: string[] };
    const inImage = runInImage(img, [...generate.command, ...(generate.args ?? [])], { entrypoint: [], env, tmp, cwd: `/tmp/_cmp_server/2f4b1c9e-6d3a-4e8f-9a71-0c5d2e8b4f16/${source.path}` });
    assert.is(inImage.code, 0, inImage.stderr);
    assert.ok(stampsIn(inImage.stdout).length >= 1, 'workloads are stamped');
    const onHost = runOnHost(img, ['generate'], { env: { ...env, HOME: tempDir('image-host-home') }, cwd: join(checkout, source.path) });
    assert.is(onHost.code, 0, onHost.stderr);
    assert.is(inImage.stdout, onHost.stdout);
  });
}

it("the README states the image's measured unpacked size", async () => {
  const img = await built();
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = Number(/image is (\d+) MiB unpacked/.exec(readme)?.[1]);
  assert.ok(stated > 0, 'README.md: "… image is N MiB unpacked …"');
  assert.ok(Math.abs(stated - img.sizeMiB) <= img.sizeMiB * 0.1, `README says ${stated} MiB, measured ${img.sizeMiB} MiB`);
  const page = readFileSync(join(ROOT, 'docs', 'install.md'), 'utf8');
  assert.ok(page.includes(`Measured there: ${stated} MiB unpacked`), 'docs/install.md states the same size');
});

test.after(async () => {
  if (why === undefined && !failed) recordPassed();
  await image?.remove();
  removeTempDirs();
});
test.run();

