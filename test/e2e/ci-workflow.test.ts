// .github/workflows/ci.yml as GitHub's ubuntu-24.04 runners run it (#38): the runner has no kpt, so a step
// installs the pinned one (.ci/install-kpt, checked here on stand-in packages built from this machine's kpt);
// sudo replaces PATH with its secure_path, so the run step sets PATH again inside sudo, and .ci/check-node
// fails a matrix leg whose `node` is not the leg's major version. The run step is executed with a sudo that
// behaves like the runner's, against node stand-ins, both as written and in the form that lost the leg's Node.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { findOnPath, removeTempDirs, ROOT, run, tempDir, testNeeding } from '../support/tools.ts';

type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type CiWorkflow = { on: Record<string, unknown>; jobs: { test: { 'runs-on': string; strategy: { matrix: { node: number[] } }; steps: Step[] } } };

const CI = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as CiWorkflow;
const STEPS = CI.jobs.test.steps;
const INSTALL_KPT = join(ROOT, '.ci', 'install-kpt');
const pinned = (name: string): string => new RegExp(`^${name}=(\\S+)$`, 'm').exec(readFileSync(INSTALL_KPT, 'utf8'))![1]!;

test('ci.yml: branches, pull requests and release.yml (workflow_call) run it, on ubuntu-24.04, on Node 22 and 24', () => {
  assert.equal(Object.keys(CI.on).sort(), ['pull_request', 'push', 'workflow_call']);
  assert.equal(CI.on.push, { branches: ['**'] }, 'a tag runs it through release.yml, not twice');
  assert.is(CI.jobs.test['runs-on'], 'ubuntu-24.04');
  assert.equal(CI.jobs.test.strategy.matrix.node, [22, 24]);
  assert.equal(STEPS.map((s) => s.uses?.replace(/@.*/, '') ?? s.name), ['actions/checkout', 'actions/setup-node', 'Install kpt (pinned version, sha256 checked)', 'Run .ci/run as root, with this leg\'s Node']);
  assert.is(STEPS[1]!.with?.['node-version'], '${{ matrix.node }}');
  assert.is(STEPS[2]!.run, 'sudo bash .ci/install-kpt /usr/local/bin');
  assert.is(STEPS[3]!.env?.ROLLSTAMP_CI_NODE, '${{ matrix.node }}');
  // .ci/run itself is what runs this suite: here it is parsed, and it checks the node before anything else.
  const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  assert.is(run('bash', ['-n', join(ROOT, '.ci', 'run')]).code, 0);
  assert.ok(ciRun.indexOf('bash .ci/check-node') > 0 && ciRun.indexOf('bash .ci/check-node') < ciRun.indexOf('npm ci'), '.ci/run checks the node first');
});

/** A directory holding an executable `node` that prints `version`, as setup-node's or the runner's node. */
function nodeStandIn(version: string): string {
  const dir = tempDir('ci-node');
  writeFileSync(join(dir, 'node'), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(dir, 'node'), 0o755);
  return dir;
}

/**
 * The run step of ci.yml (or `script`) in a checkout whose .ci/run only checks the node, with setup-node's
 * node (v24) first on PATH and a sudo that, like the runner's, replaces PATH with its secure_path (where the
 * runner's own node, v22, is).
 */
