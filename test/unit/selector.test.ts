import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchesSelector, parseSelector } from '../../function/selector.ts';

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

test.run();
