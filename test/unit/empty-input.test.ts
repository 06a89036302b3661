// Degenerate input (#12): zero objects is an error for stamp, stamp --check and explain unless --allow-empty
// is given, so a renderer that failed and printed nothing cannot pass CI through a pipe. fn keeps the KRM
// convention: an empty ResourceList comes back as it went in, with an info result.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';
import { refuseEmpty } from '../../plugin/inputs/refuse-empty.ts';

const dir = mkdtempSync(join(tmpdir(), 'rollstamp-empty-'));
writeFileSync(join(dir, 'comments.yaml'), '# nothing rendered\n---\n---\n');
const EMPTY_INPUTS: ReadonlyArray<[string, string]> = [
  ['no bytes', ''],
  ['only whitespace', '\n  \n'],
  ['only comments and markers', '# a failed render\n---\n...\n---\n'],
  ['an empty v1/List', 'apiVersion: v1\nkind: List\nitems: []\n'],
  ['a SecretList with null items', 'apiVersion: v1\nkind: SecretList\nitems: null\n'],
];
const COMMANDS: ReadonlyArray<readonly string[]> = [['stamp'], ['stamp', '--check'], ['explain'], ['explain', '--json']];

for (const args of COMMANDS) {
  for (const [name, stdin] of EMPTY_INPUTS) {
    test(`${args.join(' ')} refuses ${name} on stdin: exit 1, one line, nothing on stdout (#12)`, async () => {
      const run = await runInProcess([...args, '-'], { stdin });
      assert.is(run.code, 1);
      assert.is(run.stdout, '');
      assert.is(run.stderr, 'rollstamp: error: no objects in standard input; pass --allow-empty if an empty input is expected\n');
    });
  }
  test(`${args.join(' ')} refuses a path that holds no objects, naming it (#12)`, async () => {
    const run = await runInProcess([...args, 'comments.yaml'], { cwd: dir });
    assert.is(run.code, 1);
    assert.is(run.stdout, '');
    assert.match(run.stderr, /^rollstamp: error: no objects in comments\.yaml; pass --allow-empty/);
    assert.is(run.stderr.split('\n').length, 2);
  });
  test(`${args.join(' ')} --allow-empty accepts an empty input (#12)`, async () => {
    const run = await runInProcess([...args, '--allow-empty', '-'], { stdin: '' });
    assert.is(run.code, 0, run.stderr);
  });
  test(`${args[0]} --help documents --allow-empty`, async () => {
    const run = await runInProcess([args[0]!, '--help']);
    assert.match(run.stdout, /--allow-empty\s+succeed when the input holds no objects/);
  });
}

test('stamp --allow-empty prints an empty input as it came (nothing to stamp)', async () => {
  const stdin = '# a comment only\n---\n';
  const run = await runInProcess(['stamp', '--allow-empty', '-'], { stdin });
  assert.is(run.code, 0);
  assert.is(run.stdout, stdin);
});

test('one object is enough: a non-target ConfigMap alone is not an empty input (with no targets allowed, #23)', async () => {
  const run = await runInProcess(['stamp', '--check', '--allow-no-targets', '-'], { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' });
  assert.is(run.code, 0, run.stderr);
});

test('fn passes an empty ResourceList through with an EMPTY_INPUT info result and exit 0 (KRM convention)', async () => {
  for (const items of ['items: []', 'items:']) {
    const stdin = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${items}\n`;
    const run = await runInProcess(['fn'], { stdin });
    assert.is(run.code, 0, run.stderr);
    assert.ok(run.stdout.startsWith(stdin), run.stdout);
    assert.match(run.stdout, /results:\n\s+- message: "the ResourceList has no items: nothing to stamp"\n\s+severity: info\n\s+tags:\n\s+code: EMPTY_INPUT\n$/);
  }
});

test('fn on a JSON empty ResourceList answers JSON with the info result', async () => {
  const run = await runInProcess(['fn'], { stdin: '{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[]}' });
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { items: unknown[]; results: Array<{ severity: string; tags: { code: string } }> };
  assert.equal(out.items, []);
  assert.equal(out.results.map((r) => [r.severity, r.tags.code]), [['info', 'EMPTY_INPUT']]);
});

test('one decision refuses an empty input for every command, each line naming its source and the way to allow it (#36)', () => {
  const message = (from: Parameters<typeof refuseEmpty>[2]): string => {
    try {
      refuseEmpty({ objects: 0 }, false, from);
    } catch (err) {
      return (err as Error).message;
    }
    return 'not refused';
  };
  assert.is(message({ paths: [] }), 'no objects in standard input; pass --allow-empty if an empty input is expected');
  assert.is(message({ paths: ['a.yaml', 'b/'] }), 'no objects in a.yaml, b/; pass --allow-empty if an empty input is expected');
  assert.is(
    message({ renderer: 'helm' }),
    'the helm render produced no objects; refusing an empty result (set allow-empty to allow it: parameter allow-empty, ARGOCD_ENV_ROLLSTAMP_ALLOW_EMPTY or allowEmpty in .rollstamp.yaml)',
  );
  for (const from of [{ paths: [] }, { renderer: 'kustomize' }]) {
    assert.not.throws(() => refuseEmpty({ objects: 0 }, true, from), 'allowed');
    assert.not.throws(() => refuseEmpty({ objects: 1 }, false, from), 'not empty');
  }
});

test.run();
