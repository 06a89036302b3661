// The CI recipes of docs/ci (#16) run as written: the shell of every step of the GitHub Actions workflow and
// of the GitLab CI job runs in a temporary git repository holding two revisions of an example (kustomize and
// Helm), with the built bundle in place of the download step, `kubectl kustomize` where `kustomize` is not
// installed, and stubs for `gh` and `curl` that record what would be posted.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, findOnPath, removeTempDirs, requireBundle, ROOT, tempDir, testNeeding, testNeedingTool } from './helpers.ts';

interface GithubStep {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  run?: string;
}
interface GithubWorkflow {
  jobs: Record<string, { env: Record<string, string>; steps: GithubStep[] }>;
}
interface GitlabJob {
  variables: Record<string, string>;
  before_script: string[];
  script: string[];
  artifacts: { paths: string[] };
}

const GITHUB = parse(readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8')) as GithubWorkflow;
const GITLAB = parse(readFileSync(join(ROOT, 'docs/ci/gitlab-ci.yml'), 'utf8')) as Record<string, GitlabJob>;
const helm = obtainHelm();
const kubectlTest = testNeeding('kubectl');
const helmTest = testNeedingTool('helm', helm);

/** Runs a shell script as the runner would (bash, errexit); never throws. */
function sh(script: string, cwd: string, env: NodeJS.ProcessEnv, flags = ['-e', '-o', 'pipefail']): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['--noprofile', '--norc', ...flags, '-c', script], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: `${r.error ? `${r.error.message}\n` : ''}${r.stderr ?? ''}` };
}

function git(repo: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=rollstamp test', '-c', 'user.email=test@rollstamp.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
  assert.is(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A repository with the example at `deploy/` in a base commit and a head commit with `change` applied. */
function twoRevisions(example: string, change: (appDir: string) => void): { repo: string; base: string } {
  const repo = tempDir('ci-repo');
  git(repo, 'init', '-q', '-b', 'main');
  cpSync(join(ROOT, example), join(repo, 'deploy'), { recursive: true });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  change(join(repo, 'deploy'));
  writeFileSync(join(repo, 'NOTES.md'), 'a change that renders nothing\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'head');
  return { repo, base };
}

function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** A bin directory with `gh` and `curl` stubs (they append their arguments and any body file to a log), and
 * `kustomize` / `helm` when the machine lacks them under those names. */
function stubs(): { bin: string; log: string } {
  const bin = tempDir('ci-bin');
  const log = join(bin, 'calls.log');
  const script = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  // gh: --body-file FILE; curl: --data-urlencode body@FILE.
  script('gh', `echo "gh $*" >> "${log}"\nwhile [ $# -gt 0 ]; do [ "$1" = --body-file ] && cat "$2" >> "${log}"; shift; done\nexit 0`);
  script('curl', `echo "curl $*" >> "${log}"\nfor a in "$@"; do case "$a" in body@*) cat "\${a#body@}" >> "${log}";; esac; done\nexit 0`);
  if (!findOnPath('kustomize')) script('kustomize', '[ "$1" = build ] && shift\nexec kubectl kustomize "$@"');
  if (helm.ok) script('helm', `exec "${helm.path}" "$@"`);
  return { bin, log };
}

const readLog = (log: string): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');

/** `${{ a.b }}` → the value the test gives for `a.b`. */
function expand(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    assert.ok(expr in context, `the workflow uses \${{ ${expr} }}, which the test does not provide`);
    return context[expr]!;
  });
}

/** The GitHub workflow's steps in order; `if: steps.ID.outputs.NAME == 'VALUE'` is evaluated. */
function runGithub(repo: string, base: string, vars: Record<string, string>): { code: number; stderr: string; summary: string; posted: string } {
  requireBundle();
  const job = GITHUB.jobs['rollstamp-diff']!;
  const { bin, log } = stubs();
  const runnerTemp = tempDir('ci-runner');
  cpSync(dirname(BUNDLE), join(runnerTemp, 'package', 'dist'), { recursive: true }); // what "Get rollstamp" unpacks
  const summary = join(runnerTemp, 'summary.md');
  const context = { 'github.event.pull_request.base.sha': base, 'github.event.pull_request.number': '16', 'github.token': 'test-token', 'github.repository': 'example/shop' };
  const outputs = new Map<string, Map<string, string>>();
  const skipped: string[] = [];
  for (const step of job.steps) {
    if (step.uses || step.name === 'Get rollstamp') {
      skipped.push(step.uses ?? step.name!);
      continue;
    }
    const cond = step.if ? /^steps\.([\w-]+)\.outputs\.(\w+) == '([^']*)'$/.exec(step.if) : undefined;
    if (step.if) assert.ok(cond, `unsupported condition ${step.if}`);
    if (cond && outputs.get(cond[1]!)?.get(cond[2]!) !== cond[3]) continue;
    const output = join(runnerTemp, `output-${step.id ?? 'x'}`);
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), context)]));
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: runnerTemp, ...job.env, ...vars, ...stepEnv, RUNNER_TEMP: runnerTemp, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output };
    const r = sh(step.run!, repo, env);
    if (r.code !== 0) return { code: r.code, stderr: `${step.name}: ${r.stderr}`, summary: readLog(summary), posted: readLog(log) };
    if (step.id) outputs.set(step.id, new Map(readFileSync(output, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])));
  }
  assert.equal(skipped, ['actions/checkout@v4', 'actions/setup-node@v4', 'Get rollstamp'], 'only checkout, node and the download are left to the runner');
  return { code: 0, stderr: '', summary: readLog(summary), posted: readLog(log) };
}

