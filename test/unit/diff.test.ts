// `rollstamp diff` in-process (#16): which targets roll between two renders and why, the exit codes, the
// three formats, and that the JSON output keeps to schemas/stamp-diff.schema.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { StampDiff } from '../../function/compare/stamp-diff.ts';
import { ROOT, runInProcess, type CliRun } from '../support/run-cli.ts';

const BASIC = readFileSync(join(ROOT, 'examples/basic/app.yaml'), 'utf8');
const CONFIG = join(ROOT, 'examples/basic/rollstamp.yaml');
const PRODUCERS = readFileSync(join(ROOT, 'examples/producers/app.yaml'), 'utf8');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/stamp-diff.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-diff-'));
let n = 0;

/** `text` with `from` replaced by `to`; fails when `from` is not there (the example changed). */
function edit(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the input holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

async function diff(oldText: string, newText: string, flags: string[] = ['--config', CONFIG]): Promise<CliRun> {
  const oldFile = join(dir, `old-${++n}.yaml`);
  const newFile = join(dir, `new-${n}.yaml`);
  writeFileSync(oldFile, oldText);
  writeFileSync(newFile, newText);
  return runInProcess(['diff', ...flags, oldFile, newFile]);
}

/** The JSON report, checked against the schema. */
async function diffJson(oldText: string, newText: string, flags: string[] = ['--config', CONFIG]): Promise<{ code: number; doc: StampDiff }> {
  const r = await diff(oldText, newText, ['-o', 'json', ...flags]);
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  const doc = JSON.parse(r.stdout) as StampDiff;
  assert.ok(validate(doc), JSON.stringify(validate.errors));
  return { code: r.code, doc };
}

/** `Kind/ns/name: change [source change (from) keys]` lines: what a reader of the report learns. */
function facts(d: StampDiff): string[] {
  return d.targets.map((t) => {
    const sources = t.sources.map(function one(s): string {
      const keys = s.keys.map((k) => `${k.key}:${k.change}`).join(',');
      const inner = (s.sources ?? []).map(one).join(' ');
      return `${s.kind} ${s.namespace}/${s.name} ${s.change} (${s.from.old ?? '-'}→${s.from.new ?? '-'}) [${keys}]${inner ? ` {${inner}}` : ''}`;
    });
    return `${t.resourceRef.kind}/${t.resourceRef.namespace}/${t.resourceRef.name}: ${t.change}${sources.length ? ` ${sources.join(' ')}` : ''}`;
  });
}

test('identical renders: nothing rolls, exit 0, in every format', async () => {
  for (const [format, expected] of [['text', 'Nothing rolls.\n'], ['markdown', '**rollstamp diff**: Nothing rolls.\n']] as const) {
    const r = await diff(BASIC, BASIC, ['-o', format, '--config', CONFIG]);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, expected);
  }
  const { code, doc } = await diffJson(BASIC, BASIC);
  assert.is(code, 0);
  assert.equal(doc.targets, []);
  assert.equal(doc.summary, { rolls: 0, appears: 0, disappears: 0, 'may-roll': 0 });
});

test('a changed key rolls only the workload that reads it, and names the key (exit 3)', async () => {
  const password = await diffJson(BASIC, edit(BASIC, 'example-password-1', 'example-password-2'));
  assert.is(password.code, 3);
  assert.equal(facts(password.doc), ['Deployment/shop/web: rolls Secret shop/db-credentials changed (bundle→bundle) [password:changed]']);
  const username = await diffJson(BASIC, edit(BASIC, 'username: shop', 'username: shop2'));
  assert.equal(facts(username.doc), ['CronJob/shop/report: rolls Secret shop/db-credentials changed (bundle→bundle) [username:changed]']);
});

