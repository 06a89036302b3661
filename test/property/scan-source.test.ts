// The Secret and ConfigMap scanner (function/read/scan-source.ts, #37) gives the planner what the tree path gives:
// the same object and, when it is resolved, the same entries and results (test/support/source-scan-compare.ts), on
// every document of fixtures/ and examples/, on the forms entries are written in, on documents it must decline, and
// (through test/property/subset-yaml.test.ts's check) on its ~27,000 generated and mutated inputs. A run that scans
// prints what a run reading every tree prints, and decodes only the Secrets and ConfigMaps a target consumes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanSource } from '../../function/read/scan-source.ts';
import { splitDocuments, streamDocuments } from '../../function/read/stream-documents.ts';
import { IDENTITY_ONLY_NAMES, isIdentityOnly, isScannableSource } from '../../function/plan/identity-only.ts';
import type { ScannedIdentity } from '../../function/model/object.ts';
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import { startStreamRun } from '../../function/run/stream-run.ts';
import { apply, startPlan } from '../../function/run/apply.ts';
import { streamItems } from '../../function/read/stream.ts';
import { hasErrors } from '../../function/model/results.ts';
import { bothReadings, sourceScanDifference } from '../support/source-scan-compare.ts';
import { fixtureAndExampleYaml } from '../support/repo-yaml.ts';

const ROOT = new URL('../../', import.meta.url).pathname;


const skim = { kinds: IDENTITY_ONLY_NAMES, wants: (i: ScannedIdentity, t: string) => isIdentityOnly(i, t, DEFAULT_CONFIG), sources: (i: ScannedIdentity, t: string) => isScannableSource(i, t, DEFAULT_CONFIG) };

test('gives the object and entries the tree path gives, on every document of fixtures/ and examples/', () => {
  const files = fixtureAndExampleYaml();
  assert.ok(files.length > 100, 'fixture files found');
  let scanned = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.is(sourceScanDifference(text), undefined, file);
    for (const piece of splitDocuments(text) ?? []) if (scanSource(piece)) scanned++;
  }
  assert.ok(scanned > 150, `the scanner read only ${scanned} documents`);
});

test('scans every Secret and ConfigMap of the real-shape fixtures that carries no rollstamp annotation', () => {
  const shapes = join(ROOT, 'fixtures/real-shapes');
  let sources = 0;
  for (const name of readdirSync(shapes)) {
    for (const [i, piece] of (splitDocuments(readFileSync(join(shapes, name, 'input.yaml'), 'utf8')) ?? []).entries()) {
      if (!/^kind: (Secret|ConfigMap)$/m.test(piece) || /^apiVersion: (?!v1$)/m.test(piece) || /rollstamp\.dev\/|^sops:/m.test(piece)) continue;
      sources++;
      assert.ok(scanSource(piece), `${name}: document ${i} declined`);
    }
  }
  assert.ok(sources >= 5, `only ${sources} Secrets and ConfigMaps in the real shapes`);
});

