// The GitHub Actions workflows (#22, #38): every file in .github/workflows validates against action-validator's
// schemas (@action-validator/cli, a devDependency), and the release workflow's `run:` steps run as written, job
// after job (test/support/release-runner.ts): CI first, the npm publish with trusted publishing and no token,
// the release after npm and image, the tag moved to a commit that adds the released dist/ for the GitHub
// Action, and every third-party action pinned by commit SHA. ci.yml has its own file, ci-workflow.test.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { removeTempDirs, ROOT, run, tempDir } from '../support/tools.ts';
import { git } from '../support/ci-runner.ts';
import { DIGEST, loadWorkflow as load, runRelease } from '../support/release-runner.ts';

const WORKFLOWS = join(ROOT, '.github', 'workflows');
const VALIDATOR = join(ROOT, 'node_modules', '.bin', 'action-validator');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

test('every workflow (.github/workflows and the docs/ci recipe) validates with action-validator, and the validator rejects a broken one', () => {
  const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();
  assert.equal(files, ['ci.yml', 'release.yml']);
  // The recipes in docs/ci are workflows too (ci-recipes.test.ts and flux-recipe.test.ts run their steps).
  for (const path of [...files.map((f) => join(WORKFLOWS, f)), join(ROOT, 'docs', 'ci', 'github-actions.yml'), join(ROOT, 'docs', 'ci', 'flux-hydrate.yml')]) {
    const r = run(VALIDATOR, [path]);
    assert.is(r.code, 0, `${path}: ${r.stdout}${r.stderr}`);
  }
  const broken = join(tempDir('workflow'), 'broken.yml');
  writeFileSync(broken, readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8').replace('runs-on: ubuntu-24.04', 'runs_on: ubuntu-24.04'));
  assert.is.not(run(VALIDATOR, [broken]).code, 0, 'a misspelt key fails validation');
});

const TAG = `v${pkg.version}`;
let released: ReturnType<typeof runRelease> | undefined;
/** One release run, shared by the tests that read what it did (it packs twice: about a minute). */
const release = (): ReturnType<typeof runRelease> => (released ??= runRelease(TAG));

test('release.yml, run as written: CI first, two packs with one sha256, npm publish --provenance without a token, a signed image pinned in the kits, the GitHub release last (#22, #38)', () => {
  const r = release();
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
  assert.ok(lines.includes(`npm publish --provenance --access public ./${tarball} (NODE_AUTH_TOKEN unset)`), r.log);
  assert.is(r.ran.join(' '), 'ci pack npm image release', 'each job after the jobs it needs');
  assert.ok(lines.includes(`cosign sign --yes ${image}@${DIGEST}`), r.log);
  assert.ok(lines.some((l) => l.startsWith(`gh release create v${pkg.version} --repo Example-Owner/rollstamp `) && l.endsWith(`${tarball} ${tarball}.sha256 rollstamp-kits-${pkg.version}.tar.gz`)), r.log);
  assert.ok(r.log.includes(`image: \`${image}@${DIGEST}\``), 'the notes name the digest');
  assert.match(r.log, new RegExp(`GitHub Action and pre-commit hook: \`uses: Example-Owner/rollstamp@v${pkg.version.replace(/\./g, '\\.')}\` \\(or its commit [0-9a-f]{40}\\)`), 'the notes name the Action');
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
    r.uses.filter((u) => !u.includes('actions/checkout@') && !u.includes('-artifact@')).map((u) => u.replace(/@[0-9a-f]{40}$/, '')),
    ['ci: ./.github/workflows/ci.yml', 'pack: actions/setup-node', 'npm: actions/setup-node', 'image: docker/setup-qemu-action', 'image: docker/setup-buildx-action', 'image: docker/login-action', 'image: docker/build-push-action', 'image: sigstore/cosign-installer'],
  );
});

test('release.yml: the GitHub release needs npm and image, every job needs CI on the tag, and npm publishes from the protected environment with an OIDC token only (#38)', () => {
  const jobs = load('release.yml').jobs;
  assert.equal(jobs.ci, { uses: './.github/workflows/ci.yml' });
  assert.equal(load('ci.yml').on.workflow_call, null, 'ci.yml can be called');
  assert.is(jobs.pack!.needs, 'ci');
  assert.is(String(jobs.release!.needs), 'pack,npm,image');
  assert.is(jobs.npm!.environment, 'npm');
  assert.equal(jobs.npm!.permissions, { contents: 'read', 'id-token': 'write' });
  const text = readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8');
  assert.not.match(text, /NPM_TOKEN|NODE_AUTH_TOKEN|registry-url/, 'no npm token, and no .npmrc that would read one');
});

test('release.yml: the tag moves to a child commit of the tagged one that adds the released dist/ and nothing else, so the Action runs the published bundle (#38)', () => {
  const r = release();
  assert.is(r.code, 0, r.failed);
  const moved = git(r.bare, 'rev-parse', `${TAG}^{commit}`);
  assert.is.not(moved, r.source);
  assert.is(git(r.bare, 'rev-parse', `${moved}^`), r.source, 'the parent is the commit the tag was pushed on');
  const changed = git(r.bare, 'diff', '--name-only', r.source, moved).split('\n');
  assert.ok(changed.includes('dist/rollstamp.js') && changed.every((f) => f.startsWith('dist/')), changed.join(' '));
  assert.match(git(r.bare, 'tag', '-l', '--format=%(contents)', TAG), new RegExp(`the source commit ${r.source} with the released dist/`));
  // dist/ on the tag is the package npm got, byte for byte.
  const unpacked = tempDir('release-unpacked');
  run('tar', ['-xzf', join(r.runnerTemp, 'release', `rollstamp-${pkg.version}.tgz`), '-C', unpacked]);
  for (const f of changed) assert.ok(run('git', ['--git-dir', r.bare, 'show', `${moved}:${f}`]).stdout === readFileSync(join(unpacked, 'package', f), 'utf8'), f);
  const action = join(tempDir('release-action'), 'rollstamp');
  git(dirname(action), 'clone', '-q', '--branch', TAG, r.bare, action);
  const version = run('node', [join(action, 'dist', 'rollstamp.js'), 'version']);
  assert.is(version.code, 0, version.stderr);
  assert.match(version.stdout, new RegExp(`\\b${pkg.version.replace(/\./g, '\\.')}\\b`));
});

test('every third-party action in the workflows is pinned by a full commit SHA with its release tag in a comment (#38)', () => {
  for (const file of ['ci.yml', 'release.yml']) {
    const lines = readFileSync(join(WORKFLOWS, file), 'utf8').split('\n').filter((l) => /^\s*(- )?uses: /.test(l));
    assert.ok(lines.length > 1, file);
    for (const line of lines) {
      if (/uses: \.\//.test(line)) continue; // this repository's own workflow
      assert.match(line, /uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, `${file}: ${line.trim()}`);
    }
  }
});

test('release.yml: the image is multi-arch with an SBOM and provenance, tagged in the owner\'s namespace', () => {
  const build = load('release.yml').jobs.image!.steps!.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
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
