// The GitHub Actions workflows (#22): every file in .github/workflows validates against action-validator's
// schemas (@action-validator/cli, a devDependency), and the release workflow's `run:` steps run as written, job
// after job, as ci-recipes.test.ts runs the docs/ci recipes: in copies of the working tree standing in for the
// checkouts, with `uses:` steps left to the runner (their outputs supplied), `npm ci` linking this checkout's
// node_modules, and stubs for `npm publish`, `cosign` and `gh` that record what would be published.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { removeTempDirs, ROOT, run, tempDir } from './helpers.ts';

type Step = { name?: string; id?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Job = { needs?: string | string[]; steps: Step[]; outputs?: Record<string, string>; strategy?: { matrix: Record<string, unknown[]> } };
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };

const WORKFLOWS = join(ROOT, '.github', 'workflows');
const VALIDATOR = join(ROOT, 'node_modules', '.bin', 'action-validator');
const load = (name: string): Workflow => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const DIGEST = `sha256:${'ab'.repeat(32)}`;

test('every workflow (.github/workflows and the docs/ci recipe) validates with action-validator, and the validator rejects a broken one', () => {
  const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();
  assert.equal(files, ['ci.yml', 'release.yml']);
  // The pull-request recipe in docs/ci is a workflow too (ci-recipes.test.ts runs its steps).
  for (const path of [...files.map((f) => join(WORKFLOWS, f)), join(ROOT, 'docs', 'ci', 'github-actions.yml')]) {
    const r = run(VALIDATOR, [path]);
    assert.is(r.code, 0, `${path}: ${r.stdout}${r.stderr}`);
  }
  const broken = join(tempDir('workflow'), 'broken.yml');
  writeFileSync(broken, readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8').replace('runs-on: ubuntu-24.04', 'runs_on: ubuntu-24.04'));
  assert.is.not(run(VALIDATOR, [broken]).code, 0, 'a misspelt key fails validation');
});

test('ci.yml runs .ci/run on pushes and pull requests, on Node 22 and 24', () => {
  const ci = load('ci.yml');
  assert.ok('push' in ci.on && 'pull_request' in ci.on);
  const job = ci.jobs.test!;
  assert.equal(job.strategy?.matrix.node, [22, 24]);
  assert.equal(job.steps.map((s) => s.uses ?? s.run), ['actions/checkout@v4', 'actions/setup-node@v4', 'sudo --preserve-env=PATH,CI bash .ci/run']);
  assert.is(job.steps[1]!.with?.['node-version'], '${{ matrix.node }}');
  // Its one shell step is .ci/run itself, which is what runs this test suite; here it is only parsed.
  assert.is(spawnSync('bash', ['-n', join(ROOT, '.ci', 'run')]).status, 0);
});

/** A copy of the working tree as a checkout has it (tracked and new files; no node_modules, dist or .git). */
function checkout(): string {
  const dir = join(tempDir('release-checkout'), 'repo');
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  chmodSync(join(dir, '.ci', 'run'), 0o755);
  return dir;
}

function stubs(log: string): string {
  const bin = tempDir('release-bin');
  const realNpm = run('sh', ['-c', 'command -v npm']).stdout.trim();
  const script = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  script('npm', `case "$1" in\n  ci) ln -s "${join(ROOT, 'node_modules')}" node_modules ;;\n  publish) echo "npm $*" >> "${log}"; for a in "$@"; do case "$a" in ./*) test -f "$a" || exit 1;; esac; done ;;\n  *) exec "${realNpm}" "$@" ;;\nesac`);
  script('cosign', `echo "cosign $*" >> "${log}"`);
  script('gh', `echo "gh $*" >> "${log}"\nwhile [ $# -gt 0 ]; do case "$1" in --notes-file) shift; cat "$1" >> "${log}";; *.tgz|*.sha256|*.tar.gz) test -f "$1" || { echo "missing $1" >&2; exit 1; };; esac; shift; done`);
  return bin;
}

function expand(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    assert.ok(expr in context, `the workflow uses \${{ ${expr} }}, which the test does not provide`);
    return context[expr]!;
  });
}

