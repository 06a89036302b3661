// The commands in docs/ run as written (#25), as test/e2e/readme-commands.test.ts runs the README's: from a
// copy of the repository's examples/ and dist/, with `rollstamp` on PATH as the built bundle, through bash with
// pipefail. A `console` block is a transcript: each `$ ` line runs in turn and must print exactly the lines
// shown under it, and exit 0 (its last command exits N when the info string says `exit=N`). A `sh` or `bash`
// block runs whole and exits 0; a closing `# text` comment is the output it must end with. A block marked
// `norun` is not run: only on the pages listed in NOT_RUN, for the reason given there.
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { docPages, fences, type Fence } from '../support/markdown.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, tempDir } from '../support/tools.ts';

/** Pages that may hold blocks not run, and why. */
const NOT_RUN: Record<string, string> = {
  'docs/live-reads.md': 'it reads a real cluster (test/live/ and test/e2e/live-commands.test.ts cover live reads against a loopback API server)',
  'docs/develop.md': 'it runs the test suites themselves',
  'docs/helm.md': 'its Helm 3 line needs Helm 3 (the tests have Helm 4), and its Helm 4 block installs the packed tarball: test/e2e/guides.test.ts runs that block',
  'docs/refresh.md': 'it runs against a cluster, or runs the demo (test/live/refresh*.test.ts run the refresher against a loopback list/watch server; test/e2e/refresh-example.test.ts runs npm run start:refresh\'s script)',
  'docs/install.md': 'it installs from registries and builds images (test/e2e/package.test.ts packs and installs offline, test/e2e/image.test.ts builds and runs the image)',
};
const SHELLS = new Set(['sh', 'bash', 'shell', 'console']);

/** A fresh copy of examples/ and dist/, and a `rollstamp` on PATH that runs the bundle. */
function workdir(): { cwd: string; env: NodeJS.ProcessEnv } {
  requireBundle();
  const cwd = tempDir('docs');
  cpSync(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
  cpSync(dirname(BUNDLE), join(cwd, 'dist'), { recursive: true });
  const bin = join(cwd, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'rollstamp'), `#!/bin/sh\nexec "${process.execPath}" "${join(cwd, 'dist', 'rollstamp.js')}" "$@"\n`);
  chmodSync(join(bin, 'rollstamp'), 0o755);
  return { cwd, env: { PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: cwd, LC_ALL: 'C' } };
}

/** A transcript's commands, each with the output shown under it. */
function transcript(body: string): Array<{ command: string; shown: string }> {
  const steps: Array<{ command: string; shown: string }> = [];
  for (const line of body.split('\n').slice(0, -1)) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: '' });
    else if (steps.length > 0) steps[steps.length - 1]!.shown += `${line}\n`;
    else throw new Error(`a console block must start with a "$ " command: ${line}`);
  }
  return steps;
}

function runConsole(block: Fence, where: string): void {
  const { cwd, env } = workdir();
  const steps = transcript(block.body);
  assert.ok(steps.length > 0, `${where}: no command`);
  const lastExit = Number(/^exit=(\d+)$/.exec(block.flags.find((f) => f.startsWith('exit=')) ?? '')?.[1] ?? 0);
  steps.forEach(({ command, shown }, i) => {
    const r = run('bash', ['--noprofile', '--norc', '-o', 'pipefail', '-c', command], { cwd, env, timeoutMs: 60_000 });
    const want = i === steps.length - 1 ? lastExit : 0;
    assert.is(r.code, want, `${where}: \`${command}\` exits ${want}\n${r.stderr}`);
    assert.is(r.stdout, shown, `${where}: \`${command}\` prints what the page shows`);
  });
}

function runScript(block: Fence, where: string): void {
  const { cwd, env } = workdir();
  const r = run('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', block.body], { cwd, env, timeoutMs: 60_000 });
  assert.is(r.code, 0, `${where}: exits 0\n${r.stderr}`);
  const lines = block.body.trimEnd().split('\n');
  const closing = /^#\s?(.*)$/.exec(lines[lines.length - 1]!)?.[1];
  if (closing !== undefined) assert.ok(r.stdout.endsWith(`${closing}\n`), `${where}: ends with "${closing}", printed:\n${r.stdout}`);
}

const pages = docPages().filter((p) => p !== 'README.md');
const blocks = pages.flatMap((page) => fences(readFileSync(join(ROOT, page), 'utf8')).filter((f) => SHELLS.has(f.lang)).map((f) => ({ page, f })));

test('docs/ has shell blocks to run, and a block is left out only where NOT_RUN says why', () => {
  assert.ok(blocks.filter(({ f }) => !f.flags.includes('norun')).length >= 3, 'shell blocks found');
  for (const { page, f } of blocks) {
    if (f.flags.includes('norun')) assert.ok(page in NOT_RUN, `${page}:${f.line}: a block marked norun on a page without a reason in NOT_RUN`);
  }
});

for (const { page, f } of blocks) {
  if (f.flags.includes('norun')) continue;
  const where = `${page}:${f.line}`;
  const first = f.body.split('\n')[0]!.replace(/^\$ /, '');
  test(`${where} (${f.lang}) runs as written: ${first.slice(0, 60)}`, () => (f.lang === 'console' ? runConsole(f, where) : runScript(f, where)));
}

test.after(removeTempDirs);
test.run();
