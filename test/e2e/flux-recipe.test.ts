// The Flux hydrate-and-commit recipe of docs/ci/flux-hydrate.yml runs as written (#38), as ci-recipes.test.ts
// runs the pull-request recipes: its steps' shell in a clone of a stand-in GitHub repository (a bare git
// repository) holding apps/shop (the kustomize example) and apps/web (the Helm chart example, in place of a
// HelmRelease), with the built bundle where "Get rollstamp" unpacks it. The first push hydrates both apps into
// clusters/prod and commits; a push that changes no rendered byte commits nothing; a rotated password commits
// a new stamp for the one workload that reads it; an invalid Secret fails the job and commits nothing.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, stampsIn, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { git, replaceIn, runSteps, type Step } from '../support/ci-runner.ts';

const FLUX = parse(readFileSync(join(ROOT, 'docs/ci/flux-hydrate.yml'), 'utf8')) as { on: { push: { branches: string[]; paths: string[] } }; jobs: { hydrate: { env: Record<string, string>; steps: Step[] } } };
const JOB = FLUX.jobs.hydrate;
const PASSWORD = ['c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'c2hvcC1leGFtcGxlLXBhc3N3b3JkMg=='] as const;
const helm = obtainHelm();
// Both renderers: the kustomize app and the chart.
const bothTest = !helm.ok ? testNeedingTool('helm', helm) : testNeeding('kubectl');

/** The stand-in GitHub repository: main holds apps/shop and apps/web. */
function githubRepository(): string {
  const work = tempDir('flux-work');
  git(work, 'init', '-q', '-b', 'main');
  cpSync(join(ROOT, 'examples/kustomize/app'), join(work, 'apps/shop'), { recursive: true });
  cpSync(join(ROOT, 'examples/helm/chart'), join(work, 'apps/web'), { recursive: true });
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'apps');
  const bare = join(tempDir('flux-origin'), 'origin.git');
  git(dirname(bare), 'clone', '-q', '--bare', work, bare);
  return bare;
}

/** A change pushed to main the way a person would (a clone, a commit, a push). */
function pushChange(bare: string, change: (clone: string) => void): void {
  const clone = join(tempDir('flux-person'), 'repo');
  git(dirname(clone), 'clone', '-q', bare, clone);
  change(clone);
  git(clone, 'add', '-A');
  git(clone, 'commit', '-q', '-m', 'a change');
  git(clone, 'push', '-q', 'origin', 'main');
}

/** The workflow's steps on a fresh checkout of main, as a push to main starts them. */
async function hydrate(bare: string): Promise<Awaited<ReturnType<typeof runSteps>> & { checkout: string }> {
  requireBundle();
  const checkout = join(tempDir('flux-checkout'), 'repo');
  git(dirname(checkout), 'clone', '-q', bare, checkout);
  const runnerTemp = tempDir('flux-runner');
  cpSync(dirname(BUNDLE), join(runnerTemp, 'package', 'dist'), { recursive: true }); // what "Get rollstamp" unpacks
  const path = [helm.ok ? dirname(helm.path) : '', process.env.PATH ?? ''].filter((p) => p !== '').join(':');
  const env = { PATH: path, HOME: runnerTemp, ...JOB.env, RUNNER_TEMP: runnerTemp, GITHUB_SHA: git(checkout, 'rev-parse', 'HEAD') };
  const r = await runSteps(JOB.steps, checkout, env, {}, ['Get rollstamp']);
  assert.equal(r.skipped.map((s) => s.replace(/@[0-9a-f]{40}$/, '')), ['actions/checkout', 'actions/setup-node', 'Get rollstamp'], 'only checkout, node and the download are left to the runner');
  return { ...r, checkout };
}

const show = (bare: string, path: string): string => git(bare, 'show', `main:${path}`);
const check = (file: string, namespace: string): number => run('node', [BUNDLE, 'stamp', '--check', '-n', namespace, file]).code;

