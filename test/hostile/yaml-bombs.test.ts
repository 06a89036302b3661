// SECURITY.md "It fails closed": YAML bombs and hostile shapes, through `stamp -` and `fn`, against the built
// bundle. Each fails with exit 1, nothing on stdout, one `rollstamp: ` line on stderr and no stack, within
// 2 × the time the yaml library needs for the same bytes (measured in the same run, see support.ts) and in
// < 256 MiB peak RSS — except a bomb in an object nothing uses, which passes through untouched, also cheaply.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertCheap, assertFailsClosed, cleanup, requireBundle, runMeasured } from '../support/hostile.ts';
import { asResourceList, deployment, secret, stream } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

/** A billion-laughs tower of `levels` levels, 9 aliases wide, as indented `key: value` lines. */
function laughs(indent: string, levels = 9): string {
  const lines = [`${indent}l0: &l0 "bG9s"`];
  for (let i = 1; i <= levels; i++) lines.push(`${indent}l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

const BOMB_SECRET = stream([secret('bomb-secret', laughs('  ')), deployment('web', { secret: 'bomb-secret' })]);

const UNRELATED_CM = `apiVersion: v1
kind: ConfigMap
metadata:
  name: unrelated-cm
data:
${laughs('  ')}
`;
const BOMB_UNRELATED = stream([secret('db', '  password: cGFzcw=='), UNRELATED_CM, deployment('web', { secret: 'db' })]);

const MERGE_LOOP = `%YAML 1.1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: loop
data: &A {<<: *A}
`;

const DEEP = 100_000;
const DEEP_YAML = `apiVersion: v1
kind: ConfigMap
metadata:
  name: deep
data:
  a: ${'['.repeat(DEEP)}${']'.repeat(DEEP)}
`;
const DEEP_JSON_RL = `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":{"a":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}]}`;

const DUP_SECRET = stream([secret('dup-secret', '  password: cGFzcw==\n  password: b3RoZXI='), deployment('web', { secret: 'dup-secret' })]);
const DUP_TEMPLATE = stream([secret('db', '  password: cGFzcw=='), deployment('web', { secret: 'db', extraTemplate: '\n      labels: {app: web}' })]);
const ALIAS_TEMPLATE = stream([
  secret('db', '  password: cGFzcw=='),
  deployment('web', { secret: 'db', extraTemplate: '\n      annotations: &ann {team: a}' }).replace('    spec:\n      containers:', '    spec:\n      nodeSelector: *ann\n      containers:'),
]);
const MERGE_TEMPLATE = stream([
  secret('db', '  password: cGFzcw=='),
  deployment('web', { secret: 'db', extraTemplate: '\n      annotations:\n        <<: {team: a}\n        owner: b' }),
]);

interface Case {
  name: string;
  yaml: string;
  /** A substring the one stderr line must contain. */
  names?: string;
  /** The fn input, when it is not simply the YAML wrapped in a ResourceList. */
  fn?: string;
}

const FAILING: Case[] = [
  { name: 'billion laughs in a referenced Secret', yaml: BOMB_SECRET, names: 'bomb-secret' },
  { name: '%YAML 1.1 document with a circular merge', yaml: MERGE_LOOP, fn: `%YAML 1.1\n---\n${asResourceList([MERGE_LOOP.replace('%YAML 1.1\n---\n', '')])}` },
  { name: '100,000-deep YAML nesting', yaml: DEEP_YAML },
  { name: '100,000-deep JSON nesting', yaml: DEEP_JSON_RL.replace(/^.*"items":\[/, '').replace(/\]\}$/, ''), fn: DEEP_JSON_RL },
  { name: 'duplicate key in Secret data', yaml: DUP_SECRET },
  { name: 'duplicate key in a pod template', yaml: DUP_TEMPLATE },
  { name: 'alias inside a pod template', yaml: ALIAS_TEMPLATE, names: 'web' },
  { name: 'merge key inside a pod template', yaml: MERGE_TEMPLATE, names: 'web' },
];

for (const c of FAILING) {
  test(`stamp -: ${c.name} fails closed, fast and small`, () => {
    const r = assertCheap(() => runMeasured(['stamp', '-'], { stdin: c.yaml }), c.yaml, c.name);
    assertFailsClosed(r, c.name);
    if (c.names) assert.ok(r.stderr.includes(c.names), `${c.name}: error names ${c.names}: ${r.stderr}`);
  });
  test(`fn: ${c.name} fails closed, fast and small`, () => {
    const input = c.fn ?? asResourceList(c.yaml.split(/^---\n/m).filter((d) => d.trim() !== ''));
    const r = assertCheap(() => runMeasured(['fn'], { stdin: input }), input, `fn ${c.name}`);
    assertFailsClosed(r, `fn ${c.name}`);
    if (c.names) assert.ok(r.stderr.includes(c.names), `fn ${c.name}: error names ${c.names}: ${r.stderr}`);
  });
}

test('stamp -: billion laughs in an unrelated ConfigMap passes through untouched', () => {
  const r = assertCheap(() => runMeasured(['stamp', '-'], { stdin: BOMB_UNRELATED }), BOMB_UNRELATED, 'unrelated bomb');
  assert.is(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(UNRELATED_CM), 'the unrelated ConfigMap is printed byte for byte (aliases not expanded)');
  assert.ok(/rollstamp\.dev\/hash: /.test(r.stdout), 'the workload is still stamped');
});

test('fn: billion laughs in an unrelated ConfigMap passes through unexpanded', () => {
  const input = asResourceList(BOMB_UNRELATED.split(/^---\n/m));
  const r = assertCheap(() => runMeasured(['fn'], { stdin: input }), input, 'fn unrelated bomb');
  assert.is(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes('*l8'), 'aliases are kept, not expanded');
  assert.ok(r.stdout.length < 20_000, `output stays small (${r.stdout.length} bytes)`);
  assert.ok(/rollstamp\.dev\/hash: /.test(r.stdout), 'the workload is still stamped');
});

test.run();
