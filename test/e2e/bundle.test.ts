// dist/ is what ships: dist/rollstamp.js and the chunks it loads, which must run with plain `node` and no
// node_modules. dist/ is copied alone into an empty directory under the OS temp dir and run there: help, version, each command,
// and the failure contract (exit 1 or 2, nothing on stdout, one `rollstamp: ` line on stderr, no stack).
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMap, isSeq, parseAllDocuments, parseDocument, visit, type YAMLMap } from 'yaml';
import { BUNDLE, removeTempDirs, requireBundle, ROOT, run, stampsIn, tempDir, type Run } from '../support/tools.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let dir = '';
let script = '';

test.before.each(() => {
  requireBundle();
  if (dir !== '') return;
  dir = tempDir('bundle');
  script = join(dir, 'rollstamp.js');
  cpSync(dirname(BUNDLE), dir, { recursive: true });
});
test.after(removeTempDirs);

/** Plain node, in the bundle's own directory, with an environment that holds nothing but PATH. */
function rollstamp(args: string[], input: string | Uint8Array = ''): Run {
  return run(process.execPath, [script, ...args], { cwd: dir, input, env: { PATH: process.env.PATH ?? '' } });
}

const MANIFESTS = `# The web app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
        envFrom:
        - configMapRef:
            name: web-config
---
# credentials
apiVersion: v1
kind: Secret
metadata:
  name: db
data:
  password: aHVudGVyMg==
  other: eA==
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  LOG_LEVEL: info
`;