function runStepUnderSudo(script: string): ReturnType<typeof run> {
  const checkout = tempDir('ci-checkout');
  mkdirSync(join(checkout, '.ci'));
  copyFileSync(join(ROOT, '.ci', 'check-node'), join(checkout, '.ci', 'check-node'));
  writeFileSync(join(checkout, '.ci', 'run'), '#!/usr/bin/env bash\nset -euo pipefail\nbash .ci/check-node\n');
  const runnerNode = nodeStandIn('v22.19.0');
  const securePath = `${runnerNode}:/usr/sbin:/usr/bin:/sbin:/bin`;
  const sudoDir = tempDir('ci-sudo');
  writeFileSync(join(sudoDir, 'sudo'), `#!/bin/bash\n# secure_path: the caller's PATH is replaced, whatever --preserve-env says\nexport PATH='${securePath}'\nwhile [ "\${1#-}" != "$1" ]; do shift; done\nexec "$@"\n`);
  chmodSync(join(sudoDir, 'sudo'), 0o755);
  const path = `${sudoDir}:${nodeStandIn('v24.9.0')}:${securePath}`;
  return run('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], { cwd: checkout, env: { PATH: path, ROLLSTAMP_CI_NODE: '24', HOME: checkout } });
}

test("ci.yml's run step runs .ci/run with the leg's Node under sudo; the form that lost it fails the leg", () => {
  const written = runStepUnderSudo(STEPS[3]!.run!);
  assert.is(written.code, 0, written.stderr);
  assert.match(written.stdout, /^node v24\.9\.0 \(/m);
  const lost = runStepUnderSudo('sudo --preserve-env=PATH,CI bash .ci/run');
  assert.is(lost.code, 1, 'the check can fail');
  assert.match(lost.stderr, /check-node: this run should use Node 24, but PATH leads to node v22\.19\.0/);
});

const kptTest = testNeeding('kpt');
const debTest = findOnPath('dpkg-deb') ? kptTest : test.skip;
if (!findOnPath('dpkg-deb')) process.stdout.write('skip: dpkg-deb not found on PATH (the install-kpt checks build .deb stand-ins)\n');

/** A .deb stand-in for the pinned package: `binary` at the path the real one has, name and version as given. */
function standInDeb(binary: Buffer, version = pinned('KPT_PACKAGE_VERSION')): string {
  const dir = tempDir('kpt-deb');
  const bin = join(dir, 'pkg', 'usr', 'lib', 'google-cloud-sdk', 'bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(dir, 'pkg', 'DEBIAN'));
  writeFileSync(join(bin, 'kpt'), binary);
  chmodSync(join(bin, 'kpt'), 0o755);
  writeFileSync(join(dir, 'pkg', 'DEBIAN', 'control'), `Package: ${pinned('KPT_PACKAGE')}\nVersion: ${version}\nArchitecture: amd64\nMaintainer: stand-in\nDescription: stand-in\n`);
  const deb = join(dir, 'kpt.deb');
  const built = run('dpkg-deb', ['--build', '-Zgzip', '-z1', join(dir, 'pkg'), deb]);
  assert.is(built.code, 0, built.stderr);
  return deb;
}

debTest('.ci/install-kpt installs the pinned kpt from its package, and refuses another binary or package version with one line', () => {
  const machineKpt = readFileSync(realpathSync(findOnPath('kpt')!));
  const install = (deb: string): { r: ReturnType<typeof run>; dest: string } => {
    const dest = join(tempDir('kpt-dest'), 'bin');
    return { r: run('bash', [INSTALL_KPT, dest], { env: { ...process.env, KPT_DEB: deb } }), dest };
  };
  const good = install(standInDeb(machineKpt));
  if (good.r.code !== 0 && /does not have the pinned sha256/.test(good.r.stderr)) {
    // This machine's kpt is another build: the pin cannot be checked here, but a tampered one still fails below.
    process.stdout.write(`note: this machine's kpt is not the pinned ${pinned('KPT_VERSION')} build\n`);
  } else {
    assert.is(good.r.code, 0, good.r.stderr);
    assert.is(good.r.stdout.trim(), `kpt ${pinned('KPT_VERSION')} installed as ${good.dest}/kpt (sha256 ${pinned('KPT_SHA256')})`);
    assert.is(run(join(good.dest, 'kpt'), ['version']).stdout.trim(), pinned('KPT_VERSION'));
  }
  const tampered = install(standInDeb(Buffer.concat([machineKpt, Buffer.from('\n')])));
  assert.is(tampered.r.code, 1);
  assert.match(tampered.r.stderr, /^install-kpt: the kpt binary in \S+ does not have the pinned sha256 [0-9a-f]{64}\n$/);
  assert.not.ok(existsSync(join(tampered.dest, 'kpt')), 'nothing installed');
  const otherVersion = install(standInDeb(machineKpt, '529.0.0-0'));
  assert.is(otherVersion.r.code, 1);
  assert.match(otherVersion.r.stderr, /is 'google-cloud-cli-kpt 529\.0\.0-0', not google-cloud-cli-kpt 528\.0\.0-0/);
});

test.after(removeTempDirs);
test.run();
