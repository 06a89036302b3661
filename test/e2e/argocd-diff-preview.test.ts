// `rollstamp diff` over argocd-diff-preview's `--output-app-manifests` trees (#38), through the built bundle:
// output/base/<app>.yaml and output/target/<app>.yaml as its writeManifests lays them out, every Secret value
// masked as Argo CD's API shows it, each workload stamped by the plugin from the real values. The stamps the
// renders carry decide what rolls; the masked Secret is named; the documented workflow step lists the apps.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { StampDiff } from '../../function/index.ts';
import { EXAMPLE, exampleFiles, objectsOf, writeOutputTree } from '../support/argocd-diff-preview.ts';
import { runBundle } from '../support/run-cli.ts';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, tempDir } from '../support/tools.ts';

const BASIC = readFileSync(join(ROOT, EXAMPLE.app), 'utf8');
const CONFIG = join(ROOT, EXAMPLE.config);

/** The basic example, edited and stamped as the plugin renders it (real values: masking comes after). */
function render(edit: (text: string) => string = (t) => t): Record<string, unknown>[] {
  const r = runBundle(['stamp', '-c', CONFIG, '-'], { stdin: edit(BASIC) });
  assert.is(r.code, 0, r.stderr);
  return objectsOf(r.stdout);
}

/** The same objects, unstamped: an app the rollstamp plugin does not render on that branch. */
const unstamped = (): Record<string, unknown>[] => objectsOf(BASIC);

const rotate = (t: string): string => t.replace('example-password-1', 'example-password-2');
const debug = (t: string): string => t.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug');

function diffIn(dir: string, app: string, format: string): { code: number; stdout: string; stderr: string } {
  return runBundle(['diff', '-o', format, '-c', CONFIG, join(dir, 'output/base', `${app}.yaml`), join(dir, 'output/target', `${app}.yaml`)]);
}

test('examples/argocd-diff-preview/output is what argocd-diff-preview writes for the basic example: the plugin\'s stamps, the API\'s masks', async () => {
  const files = await exampleFiles();
  for (const branch of ['base', 'target'] as const) {
    const path = join(ROOT, EXAMPLE.dir, 'output', branch, EXAMPLE.file);
    assert.is(readFileSync(path, 'utf8'), files[branch], `${path} is stale: npm run fixtures:update`);
    assert.match(files[branch], /password: \+\+\+\+\+\+\+\+\n/, 'the Secrets are masked');
    assert.not.match(files[branch], /example-password/, 'no value is left');
  }
});

test('a rotated Secret masked in both renders: the workload whose stamp changed rolls, exit 3, the masked Secret named with the key its stamp covers (#38)', () => {
  requireBundle();
  const dir = tempDir('adp');
  writeOutputTree(dir, { shop: { base: render(), target: render(rotate) } });
  const text = diffIn(dir, 'shop', 'text');
  assert.is(text.code, 3, text.stderr);
  assert.match(text.stdout, /^1 target rolls\.\n/);
  assert.match(text.stdout, /apps\/v1\/Deployment\/shop\/web +rolls +Secret shop\/db-credentials +bundle, masked +masked: password\n/);
  assert.not.match(text.stdout, /CronJob/, 'the CronJob reads username only: its stamp did not change');
  assert.match(text.stdout, /Secret values are masked in these renders/);
  assert.is(text.stderr, '', 'the report says what the masks mean: no warning per Secret');
  const json = diffIn(dir, 'shop', 'json');
  const doc = JSON.parse(json.stdout) as StampDiff;
  assert.equal(doc.summary, { rolls: 1, appears: 0, disappears: 0, 'may-roll': 0 });
  const web = doc.targets[0]!;
  assert.is(web.basis, 'stamps');
  assert.is.not(web.hash.old, web.hash.new);
  assert.equal(web.sources.map((s) => `${s.kind} ${s.name} ${s.unknown} ${(s.covers ?? []).join(',')}`), ['Secret db-credentials masked password', 'Secret web-tls masked tls.crt,tls.key']);
});

test('the documented workflow step over a tree of apps lists exactly those that roll, appear or may roll (#38)', () => {
  requireBundle();
  const dir = tempDir('adp-tree');
  writeOutputTree(dir, {
    shop: { base: render(), target: render(rotate) }, // a masked Secret rotated
    settings: { base: render(), target: render(debug) }, // a ConfigMap changed: not masked, its key named
    quiet: { base: render(), target: render() },
    added: { target: render() }, // only on the target branch
    unrendered: { base: unstamped(), target: render() }, // no stamp in base to compare
  });
  const page = readFileSync(join(ROOT, 'docs/argocd-diff-preview.md'), 'utf8');
  const [step] = parse(/```yaml\n([\s\S]*?)```/.exec(page)![1]!) as { run: string }[];
  const bin = tempDir('adp-bin');
  writeFileSync(join(bin, 'rollstamp'), `#!/bin/sh\nexec "${process.execPath}" "${BUNDLE}" "$@"\n`);
  chmodSync(join(bin, 'rollstamp'), 0o755);
  const r = run('bash', ['-e', '-o', 'pipefail', '-c', step!.run], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
  assert.is(r.code, 0, r.stderr);
  const md = readFileSync(join(dir, 'rollstamp.md'), 'utf8');
  const apps = [...md.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
  assert.equal(apps, ['added', 'settings', 'shop', 'unrendered']);
  assert.match(md, /### added\n\*\*rollstamp diff\*\*: 0 targets roll, 1 appears\./);
  assert.match(md, /### settings\n\*\*rollstamp diff\*\*: 1 target rolls\.[\s\S]*?changed: `LOG_LEVEL`/);
  assert.match(md, /### shop\n\*\*rollstamp diff\*\*: 1 target rolls\.[\s\S]*?Secret `shop\/db-credentials` \(bundle, masked\)/);
  assert.match(md, /### unrendered\n\*\*rollstamp diff\*\*: 0 targets roll, 1 may roll\.[\s\S]*?`apps\/v1\/Deployment\/shop\/web` \(may roll\)/);
});

test('masked Secrets and no stamp in one render: the workload may roll, exit 3, never "Nothing rolls." (#38)', () => {
  requireBundle();
  const dir = tempDir('adp-unstamped');
  writeOutputTree(dir, { shop: { base: unstamped(), target: render(rotate) } });
  const r = diffIn(dir, 'shop', 'text');
  assert.is(r.code, 3, r.stderr);
  assert.match(r.stdout, /^0 targets roll, 2 may roll\.\n/);
  assert.match(r.stdout, /apps\/v1\/Deployment\/shop\/web +may roll +Secret shop\/db-credentials +bundle, masked/);
  assert.match(r.stdout, /has no stamp in one render to compare/);
});

test.after(removeTempDirs);
test.run();