test('a key added to or removed from a wholly used Secret is listed as added or removed', async () => {
  const added = edit(BASIC, '  tls.key: ZXhhbXBsZSBrZXk=\n', '  tls.key: ZXhhbXBsZSBrZXk=\n  ca.crt: ZXhhbXBsZSBjYQ==\n');
  const a = await diffJson(BASIC, added);
  assert.equal(facts(a.doc), ['Deployment/shop/web: rolls Secret shop/web-tls changed (bundle→bundle) [ca.crt:added]']);
  const r = await diffJson(added, BASIC);
  assert.equal(facts(r.doc), ['Deployment/shop/web: rolls Secret shop/web-tls changed (bundle→bundle) [ca.crt:removed]']);
});

test('formatting, key order and an unused key change nothing', async () => {
  const reformatted = edit(edit(BASIC, 'LOG_LEVEL: info', 'LOG_LEVEL: "info"   # quoted now'), 'type: Opaque\nstringData:\n  username: shop\n', 'type: Opaque\nstringData:\n  username: shop\n  unused: x\n');
  const r = await diff(BASIC, reformatted, ['--config', CONFIG]);
  assert.is(r.code, 0, r.stdout);
  assert.is(r.stdout, 'Nothing rolls.\n');
});

test('a Secret that was missing and now is in the render: missing → bundle, its keys added', async () => {
  const withoutTls = edit(BASIC, BASIC.slice(BASIC.indexOf('---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: web-tls'), BASIC.indexOf('---\napiVersion: v1\nkind: ConfigMap')), '');
  const { doc } = await diffJson(withoutTls, BASIC);
  assert.equal(facts(doc), ['Deployment/shop/web: rolls Secret shop/web-tls changed (missing→bundle) [tls.crt:added,tls.key:added]']);
});

test('a workload that appears or disappears is listed as such; a new reference is a source now used', async () => {
  const worker = `---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: worker, namespace: shop, annotations: {rollstamp.dev/enabled: "true"}}\nspec:\n  template:\n    spec:\n      containers: [{name: w, envFrom: [{configMapRef: {name: web-settings}}]}]\n`;
  const appears = await diffJson(BASIC, BASIC + worker);
  assert.is(appears.code, 3);
  assert.equal(facts(appears.doc), ['Deployment/shop/worker: appears']);
  assert.equal(facts((await diffJson(BASIC + worker, BASIC)).doc), ['Deployment/shop/worker: disappears']);
  const whole = edit(BASIC, '            - configMapRef: {name: web-settings}\n', '            - configMapRef: {name: web-settings}\n            - secretRef: {name: db-credentials}\n');
  assert.equal(facts((await diffJson(BASIC, whole)).doc), ['Deployment/shop/web: rolls Secret shop/db-credentials changed (bundle→bundle) [username:added]']);
  const other = edit(BASIC, '            - configMapRef: {name: web-settings}\n', '            - configMapRef: {name: web-settings}\n            - secretRef: {name: web-extra}\n');
  assert.equal(facts((await diffJson(BASIC, other)).doc), ['Deployment/shop/web: rolls Secret shop/web-extra added (-→missing) []']);
  const dropped = edit(BASIC, '          envFrom:\n            - configMapRef: {name: web-settings}\n', '');
  assert.equal(facts((await diffJson(BASIC, dropped)).doc), ['Deployment/shop/web: rolls ConfigMap shop/web-settings removed (bundle→-) [FEATURE_CHECKOUT_V2:removed,LOG_LEVEL:removed]']);
});

test('an object in the render twice is compared copy by copy', async () => {
  const web = BASIC.slice(BASIC.indexOf('apiVersion: apps/v1'), BASIC.indexOf('---\napiVersion: batch/v1'));
  const twice = `${BASIC}\n---\n${web}`;
  assert.equal(facts((await diffJson(BASIC, twice)).doc), ['Deployment/shop/web: appears']);
  const otherCopy = `${BASIC}\n---\n${edit(web, 'secretKeyRef: {name: db-credentials, key: password}', 'secretKeyRef: {name: db-credentials, key: username}')}`;
  assert.equal(facts((await diffJson(twice, otherCopy)).doc), ['Deployment/shop/web: rolls Secret shop/db-credentials changed (bundle→bundle) [password:removed,username:added]']);
});