/** The same objects as a ResourceList, the way kpt sends them (items indented under `- `). */
function resourceList(manifests: string, functionConfig = ''): string {
  const items = manifests
    .split(/^---\n/m)
    .map((doc) => doc.replace(/\n$/, '').split('\n').map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)).join('\n'))
    .join('\n');
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}\n${functionConfig}`;
}

function assertOk(r: Run, what: string): void {
  assert.is(r.code, 0, `${what} exited ${r.code}: ${r.stderr}`);
}

/** The failure contract: the exit code, stdout exactly empty, one `rollstamp: ` line, no stack trace. */
function assertFails(r: Run, code: number, what: string): void {
  assert.is(r.code, code, `${what}: exit code (stderr: ${r.stderr})`);
  assert.is(r.stdout, '', `${what}: nothing on stdout`);
  assert.ok(r.stderr.startsWith('rollstamp: '), `${what}: stderr starts with "rollstamp: ": ${JSON.stringify(r.stderr)}`);
  assert.ok(r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1, `${what}: stderr is one line: ${JSON.stringify(r.stderr)}`);
  assert.not.match(r.stderr, /^ {4}at /m, `${what}: no stack trace`);
}

test('the bundle sits alone in a temp dir with no node_modules in it or above it', () => {
  const files = readdirSync(dir).sort();
  assert.ok(files.includes('rollstamp.js') && files.includes('package.json'), files.join(', '));
  assert.ok(files.includes('main.mjs'), files.join(', '));
  assert.ok(files.every((f) => f === 'rollstamp.js' || f === 'main.mjs' || f === 'package.json' || /^chunk-\w+\.mjs$/.test(f)), `only the entry, the CLI, its chunks and package.json: ${files.join(', ')}`);
  for (let d = dir; ; d = dirname(d)) {
    assert.not.ok(existsSync(join(d, 'node_modules')), `${join(d, 'node_modules')} exists; the bundle must run without it`);
    if (dirname(d) === d) break;
  }
});

test('--version and -V print the package version', () => {
  for (const flag of ['--version', '-V']) {
    const r = rollstamp([flag]);
    assertOk(r, flag);
    assert.is(r.stdout, `rollstamp ${VERSION}\n`);
    assert.is(r.stderr, '');
  }
});

test('--help lists the commands; stamp --help and help stamp show the stamp help', () => {
  const main = rollstamp(['--help']);
  assertOk(main, '--help');
  assert.ok(main.stdout.startsWith('Usage: rollstamp'), main.stdout);
  for (const command of ['fn', 'stamp', 'explain']) assert.match(main.stdout, new RegExp(`^ {2}${command} `, 'm'));
  assert.is(main.stderr, '');

  const stamp = rollstamp(['stamp', '--help']);
  assertOk(stamp, 'stamp --help');
  assert.ok(stamp.stdout.startsWith('Usage: rollstamp stamp'), stamp.stdout);
  assert.match(stamp.stdout, /--check/);
  assert.is(rollstamp(['help', 'stamp']).stdout, stamp.stdout);
  assert.ok(rollstamp(['explain', '--help']).stdout.startsWith('Usage: rollstamp explain'));
});

test('fn (and no command) over a ResourceList: the workload is stamped and a STAMPED result is added', () => {
  const input = resourceList(MANIFESTS);
  const r = rollstamp(['fn'], input);
  assertOk(r, 'fn');
  assert.is(r.stderr, '');
  const out = parseDocument(r.stdout);
  assert.equal(out.errors, []);
  assert.is(out.get('kind'), 'ResourceList');
  const items = out.get('items');
  assert.ok(isSeq(items));
  assert.equal(
    items.items.map((i) => (i as YAMLMap).get('kind')),
    ['Deployment', 'Secret', 'ConfigMap'],
  );
  const hash = (items.items[0] as YAMLMap).getIn(['spec', 'template', 'metadata', 'annotations', 'rollstamp.dev/hash']);
  assert.match(String(hash), /^sha256:[0-9a-f]{64}$/);
  const results = out.get('results');
  assert.ok(isSeq(results), 'results are written');
  assert.ok(
    results.items.some((res) => isMap(res) && res.get('severity') === 'info' && res.getIn(['tags', 'code']) === 'STAMPED'),
    r.stdout,
  );
  assert.match(r.stdout, /^- # The web app$/m, 'the head comment is kept inside its item');
  assert.is(rollstamp([], input).stdout, r.stdout, 'no command means fn');
});

test('fn output has no YAML anchors or aliases, even when one workload gets several results', () => {
  // kpt (kyaml) rejects aliases: "wrong node kind: expected MappingNode but got AliasNode".
  const withoutConfigMap = MANIFESTS.split(/^---\n/m).slice(0, 2).join('---\n');
  const r = rollstamp(['fn'], resourceList(withoutConfigMap));
  assertOk(r, 'fn with a missing ConfigMap');
  const out = parseDocument(r.stdout);
  assert.ok(isSeq(out.get('results')) && (out.get('results') as { items: unknown[] }).items.length >= 2, 'a warning and the STAMPED info');
  const found: string[] = [];
  visit(out, {
    Alias(_, node) {
      found.push(`*${node.source}`);
    },
    Node(_, node) {
      if (node.anchor) found.push(`&${node.anchor}`);
    },
  });
  assert.equal(found, [], `anchors/aliases in fn output:\n${r.stdout}`);
});

test('stamp FILE stamps like fn, keeps the other documents byte for byte, and is idempotent', () => {
  const file = join(dir, 'manifests.yaml');
  writeFileSync(file, MANIFESTS);
  const r = rollstamp(['stamp', 'manifests.yaml']);
  assertOk(r, 'stamp manifests.yaml');
  assert.is(r.stderr, '');
  const fnOut = rollstamp(['fn'], resourceList(MANIFESTS)).stdout;
  const hashes = stampsIn(r.stdout);
  assert.is(hashes.length, 1);
  assert.equal(hashes, stampsIn(fnOut), 'stamp and fn compute the same hash');
  const docs = r.stdout.split(/^---\n/m);
  const inputDocs = MANIFESTS.split(/^---\n/m);
  assert.is(docs[1], inputDocs[1], 'the Secret document is unchanged');
  assert.is(docs[2], inputDocs[2], 'the ConfigMap document is unchanged');
  assert.equal(
    parseAllDocuments(r.stdout).map((d) => d.errors.length),
    [0, 0, 0],
  );

  const again = rollstamp(['stamp', '-'], r.stdout);
  assertOk(again, 'stamp - over its own output');
  assert.is(again.stdout, r.stdout, 'stamping the output again changes nothing');
  const check = rollstamp(['stamp', '--check', '-'], r.stdout);
  assertOk(check, 'stamp --check over stamped output');
  assert.is(check.stdout, '');
  assert.is(rollstamp(['stamp', '--check', 'manifests.yaml']).code, 3, '--check over unstamped input exits 3');
});

test('explain and explain --json name the sources and digests, never a value', () => {
  writeFileSync(join(dir, 'manifests.yaml'), MANIFESTS);
  const [hash] = stampsIn(rollstamp(['stamp', 'manifests.yaml']).stdout);
  const text = rollstamp(['explain', 'manifests.yaml']);
  assertOk(text, 'explain');
  assert.match(text.stdout, /^apps\/v1\/Deployment\/web/m);
  assert.match(text.stdout, /Secret default\/db/);
  assert.match(text.stdout, /ConfigMap default\/web-config/);
  assert.ok(text.stdout.includes(hash!), 'the full hash is shown');

  const json = rollstamp(['explain', '--json', 'manifests.yaml']);
  assertOk(json, 'explain --json');
  const doc = JSON.parse(json.stdout) as {
    kind: string;
    targets: Array<{ hash: string; resourceRef: { name: string }; sources: Array<{ kind: string; name: string; digest?: string }> }>;
  };
  assert.is(doc.kind, 'Explanation');
  assert.is(doc.targets.length, 1);
  assert.is(doc.targets[0]!.resourceRef.name, 'web');
  assert.is(doc.targets[0]!.hash, hash);
  assert.equal(doc.targets[0]!.sources.map((s) => `${s.kind}/${s.name}`).sort(), ['ConfigMap/web-config', 'Secret/db']);

  for (const out of [text.stdout, json.stdout]) {
    for (const secret of ['aHVudGVyMg==', 'hunter2', 'eA==']) assert.not.ok(out.includes(secret), `explain printed a Secret value (${secret})`);
  }
});

test('malformed YAML: exit 1, stdout empty, one rollstamp: line on stderr', () => {
  const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n';
  writeFileSync(join(dir, 'bad.yaml'), bad);
  assertFails(rollstamp(['stamp', '-'], bad), 1, 'stamp - (malformed)');
  assertFails(rollstamp(['stamp', 'bad.yaml']), 1, 'stamp bad.yaml');
  assertFails(rollstamp(['fn'], 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [\n'), 1, 'fn (malformed)');
  assertFails(rollstamp(['fn'], 'just a string\n'), 1, 'fn (not a ResourceList)');
});

test('explain over malformed YAML: exit 1 and one rollstamp: line on stderr (stdout lists the results, as documented)', () => {
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n');
  const r = rollstamp(['explain', 'bad.yaml']);
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /^rollstamp: [^\n]*bad\.yaml[^\n]*\n$/);
  assert.not.match(r.stderr + r.stdout, /^ {4}at /m, 'no stack trace');
});

test('non-UTF-8 bytes inside a value: exit 1, stdout empty, one rollstamp: line on stderr', () => {
  const bytes = (before: string, after: string): Buffer =>
    Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
  const manifest = bytes('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: "', '"\n');
  writeFileSync(join(dir, 'latin1.yaml'), manifest);
  assertFails(rollstamp(['stamp', '-'], manifest), 1, 'stamp - (non-UTF-8)');
  assertFails(rollstamp(['stamp', 'latin1.yaml']), 1, 'stamp latin1.yaml');
  const rl = bytes(
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: x\n  data:\n    k: "',
    '"\n',
  );
  assertFails(rollstamp(['fn'], rl), 1, 'fn (non-UTF-8)');
});

test('unknown command: exit 2', () => {
  assertFails(rollstamp(['frobnicate']), 2, 'frobnicate');
});

test('unknown flag to stamp or explain: exit 2', () => {
  assertFails(rollstamp(['stamp', '--frobnicate', '-'], MANIFESTS), 2, 'stamp --frobnicate');
  assertFails(rollstamp(['explain', '--frobnicate', '-'], MANIFESTS), 2, 'explain --frobnicate');
});

test('unknown flag to fn or at the top level (where fn is the default): exit 2, not 1', () => {
  const rl = resourceList(MANIFESTS);
  assertFails(rollstamp(['fn', '--frobnicate'], rl), 2, 'fn --frobnicate');
  assertFails(rollstamp(['--frobnicate'], rl), 2, '--frobnicate');
});

test.run();
