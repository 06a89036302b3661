// The CI recipes of docs/ci (#16, #23) run as written: the shell of every step of the GitHub Actions workflow
// and of the GitLab CI job runs in a temporary git repository holding two revisions of an example (kustomize
// and Helm), with the built bundle in place of the download step, and their comment steps talk to a stub of
// the GitHub and GitLab APIs on 127.0.0.1: the first comment, its update on a later push, the update to
// "Nothing rolls.", another workflow's comment left alone, and a fork's read-only token keeping the job green.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { git, readIfThere, replaceIn, runSteps, sh, type Step, twoRevisions } from '../support/ci-runner.ts';
import { type ForgeStub, startForgeStub, type StubComment } from '../support/forge-stub.ts';

interface GithubWorkflow {
  jobs: Record<string, { env: Record<string, string>; steps: Step[] }>;
}
interface GitlabJob {
  image: string;
  variables: Record<string, string>;
  before_script: string[];
  script: string[];
  artifacts: { paths: string[] };
}

const GITHUB = parse(readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8')) as GithubWorkflow;
const GITLAB = parse(readFileSync(join(ROOT, 'docs/ci/gitlab-ci.yml'), 'utf8')) as Record<string, GitlabJob>;
const MARKER = '<!-- rollstamp-diff -->';
const ROTATED = ['c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'c2hvcC1leGFtcGxlLXBhc3N3b3JkMg=='] as const;
const helm = obtainHelm();
const kubectlTest = testNeeding('kubectl');
const helmTest = testNeedingTool('helm', helm);

const toolPath = (): string => [helm.ok ? dirname(helm.path) : '', process.env.PATH ?? ''].filter((p) => p !== '').join(':');

interface GithubRun {
  code: number;
  stderr: string;
  stdout: string;
  summary: string;
}

/** The GitHub workflow's steps in order, against `stub` (GITHUB_API_URL), on pull request 16. */
async function runGithub(repo: string, base: string, vars: Record<string, string>, stub: ForgeStub): Promise<GithubRun> {
  requireBundle();
  const job = GITHUB.jobs['rollstamp-diff']!;
  const runnerTemp = tempDir('ci-runner');
  cpSync(dirname(BUNDLE), join(runnerTemp, 'package', 'dist'), { recursive: true }); // what "Get rollstamp" unpacks
  const context = { 'github.event.pull_request.base.sha': base, 'github.event.pull_request.number': '16', 'github.token': 'test-token' };
  const env = { PATH: toolPath(), HOME: runnerTemp, ...job.env, ...vars, RUNNER_TEMP: runnerTemp, GITHUB_API_URL: stub.url, GITHUB_REPOSITORY: 'example/shop' };
  const r = await runSteps(job.steps, repo, env, context, ['Get rollstamp']);
  assert.equal(r.skipped.map((u) => u.replace(/@[0-9a-f]{40}$/, '')), ['actions/checkout', 'actions/setup-node', 'Get rollstamp'], 'only checkout, node and the download are left to the runner');
  return r;
}

/** The GitLab job's script against `stub` (CI_API_V4_URL); its before_script downloads tools: the machine's stand in. */
async function runGitlab(repo: string, base: string, vars: Record<string, string>, stub: ForgeStub, token = 'note-token'): Promise<{ code: number; stderr: string; stdout: string; artifact: string }> {
  requireBundle();
  const job = GITLAB['rollstamp-diff']!;
  assert.ok(job.before_script.every((l) => /^(curl -fsSLo |echo "\$\w+_SHA256 |tar -xzf |chmod 0755 )/.test(l)), 'before_script only downloads, checks and unpacks');
  const home = tempDir('ci-gitlab');
  const env = {
    PATH: toolPath(),
    HOME: home,
    TMPDIR: home,
    ...job.variables,
    ...vars,
    ROLLSTAMP_JS: BUNDLE,
    ROLLSTAMP_NOTE_TOKEN: token,
    CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    CI_API_V4_URL: `${stub.url}/api/v4`,
    CI_PROJECT_ID: '7',
    CI_MERGE_REQUEST_IID: '16',
  };
  const r = await sh(job.script.join('\n'), repo, env, ['-e']);
  return { code: r.code, stderr: r.stderr, stdout: r.stdout, artifact: readIfThere(join(repo, job.artifacts.paths[0]!)) };
}

/** Runs `body` with a stub that expects `token`; always closes it. */
async function withStub<T>(token: string, comments: StubComment[], body: (stub: ForgeStub) => Promise<T>): Promise<T> {
  const stub = await startForgeStub({ token, comments });
  try {
    return await body(stub);
  } finally {
    await stub.close();
  }
}

const rotated = (): { repo: string; base: string } => twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), ...ROTATED));
const writes = (stub: ForgeStub): string[] => stub.requests.filter((r) => !r.startsWith('GET '));

kubectlTest('GitHub recipe, kustomize: a rotated password rolls shop-web; the first comment is the table under the hidden marker', async () => {
  const { repo, base } = rotated();
  await withStub('test-token', [], async (stub) => {
    const r = await runGithub(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.summary, /^\*\*rollstamp diff\*\*: 1 target rolls\./);
    assert.match(r.summary, /\| `apps\/v1\/Deployment\/shop-web` \| Secret `default\/shop-db` \(bundle\) \| changed: `password` \|/);
    assert.equal(writes(stub), ['POST /repos/example/shop/issues/16/comments']);
    assert.equal(stub.comments.map((c) => c.body), [`${MARKER}\n${r.summary}`], 'the comment is the marker and the markdown report');
  });
});

kubectlTest('GitHub recipe: a later push updates its one comment in place, and a push that rolls nothing updates it to say so (#23)', async () => {
  const first = rotated();
  const none = twoRevisions('examples/kustomize/app', () => undefined);
  await withStub('test-token', [], async (stub) => {
    assert.is((await runGithub(first.repo, first.base, { APP: 'deploy' }, stub)).code, 0);
    const id = stub.comments[0]!.id;
    const both = await runGithub(first.repo, first.base, { APP: 'deploy', ROLLSTAMP_FLAGS: '--selector restart-on-config-update=true' }, stub);
    assert.is(both.code, 0, both.stderr);
    assert.is(stub.comments.length, 1, 'still one comment');
    assert.equal(writes(stub).slice(1), [`PATCH /repos/example/shop/issues/comments/${id}`]);
    const quiet = await runGithub(none.repo, none.base, { APP: 'deploy' }, stub);
    assert.is(quiet.code, 0, quiet.stderr);
    assert.is(quiet.summary, '**rollstamp diff**: Nothing rolls.\n');
    assert.equal(stub.comments.map((c) => c.body), [`${MARKER}\n**rollstamp diff**: Nothing rolls.\n`], 'the stale "1 target rolls." is gone');
  });
});

kubectlTest('GitHub recipe: nothing rolling and no earlier comment posts nothing', async () => {
  const none = twoRevisions('examples/kustomize/app', () => undefined);
  await withStub('test-token', [], async (stub) => {
    const r = await runGithub(none.repo, none.base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.equal(writes(stub), []);
    assert.match(r.stdout, /Nothing rolls and no earlier comment: nothing to post\./);
  });
});

kubectlTest("GitHub recipe: another workflow's comment by the same bot is never edited; its own comment is found on a later page (#23)", async () => {
  const { repo, base } = rotated();
  const others: StubComment[] = Array.from({ length: 130 }, (_, i) => ({ id: i + 1, body: i === 0 ? '**coverage**: 91%' : `review ${i}`, author: i === 0 ? 'github-actions[bot]' : 'someone' }));
  others.push({ id: 500, body: `${MARKER}\n**rollstamp diff**: Nothing rolls.\n`, author: 'github-actions[bot]' });
  await withStub('test-token', others, async (stub) => {
    const r = await runGithub(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.equal(writes(stub), ['PATCH /repos/example/shop/issues/comments/500']);
    assert.is(stub.comments[0]!.body, '**coverage**: 91%');
    assert.match(stub.comments.at(-1)!.body, /1 target rolls/);
    assert.ok(stub.requests.includes('GET /repos/example/shop/issues/16/comments?per_page=100&page=2'), 'the second page was read');
  });
});

kubectlTest('GitHub recipe: a fork whose token cannot comment keeps the job green, warns, and the job summary has the table (#23)', async () => {
  const { repo, base } = rotated();
  await withStub('test-token', [], async (stub) => {
    stub.readOnly = true;
    const r = await runGithub(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.summary, /1 target rolls/);
    assert.match(r.stdout, /::warning::rollstamp diff: writing the comment returned HTTP 403 \(a pull request from a fork gets a read-only token\)/);
    assert.equal(stub.comments, []);
  });
});

kubectlTest('GitHub recipe: an invalid render fails the job and posts nothing', async () => {
  const { repo, base } = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), ROTATED[0], 'not*base64'));
  await withStub('test-token', [], async (stub) => {
    const r = await runGithub(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /rollstamp: error: NEW/);
    assert.equal(stub.requests, []);
  });
});

helmTest('GitHub and GitLab recipes, Helm: a new db.password rolls the chart Deployment', async () => {
  const { repo, base } = twoRevisions('examples/helm/chart', (dir) => replaceIn(join(dir, 'values.yaml'), 'password: hunter2', 'password: hunter3'));
  await withStub('test-token', [], async (stub) => {
    const gh = await runGithub(repo, base, { APP: 'deploy', RELEASE: 'shop' }, stub);
    assert.is(gh.code, 0, gh.stderr);
    assert.match(gh.summary, /1 target rolls/);
    assert.match(gh.summary, /Secret `[\w-]+\/shop-db` \(bundle\) \| changed: `password`/);
    const gl = await withStub('note-token', [], (lab) => runGitlab(repo, base, { APP: 'deploy', RELEASE: 'shop' }, lab));
    assert.is(gl.code, 0, gl.stderr);
    assert.is(gl.artifact, gh.summary);
  });
});

kubectlTest('GitLab recipe, kustomize: rollstamp.md is the artifact; one note is written, updated by the next pipeline, and set to "Nothing rolls." later (#23)', async () => {
  const { repo, base } = rotated();
  const none = twoRevisions('examples/kustomize/app', () => undefined);
  const theirs: StubComment = { id: 3, body: '**terraform plan**: no changes', author: 'project_7_bot' };
  await withStub('note-token', [theirs], async (stub) => {
    const r = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.artifact, /\| `apps\/v1\/Deployment\/shop-web` \| Secret `default\/shop-db` \(bundle\) \| changed: `password` \|/);
    assert.equal(writes(stub), ['POST /api/v4/projects/7/merge_requests/16/notes']);
    assert.is(stub.comments[1]!.body, `${MARKER}\n${r.artifact}`);
    const smtp = twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'configmap.yaml'), 'SMTP_HOST: smtp.example.com', 'SMTP_HOST: smtp2.example.com'));
    const again = await runGitlab(smtp.repo, smtp.base, { APP: 'deploy', ROLLSTAMP_FLAGS: '--selector restart-on-config-update=true' }, stub);
    assert.is(again.code, 0, again.stderr);
    const id = stub.comments[1]!.id;
    assert.equal(writes(stub).slice(1), [`PUT /api/v4/projects/7/merge_requests/16/notes/${id}`]);
    assert.match(stub.comments[1]!.body, /2 targets roll/);
    const quiet = await runGitlab(none.repo, none.base, { APP: 'deploy' }, stub);
    assert.is(quiet.code, 0, quiet.stderr);
    assert.equal(stub.comments.map((c) => c.body), [theirs.body, `${MARKER}\n**rollstamp diff**: Nothing rolls.\n`], "the other job's note is untouched");
  });
});