test('a new apiVersion of the same kind is the same target', async () => {
  const { code, doc } = await diffJson(BASIC, edit(BASIC, 'apiVersion: batch/v1\nkind: CronJob', 'apiVersion: batch/v1beta1\nkind: CronJob'));
  assert.is(code, 0, JSON.stringify(doc));
});

test('a producer: a new pinned version rolls, the source resolved from the producer', async () => {
  const { doc } = await diffJson(PRODUCERS, edit(PRODUCERS, 'version: "4"', 'version: "5"'), []);
  assert.equal(facts(doc), ['Deployment/shop/api: rolls Secret shop/db-credentials changed (producer→producer) [password:changed]']);
  assert.is(doc.targets[0]!.sources[0]!.producedBy, 'ExternalSecret shop/db-credentials');
  const text = await diff(PRODUCERS, edit(PRODUCERS, 'version: "4"', 'version: "5"'), []);
  assert.match(text.stdout, /producer: ExternalSecret shop\/db-credentials\s+changed: password/);
});

test('text: a summary line and an aligned table; markdown: a workload | why | keys table', async () => {
  const newer = edit(edit(BASIC, 'example-password-1', 'example-password-2'), 'username: shop', 'username: shop2');
  const text = await diff(BASIC, newer);
  assert.is(text.code, 3);
  const lines = text.stdout.split('\n');
  assert.is(lines[0], '2 targets roll.');
  assert.is(lines[1], '');
  const header = lines[2]!;
  for (const row of lines.slice(3).filter((l) => l !== '')) {
    // Every column starts where its header does.
    for (const col of ['STAMP', 'SOURCE', 'FROM', 'KEYS']) assert.is.not(row[header.indexOf(col) - 1], undefined);
    assert.is(row.indexOf('Secret shop/db-credentials'), header.indexOf('SOURCE'), row);
    assert.is(row.indexOf('bundle'), header.indexOf('FROM'), row);
  }
  assert.ok(lines.some((l) => l.startsWith('batch/v1/CronJob/shop/report') && l.includes('rolls (next-job)')), 'the CronJob row says how its stamp rolls (#24)');
  const md = await diff(BASIC, newer, ['-o', 'markdown', '--config', CONFIG]);
  assert.is(md.code, 3);
  assert.is(
    md.stdout,
    [
      '**rollstamp diff**: 2 targets roll.',
      '',
      '| Workload | Why | Keys |',
      '|---|---|---|',
      '| `apps/v1/Deployment/shop/web` | Secret `shop/db-credentials` (bundle) | changed: `password` |',
      // A CronJob's stamp reaches the next Job it creates, not running pods: the row says so (#24).
      '| `batch/v1/CronJob/shop/report` (next-job) | Secret `shop/db-credentials` (bundle) | changed: `username` |',
      '',
    ].join('\n'),
  );
});

test('markdown: a name cannot break out of its cell or inject markup', async () => {
  const hostile = BASIC.replaceAll('web-settings', 'a|b<img>`c');
  const { doc } = await diffJson(BASIC, hostile);
  assert.is(doc.targets.length, 1);
  const md = await diff(BASIC, hostile, ['-o', 'markdown', '--config', CONFIG]);
  const row = md.stdout.split('\n').find((l) => l.includes('Deployment'))!;
  assert.is(row.replaceAll('\\|', '').split('|').length, 5, row);
  // Outside Kubernetes' alphabet, shown by code (#33), in a code span (#21); the note says why.
  assert.ok(row.includes('`shop/a\\u007cb\\u003cimg\\u003e\\u0060c`'), row);
  assert.ok(md.stdout.includes('\n_\\uXXXX in a name or key: a character Kubernetes does not allow'), md.stdout);
});

