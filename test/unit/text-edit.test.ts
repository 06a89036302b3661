// The text-edit path must produce the same objects as re-rendering the changed tree, and touch only the
// annotation lines.
import { parseAllDocuments } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInProcess } from '../support/run-cli.ts';

const HEAD = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n';
const STAMP = /"sha256:[0-9a-f]{64}"/;

const shapes: Array<[string, string, string]> = [
  ['no template metadata (block)', '  template:\n    spec:\n      containers: []\n', '  template:\n    metadata:\n      annotations:\n        rollstamp.dev/hash: H\n    spec:\n'],
  ['metadata without annotations', '  template:\n    metadata:\n      labels: {app: web}   # keep me\n    spec: {}\n', '    metadata:\n      annotations:\n        rollstamp.dev/hash: H\n      labels: {app: web}   # keep me\n'],
  ['block annotations', '  template:\n    metadata:\n      annotations:\n        a: b  # note\n    spec: {}\n', '      annotations:\n        rollstamp.dev/hash: H\n        a: b  # note\n'],
  ['flow annotations', '  template:\n    metadata:\n      annotations: {a: b}\n    spec: {}\n', '      annotations: {rollstamp.dev/hash: H, a: b}\n'],
  ['empty flow annotations', '  template:\n    metadata:\n      annotations: {}\n    spec: {}\n', '      annotations: {rollstamp.dev/hash: H}\n'],
  ['flow metadata', '  template:\n    metadata: {labels: {app: web}}\n    spec: {}\n', '    metadata: {annotations: {rollstamp.dev/hash: H}, labels: {app: web}}\n'],
  ['stale stamp replaced in place', "  template:\n    metadata:\n      annotations:\n        rollstamp.dev/hash: 'sha256:old'   # by rollstamp\n    spec: {}\n", '        rollstamp.dev/hash: H   # by rollstamp\n'],
  // An empty value is read where its comment starts: the stamp must not be glued to the `#`.
  ['empty annotations with a comment', '  template:\n    metadata:\n      annotations: # none yet\n    spec: {}\n', '      annotations:\n        rollstamp.dev/hash: H # none yet\n'],
  ['empty metadata with a comment', '  template:\n    metadata:   # none yet\n    spec: {}\n', '    metadata:\n      annotations:\n        rollstamp.dev/hash: H # none yet\n'],
  ['four-space indentation', '    template:\n        spec:\n            containers: []\n', '    template:\n        metadata:\n            annotations:\n                rollstamp.dev/hash: H\n        spec:\n'],
];

for (const [name, body, expected] of shapes) {
  test(`text edit: ${name}`, async () => {
    const input = HEAD + body.replace(/^ {2}template/m, '  template').replace(/^ {4}template/m, '    template');
    const run = await runInProcess(['stamp', '-'], { stdin: input });
    assert.is(run.code, 0, run.stderr);
    assert.ok(run.stdout.replace(STAMP, 'H').includes(expected), run.stdout);
    // Same objects as a fresh rendering would give: parse both ways and compare.
    const [doc] = parseAllDocuments(run.stdout);
    const annotations = doc!.getIn(['spec', 'template', 'metadata', 'annotations']) as { get(k: string): unknown };
    assert.match(String(annotations.get('rollstamp.dev/hash')), /^sha256:[0-9a-f]{64}$/);
    const inputLines = input.split('\n');
    const removed = inputLines.filter((l) => !run.stdout.split('\n').includes(l));
    assert.ok(removed.length <= 1, `at most the changed line differs: ${JSON.stringify(removed)}`);
  });
}

// A kagent SandboxAgent's stamp is an env entry (#13): the same checks, on its env list.
const SANDBOX = 'apiVersion: kagent.dev/v1alpha2\nkind: SandboxAgent\nmetadata: {name: s, namespace: t}\nspec:\n  type: BYO\n  byo:\n    deployment:\n      image: x\n      cmd: y\n';
const envShapes: Array<[string, string, string]> = [
  ['env list at the key column', '      env:\n      - name: A   # keep me\n        value: "1"\n', '      env:\n      - name: ROLLSTAMP_HASH\n        value: H\n      - name: A   # keep me\n'],
  ['indented env list, wide dash', '      env:\n        -   name: A\n            value: "1"\n', '      env:\n        -   name: ROLLSTAMP_HASH\n            value: H\n        -   name: A\n'],
  ['comment lines above the first entry stay with it', '      env:\n        # about A\n        - name: A\n          value: "1"\n', '      env:\n        - name: ROLLSTAMP_HASH\n          value: H\n        # about A\n        - name: A\n'],
  ['stale entry replaced in place', '      env:\n        - name: A\n          value: "1"\n        - name: ROLLSTAMP_HASH\n          value: old   # by rollstamp\n', '        - name: A\n          value: "1"\n        - name: ROLLSTAMP_HASH\n          value: H   # by rollstamp\n'],
];

for (const [name, body, expected] of envShapes) {
  test(`text edit, SandboxAgent env: ${name}`, async () => {
    const input = SANDBOX + body;
    const run = await runInProcess(['stamp', '-'], { stdin: input });
    assert.is(run.code, 0, run.stderr);
    assert.ok(run.stdout.replace(STAMP, 'H').includes(expected), run.stdout);
    const [doc] = parseAllDocuments(run.stdout);
    const env = (doc!.toJS() as { spec: { byo: { deployment: { env: Array<{ name: string; value: string }> } } } }).spec.byo.deployment.env;
    assert.match(env.find((e) => e.name === 'ROLLSTAMP_HASH')!.value, /^sha256:[0-9a-f]{64}$/);
    const removed = input.split('\n').filter((l) => !run.stdout.split('\n').includes(l));
    assert.ok(removed.length <= 1, `at most the changed line differs: ${JSON.stringify(removed)}`);
  });
}

test('text edit: CRLF input stays CRLF', async () => {
  const input = (HEAD + '  template:\n    metadata:\n      labels: {app: web}\n    spec: {}\n').replace(/\n/g, '\r\n');
  const run = await runInProcess(['stamp', '-'], { stdin: input });
  assert.is(run.code, 0, run.stderr);
  assert.not.match(run.stdout, /[^\r]\n/);
  assert.match(run.stdout, /annotations:\r\n {8}rollstamp\.dev\/hash: "sha256:/);
});

test('text edit: a CRLF ResourceList without a last line break gets its results block after a CRLF too', async () => {
  const input = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: w\n    annotations: {rollstamp.dev/enabled: "true"}\n  spec:\n    template:\n      spec:\n        containers:\n        - name: c\n          envFrom: [{configMapRef: {name: gone}}]'.replace(/\n/g, '\r\n');
  const run = await runInProcess(['fn'], { stdin: input });
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /gone\}\}\]\r\nresults:\r\n/);
  assert.not.match(run.stdout, /[^\r]\n/);
});

test.run();