test('the recipe runs on pushes to main that touch apps/, may push, and pins its actions by commit SHA', () => {
  assert.equal(FLUX.on.push, { branches: ['main'], paths: ['apps/**'] });
  const text = readFileSync(join(ROOT, 'docs/ci/flux-hydrate.yml'), 'utf8');
  assert.match(text, /permissions:\n {2}contents: write\n/);
  for (const line of text.split('\n').filter((l) => /^\s*- uses: /.test(l))) assert.match(line, /@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, line);
});

bothTest('Flux recipe: the first push hydrates both apps, stamped, into one commit; a push that renders the same commits nothing', async () => {
  const bare = githubRepository();
  const before = git(bare, 'rev-parse', 'main');
  const first = await hydrate(bare);
  assert.is(first.code, 0, first.stderr);
  assert.is(git(bare, 'rev-parse', 'main~1'), before, 'one commit on top of the push');
  assert.match(git(bare, 'log', '-1', '--format=%s', 'main'), new RegExp(`^Hydrate clusters/prod from ${before}$`));
  assert.equal(git(bare, 'diff', '--name-only', before, 'main').split('\n'), ['clusters/prod/shop/manifests.yaml', 'clusters/prod/web/manifests.yaml']);
  assert.is(stampsIn(show(bare, 'clusters/prod/shop/manifests.yaml')).length, 1, 'shop-web opts in');
  assert.is(stampsIn(show(bare, 'clusters/prod/web/manifests.yaml')).length, 1, 'the chart Deployment opts in');
  assert.is(check(join(first.checkout, 'clusters/prod/shop/manifests.yaml'), 'default'), 0, 'the committed stamps are current');
  assert.is(check(join(first.checkout, 'clusters/prod/web/manifests.yaml'), 'web'), 0);
  pushChange(bare, (clone) => writeFileSync(join(clone, 'apps/shop/NOTES.md'), 'kustomize renders only what kustomization.yaml lists\n'));
  const head = git(bare, 'rev-parse', 'main');
  const again = await hydrate(bare);
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /Nothing to hydrate: clusters\/prod is up to date\./);
  assert.is(git(bare, 'rev-parse', 'main'), head, 'nothing committed');
});

bothTest('Flux recipe: a rotated password commits a new stamp for shop-web only; an invalid Secret fails the job and commits nothing', async () => {
  const bare = githubRepository();
  assert.is((await hydrate(bare)).code, 0);
  const [shopBefore, webBefore] = [show(bare, 'clusters/prod/shop/manifests.yaml'), show(bare, 'clusters/prod/web/manifests.yaml')];
  pushChange(bare, (clone) => replaceIn(join(clone, 'apps/shop/secret.yaml'), ...PASSWORD));
  const pushed = git(bare, 'rev-parse', 'main');
  const r = await hydrate(bare);
  assert.is(r.code, 0, r.stderr);
  assert.equal(git(bare, 'diff', '--name-only', pushed, 'main').split('\n'), ['clusters/prod/shop/manifests.yaml']);
  assert.is.not(stampsIn(show(bare, 'clusters/prod/shop/manifests.yaml'))[0], stampsIn(shopBefore)[0], 'shop-web rolls');
  assert.is(show(bare, 'clusters/prod/web/manifests.yaml'), webBefore);
  pushChange(bare, (clone) => replaceIn(join(clone, 'apps/shop/secret.yaml'), PASSWORD[1], 'not*base64'));
  const bad = git(bare, 'rev-parse', 'main');
  const failed = await hydrate(bare);
  assert.is(failed.code, 1);
  assert.match(failed.stderr, /^Render and stamp every app: rollstamp: error: .*data\.password: value is not valid base64/m);
  assert.is(git(bare, 'rev-parse', 'main'), bad, 'nothing committed');
  assert.is(readFileSync(join(failed.checkout, 'clusters/prod/shop/manifests.yaml'), 'utf8').trimEnd(), show(bare, 'clusters/prod/shop/manifests.yaml'), 'the hydrated file was not touched');
});

test.after(removeTempDirs);
test.run();
