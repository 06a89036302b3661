// The identity scanner (function/read/scan-identity.ts, #37) decides as the subset reader does: on every document
// of the real-shape fixtures and of fixtures/ and examples/, on constructs it must decline, and (through
// test/property/subset-yaml.test.ts's check, which runs test/support/scan-compare.ts on each of its ~27,000
// generated and mutated inputs) everywhere else. A skimmed run prints what a run reading every tree prints.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanIdentity } from '../../function/read/scan-identity.ts';
import { splitDocuments, streamDocuments } from '../../function/read/stream-documents.ts';
import { IDENTITY_ONLY_NAMES, isIdentityOnly } from '../../function/plan/identity-only.ts';
import type { ScannedIdentity } from '../../function/model/object.ts';
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import { startStreamRun } from '../../function/run/stream-run.ts';
import { identityFromTree, scanDifference } from '../support/scan-compare.ts';
import { fixtureAndExampleYaml } from '../support/repo-yaml.ts';

const ROOT = new URL('../../', import.meta.url).pathname;


test('gives the identity the subset reader\'s tree gives, on every document of fixtures/ and examples/', () => {
  const files = fixtureAndExampleYaml();
  assert.ok(files.length > 100, 'fixture files found');
  let scanned = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.is(scanDifference(text), undefined, file);
    for (const piece of splitDocuments(text) ?? []) if (scanIdentity(piece)) scanned++;
  }
  assert.ok(scanned > 200, `the scanner read only ${scanned} documents`);
});

test('reads every document of the real-shape fixtures (the constructs renders write)', () => {
  const shapes = join(ROOT, 'fixtures/real-shapes');
  for (const name of readdirSync(shapes)) {
    const pieces = splitDocuments(readFileSync(join(shapes, name, 'input.yaml'), 'utf8')) ?? [];
    assert.ok(pieces.length >= 2, `${name}: documents`);
    for (const [i, piece] of pieces.entries()) assert.ok(scanIdentity(piece), `${name}: document ${i} declined`);
  }
});

test('gives apiVersion, kind, name (else generateName) and namespace as strings', () => {
  const cases: Array<[string, object]> = [
    ['apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  ports:\n    - {port: 80}\n', { apiVersion: 'v1', kind: 'Service', name: 'web', namespace: 'shop' }],
    ['--- # c\n# above\napiVersion: "v1"\nkind: \'Service\'\nmetadata:\n  generateName: web-\n', { apiVersion: 'v1', kind: 'Service', name: 'web-' }],
    ['apiVersion: v1\nkind: Service\nmetadata:\n  name: 80\n  namespace: ""\n', { apiVersion: 'v1', kind: 'Service', name: '', namespace: '' }],
    ['apiVersion: v1\nkind: Service\nspec:\n  metadata: [1]\n', { apiVersion: 'v1', kind: 'Service', name: '' }],
  ];
  for (const [text, identity] of cases) {
    assert.equal(scanIdentity(text), identity, text);
    assert.equal(identityFromTree(text), identity, `the tree of ${JSON.stringify(text)}`);
  }
});

test('declines what the subset reader declines, and objects it cannot vouch for from the identity alone', () => {
  const head = 'apiVersion: v1\nkind: Service\n';
  const declined = [
    `${head}metadata:\n  name: a\n  name: b\n`, // a duplicate key: an error
    `${head}spec:\n  a: {b: 1, b: 2}\n`, // a duplicate key in a flow map
    `${head}kind: Service\n`,
    `${head}metadata: {name: a}\n`, // metadata not a block map
    `${head}metadata:\n`,
    `${head}items: []\n`, // a list wrapper
    `${head}metadata:\n  name: &a x\n`, // an anchor
    `${head}spec: !!map {}\n`, // a tag
    `${head}spec:\n  a: [1,\n    2]\n`, // a flow collection over lines
    `${head}? a\n: b\n`, // an explicit key
    `${head}spec: |\n  x\n   y\n  z\n`.replace('spec: |', 'spec: |2'),
    `${head}<<: {a: 1}\n`, // a merge key
    `${head}1: a\n`, // a key that is not a string
    `${head}spec:\n  a: b: c\n`,
    `${head}spec:\n  a: 1\n   b: 2\n`, // odd indentation
    `${head}spec:\n\ta: 1\n`,
    `${head}spec:\n  a: 1\r\n`,
    `apiVersion: v1\nkind: ""\n`,
    `apiVersion: 1\nkind: Service\n`,
    `- ${head}`,
    `${head}---\n${head}`, // two documents
    `${head}...\n`,
    '# only a comment\n',
    '---\n',
    `${head}spec:\n  # above a scalar below its key\n  a:\n    # c\n    1\n`,
  ];
  for (const text of declined) {
    assert.is(scanIdentity(text), undefined, `scanned ${JSON.stringify(text)}`);
    assert.is(scanDifference(text), undefined, `decided unlike the subset reader on ${JSON.stringify(text)}`);
  }
});

test('a stamp with skimmed documents prints what the yaml library\'s run prints, object counts included', () => {
  const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k: dg==\n';
  const workload = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          envFrom: [{secretRef: {name: s}}]\n';
  const services = (n: number): string => Array.from({ length: n }, (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${i}\nspec:\n  selector: {app: w}\n`).join('---\n');
  const text = `${services(3)}---\n${secret}---\n${workload}---\n${services(2)}`;
  const outcome = (reader: 'fast' | 'full') => startStreamRun([{ path: 'in.yaml', text }], { config: DEFAULT_CONFIG, reader }).finish();
  const skim = { kinds: IDENTITY_ONLY_NAMES, wants: (i: ScannedIdentity, t: string) => isIdentityOnly(i, t, DEFAULT_CONFIG) };
  assert.is([...streamDocuments(text, 'in.yaml', skim)].filter((d) => d.identity).length, 5, 'the Services are skimmed');
  const fast = outcome('fast');
  const full = outcome('full');
  assert.ok(fast.outputPieces.join('').includes('rollstamp.dev/hash'), 'the workload is stamped');
  assert.is(fast.outputPieces.join(''), full.outputPieces.join(''));
  assert.equal(fast.results, full.results);
  assert.equal(fast.targets.map((t) => t.hash), full.targets.map((t) => t.hash));
  assert.is(fast.objects, 7);
  assert.is(full.objects, 7);
});

test.run();
