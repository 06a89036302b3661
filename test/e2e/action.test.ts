// The composite GitHub Action at the repository root (#23): action.yml and the docs/ci workflow pass the
// action validator (@action-validator/core, the schemas GitHub publishes for both), its comment step is the
// recipe's own, and its steps run as the runner runs a composite action — inputs with their defaults, the
// action's checkout (this repository, with dist/ built) at GITHUB_ACTION_PATH — against the GitHub API stub.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { removeTempDirs, requireBundle, ROOT, tempDir, testNeeding } from './helpers.ts';
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

/** The action's steps with `inputs` over its defaults, on pull request 16, against `stub`. */
async function runAction(repo: string, base: string, inputs: Record<string, string>, stub: ForgeStub): Promise<Awaited<ReturnType<typeof runSteps>>> {
  requireBundle();
  const github = { 'github.event.pull_request.base.sha': base, 'github.event.pull_request.number': '16', 'github.token': 'test-token' };
  const context: Record<string, string> = { ...github };
  for (const [name, spec] of Object.entries(ACTION.inputs)) {
    context[`inputs.${name}`] = inputs[name] ?? String(spec.default ?? '').replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => github[e as keyof typeof github] ?? `unknown ${e}`);
  }
  const runnerTemp = tempDir('action-runner');
  const env = { PATH: process.env.PATH, HOME: runnerTemp, RUNNER_TEMP: runnerTemp, GITHUB_ACTION_PATH: ROOT, GITHUB_API_URL: stub.url, GITHUB_REPOSITORY: 'example/shop' };
  return runSteps(ACTION.runs.steps, repo, env, context);
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

test.after(removeTempDirs);
test.run();
