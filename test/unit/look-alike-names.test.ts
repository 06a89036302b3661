// Names and keys outside Kubernetes' alphabets (#33, items 1 and 8): U+034F (combining grapheme joiner), U+3164
// (Hangul filler), U+2800 (Braille blank) and an overlay U+0336 make a name display as another; a space or a
// `/` inside one passes for rollstamp's own separators. `diff` (text, Markdown) and `explain` (text) show each
// such character as \uXXXX and say why once; JSON keeps the value (JSON-escaped), so a machine reads the name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ESCAPED_NAME_NOTE, printable, shownName } from '../../function/index.ts';
import { runInProcess } from '../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'rollstamp-look-alike-'));

/** A Secret `name` with key `key`, and a Deployment using it whole; `value` is the key's base64 value. */
function render(name: string, key: string, value: string, workload = 'web'): string {
  return `apiVersion: v1
kind: Secret
metadata: {name: ${JSON.stringify(name)}, namespace: shop}
data: {${JSON.stringify(key)}: ${value}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${JSON.stringify(workload)}, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}
spec:
  template:
    spec:
      containers: [{name: c, image: x, envFrom: [{secretRef: {name: ${JSON.stringify(name)}}}]}]
`;
}

const LOOK_ALIKES: Array<[string, string]> = [
  ['U+034F combining grapheme joiner', 'db\u034f'],
  ['U+3164 Hangul filler', 'db\u3164'],
  ['U+2800 Braille blank', '\u2800db'],
  ['U+0336 combining long stroke overlay', 'd\u0336b'],
  ['a Cyrillic letter', 'dЬ'],
  ['a space and a parenthesis', 'db (absent)'],
];

for (const [what, name] of LOOK_ALIKES) {
  test(`a name or key with ${what} is shown by code in diff text and Markdown and explain text, with why; JSON keeps it (#33)`, async () => {
    const oldPath = join(dir, 'old.yaml');
    const newPath = join(dir, 'new.yaml');
    writeFileSync(oldPath, render(name, `pass${name}`, 'YQ==', `web-${name}`));
    writeFileSync(newPath, render(name, `pass${name}`, 'Yg==', `web-${name}`));
    const shown = shownName(name);
    assert.is.not(shown, name);
    for (const argv of [['diff', '-o', 'text', oldPath, newPath], ['diff', '-o', 'markdown', oldPath, newPath], ['explain', newPath]]) {
      const r = await runInProcess(argv);
      assert.ok(r.code === 3 || r.code === 0, `${argv.join(' ')}: ${r.stderr}`);
      const special = [...name].filter((c) => /[^\x00-\x7f]/.test(c)); // ASCII ones (a space) are rollstamp's own words too
      for (const c of special) assert.not.ok(r.stdout.includes(c), `${argv.slice(0, 3).join(' ')}: ${JSON.stringify(c)} printed as it is: ${r.stdout}`);
      assert.ok(r.stdout.includes(`shop/${shown}`), `${argv.slice(0, 3).join(' ')}: the Secret by shownName: ${r.stdout}`);
      assert.ok(r.stdout.includes(`pass${shown}`), `${argv.slice(0, 3).join(' ')}: the key by shownName: ${r.stdout}`);
      assert.ok(r.stdout.includes(`web-${shown}`), `${argv.slice(0, 3).join(' ')}: the workload by shownName: ${r.stdout}`);
      assert.is(r.stdout.split(ESCAPED_NAME_NOTE).length, 2, `${argv.slice(0, 3).join(' ')}: why, said once: ${r.stdout}`);
    }
    const json = await runInProcess(['diff', '-o', 'json', oldPath, newPath]);
    const doc = JSON.parse(json.stdout) as { targets: Array<{ resourceRef: { name: string }; sources: Array<{ name: string; keys: Array<{ key: string }> }> }> };
    assert.is(doc.targets[0]!.resourceRef.name, `web-${name}`, 'JSON holds the name itself');
    assert.is(doc.targets[0]!.sources[0]!.keys[0]!.key, `pass${name}`);
    assert.not.match(json.stdout, /[^\x00-\x7e]/, 'as JSON escapes');
  });
}

test('names in Kubernetes\' alphabet are shown as written, with no note (#33)', async () => {
  const oldPath = join(dir, 'old.yaml');
  const newPath = join(dir, 'new.yaml');
  writeFileSync(oldPath, render('db.prod-1', 'tls.crt_2', 'YQ=='));
  writeFileSync(newPath, render('db.prod-1', 'tls.crt_2', 'Yg=='));
  for (const argv of [['diff', '-o', 'text', oldPath, newPath], ['diff', '-o', 'markdown', oldPath, newPath], ['explain', newPath]]) {
    const r = await runInProcess(argv);
    assert.ok(r.stdout.includes('shop/db.prod-1') && r.stdout.includes('tls.crt_2'), r.stdout);
    assert.not.ok(r.stdout.includes(ESCAPED_NAME_NOTE), `${argv[0]}: no note when nothing is escaped`);
  }
});

test('shownName: Kubernetes\' alphabet as it is, every other character by code, longer than 253 characters cut (#33)', () => {
  assert.is(shownName('db.prod-1_a'), 'db.prod-1_a');
  assert.is(shownName('a b/c'), 'a\\u0020b\\u002fc');
  assert.is(shownName('db\u034f'), 'db\\u034f');
  assert.is(shownName('x\u{1f600}'), 'x\\ud83d\\ude00');
  assert.is(shownName('a'.repeat(254)), `${'a'.repeat(253)}…(254 characters)`);
  assert.is(shownName(''), '');
});

test('printable: outside printable ASCII only rollstamp\'s own symbols stay; look-alikes and blanks by code (#33)', () => {
  assert.is(printable('Agent › ModelConfig → a — b …'), 'Agent › ModelConfig → a — b …');
  assert.is(printable('d\u0336b \u3164 \u2800 é'), 'd\\u0336b \\u3164 \\u2800 \\u00e9');
  assert.is(printable('a\nb\u202ec'), 'a\\u000ab\\u202ec');
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