/** The GitLab job's script (its before_script downloads rollstamp: the built bundle stands in). */
function runGitlab(repo: string, base: string, vars: Record<string, string>, token = 'note-token'): { code: number; stderr: string; artifact: string; posted: string } {
  requireBundle();
  const job = GITLAB['rollstamp-diff']!;
  assert.ok(job.before_script.every((l) => /ROLLSTAMP_(URL|SHA256)|^tar -xzf "\$ROLLSTAMP_TGZ" /.test(l)), 'before_script only downloads, checks and unpacks rollstamp');
  const { bin, log } = stubs();
  const home = tempDir('ci-gitlab');
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    TMPDIR: home,
    ...job.variables,
    ...vars,
    ROLLSTAMP_JS: BUNDLE,
    ROLLSTAMP_NOTE_TOKEN: token,
    CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    CI_API_V4_URL: 'https://gitlab.example/api/v4',
    CI_PROJECT_ID: '7',
    CI_MERGE_REQUEST_IID: '16',
  };
  const r = sh(job.script.join('\n'), repo, env, ['-e']);
  const artifact = join(repo, job.artifacts.paths[0]!);
  return { code: r.code, stderr: r.stderr, artifact: readLog(artifact), posted: readLog(log) };
}

kubectlTest('GitHub recipe, kustomize: a rotated password rolls shop-web; the comment names the Secret and key', () => {
  const { repo, base } = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), 'c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'c2hvcC1leGFtcGxlLXBhc3N3b3JkMg=='));
  const r = runGithub(repo, base, { APP: 'deploy' });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.summary, /^\*\*rollstamp diff\*\*: 1 target rolls\./);
  assert.match(r.summary, /\| `apps\/v1\/Deployment\/shop-web` \| Secret `default\/shop-db` \(bundle\) \| changed: `password` \|/);
  assert.ok(r.posted.startsWith('gh pr comment 16 --edit-last --body-file '), r.posted);
  assert.ok(r.posted.endsWith(r.summary), 'the comment is the markdown report');
});

kubectlTest('GitHub recipe: a change that rolls nothing posts nothing, and --selector from ROLLSTAMP_FLAGS reaches rollstamp', () => {
  const { repo, base } = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'configmap.yaml'), 'SMTP_HOST: smtp.example.com', 'SMTP_HOST: smtp2.example.com'));
  const quiet = runGithub(repo, base, { APP: 'deploy' });
  assert.is(quiet.code, 0, quiet.stderr);
  assert.match(quiet.summary, /shop-web/, 'shop-web reads the ConfigMap through envFrom');
  const both = runGithub(repo, base, { APP: 'deploy', ROLLSTAMP_FLAGS: '--selector restart-on-config-update=true' });
  assert.match(both.summary, /2 targets roll/);
  assert.match(both.summary, /shop-mailer/);
  const none = twoRevisions('examples/kustomize/app', () => undefined);
  const r = runGithub(none.repo, none.base, { APP: 'deploy' });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.summary, '**rollstamp diff**: Nothing rolls.\n');
  assert.is(r.posted, '', 'no comment when nothing rolls');
});

kubectlTest('GitHub recipe: an invalid render fails the job and posts nothing', () => {
  const { repo, base } = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), 'c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'not*base64'));
  const r = runGithub(repo, base, { APP: 'deploy' });
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /rollstamp: NEW/);
  assert.is(r.posted, '');
});

helmTest('GitHub and GitLab recipes, Helm: a new db.password rolls the chart Deployment', () => {
  const { repo, base } = twoRevisions('examples/helm/chart', (dir) => replaceIn(join(dir, 'values.yaml'), 'password: hunter2', 'password: hunter3'));
  const gh = runGithub(repo, base, { APP: 'deploy', RELEASE: 'shop' });
  assert.is(gh.code, 0, gh.stderr);
  assert.match(gh.summary, /1 target rolls/);
  assert.match(gh.summary, /Secret `[\w-]+\/shop-db` \(bundle\) \| changed: `password`/);
  const gl = runGitlab(repo, base, { APP: 'deploy', RELEASE: 'shop' });
  assert.is(gl.code, 0, gl.stderr);
  assert.is(gl.artifact, gh.summary);
});

kubectlTest('GitLab recipe, kustomize: rollstamp.md is the artifact and the note posted', () => {
  const { repo, base } = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), 'c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'c2hvcC1leGFtcGxlLXBhc3N3b3JkMg=='));
  const r = runGitlab(repo, base, { APP: 'deploy' });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.artifact, /\| `apps\/v1\/Deployment\/shop-web` \| Secret `default\/shop-db` \(bundle\) \| changed: `password` \|/);
  const [call, ...body] = r.posted.split('\n');
  assert.match(call!, /^curl .*--header PRIVATE-TOKEN: note-token .*https:\/\/gitlab\.example\/api\/v4\/projects\/7\/merge_requests\/16\/notes$/);
  assert.is(body.join('\n'), r.artifact);
  const noToken = runGitlab(repo, base, { APP: 'deploy' }, '');
  assert.is(noToken.code, 0, noToken.stderr);
  assert.is(noToken.posted, '', 'without ROLLSTAMP_NOTE_TOKEN only the artifact');
});

kubectlTest('recipes: an app that is new in the head renders as empty in the base, and every target appears', () => {
  const repo = tempDir('ci-repo');
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'shop\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  mkdirSync(join(repo, 'deploy'));
  cpSync(join(ROOT, 'examples/kustomize/app'), join(repo, 'deploy'), { recursive: true });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'head');
  const r = runGitlab(repo, base, { APP: 'deploy' });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.artifact, /0 targets roll, 1 appears\./);
});

test.after(removeTempDirs);
test.run();
