// The composite GitHub Action at the repository root (#23): action.yml and the docs/ci workflow pass the
// action validator (@action-validator/core, the schemas GitHub publishes for both), its comment step is the
// recipe's own, and its steps run as the runner runs a composite action — inputs with their defaults, the
// action's checkout at GITHUB_ACTION_PATH as a release tag has it (the repository's files and dist/, no
// node_modules) — against the GitHub API stub. A run installs nothing (#38): with npm, npx, yarn, pnpm,
// corepack, curl and wget replaced by stubs that record a call, and in a network namespace of its own.
// Tried as an attacker who controls the pull request or may comment on it (#33): a chart's symlinks into the
// checkout's .git or out of the tree, a comment that starts with the marker, a report too long for a comment.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, copyCheckout, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { git, replaceIn, runSteps, type Step, twoRevisions } from '../support/ci-runner.ts';
import { type ForgeStub, type ForgeStubOptions, startForgeStub, type StubComment } from '../support/forge-stub.ts';

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const ACTION = parse(ACTION_TEXT) as Action;
const RECIPE = parse(readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const kubectlTest = testNeeding('kubectl');
const helm = obtainHelm();
const helmTest = testNeedingTool('helm', helm);
function stepNamed(steps: Step[], name: string): Step {
  const step = steps.find((s) => s.name === name);
  if (!step) throw new Error(`no step ${name}`);
  return step;
}

test('action.yml and the GitHub recipe pass the action validator, which does reject a broken action', () => {
  assert.equal(validateAction(ACTION_TEXT).errors, []);
  assert.equal(validateWorkflow(readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8')).errors, []);
  assert.ok(validateAction(ACTION_TEXT.replace('using: composite', 'using: compositee')).errors.length > 0, 'the validator can fail');
});

test("action.yml: a composite action whose comment step is the recipe's comment step, with outputs rolls, compiles and markdown", () => {
  assert.is(ACTION.runs.using, 'composite');
  assert.equal(stepNamed(ACTION.runs.steps, 'Comment on the pull request').run, stepNamed(RECIPE.jobs['rollstamp-diff']!.steps, 'Comment on the pull request').run);
  assert.equal(Object.keys(ACTION.outputs).sort(), ['compiles', 'markdown', 'rolls']);
  for (const name of ['app', 'base-ref', 'base', 'head', 'flags', 'comment']) assert.ok(name in ACTION.inputs, `input ${name}`);
});

/** The action as `uses: OWNER/rollstamp@<release tag>` checks it out: the repository's files and dist/ (with `dist`). */
function actionCheckout(dist = true): string {
  requireBundle();
  const dir = join(tempDir('action-checkout'), 'rollstamp');
  copyCheckout(dir);
  if (dist) cpSync(dirname(BUNDLE), join(dir, 'dist'), { recursive: true });
  return dir;
}
let releaseTag: string | undefined;

interface RunOptions {
  /** GITHUB_ACTION_PATH. Default: a release tag's checkout. */
  actionPath?: string;
  /** Directories before PATH (stubs). */
  pathFirst?: string;
  /** A command prefix for every step (a network namespace). */
  wrap?: readonly string[];
}

/** The action's steps with `inputs` over its defaults, on pull request 16, against `stub`. */
async function runAction(repo: string, base: string, inputs: Record<string, string>, stub: ForgeStub, options: RunOptions = {}): Promise<Awaited<ReturnType<typeof runSteps>>> {
  const actionPath = options.actionPath ?? (releaseTag ??= actionCheckout());
  const github = { 'github.event.pull_request.base.sha': base, 'github.event.pull_request.number': '16', 'github.token': 'test-token' };
  const context: Record<string, string> = { ...github };
  for (const [name, spec] of Object.entries(ACTION.inputs)) {
    context[`inputs.${name}`] = inputs[name] ?? String(spec.default ?? '').replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => github[e as keyof typeof github] ?? `unknown ${e}`);
  }
  const runnerTemp = tempDir('action-runner');
  const path = [options.pathFirst, helm.ok ? dirname(helm.path) : undefined, process.env.PATH].filter((p) => p !== undefined).join(':');
  const env = { PATH: path, HOME: runnerTemp, RUNNER_TEMP: runnerTemp, GITHUB_ACTION_PATH: actionPath, GITHUB_API_URL: stub.url, GITHUB_REPOSITORY: 'example/shop', GITHUB_RUN_ID: '4242' };
  return runSteps(ACTION.runs.steps, repo, env, context, [], options.wrap ?? []);
}

async function withStub<T>(body: (stub: ForgeStub) => Promise<T>, options: Partial<ForgeStubOptions> = {}): Promise<T> {
  const stub = await startForgeStub({ token: 'test-token', ...options });
  try {
    return await body(stub);
  } finally {
    await stub.close();
  }
}

const rotated = (): { repo: string; base: string } => twoRevisions('examples/kustomize/app', (dir) => replaceIn(join(dir, 'secret.yaml'), 'c2hvcC1leGFtcGxlLXBhc3N3b3Jk', 'c2hvcC1leGFtcGxlLXBhc3N3b3JkMg=='));

kubectlTest('action with app: renders both revisions, outputs rolls=true and the markdown, and writes the one comment', async () => {
  const { repo, base } = rotated();
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    const out = r.outputs.get('diff')!;
    assert.is(out.get('rolls'), 'true');
    assert.is(`${out.get('markdown')}\n`, r.summary, 'the markdown output is the report');
    assert.match(r.summary, /changed: `password`/);
    assert.equal(stub.comments.map((c) => c.body), [`<!-- rollstamp-diff -->\n${r.summary}`]);
    const again = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(again.code, 0, again.stderr);
    assert.is(stub.comments.length, 1, 'a second run updates the comment');
  });
});

