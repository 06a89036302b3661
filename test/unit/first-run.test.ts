// What a newcomer hits on a first run (#23): a stamp with no targets says how to opt in, and `--check` with no
// targets fails unless told it is expected; a directory's local-config RollstampConfig stays out of the
// output; `fn` fed plain manifests points at `stamp -`; `version --help` and `version -o json`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const NOT_OPTED_IN = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers:
      - name: web
        envFrom: [{configMapRef: {name: settings}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {LOG_LEVEL: info}
`;
const OPT_IN = /opt in with rollstamp\.dev\/enabled: "true", --selector or --targets all/;

test('stamp with no target workloads prints the stream and one warning naming how to opt in (#23)', async () => {
  const run = await runInProcess(['stamp', '-'], { stdin: NOT_OPTED_IN });
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, NOT_OPTED_IN);
  assert.equal(run.stderr.split('\n').filter((l) => l !== ''), ['rollstamp: warning: no target workloads: opt in with rollstamp.dev/enabled: "true", --selector or --targets all']);
  assert.is((await runInProcess(['stamp', '-q', '-'], { stdin: NOT_OPTED_IN })).stderr, '', '--quiet silences it');
});

test('stamp --check with no target workloads exits 1 (a mistyped selector must not keep CI green) unless --allow-no-targets (#23)', async () => {
  const typo = await runInProcess(['stamp', '--check', '--selector', 'app=wbe', '-'], { stdin: NOT_OPTED_IN });
  assert.is(typo.code, 1);
  assert.is(typo.stdout, '');
  assert.match(typo.stderr, /--check found no target workloads \(a mistyped --selector\?\)/);
  assert.match(typo.stderr, OPT_IN);
  assert.match(typo.stderr, /--allow-no-targets/);
  const allowed = await runInProcess(['stamp', '--check', '--allow-no-targets', '-'], { stdin: NOT_OPTED_IN });
  assert.is(allowed.code, 0, allowed.stderr);
  assert.is(allowed.stdout, '');
  const targeted = await runInProcess(['stamp', '--check', '--targets', 'all', '-'], { stdin: NOT_OPTED_IN });
  assert.is(targeted.code, 3, 'with a target, --check reports the missing stamp as before');
});

test("stamp DIR leaves a directory's local-config RollstampConfig out of its output; a file named on its own is printed (#23)", async () => {
  const dir = await runInProcess(['stamp', 'examples/kpt']);
  assert.is(dir.code, 0, dir.stderr);
  assert.match(dir.stdout, /rollstamp\.dev\/hash/);
  assert.not.match(dir.stdout, /kind: RollstampConfig/);
  assert.not.match(dir.stdout, /config\.kubernetes\.io\/local-config/);
  const named = await runInProcess(['stamp', 'examples/kpt/rollstamp-config.yaml', 'examples/kpt/deployment.yaml']);
  assert.is(named.code, 0, named.stderr);
  assert.match(named.stdout, /kind: RollstampConfig/);
});

test('fn given a plain multi-document manifest stream says so and suggests rollstamp stamp - (#23)', async () => {
  for (const stdin of [NOT_OPTED_IN, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n']) {
    const run = await runInProcess(['fn'], { stdin });
    assert.is(run.code, 1);
    assert.is(run.stdout, '');
    assert.match(run.stderr, /stdin is a manifest stream, not a ResourceList: .*; for plain manifests run rollstamp stamp -/);
  }
  const list = await runInProcess(['fn'], { stdin: `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n` });
  assert.is(list.code, 0, 'a ResourceList is still read');
  const json = await runInProcess(['fn'], { stdin: '{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[]}' });
  assert.is(json.code, 0, json.stderr);
});

test('version --help shows the version help; version -o json gives version, commit and build date (#23)', async () => {
  const help = await runInProcess(['version', '--help']);
  assert.is(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: rollstamp version \[-o text\|json\]/);
  const json = await runInProcess(['version', '-o', 'json']);
  assert.is(json.code, 0, json.stderr);
  const info = JSON.parse(json.stdout) as Record<string, string>;
  assert.equal(Object.keys(info).sort(), ['buildDate', 'commit', 'version']);
  assert.match(info.version!, /^\d+\.\d+\.\d+$/);
  assert.is((await runInProcess(['version'])).stdout, `rollstamp ${info.version}\n`);
  assert.is((await runInProcess(['version', '-o', 'yaml'])).code, 2);
});

test.run();
