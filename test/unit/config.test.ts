import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pluginConfig } from '../../plugin/settings/plugin-config.ts';
import { DEFAULT_CONFIG, locateSettings, readConfig } from '../../function/config/config.ts';

const messages = (r: ReturnType<typeof readConfig>): string[] => ('results' in r ? r.results.map((x) => x.message) : []);

test('no functionConfig gives the defaults', () => {
  assert.equal(readConfig(undefined), { config: DEFAULT_CONFIG, settings: {} });
});

test('settings only the plugin reads are validated with the rest but kept off the core config, and the plugin reads them (#36)', () => {
  const r = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { targets: 'all', allowEmpty: 'true', skipCrds: 'false', valuesFiles: ' a.yaml, ,b.yaml', renderer: 'helm', hashKeyFile: 'k' } });
  assert.ok('config' in r);
  if (!('config' in r)) return;
  for (const name of ['allowEmpty', 'skipCrds', 'valuesFiles', 'renderer', 'hashKeyFile']) assert.not.ok(name in r.config, name);
  assert.equal(pluginConfig(r), { ...r.config, allowEmpty: true, skipCrds: false, valuesFiles: ['a.yaml', 'b.yaml'], renderer: 'helm', hashKeyFile: 'k' });
  assert.equal(pluginConfig({ config: DEFAULT_CONFIG, settings: {} }), { ...DEFAULT_CONFIG, allowEmpty: false, skipCrds: false });
  assert.ok('results' in readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { allowEmpty: 'yes' } }), 'the core still validates them');
});

test('a RollstampConfig sets fields under spec', () => {
  const r = readConfig({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', spec: { targets: 'all', onMissing: 'error' } });
  assert.ok('config' in r);
  if ('config' in r) {
    assert.is(r.config.targets, 'all');
    assert.is(r.config.onMissing, 'error');
  }
});

test('a ConfigMap (kpt fn eval -- key=value) sets the same fields under data', () => {
  const r = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data: { selector: 'restart-on-config-update=true' } });
  assert.ok('config' in r && r.config.selector?.[0]?.key === 'restart-on-config-update');
});

test('an unknown setting is an error naming the field', () => {
  assert.equal(messages(readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { onMising: 'warn' } })), ['data.onMising: unknown setting']);
});

test('a bad enum value is an error listing the allowed values', () => {
  assert.equal(messages(readConfig({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', spec: { onMissing: 'loud' } })), [
    'spec.onMissing: must be one of warn, error, ignore',
  ]);
});

test('a bad annotation key and a bad selector are errors', () => {
  assert.equal(messages(readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { annotationKey: 'Not A Key' } })), [
    'data.annotationKey: must be a Kubernetes annotation key such as rollstamp.dev/hash',
  ]);
  assert.match(messages(readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { selector: 'a in (b' } }))[0] ?? '', /^data\.selector: invalid label selector/);
});

test('flags override the file and are named as flags in errors', () => {
  const r = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { targets: 'all' } }, { targets: 'some' });
  assert.equal(messages(r), ['flag --targets: must be one of opted-in, all']);
});

test('another kind of functionConfig is refused', () => {
  assert.match(messages(readConfig({ apiVersion: 'example.com/v1', kind: 'Other' }))[0] ?? '', /must be a RollstampConfig/);
});

test('a key named __proto__ is an unknown setting, and Object.prototype is untouched', () => {
  const data = JSON.parse('{"__proto__": {"polluted": "yes"}}');
  assert.equal(messages(readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data })), ['data.__proto__: unknown setting']);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('locateSettings: one reading of spec or data; ambiguous or non-map settings are errors, never a guess (#12)', () => {
  const cm = (extra: Record<string, unknown>): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', ...extra });
  const rc = (extra: Record<string, unknown>): unknown => ({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', ...extra });
  assert.equal(locateSettings(cm({ data: { targets: 'all' } })), { settings: { targets: 'all' }, prefix: 'data' });
  assert.equal(locateSettings(rc({ spec: { targets: 'all' } })), { settings: { targets: 'all' }, prefix: 'spec' });
  assert.equal(locateSettings(rc({})), { settings: {}, prefix: 'spec' });
  assert.equal(locateSettings(cm({ data: null })), { settings: {}, prefix: 'data' });
  for (const spec of [0, {}, [], '', false, null, { targets: 'all' }]) {
    assert.ok('error' in locateSettings(cm({ spec, data: { hashKeyFile: 'k' } })), `ConfigMap with spec ${JSON.stringify(spec)}`);
    assert.ok('error' in locateSettings(rc({ spec: { targets: 'all' }, data: spec })), `RollstampConfig with data ${JSON.stringify(spec)}`);
  }
  for (const bad of [0, [], '', false, 'x', ['hashKeyFile']]) {
    assert.equal(locateSettings(rc({ spec: bad })), { error: 'spec: expected a map of settings' });
    assert.equal(locateSettings(cm({ data: bad })), { error: 'data: expected a map of settings' });
  }
  for (const other of [{ apiVersion: 'v2', kind: 'ConfigMap' }, { kind: 'ConfigMap' }, { apiVersion: 'rollstamp.dev/v1', kind: 'RollstampConfig' }, { apiVersion: 'v1', kind: 'Secret' }]) {
    assert.ok('error' in locateSettings({ ...other, data: { hashKeyFile: 'k' } }), JSON.stringify(other));
  }
  // readConfig reads through the same function: the ConfigMap-with-spec smuggle is an error there too.
  assert.match(messages(readConfig(cm({ spec: 0, data: { live: 'always' } })))[0] ?? '', /ambiguous/);
});

test.run();