test('action with base and head renders and comment "false": outputs only, no API call', async () => {
  const dir = tempDir('action-files');
  const app = readFileSync(join(ROOT, 'examples/basic/app.yaml'), 'utf8');
  writeFileSync(join(dir, 'old.yaml'), app);
  writeFileSync(join(dir, 'new.yaml'), app);
  await withStub(async (stub) => {
    const r = await runAction(dir, 'unused', { base: join(dir, 'old.yaml'), head: join(dir, 'new.yaml'), comment: 'false', flags: `--config ${join(ROOT, 'examples/basic/rollstamp.yaml')}` }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.outputs.get('diff')!.get('rolls'), 'false');
    assert.is(r.outputs.get('diff')!.get('markdown'), '**rollstamp diff**: Nothing rolls.');
    assert.equal(stub.requests, []);
    const half = await runAction(dir, 'unused', { base: join(dir, 'old.yaml') }, stub);
    assert.is(half.code, 2);
    assert.match(half.stdout, /::error::rollstamp diff: give both base and head, or app/);
  });
});

kubectlTest('action on a fork: the comment is refused, the step warns and the job stays green', async () => {
  const { repo, base } = rotated();
  await withStub(async (stub) => {
    stub.readOnly = true;
    const r = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.outputs.get('diff')!.get('rolls'), 'true');
    assert.match(r.stdout, /::warning::/);
  });
});

/** Stubs for every installer and downloader, each recording its call in `log` and failing. */
function installerStubs(log: string): string {
  const dir = tempDir('action-stubs');
  for (const name of ['npm', 'npx', 'yarn', 'pnpm', 'corepack', 'curl', 'wget']) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $*" >> "${log}"\nexit 97\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** The command that runs a process in a network namespace of its own (no interface up), if this machine allows one. */
function offline(): { wrap: string[] } | { reason: string } {
  for (const wrap of [['unshare', '--net'], ['unshare', '--net', '--map-root-user']]) {
    if (spawnSync(wrap[0]!, [...wrap.slice(1), 'true']).status === 0) return { wrap };
  }
  return { reason: 'unshare --net is not permitted here (needs root or unprivileged user namespaces)' };
}
const netns = offline();
const offlineTest = 'wrap' in netns ? kubectlTest : testNeedingTool('a network namespace', { ok: false, reason: netns.reason });

offlineTest('a run from a release tag installs nothing: no npm, npx, yarn, pnpm or corepack, no curl or wget, and no network (#38)', async () => {
  const { repo, base } = rotated();
  const log = join(tempDir('action-log'), 'calls.log');
  writeFileSync(log, '');
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy', comment: 'false' }, stub, { pathFirst: installerStubs(log), wrap: 'wrap' in netns ? netns.wrap : [] });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rollstamp \d+\.\d+\.\d+\S*, node v\d+\./m);
    assert.is(r.outputs.get('diff')!.get('rolls'), 'true');
    assert.match(r.summary, /changed: `password`/);
    assert.is(readFileSync(log, 'utf8'), '', 'no installer or downloader was called');
    assert.equal(stub.requests, []);
  });
  // The check can fail: the same stubs see a call when the step does download.
  const dir = tempDir('action-probe');
  const probe = spawnSync('bash', ['-c', 'curl -fsS http://127.0.0.1:9/ || true'], { cwd: dir, env: { PATH: `${installerStubs(log)}:${process.env.PATH}` } });
  assert.is(probe.status, 0);
  assert.match(readFileSync(log, 'utf8'), /^curl -fsS http:\/\/127\.0\.0\.1:9\/$/m);
});

