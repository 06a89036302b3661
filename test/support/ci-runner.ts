// Runs GitHub Actions steps (a workflow job's, or a composite action's) the way the runner does, for
// test/e2e/ci-recipes.test.ts and test/e2e/action.test.ts: each `run:` through `bash --noprofile --norc -eo
// pipefail`, with `${{ … }}` in `env:` and `if:` taken from the given context and earlier steps' outputs,
// `$GITHUB_OUTPUT` (both `name=value` and `name<<DELIMITER` forms) and `$GITHUB_STEP_SUMMARY` files, and the
// `uses:` steps left out (the runner's own: checkout, setup-node). Also the two-revision git repositories
// the recipes render. Processes run asynchronously, so a stub server in this process can answer them.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { ROOT, tempDir } from './tools.ts';

export interface Step {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

export interface ShellRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A shell script run to completion, asynchronously, under `wrap` (a command prefix) if given; never rejects. */
export function sh(script: string, cwd: string, env: NodeJS.ProcessEnv, flags = ['-e', '-o', 'pipefail'], wrap: readonly string[] = []): Promise<ShellRun> {
  return new Promise((resolve) => {
    const argv = [...wrap, 'bash', '--noprofile', '--norc', ...flags, '-c', script];
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', (e) => (stderr += `${e.message}\n`));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

export function git(repo: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=rollstamp test', '-c', 'user.email=test@rollstamp.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
  assert.is(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A repository with the example at `deploy/` in a base commit and a head commit with `change` applied. */
export function twoRevisions(example: string, change: (appDir: string) => void): { repo: string; base: string } {
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

export function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

export const readIfThere = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** The outputs a step wrote to `$GITHUB_OUTPUT`: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
export function parseOutputs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      assert.ok(end > i, `output ${heredoc[1]} is closed by ${heredoc[2]}`);
      out.set(heredoc[1]!, lines.slice(i + 1, end).join('\n'));
      i = end;
    } else if (line.includes('=')) out.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1));
  }
  return out;
}

export interface StepsRun {
  code: number;
  stderr: string;
  stdout: string;
  summary: string;
  outputs: Map<string, Map<string, string>>;
  /** The `uses:` and skipped steps, in order. */
  skipped: string[];
}

/**
 * Runs `steps` in `cwd` with `env` (the job's env and the runner's variables), `context` for `${{ expr }}`
 * (`steps.ID.outputs.NAME` comes from earlier steps). A step named in `skip` is left out (a download).
 * Stops at the first failing step, as the runner does. Each step's shell runs under `wrap` (e.g. `unshare --net`).
 */
export async function runSteps(steps: Step[], cwd: string, env: NodeJS.ProcessEnv, context: Record<string, string>, skip: string[] = [], wrap: readonly string[] = []): Promise<StepsRun> {
  const runnerTemp = env.RUNNER_TEMP ?? tempDir('ci-runner');
  const summary = join(runnerTemp, 'summary.md');
  const outputs = new Map<string, Map<string, string>>();
  const resolve = (expr: string): string => {
    const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (step) return outputs.get(step[1]!)?.get(step[2]!) ?? '';
    assert.ok(expr in context, `the steps use \${{ ${expr} }}, which the test does not provide`);
    return context[expr]!;
  };
  const expand = (value: string): string => value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => resolve(expr));
  const skipped: string[] = [];
  let stdout = '';
  for (const step of steps) {
    if (step.uses || skip.includes(step.name ?? '')) {
      skipped.push(step.uses ?? step.name!);
      continue;
    }
    if (step.if) {
      const cond = /^(?:\$\{\{\s*)?([\w.-]+) == '([^']*)'(?:\s*\}\})?$/.exec(step.if);
      assert.ok(cond, `unsupported condition ${step.if}`);
      if (resolve(cond[1]!) !== cond[2]) continue;
    }
    assert.ok(step.shell === undefined || step.shell === 'bash', `${step.name}: shell ${step.shell}`);
    assert.not.match(step.run!, /\$\{\{/, `${step.name}: inputs reach the script through env, never \${{ }} in run:`);
    const output = join(runnerTemp, `output-${step.id ?? 'x'}`);
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))]));
    const r = await sh(step.run!, cwd, { ...env, ...stepEnv, RUNNER_TEMP: runnerTemp, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output }, ['-e', '-o', 'pipefail'], wrap);
    stdout += r.stdout;
    if (r.code !== 0) return { code: r.code, stderr: `${step.name}: ${r.stderr}`, stdout, summary: readIfThere(summary), outputs, skipped };
    if (step.id) outputs.set(step.id, parseOutputs(readFileSync(output, 'utf8')));
  }
  return { code: 0, stderr: '', stdout, summary: readIfThere(summary), outputs, skipped };
}
