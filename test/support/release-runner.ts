// Runs .github/workflows/release.yml's jobs for test/e2e/workflows.test.ts, as ci-recipes.test.ts runs the
// docs/ci recipes: each `run:` step's shell as written, job after job, with `uses:` steps left to the runner
// (their outputs supplied). The GitHub repository is a bare git repository holding the working tree (tracked
// and new files) at a commit tagged with the release tag; actions/checkout is a clone of it at the tag, so a
// job that pushes (the tag moved to the commit with dist/) pushes there. `npm ci` links this checkout's
// node_modules; `npm publish`, `cosign` and `gh` are stubs that record what would be published. Not a test file.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { ROOT, run, tempDir } from './tools.ts';
import { git } from './ci-runner.ts';

export type Step = { name?: string; id?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> };
export type Job = { needs?: string | string[]; uses?: string; environment?: string; permissions?: Record<string, string>; steps?: Step[]; outputs?: Record<string, string> };
export type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };

export const loadWorkflow = (name: string): Workflow => parse(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
export const DIGEST = `sha256:${'ab'.repeat(32)}`;

/** A bare repository with the working tree as a checkout has it at a commit tagged `tag`, and that commit. */
function githubRepository(tag: string): { bare: string; source: string } {
  const dir = join(tempDir('release-origin'), 'work');
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  for (const script of ['run', 'check-node', 'install-kpt']) chmodSync(join(dir, '.ci', script), 0o755);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'release candidate');
  git(dir, 'tag', '-a', '-m', `rollstamp ${tag}`, tag);
  const bare = join(dirname(dir), 'origin.git');
  git(dirname(dir), 'clone', '-q', '--bare', dir, bare);
  return { bare, source: git(dir, 'rev-parse', 'HEAD') };
}

function stubs(log: string): string {
  const bin = tempDir('release-bin');
  const realNpm = run('sh', ['-c', 'command -v npm']).stdout.trim();
  const script = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  // publish: records the command and whether an npm token was in reach (trusted publishing needs none).
  script('npm', `case "$1" in\n  ci) ln -s "${join(ROOT, 'node_modules')}" node_modules ;;\n  publish) echo "npm $* (NODE_AUTH_TOKEN \${NODE_AUTH_TOKEN:+set}\${NODE_AUTH_TOKEN:-unset})" >> "${log}"; for a in "$@"; do case "$a" in ./*) test -f "$a" || exit 1;; esac; done ;;\n  *) exec "${realNpm}" "$@" ;;\nesac`);
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

export interface ReleaseRun {
  code: number;
  failed: string;
  log: string;
  runnerTemp: string;
  checkouts: Record<string, string>;
  uses: string[];
  /** Jobs in the order they ran. */
  ran: string[];
  /** The stand-in GitHub repository and the commit the tag was pushed on. */
  bare: string;
  source: string;
}

/** The release workflow's jobs in order (each after the jobs it needs), each step's shell as written. */
export function runRelease(tag: string): ReleaseRun {
  const release = loadWorkflow('release.yml');
  const runnerTemp = tempDir('release-runner');
  const log = join(runnerTemp, 'calls.log');
  writeFileSync(log, '');
  const bin = stubs(log);
  const { bare, source } = githubRepository(tag);
  const workspace = tempDir('release-workspace');
  const context: Record<string, string> = { 'secrets.GITHUB_TOKEN': 'gh-token', 'steps.build.outputs.digest': DIGEST, 'runner.temp': runnerTemp };
  const checkouts: Record<string, string> = {};
  const uses: string[] = [];
  const ran: string[] = [];
  const done = (failed: string, code: number): ReleaseRun => ({ code, failed, log: readFileSync(log, 'utf8'), runnerTemp, checkouts, uses, ran, bare, source });
  for (const [name, job] of Object.entries(release.jobs)) {
    const needs = typeof job.needs === 'string' ? [job.needs] : (job.needs ?? []);
    for (const need of needs) assert.ok(ran.includes(need), `${name} needs ${need}, which has not run before it`);
    ran.push(name);
    if (job.uses) {
      uses.push(`${name}: ${job.uses}`); // a reusable workflow: the runner's (ci.yml has tests of its own)
      continue;
    }
    const jobDir = join(workspace, name);
    mkdirSync(jobDir);
    for (const step of job.steps ?? []) {
      if (step.uses) {
        uses.push(`${name}: ${step.uses.replace(/ #.*$/, '')}`);
        if (step.uses.startsWith('actions/checkout@')) {
          // actions/checkout: `path:` names the directory in the workspace; a clone at the tag, detached.
          const path = String(step.with?.path ?? '.');
          const target = join(jobDir, path);
          run('git', ['clone', '-q', '--branch', tag, bare, target]);
          checkouts[`${name}/${path}`] = target;
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
      if (r.status !== 0) return done(`${name}: ${step.name}: ${r.stderr}${r.stdout}`, r.status ?? -1);
      for (const line of readFileSync(output, 'utf8').split('\n').filter((l) => l.includes('='))) {
        const [k, v] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
        if (step.id) context[`steps.${step.id}.outputs.${k}`] = v;
      }
    }
    for (const [k, v] of Object.entries(job.outputs ?? {})) context[`needs.${name}.outputs.${k}`] = expand(v, context);
    for (const k of Object.keys(context)) if (k.startsWith('steps.') && k !== 'steps.build.outputs.digest') delete context[k];
  }
  return done('', 0);
}