kubectlTest("GitLab recipe: a note another user wrote with the marker is never adopted; the token's own note is (#33)", async () => {
  const { repo, base } = rotated();
  const planted: StubComment = { id: 4, body: `${MARKER}\nplanted by someone who may comment`, author: 'mallory' };
  await withStub('note-token', [planted], async (stub) => {
    const r = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.equal(writes(stub), ['POST /api/v4/projects/7/merge_requests/16/notes'], "mallory's note is not edited");
    assert.is(stub.comments[0]!.body, planted.body);
    const again = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(again.code, 0, again.stderr);
    assert.equal(writes(stub).slice(1), [`PUT /api/v4/projects/7/merge_requests/16/notes/${stub.comments[1]!.id}`], 'its own note is updated');
    stub.failEdits = 404;
    const gone = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(gone.code, 0, gone.stderr);
    assert.equal(writes(stub).slice(2), [`PUT /api/v4/projects/7/merge_requests/16/notes/${stub.comments[1]!.id}`, 'POST /api/v4/projects/7/merge_requests/16/notes'], 'an update that fails posts a new note');
  });
});

kubectlTest('GitLab recipe: without ROLLSTAMP_NOTE_TOKEN only the artifact; a write the API refuses fails the job', async () => {
  const { repo, base } = rotated();
  await withStub('note-token', [], async (stub) => {
    const noToken = await runGitlab(repo, base, { APP: 'deploy' }, stub, '');
    assert.is(noToken.code, 0, noToken.stderr);
    assert.match(noToken.artifact, /1 target rolls/);
    assert.equal(stub.requests, [], 'without ROLLSTAMP_NOTE_TOKEN only the artifact');
    const wrong = await runGitlab(repo, base, { APP: 'deploy' }, stub, 'revoked');
    assert.is(wrong.code, 1);
    assert.match(wrong.stderr, /reading the token's user returned HTTP 401/);
  });
});

test('GitHub and GitLab recipes: a kagent 1.x Agent that will not compile posts the report, then fails the job with exit 4 (#35)', async () => {
  // The claude ModelConfig still names api-key after the key is renamed: lead and reviewer will not compile.
  const { repo, base } = twoRevisions('examples/kagent-1x', (dir) => replaceIn(join(dir, 'secrets.yaml'), '  api-key: sk-ant-example-key-1', '  apiKey: sk-ant-example-key-1'));
  await withStub('test-token', [], async (stub) => {
    const r = await runGithub(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 4, r.stderr);
    assert.match(r.stdout, /::error::rollstamp diff: a kagent 1\.x Agent will not compile after this change/);
    assert.match(r.summary, /will not compile/);
    assert.equal(stub.comments.map((c) => c.body), [`${MARKER}\n${r.summary}`], 'the report is posted before the job fails');
  });
  await withStub('note-token', [], async (stub) => {
    const r = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 4, r.stderr);
    assert.match(r.stderr, /a kagent 1\.x Agent will not compile after this change/);
    assert.equal(stub.comments.map((c) => c.body), [`${MARKER}\n${r.artifact}`], 'the note is written before the job fails');
    const noToken = await runGitlab(repo, base, { APP: 'deploy' }, stub, '');
    assert.is(noToken.code, 4, 'without a note token the artifact only, and the job still fails');
  });
});