test('a ref without dist/ (a branch) and no rollstamp-url: one error naming what to use, nothing installed (#38)', async () => {
  const log = join(tempDir('action-log'), 'calls.log');
  writeFileSync(log, '');
  const dir = tempDir('action-files');
  writeFileSync(join(dir, 'a.yaml'), readFileSync(join(ROOT, 'examples/basic/app.yaml'), 'utf8'));
  await withStub(async (stub) => {
    const r = await runAction(dir, 'unused', { base: join(dir, 'a.yaml'), head: join(dir, 'a.yaml'), comment: 'false' }, stub, { actionPath: actionCheckout(false), pathFirst: installerStubs(log) });
    assert.is(r.code, 1);
    assert.match(r.stdout, /^::error::rollstamp diff: this ref of the action has no dist\/ \(release tags have it, branches do not\): use a release tag, or give rollstamp-url and rollstamp-sha256$/m);
    assert.is(readFileSync(log, 'utf8'), '');
  });
});

test('a ref without dist/ with rollstamp-url and rollstamp-sha256: the package is downloaded and checked; a wrong sha256 fails the step', async () => {
  const pkg = tempDir('action-package');
  cpSync(dirname(BUNDLE), join(pkg, 'package', 'dist'), { recursive: true });
  const tgz = join(pkg, 'rollstamp.tgz');
  assert.is(run('tar', ['-czf', tgz, '-C', pkg, 'package']).code, 0);
  const sum = run('sha256sum', [tgz]).stdout.split(' ')[0]!;
  const dir = tempDir('action-files');
  writeFileSync(join(dir, 'a.yaml'), readFileSync(join(ROOT, 'examples/basic/app.yaml'), 'utf8'));
  const actionPath = actionCheckout(false);
  const inputs = { base: join(dir, 'a.yaml'), head: join(dir, 'a.yaml'), comment: 'false', flags: `--config ${join(ROOT, 'examples/basic/rollstamp.yaml')}`, 'rollstamp-url': `file://${tgz}` };
  await withStub(async (stub) => {
    const good = await runAction(dir, 'unused', { ...inputs, 'rollstamp-sha256': sum }, stub, { actionPath });
    assert.is(good.code, 0, good.stderr);
    assert.is(good.outputs.get('diff')!.get('rolls'), 'false');
    const bad = await runAction(dir, 'unused', { ...inputs, 'rollstamp-sha256': '0'.repeat(64) }, stub, { actionPath });
    assert.is(bad.code, 1);
    assert.match(bad.stdout + bad.stderr, /FAILED/);
  });
});

const MARKER = '<!-- rollstamp-diff -->';
/** A token-shaped value planted in the test repository's .git/config, as actions/checkout keeps its token there. */
const TOKEN_CANARY = 'ghs_CANARYtoken0123456789abcdefABCDEF';

/** Every channel the action writes: its stdout and stderr, the job summary, its outputs, the comments. */
function channels(r: Awaited<ReturnType<typeof runAction>>, stub: ForgeStub): string {
  const outputs = [...r.outputs.values()].flatMap((m) => [...m.values()]);
  return [r.stdout, r.stderr, r.summary, ...outputs, ...stub.comments.map((c) => c.body)].join('\n');
}

/**
 * The Helm example at deploy/ in two revisions; the head's chart has `files/c` linked to `link` and a template
 * that turns each line of it into a key of the settings ConfigMap (which the Deployment reads whole), so the
 * lines would be listed as added keys. The repository's .git/config holds the canary token.
 */
