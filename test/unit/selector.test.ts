import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchesSelector, MAX_REQUIREMENTS, MAX_SET_VALUES, parseSelector } from '../../function/config/selector.ts';

const matches = (sel: string, labels: Record<string, string>): boolean => {
  const p = parseSelector(sel);
  if ('error' in p) throw new Error(p.error);
  return matchesSelector(p.selector, new Map(Object.entries(labels)));
};

const cases: Array<[string, Record<string, string>, boolean]> = [
  ['restart-on-config-update=true', { 'restart-on-config-update': 'true' }, true],
  ['restart-on-config-update=true', { 'restart-on-config-update': 'false' }, false],
  ['app==web', { app: 'web' }, true],
  ['app!=web', { app: 'api' }, true],
  ['app!=web', {}, true],
  ['app', { app: '' }, true],
  ['!legacy', { legacy: 'x' }, false],
  ['env in (prod, staging)', { env: 'staging' }, true],
  ['env notin (prod)', { env: 'prod' }, false],
  ['app=web,tier in (fe),!old', { app: 'web', tier: 'fe' }, true],
  ['example.com/team=a', { 'example.com/team': 'a' }, true],
];
for (const [sel, labels, want] of cases) {
  test(`selector "${sel}" ${want ? 'matches' : 'does not match'} ${JSON.stringify(labels)}`, () => {
    assert.is(matches(sel, labels), want);
  });
}

for (const bad of ['', 'a=b,', 'a in (b', '=x', 'a=b c', 'Bad Key=1']) {
  test(`selector "${bad}" is rejected`, () => {
    assert.ok('error' in parseSelector(bad));
  });
}

test('a selector of exactly MAX_REQUIREMENTS terms is read; one more is refused, naming the limit (#12)', () => {
  const terms = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=v`).join(',');
  const ok = parseSelector(terms(MAX_REQUIREMENTS));
  assert.ok('selector' in ok && ok.selector.length === MAX_REQUIREMENTS);
  const over = parseSelector(terms(MAX_REQUIREMENTS + 1));
  assert.equal(over, { error: `more than ${MAX_REQUIREMENTS} requirements` });
});

test('a set of exactly MAX_SET_VALUES values is read; one more is refused (#12)', () => {
  const set = (n: number): string => `env in (${Array.from({ length: n }, (_, i) => `v${i}`).join(',')})`;
  const ok = parseSelector(set(MAX_SET_VALUES));
  assert.ok('selector' in ok && ok.selector[0]!.op === 'in' && ok.selector[0]!.values.length === MAX_SET_VALUES);
  const over = parseSelector(set(MAX_SET_VALUES + 1));
  assert.ok('error' in over && over.error.startsWith(`more than ${MAX_SET_VALUES} values`), JSON.stringify(over).slice(0, 200));
});

test('an error quotes at most 80 characters of a bad term (#12)', () => {
  const r = parseSelector(`${'a'.repeat(10_000)}=b-`);
  assert.ok('error' in r && r.error.length < 200, 'short message');
});

test.run();
