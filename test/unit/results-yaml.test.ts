// fn's `results:` writer (function/write/results-yaml.ts) on fixed cases: the text it prints, the strings it
// leaves to the yaml library, and that the strings real results hold are printed by the writer itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { errorResult, infoResult, type Result } from '../../function/model/results.ts';
import { resultsYaml, writesPlain } from '../../function/write/results-yaml.ts';

const library = (results: readonly unknown[]): string => stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false });

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app-1', namespace: 'team-1' };

test('a stamped result, in the order its fields were set', () => {
  const r = infoResult('STAMPED', 'stamped rollstamp.dev/hash', { ref }, 'spec.template.metadata.annotations["rollstamp.dev/hash"]');
  assert.fixture(
    resultsYaml([r]),
    [
      'results:',
      '  - message: stamped rollstamp.dev/hash',
      '    severity: info',
      '    tags:',
      '      code: STAMPED',
      '    resourceRef:',
      '      apiVersion: apps/v1',
      '      kind: Deployment',
      '      name: app-1',
      '      namespace: team-1',
      '    field:',
      '      path: spec.template.metadata.annotations["rollstamp.dev/hash"]',
      '',
    ].join('\n'),
  );
});

test('a file and its index; an undefined namespace is left out, as the library leaves it', () => {
  const r = errorResult('YAML_SYNTAX', 'bad', { ref: { apiVersion: 'v1', kind: 'Secret', name: 's', namespace: undefined }, file: { path: 'a.yaml', index: 2 } });
  const out = resultsYaml([r]);
  assert.fixture(out, library([r]));
  assert.ok(out.includes('    file:\n      path: a.yaml\n      index: 2\n'));
  assert.not.ok(out.includes('namespace'));
});

test('strings YAML would read otherwise are quoted, as the library quotes them', () => {
  const cases: [string, string][] = [
    ['a: b', '"a: b"'],
    ['a #b', '"a #b"'],
    ['True', '"True"'],
    ['null', '"null"'],
    ['', '""'],
    [' x', '" x"'],
    ['x:', '"x:"'],
    ['1e3', '"1e3"'],
    ['0x1', '"0x1"'],
    ['.inf', '".inf"'],
    ['"q"', `'"q"'`],
    ['- x', '"- x"'],
    ['\u0007', '"\\a"'],
  ];
  for (const [s, printed] of cases) {
    const r = { message: s, severity: 'error', tags: { code: 'BAD_ANNOTATION' } } as Result;
    const out = resultsYaml([r]);
    assert.fixture(out, library([r]));
    assert.ok(out.startsWith(`results:\n  - message: ${printed}\n`), `${JSON.stringify(s)} printed as ${JSON.stringify(out.split('\n')[1])}`);
  }
});

test('a line break and a document marker come out as the library prints them where they stand', () => {
  for (const s of ['a\nb', 'a\n\n', '--- x', '...', 'x\n---\ny']) {
    const rs = [{ message: s, severity: 'info', tags: { code: s } }, { message: 'after', severity: 'info', tags: { code: 'STAMPED' } }] as unknown as Result[];
    assert.fixture(resultsYaml(rs), library(rs));
  }
});

test('a result of another shape is printed by the library whole', () => {
  const odd: unknown[][] = [
    [{ message: 'm', severity: 'info', tags: {} }],
    [{ message: 'm', severity: 'info', tags: { code: 'X' }, extra: 'y' }],
    [{ message: 'm', severity: 'info', tags: { code: 'X' }, field: { path: 'p', currentValue: 'v' } }],
    [{ message: 1, severity: 'info', tags: { code: 'X' } }],
    [{ message: 'm', severity: 'info', tags: { code: 'X' }, file: { path: 'p', index: -0 } }],
    [{ message: 'm', severity: 'info', tags: { code: 'X' }, file: { path: 'p', index: 1.5 } }],
    [{}],
    [undefined],
    [],
  ];
  for (const rs of odd) assert.fixture(resultsYaml(rs as Result[]), library(rs));
});

test('a resourceRef two results share is printed twice, with no anchor', () => {
  const rs = [infoResult('STAMPED', 'one', { ref }), infoResult('STAMPED', 'two', { ref })];
  const out = resultsYaml(rs);
  assert.fixture(out, library(rs));
  assert.not.ok(/[&*]/.test(out));
});

test('the strings real results hold are printed by the writer itself, not the library', () => {
  for (const s of ['stamped rollstamp.dev/hash', 'apps/v1', 'team-1', 'app-1001', 'STAMPED', 'info', 'spec.template.metadata.annotations["rollstamp.dev/hash"]', "key 'x' of Secret team-1/creds-3 is missing", 'a:b', 'a#b', 'x'.repeat(5000)]) {
    assert.ok(writesPlain(s), s);
  }
  for (const s of ['', 'a ', 'a: b', 'a #b', 'a:', 'yes', 'True', '1', '-x', 'é', 'a\tb', 'a\nb']) assert.not.ok(writesPlain(s), JSON.stringify(s));
});

test.run();
