// The composite GitHub Action at the repository root (#23): action.yml and the docs/ci workflow pass the
// action validator (@action-validator/core, the schemas GitHub publishes for both), its comment step is the
// recipe's own, and its steps run as the runner runs a composite action — inputs with their defaults, the
// action's checkout at GITHUB_ACTION_PATH as a release tag has it (the repository's files and dist/, no
// node_modules) — against the GitHub API stub. A run installs nothing (#38): with npm, npx, yarn, pnpm,
// corepack, curl and wget replaced by stubs that record a call, and in a network namespace of its own.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, tempDir, testNeeding, testNeedingTool } from './helpers.ts';
import { replaceIn, runSteps, type Step, twoRevisions } from './util-ci-runner.ts';
import { type ForgeStub, startForgeStub } from './util-forge-stub.ts';

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const ACTION = parse(ACTION_TEXT) as Action;
const RECIPE = parse(readFileSync(join(ROOT, 'docs/ci/github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const kubectlTest = testNeeding('kubectl');
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

test("action.yml: a composite action whose comment step is the recipe's comment step, with outputs rolls and markdown", () => {
  assert.is(ACTION.runs.using, 'composite');
  assert.equal(stepNamed(ACTION.runs.steps, 'Comment on the pull request').run, stepNamed(RECIPE.jobs['rollstamp-diff']!.steps, 'Comment on the pull request').run);
  assert.equal(Object.keys(ACTION.outputs).sort(), ['markdown', 'rolls']);
  for (const name of ['app', 'base-ref', 'base', 'head', 'flags', 'comment']) assert.ok(name in ACTION.inputs, `input ${name}`);
});

/** The action as `uses: OWNER/rollstamp@<release tag>` checks it out: the repository's files and dist/ (with `dist`). */
function actionCheckout(dist = true): string {
  requireBundle();
  const dir = join(tempDir('action-checkout'), 'rollstamp');
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
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
  const path = [options.pathFirst, process.env.PATH].filter((p) => p !== undefined).join(':');
  const env = { PATH: path, HOME: runnerTemp, RUNNER_TEMP: runnerTemp, GITHUB_ACTION_PATH: actionPath, GITHUB_API_URL: stub.url, GITHUB_REPOSITORY: 'example/shop' };
  return runSteps(ACTION.runs.steps, repo, env, context, [], options.wrap ?? []);
}

async function withStub<T>(body: (stub: ForgeStub) => Promise<T>): Promise<T> {
  const stub = await startForgeStub({ token: 'test-token' });
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

test.after(removeTempDirs);
test.run();