function leakingChart(link: string): { repo: string; base: string } {
  const revisions = twoRevisions('examples/helm/chart', (dir) => {
    mkdirSync(join(dir, 'files'));
    symlinkSync(link, join(dir, 'files', 'c'));
    replaceIn(join(dir, 'templates', 'configmap.yaml'), '  {{- end }}', '  {{- end }}\n  {{- range .Files.Lines "files/c" }}\n  {{ . | quote }}: "1"\n  {{- end }}');
  });
  git(revisions.repo, 'config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${TOKEN_CANARY}`);
  return revisions;
}

helmTest("a chart's symlink into the checkout's .git: the token never reaches the report, the summary, the outputs or a comment (#33)", async () => {
  // Was: helm template of the checkout followed files/c to .git/config and listed its lines as keys.
  const { repo, base } = leakingChart('../../.git/config');
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy', release: 'shop' }, stub);
    assert.not.ok(channels(r, stub).includes(TOKEN_CANARY), 'the token reached a channel');
    assert.not.ok(channels(r, stub).includes('extraheader'), 'a line of .git/config reached a channel');
    // The copy rendered has no .git: the link leads nowhere, and the render fails closed.
    assert.is.not(r.code, 0, r.stdout);
    assert.match(r.stdout, /::warning::rollstamp diff: the checkout kept its token; set persist-credentials: false/);
    assert.equal(stub.requests, [], 'nothing is posted');
  });
});

helmTest("a chart's symlink out of the tree is refused by name before helm runs (#33)", async () => {
  for (const link of ['/etc/hostname', '../../../outside']) {
    const { repo, base } = leakingChart(link);
    await withStub(async (stub) => {
      const r = await runAction(repo, base, { app: 'deploy', release: 'shop' }, stub);
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stderr, /rollstamp: error: deploy\/files\/c: symlink points outside the repository; refused\n/);
      assert.not.ok(channels(r, stub).includes(TOKEN_CANARY));
      assert.not.ok(r.stderr.includes(repo), 'no path of the runner in the error');
    });
  }
});

helmTest('a chart without tricks renders as before, with the checks: the rotated password rolls the Deployment (#33)', async () => {
  const { repo, base } = twoRevisions('examples/helm/chart', (dir) => replaceIn(join(dir, 'values.yaml'), 'password: hunter2', 'password: hunter3'));
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy', release: 'shop', comment: 'false' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.summary, /Secret `[\w-]+\/shop-db` \(bundle\) \| changed: `password`/);
    assert.not.match(r.stdout, /::warning::/, 'no warning: the test checkout keeps no token');
  });
});

kubectlTest('a comment someone else wrote with the marker is never adopted: a new comment is posted, theirs is untouched (#33)', async () => {
  const { repo, base } = rotated();
  const planted: StubComment = { id: 7, body: `${MARKER}\nNothing to see here.`, author: 'mallory' };
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.ok(stub.requests.includes('GET /user'), 'the token is asked who it is');
    assert.equal(stub.requests.filter((q) => !q.startsWith('GET ')), ['POST /repos/example/shop/issues/16/comments']);
    assert.is(stub.comments[0]!.body, planted.body);
    assert.is(stub.comments[1]!.body, `${MARKER}\n${r.summary}`);
    assert.is(stub.comments[1]!.author, 'github-actions[bot]');
    const again = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(again.code, 0, again.stderr);
    assert.equal(stub.requests.filter((q) => !q.startsWith('GET ')).slice(1), [`PATCH /repos/example/shop/issues/comments/${stub.comments[1]!.id}`], 'its own comment is updated');
  }, { comments: [{ id: 7, body: `${MARKER}\nNothing to see here.`, author: 'mallory' }] });
});

kubectlTest("a user token's own login (GET /user) decides; comment-author names a GitHub App's bot (#33)", async () => {
  const { repo, base } = rotated();
  const actions: StubComment = { id: 8, body: `${MARKER}\nold`, author: 'github-actions[bot]' };
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.equal(stub.requests.filter((q) => !q.startsWith('GET ')), ['POST /repos/example/shop/issues/16/comments'], "github-actions[bot]'s comment is not the token's");
    assert.is(stub.comments[1]!.author, 'rollstamp-bot');
  }, { login: 'rollstamp-bot', comments: [actions] });
  await withStub(async (stub) => {
    const r = await runAction(repo, base, { app: 'deploy', 'comment-author': 'shop-ci[bot]' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.not.ok(stub.requests.includes('GET /user'), 'comment-author is taken as given');
    assert.equal(stub.requests.filter((q) => !q.startsWith('GET ')), ['PATCH /repos/example/shop/issues/comments/9']);
  }, { login: 'shop-ci[bot]', comments: [{ id: 9, body: `${MARKER}\nold`, author: 'shop-ci[bot]' }] });
});