interface ReleaseRun {
  code: number;
  failed: string;
  log: string;
  runnerTemp: string;
  checkouts: Record<string, string>;
  uses: string[];
}

/** The release workflow's jobs in order (pack, npm, image, release), each step's shell as written. */
function runRelease(tag: string): ReleaseRun {
  const release = load('release.yml');
  const runnerTemp = tempDir('release-runner');
  const log = join(runnerTemp, 'calls.log');
  writeFileSync(log, '');
  const bin = stubs(log);
  const workspace = tempDir('release-workspace');
  const context: Record<string, string> = { 'secrets.NPM_TOKEN': 'npm-token', 'secrets.GITHUB_TOKEN': 'gh-token', 'steps.build.outputs.digest': DIGEST, 'runner.temp': runnerTemp };
  const checkouts: Record<string, string> = {};
  const uses: string[] = [];
  for (const [name, job] of Object.entries(release.jobs)) {
    // actions/checkout: `path:` names the directory in the workspace; one checkout per job otherwise.
    const jobDir = join(workspace, name);
    mkdirSync(jobDir);
    const outputs = new Map<string, string>();
    for (const step of job.steps) {
      if (step.uses) {
        uses.push(`${name}: ${step.uses}`);
        if (step.uses.startsWith('actions/checkout@')) {
          const path = String(step.with?.path ?? '.');
          const copy = checkout();
          run('cp', ['-a', `${copy}/.`, join(jobDir, path)]);
          checkouts[`${name}/${path}`] = join(jobDir, path);
        }
        continue;
      }
      const output = join(runnerTemp, `output-${name}-${step.id ?? 'x'}`);
      writeFileSync(output, '');
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), context)]));
      const env = {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: runnerTemp,
        ...stepEnv,
        RUNNER_TEMP: runnerTemp,
        GITHUB_OUTPUT: output,
        GITHUB_REF_NAME: tag,
        GITHUB_REPOSITORY: 'Example-Owner/rollstamp',
        GITHUB_REPOSITORY_OWNER: 'Example-Owner',
        GITHUB_SERVER_URL: 'https://github.com',
      };
      const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step.run!], { cwd: jobDir, env, encoding: 'utf8', timeout: 300_000 });
      if (r.status !== 0) return { code: r.status ?? -1, failed: `${name}: ${step.name}: ${r.stderr}${r.stdout}`, log: readFileSync(log, 'utf8'), runnerTemp, checkouts, uses };
      for (const line of readFileSync(output, 'utf8').split('\n').filter((l) => l.includes('='))) {
        const [k, v] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
        outputs.set(k, v);
        if (step.id) context[`steps.${step.id}.outputs.${k}`] = v;
      }
    }
    for (const [k, v] of Object.entries(job.outputs ?? {})) context[`needs.${name}.outputs.${k}`] = expand(v, context);
    for (const k of Object.keys(context)) if (k.startsWith('steps.') && k !== 'steps.build.outputs.digest') delete context[k];
  }
  return { code: 0, failed: '', log: readFileSync(log, 'utf8'), runnerTemp, checkouts, uses };
}

