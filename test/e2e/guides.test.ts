// The integration guides in docs/ (#23) run as written: every line of each ```sh block runs in order, from a
// copy of the repository's examples/, through bash with pipefail, with `rollstamp` on PATH (the built bundle
// behind a wrapper; for the Helm guide, the npm package installed from the tarball `npm pack` makes into a
// temporary prefix). Each line must exit 0 (one that expects 3 says `|| [ $? = 3 ]`, so
// test/e2e/docs-commands.test.ts can run the same blocks whole); some lines' output is checked too.
// Leaves dist/ alone: the Helm guide packs with npm pack --ignore-scripts, so dist/ is packed as built, and no
// shard rebuilds it meanwhile (one that would runs alone: test/unit/test-runner.test.ts).
// The argocd-diff-preview guide's workflow step (its ```yaml block) runs over the trees its lines made.
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { obtainHelm } from '../support/helm.ts';
import { BUNDLE, findOnPath, removeTempDirs, requireBundle, ROOT, run, tempDir } from '../support/tools.ts';

const helm = obtainHelm();

/** The lines of a page's ```sh blocks, blank lines left out. */
function shLines(page: string): string[] {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  return [...text.matchAll(/```sh(?: norun)?\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.trim() !== '');
}

/** Checks on what a line prints, by a piece of the line. */
const CHECKS: Record<string, Record<string, (stdout: string) => void>> = {
  'flux.md': {},
  'argocd-source-hydrator.md': { "grep -c 'rollstamp.dev/hash' hydrated.yaml": (o) => assert.is(o, '1\n') },
  'argocd-diff-preview.md': {
    // Masked Secrets (#38): the stamps the renders carry decide, and the masked Secret is named.
    'diff -o markdown output/base/shop.yaml output/target/shop.yaml': (o) => assert.match(o, /^\*\*rollstamp diff\*\*: 1 target rolls\.\n[\s\S]*Secret `shop\/db-credentials` \(bundle, masked\)[\s\S]*masked: `password`/),
    'diff output/base/shop.yaml output/base/shop.yaml': (o) => assert.is(o, 'Nothing rolls.\n'),
  },
  'from-reloader.md': {
    'diff before.yaml after.yaml': (o) => {
      assert.match(o, /shop-web/);
      assert.not.match(o, /shop-mailer/, 'the mailer reads shop-settings only: the password change does not roll it');
    },
    'explain before.yaml': (o) => assert.match(o, /password/),
    // Reloader's annotations as they are (#38): auto opts in, reload names, ignore leaves out; disabled reads none.
    'explain examples/reloader/app.yaml': (o) => {
      assert.match(o, /^apps\/v1\/Deployment\/shop\/web /m);
      assert.match(o, /Secret shop\/payment-keys +\[bundle\][\s\S]*via metadata\.annotations\["secret\.reloader\.stakater\.com\/reload"\]/);
      assert.match(o, /ConfigMap shop\/shop-flags +\[ignored\]/);
      assert.match(o, /warning: 2 stamped workloads carry Reloader's annotations \(Deployment shop\/web, Deployment shop\/worker\)/);
    },
    'explain --reloader disabled examples/reloader/app.yaml': (o) => {
      assert.not.match(o, /Deployment\/shop\/web /);
      assert.match(o, /^apps\/v1\/Deployment\/shop\/worker [\s\S]*uses no Secret or ConfigMap/m);
    },
  },
  'helm.md': { "grep -c 'rollstamp.dev/hash: \"sha256:'": (o) => assert.is(o, '1\n') },
};

const needs = (lines: string[]): string[] => ['kubectl', 'helm', 'npm'].filter((t) => lines.some((l) => new RegExp(`(^|[|(] *)${t} `).test(l)));

/** A work directory with examples/ and a PATH that has `rollstamp`. */
function setup(page: string): { cwd: string; env: NodeJS.ProcessEnv } {
  requireBundle();
  const cwd = tempDir('guide');
  cpSync(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
  const home = tempDir('guide-home');
  const helmDir = helm.ok ? [dirname(helm.path)] : [];
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_CACHE_HOME: join(home, '.cache') };
  if (page === 'helm.md') {
    const packed = run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', cwd], { cwd: ROOT, timeoutMs: 120_000 });
    assert.is(packed.code, 0, packed.stderr);
    assert.is(packed.stdout.trim(), 'rollstamp-0.1.0.tgz');
    const prefix = join(home, 'npm-global');
    return { cwd, env: { ...env, npm_config_prefix: prefix, npm_config_offline: 'true', PATH: [join(prefix, 'bin'), ...helmDir, process.env.PATH].join(':') } };
  }
  const bin = tempDir('guide-bin');
  writeFileSync(join(bin, 'rollstamp'), `#!/bin/sh\nexec node "${BUNDLE}" "$@"\n`);
  chmodSync(join(bin, 'rollstamp'), 0o755);
  return { cwd, env: { ...env, PATH: [bin, ...helmDir, process.env.PATH].join(':') } };
}

for (const page of Object.keys(CHECKS)) {
  const lines = shLines(page);
  const missing = needs(lines).filter((t) => (t === 'helm' ? !helm.ok : !findOnPath(t)));
  test(`docs/${page}: its commands run as written${missing.length > 0 && !process.env.CI ? ` (skip: ${missing.join(', ')} not found)` : ''}`, () => {
    assert.ok(lines.length >= 2, `docs/${page} has a block of commands`);
    if (missing.length > 0 && !process.env.CI) return console.log(`skip: docs/${page} needs ${missing.join(', ')}`);
    assert.equal(missing, [], `CI has ${missing.join(', ')}`);
    const { cwd, env } = setup(page);
    const used = new Set<string>();
    for (const line of lines) {
      const r = run('bash', ['-o', 'pipefail', '-c', line], { cwd, env, timeoutMs: 120_000 });
      assert.is(r.code, 0, `${line}\n${r.stderr}`);
      for (const [piece, check] of Object.entries(CHECKS[page]!)) {
        if (line.includes(piece)) {
          check(r.stdout);
          used.add(piece);
        }
      }
    }
    assert.equal([...used].sort(), Object.keys(CHECKS[page]!).sort(), 'every check found its line');
    if (page === 'argocd-diff-preview.md') {
      const yaml = /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs', page), 'utf8'))![1]!;
      const [step] = parse(yaml) as { run: string }[];
      cpSync(join(cwd, 'output/target/shop.yaml'), join(cwd, 'output/target/new-app.yaml'));
      const r = run('bash', ['-e', '-o', 'pipefail', '-c', step!.run], { cwd, env });
      assert.is(r.code, 0, r.stderr);
      const md = readFileSync(join(cwd, 'rollstamp.md'), 'utf8');
      assert.match(md, /^### new-app\n\*\*rollstamp diff\*\*: 0 targets roll, 1 appears\./m);
      assert.match(md, /^### shop\n\*\*rollstamp diff\*\*: 1 target rolls\./m);
    }
  });
}

test('the README integration table links every guide', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const page of Object.keys(CHECKS)) assert.ok(readme.includes(`(docs/${page})`), `README links docs/${page}`);
});

test.after(removeTempDirs);
test.run();