kubectlTest('an update that fails posts a new comment instead of leaving the old report (#33)', async () => {
  const { repo, base } = rotated();
  await withStub(async (stub) => {
    stub.failEdits = 404; // deleted since it was listed
    const r = await runAction(repo, base, { app: 'deploy' }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /::warning::rollstamp diff: updating comment 10 returned HTTP 404; posting a new comment/);
    assert.equal(stub.requests.filter((q) => !q.startsWith('GET ')), ['PATCH /repos/example/shop/issues/comments/10', 'POST /repos/example/shop/issues/16/comments']);
    assert.match(stub.comments.at(-1)!.body, /1 target rolls/);
  }, { comments: [{ id: 10, body: `${MARKER}\nold`, author: 'github-actions[bot]' }] });
});

test('a kagent 1.x Agent that will not compile: the comment is written first, then the job fails with exit 4 (#35)', async () => {
  const dir = tempDir('action-kagent1x');
  const old = ['secrets.yaml', 'models.yaml', 'agents.yaml'].map((f) => readFileSync(join(ROOT, 'examples/kagent-1x', f), 'utf8')).join('---\n');
  writeFileSync(join(dir, 'old.yaml'), old);
  // The claude ModelConfig still names api-key: the Agents using it will not compile.
  writeFileSync(join(dir, 'new.yaml'), old.replace('  api-key: sk-ant-example-key-1', '  apiKey: sk-ant-example-key-1'));
  await withStub(async (stub) => {
    const r = await runAction(dir, 'unused', { base: join(dir, 'old.yaml'), head: join(dir, 'new.yaml') }, stub);
    assert.is(r.code, 4, r.stderr);
    assert.match(r.stdout, /::error::rollstamp diff: a kagent 1\.x Agent will not compile after this change/);
    const out = r.outputs.get('diff')!;
    assert.is(out.get('rolls'), 'true');
    assert.is(out.get('compiles'), 'false');
    assert.match(r.summary, /will not compile/);
    assert.equal(stub.comments.map((c) => c.body), [`${MARKER}\n${r.summary}`], 'the report is posted before the job fails');
    assert.not.match(r.summary + stub.comments[0]!.body, 'sk-');
  });
});

test('a report longer than a comment may be is cut at a line, with a pointer to the job summary; the summary has all of it (#33)', async () => {
  // 1,200 Deployments share one Secret whose key changes: one table row each, about 100 KB of Markdown.
  const dir = tempDir('action-long');
  const docs = (pw: string): string => [
    `apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: shop}\ndata: {password: ${pw}}\n`,
    ...Array.from({ length: 1200 }, (_, i) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-with-a-rather-long-name-${i}, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x, envFrom: [{secretRef: {name: db}}]}]\n`),
  ].join('---\n');
  writeFileSync(join(dir, 'old.yaml'), docs('YQ=='));
  writeFileSync(join(dir, 'new.yaml'), docs('Yg=='));
  await withStub(async (stub) => {
    const r = await runAction(dir, 'unused', { base: join(dir, 'old.yaml'), head: join(dir, 'new.yaml') }, stub);
    assert.is(r.code, 0, r.stderr);
    assert.ok(r.summary.length > 65_536, `the report is ${r.summary.length} characters`);
    const body = stub.comments[0]!.body;
    assert.ok(body.length <= 65_536, `the comment is ${body.length} characters`);
    assert.ok(body.startsWith(`${MARKER}\n**rollstamp diff**: 1200 targets roll.`), body.slice(0, 200));
    assert.match(body, new RegExp(`\\|\\n\\n_The report is ${r.summary.length} characters, more than a comment may hold: the rest is in the job summary \\(https://github\\.com/example/shop/actions/runs/4242\\)\\._\\n$`));
    assert.ok(r.summary.startsWith(body.slice(MARKER.length + 1, body.lastIndexOf('\n\n_The report'))), 'the comment is the start of the report, cut at a line');
  });
});

test.after(removeTempDirs);
test.run();