kubectlTest('recipes: an app that is new in the head renders as empty in the base, and every target appears', async () => {
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
  await withStub('note-token', [], async (stub) => {
    const r = await runGitlab(repo, base, { APP: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.artifact, /0 targets roll, 1 appears\./);
  });
});

test('recipes use a supported Node (22 or 24) and current action versions (#23)', () => {
  const uses = GITHUB.jobs['rollstamp-diff']!.steps.map((s) => s.uses).filter((u) => u !== undefined);
  // Pinned by commit SHA, the release tag in a comment (#38); the text keeps the comment the YAML drops.
  assert.equal(uses, ['actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1', 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020']);
  const text = readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8');
  for (const u of uses) assert.match(text, new RegExp(`uses: ${u} # v\\d+\\.\\d+\\.\\d+\\n`));
  const node = (GITHUB.jobs['rollstamp-diff']!.steps[1] as { with?: { 'node-version'?: number } }).with?.['node-version'];
  assert.ok(node === 22 || node === 24, `setup-node node-version ${node}`);
  assert.match(GITLAB['rollstamp-diff']!.image, /^node:(22|24)\b/);
  const gitlab = GITLAB['rollstamp-diff']!;
  // Both render as the Argo CD plugin does, with its checks (#33): helm and kubectl run under rollstamp.
  const renders = gitlab.script.join('\n').match(/\b(helm|kubectl|kustomize) (template|kustomize|build)\b/g) ?? [];
  assert.equal(renders, [], 'GitLab runs no renderer itself');
  assert.match(gitlab.script.join('\n'), /node "\$ROLLSTAMP_JS" generate --render-only/);
  assert.match(GITHUB.jobs['rollstamp-diff']!.steps.find((st) => st.name === 'Render base and head')!.run!, /generate --render-only/);
  for (const tool of ['helm', 'kubectl']) assert.ok(gitlab.before_script.some((l) => l.includes(`/usr/local/bin`) && l.includes(tool)), `before_script installs ${tool}`);
});

test.after(removeTempDirs);
test.run();