test('reads entries in every form the subset reader reads, in the order decoding takes them', () => {
  const head = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: ns\n  uid: 1b2c\n  labels: {a: b, "c": \'d\'}\n  annotations:\n    e: "f"\n    g: |\n      h\n';
  const text = `${head}stringData:\n  p: plain words\n  q: "x\\ty"\n  r: 'it''s'\n  s: |\n    one\n    two\n  t: >-\n    folded\n    line\n  u:\n    below its key\n  v: ""\n  w: wrapped\n    over lines\ndata:\n  k: dg==   # a comment\n  l: "bA=="\n`;
  const source = scanSource(text);
  assert.ok(source, 'scanned');
  assert.equal(source!.identity, { apiVersion: 'v1', kind: 'Secret', name: 's', namespace: 'ns' });
  assert.equal([...source!.labels], [['a', 'b'], ['c', 'd']]);
  assert.equal([...source!.annotations], [['e', 'f'], ['g', 'h\n']]);
  assert.is(source!.uid, '1b2c');
  assert.equal(source!.entries.read().base64.map(([k]) => k), ['k', 'l'], 'data first, as decoding takes it');
  assert.equal(source!.entries.read().text.map(([k]) => k), ['p', 'q', 'r', 's', 't', 'u', 'v', 'w']);
  assert.is(sourceScanDifference(text), undefined);
  const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nimmutable: true\ndata:\n  a: x\nbinaryData:\n  b: eA==\n  a: eA==\n';
  assert.ok(scanSource(configMap), 'a key in both data and binaryData is scanned: resolving reports it');
  assert.is(sourceScanDifference(configMap), undefined);
});

test('declines what it cannot give exactly as the tree path does', () => {
  const head = (kind = 'Secret', extra = ''): string => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: s\n${extra}`;
  const declined = [
    `${head()}sops:\n  mac: x\ndata:\n  k: dg==\n`, // a SOPS Secret keeps its tree
    `${head()}data:\n  k: 1\n`, // a value that is not a string: WRONG_TYPE
    `${head()}data:\n  k: true\n`,
    `${head()}data:\n  k:\n`, // null
    `${head()}data:\n  k:\n    a: b\n`,
    `${head()}data:\n  k: [a]\n`,
    `${head()}data: {k: dg==}\n`, // a non-empty flow map of entries
    `${head()}data: [a]\n`,
    `${head()}data: x\n`,
    `${head()}data:\n  k: dg==\n  k: dg==\n`, // a duplicate key
    `${head()}binaryData:\n  k: dg==\n`, // a key a Secret does not have
    `${head('ConfigMap')}stringData:\n  k: v\n`,
    `${head()}items: []\n`,
    `${head('Secret', '  labels:\n    a: 1\n')}`, // a label that is not a string
    `${head('Secret', '  labels: [a]\n')}`,
    `${head('Secret', '  annotations: {a: {b: c}}\n')}`,
    `${head('Secret', '  name: t\n')}`, // a duplicate key in metadata
    'apiVersion: v1\nkind: Secret\nmetadata:\n  generateName: ""\n', // no name
    'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n',
    'apiVersion: v2\nkind: Secret\nmetadata:\n  name: s\n',
    'apiVersion: example.com/v1\nkind: ConfigMap\nmetadata:\n  name: s\n',
    `${head()}data:\n  k: &a dg==\n`, // an anchor
    `${head()}data:\n  k: !!binary dg==\n`, // a tag
    `${head()}data:\n  k: "a\\x41"\n`, // an escape the subset leaves to the library
    `${head()}---\n${head()}`,
  ];
  for (const text of declined) {
    assert.is(scanSource(text), undefined, `scanned ${JSON.stringify(text)}`);
    assert.is(sourceScanDifference(text), undefined, JSON.stringify(text));
  }
  assert.is(bothReadings(`${head()}data:\n  k: dg==\n`)?.tree?.name, 's', 'the comparison reads a tree where it scans');
});

test('a run that scans prints what a run reading every tree prints, and decodes only what a target consumes', () => {
  const workload = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          envFrom: [{secretRef: {name: used}}, {configMapRef: {name: settings}}]\n';
  const sources = [
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: used\n  labels: {app: w}\ndata:\n  k: dg==\nstringData:\n  t: |\n    text\n',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: unused\ndata:\n  k: a$b\n', // not base64: nothing reads it
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info # c\n',
  ];
  const text = [...sources, workload].join('---\n');
  assert.is([...streamDocuments(text, 'in.yaml', skim)].filter((d) => d.source).length, 3, 'the Secrets and the ConfigMap are scanned');
  const outcome = (reader: 'fast' | 'full') => startStreamRun([{ path: 'in.yaml', text }], { config: DEFAULT_CONFIG, reader, keyDetail: true }).finish();
  const fast = outcome('fast');
  const full = outcome('full');
  assert.ok(fast.outputPieces.join('').includes('rollstamp.dev/hash'), 'the workload is stamped');
  assert.is(fast.outputPieces.join(''), full.outputPieces.join(''));
  assert.equal(fast.results, full.results);
  assert.equal(JSON.stringify(fast.targets), JSON.stringify(full.targets));
  // What is decoded: the entries each scanned source is asked for, as the planner resolves them.
  const planner = startPlan(DEFAULT_CONFIG);
  const decoded: string[] = [];
  for (const d of streamDocuments(text, 'in.yaml', { ...skim, sources: (i: ScannedIdentity, t: string) => planner.scansSource(i, t) })) {
    const source = d.source;
    if (!source) {
      planner.add(streamItems([d], planner.items).items);
      continue;
    }
    const { entries } = source;
    planner.addScanned({ ...source, entries: { read: () => (decoded.push(source.identity.name), entries.read()) } }, d.file);
  }
  assert.not.ok(hasErrors(apply(planner.finish()).results));
  assert.equal(decoded.sort(), ['settings', 'used'], 'the Secret no target consumes is not decoded');
  const broken = text.replace('k: dg==\nstringData', 'k: a$b\nstringData');
  const failed = startStreamRun([{ path: 'in.yaml', text: broken }], { config: DEFAULT_CONFIG }).finish();
  assert.equal(failed.results.map((r) => `${r.tags?.code} ${r.resourceRef?.name} ${r.field?.path}`), ['BAD_BASE64 used data.k'], 'only the consumed Secret is decoded');
});

test.run();