test('a key name with a line break or U+2028 stays on its row, in text and markdown', async () => {
  const oldText = edit(BASIC, '  LOG_LEVEL: info\n', '  LOG_LEVEL: info\n  "a\\nb\\u2028c": "1"\n');
  const newText = edit(oldText, '"1"', '"2"');
  for (const format of ['text', 'markdown']) {
    const r = await diff(oldText, newText, ['-o', format, '--config', CONFIG]);
    assert.is(r.code, 3, r.stderr);
    const rows = r.stdout.split('\n').filter((l) => l.includes('web-settings'));
    assert.is(rows.length, 1, r.stdout);
    // In a Markdown code span a backslash is itself: both show the escape as written.
    assert.ok(rows[0]!.includes('a\\u000ab\\u2028c'), rows[0]);
    assert.not.ok(r.stdout.includes('\u2028'));
  }
});

test('exit codes: 2 for usage, 1 for invalid input in either render (one line, nothing on stdout)', async () => {
  for (const argv of [['diff'], ['diff', 'a.yaml'], ['diff', 'a', 'b', 'c'], ['diff', '-', '-'], ['diff', '-o', 'yaml', 'a', 'b']]) {
    const r = await runInProcess(argv, { stdin: BASIC });
    assert.is(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.is(r.stdout, '');
  }
  const broken = edit(BASIC, 'tls.key: ZXhhbXBsZSBrZXk=', 'tls.key: not*base64');
  for (const [o, nw, which] of [[broken, BASIC, 'OLD'], [BASIC, broken, 'NEW']] as const) {
    const r = await diff(o, nw);
    assert.is(r.code, 1);
    assert.is(r.stdout, '');
    assert.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^rollstamp: error: ${which} \\(`));
  }
  const missing = await runInProcess(['diff', 'no-such-file.yaml', '-'], { stdin: BASIC });
  assert.is(missing.code, 1);
});

test('one render may come from standard input', async () => {
  const newFile = join(dir, 'stdin-new.yaml');
  writeFileSync(newFile, edit(BASIC, 'example-password-1', 'example-password-2'));
  const r = await runInProcess(['diff', '--config', CONFIG, '-', newFile], { stdin: BASIC });
  assert.is(r.code, 3, r.stderr);
  assert.match(r.stdout, /apps\/v1\/Deployment\/shop\/web\s+rolls/);
});

test('with a hash key every digest is keyed', async () => {
  writeFileSync(join(dir, 'key'), 'a-hash-key');
  const { doc } = await diffJson(BASIC, edit(BASIC, 'example-password-1', 'example-password-2'), ['--config', CONFIG, '--hash-key-file', join(dir, 'key')]);
  const digests = JSON.stringify(doc).match(/[a-z0-9-]+:[0-9a-f]{64}/g) ?? [];
  assert.ok(digests.length >= 4);
  for (const d of digests) assert.match(d, /^hmac-sha256:/);
});

test('kagent: a ModelConfig Secret change rolls every Agent on it, through the ModelConfig', async () => {
  const files = ['agents.yaml', 'modelconfigs.yaml', 'secrets.yaml'].map((f) => readFileSync(join(ROOT, 'examples/kagent', f), 'utf8'));
  const all = files.join('---\n');
  const { doc } = await diffJson(all, edit(all, 'sk-example-openai-key-1', 'sk-example-openai-key-2'), []);
  assert.equal(facts(doc), [
    'Agent/agents/incident-summary: rolls ModelConfig agents/openai-gateway changed (bundle→bundle) [] {Secret agents/openai-credentials changed (bundle→bundle) [api-key:changed]}',
    'Agent/agents/k8s-helper: rolls ModelConfig agents/openai-gateway changed (bundle→bundle) [] {Secret agents/openai-credentials changed (bundle→bundle) [api-key:changed]}',
    'ModelConfig/agents/openai-gateway: rolls Secret agents/openai-credentials changed (bundle→bundle) [api-key:changed]',
  ]);
});

test.run();
