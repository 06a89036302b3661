// The README's "Use it" commands run as written, in order, from a copy of the repository root (examples/ and
// the built bundle), through bash with pipefail: each exits 0 and does what its comment says. A line that
// needs kubectl, helm or kpt follows the e2e rule for missing tools (skipped locally, failing in CI).
import { cpSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as assert from 'uvu/assert';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, stampsIn, tempDir, testNeeding, testNeedingTool } from '../support/tools.ts';
import { test } from 'uvu';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n## Use it\n'));
const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const lines = block.split('\n').filter((l) => l.trim() !== '');
const helm = obtainHelm();

let dir = '';
function workdir(): string {
  if (dir !== '') return dir;
  requireBundle();
  dir = tempDir('readme');
  cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
  cpSync(dirname(BUNDLE), join(dir, 'dist'), { recursive: true });
  return dir;
}

test('the README has a "Use it" block of commands', () => {
  assert.ok(lines.length >= 6, `found ${lines.length} lines`);
  for (const l of lines) assert.match(l, /node (\$PWD\/)?dist\/rollstamp\.js/, `every line runs the bundle: ${l}`);
});

for (const line of lines) {
  const tool = /^(kubectl|helm|kpt)\b/.exec(line)?.[1];
  const register = tool === 'helm' ? testNeedingTool('helm', helm) : tool ? testNeeding(tool) : test;
  register(`README "Use it": ${line.replace(/\s+#.*$/, '')}`, () => {
    const cwd = workdir();
    const path = [helm.ok ? dirname(helm.path) : '', process.env.PATH ?? ''].filter((p) => p !== '').join(':');
    const r = run('bash', ['-o', 'pipefail', '-c', line], { cwd, env: { ...process.env, PATH: path }, timeoutMs: 60_000 });
    assert.is(r.code, 0, `${line}\n${r.stderr}`);
    if (line.includes('> stamped.yaml')) assert.ok(stampsIn(readFileSync(join(cwd, 'stamped.yaml'), 'utf8')).length >= 2, 'stamped.yaml has the stamps');
    else if (line.includes('--check')) assert.is(r.stdout, '', '--check prints nothing');
    else if (line.includes('-o json')) assert.ok(Array.isArray(JSON.parse(r.stdout).wouldChange));
    else if (line.includes(' explain ')) assert.match(r.stdout, /rollstamp\.dev\/hash/);
    else if (line.includes(' diff ')) assert.is(r.stdout, 'Nothing rolls.\n', 'a render and its own stamped output roll nothing');
    else assert.ok(r.stdout.includes('rollstamp.dev/hash'), `${line}: stamps in the output`);
  });
}

test.after(removeTempDirs);
test.run();