test('release.yml, run as written: two packs with one sha256, npm publish --provenance, a signed image pinned in the kits, the GitHub release (#22)', () => {
  const r = runRelease(`v${pkg.version}`);
  assert.is(r.code, 0, r.failed);
  const tarball = `rollstamp-${pkg.version}.tgz`;
  const released = join(r.runnerTemp, 'release');
  const sum = readFileSync(join(released, `${tarball}.sha256`), 'utf8');
  assert.is(run('sha256sum', ['-c', `${tarball}.sha256`], { cwd: released }).code, 0, 'the sha256 file checks the tarball');
  const sha = (dir: string): string => run('sha256sum', [join(r.runnerTemp, dir, tarball)]).stdout.split(' ')[0]!;
  assert.match(sum, /^[0-9a-f]{64} {2}rollstamp-/);
  assert.equal([sha('pack-a'), sha('pack-b')], [sum.split(' ')[0], sum.split(' ')[0]], 'both packs have the released sha256');
  const image = 'ghcr.io/example-owner/rollstamp';
  const lines = r.log.split('\n');
  assert.ok(lines.includes(`npm publish --provenance --access public ./${tarball}`), r.log);
  assert.ok(lines.includes(`cosign sign --yes ${image}@${DIGEST}`), r.log);
  assert.ok(lines.some((l) => l.startsWith(`gh release create v${pkg.version} --repo Example-Owner/rollstamp `) && l.endsWith(`${tarball} ${tarball}.sha256 rollstamp-kits-${pkg.version}.tar.gz`)), r.log);
  assert.ok(r.log.includes(`image: \`${image}@${DIGEST}\``), 'the notes name the digest');
  // The kits in the release checkout name the pushed image by digest, each in its one place.
  const kit = r.checkouts['release/.']!;
  const sidecarImage = (file: string, path: (o: any) => string): string => path(parse(readFileSync(join(kit, file), 'utf8')));
  assert.is(sidecarImage('argocd/install/repo-server-patch.yaml', (o) => o.spec.template.spec.containers[0].image), `${image}@${DIGEST}`);
  assert.is(sidecarImage('argocd/helm/values.yaml', (o) => o.repoServer.extraContainers[0].image), `${image}@${DIGEST}`);
  assert.match(readFileSync(join(kit, 'argocd/operator/argocd.yaml'), 'utf8'), new RegExp(`\\n {8}image: ${image.replace(/\./g, '\\.')}@${DIGEST}\\n`));
  assert.equal(parse(readFileSync(join(kit, 'argocd/install/kustomization.yaml'), 'utf8')).images, [{ name: 'registry.example.invalid/rollstamp', newName: image, digest: DIGEST }]);
  assert.match(readFileSync(join(kit, 'examples/kustomize/rollstamp.yaml'), 'utf8'), new RegExp(`image: ${image.replace(/\./g, '\\.')}@${DIGEST}`));
  const listed = run('tar', ['-tzf', join(released, `rollstamp-kits-${pkg.version}.tar.gz`)]).stdout;
  assert.ok(listed.includes('argocd/install/kustomization.yaml') && listed.includes('examples/kustomize/rollstamp.yaml'));
  assert.equal(
    r.uses.filter((u) => !u.includes('actions/checkout@') && !u.includes('-artifact@')),
    ['pack: actions/setup-node@v4', 'npm: actions/setup-node@v4', 'image: docker/setup-qemu-action@v3', 'image: docker/setup-buildx-action@v3', 'image: docker/login-action@v3', 'image: docker/build-push-action@v6', 'image: sigstore/cosign-installer@v3'],
  );
});

test('release.yml: the image is multi-arch with an SBOM and provenance, tagged in the owner\'s namespace', () => {
  const build = load('release.yml').jobs.image!.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
  assert.is(build.with?.platforms, 'linux/amd64,linux/arm64');
  assert.is(build.with?.push, true);
  assert.is(build.with?.sbom, true);
  assert.is(build.with?.provenance, 'mode=max');
  assert.is(build.with?.tags, '${{ steps.name.outputs.image }}:${{ steps.name.outputs.version }}');
  assert.match(String(build.with?.['build-args']), /SOURCE_URL=\$\{\{ github\.server_url \}\}\/\$\{\{ github\.repository \}\}/);
});

test('release.yml: a tag that is not the package version stops the release before anything is packed', () => {
  const r = runRelease('v9.9.9');
  assert.is.not(r.code, 0);
  assert.match(r.failed, /pack: Check that the tag names the package version: tag v9\.9\.9 does not match package\.json version/);
  assert.is(r.log, '', 'nothing published');
});

test.after(removeTempDirs);
test.run();
