// The settings table (plugin/settings/settings-table.ts) is the one declaration of every setting (#25): it agrees with
// the functionConfig JSON Schema field for field, and the flags, their help, the Argo CD allowlist, the
// operator-only refusal and generate's help are read from it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_SETTINGS, OPERATOR_ONLY } from '../../plugin/argocd/app-settings.ts';
import { GENERATE_HELP } from '../../plugin/commands/generate.ts';
import { STAMP_HELP } from '../../plugin/commands/stamp.ts';
import { CONFIG_FLAGS } from '../../plugin/cli/config-flags.ts';
import { REFRESH_HELP } from '../../plugin/commands/refresh/refresh.ts';
import { REFRESH_FLAGS } from '../../plugin/commands/refresh/options.ts';
import { argocdEnvOf, argocdParameterOf, SETTING_TABLE, SETTINGS } from '../../plugin/settings/settings-table.ts';
import type { SettingsTable } from '../../plugin/settings/setting-row.ts';
import { DEFAULT_CONFIG, DEFAULT_MAX_KEY_WORK, DEFAULT_MAX_REFERENCES } from '../../function/index.ts';
import { runInProcess } from '../support/run-cli.ts';

const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/rollstamp-config.schema.json', import.meta.url), 'utf8')) as {
  definitions: { spec: { properties: Record<string, { type?: string; enum?: unknown[]; default?: unknown }> } };
};
const FIELDS = SCHEMA.definitions.spec.properties;

test('every functionConfig field of the schema is a row of the table, and every field row is in the schema', () => {
  assert.equal(SETTINGS.filter((s) => s.field).map((s) => s.name).sort(), Object.keys(FIELDS).sort());
});

test('each field row has the schema\'s type, allowed values and default', () => {
  for (const s of SETTINGS.filter((row) => row.field)) {
    const field = FIELDS[s.name]!;
    if (s.type === 'boolean') {
      assert.equal(field.enum, ['true', 'false', true, false], `${s.name}: a boolean, given as text or not`);
    } else {
      assert.equal(field.enum, s.values, `${s.name}: allowed values`);
      if (!s.values) assert.is(field.type, s.type, `${s.name}: type`);
    }
    assert.is(field.default === undefined ? undefined : String(field.default), s.type === 'boolean' || s.default === undefined ? undefined : String(s.default), `${s.name}: default`);
  }
});

test('a row is typed by the setting it fills: a missing row, a default of the wrong type or an operator row without its parser does not compile (#36)', () => {
  const { targets: _targets, ...withoutTargets } = SETTING_TABLE;
  // @ts-expect-error a setting of the config without its row
  const missing: SettingsTable = withoutTargets;
  // @ts-expect-error a number setting with a text default
  const wrongDefault: SettingsTable = { ...SETTING_TABLE, maxInputBytes: { ...SETTING_TABLE.maxInputBytes, default: '10485760' } };
  // @ts-expect-error an operator setting without its parser
  const noParser: SettingsTable = { ...SETTING_TABLE, maxKinds: { field: false, env: 'ROLLSTAMP_MAX_KINDS', type: 'number', default: 100 } };
  assert.ok(missing && wrongDefault && noParser);
});

test('a core setting\'s default is the core\'s own value, not a copy (#36)', () => {
  assert.is(SETTING_TABLE.annotationKey.default, DEFAULT_CONFIG.annotationKey);
  assert.is(SETTING_TABLE.targets.default, DEFAULT_CONFIG.targets);
  assert.is(SETTING_TABLE.maxReferences.default, DEFAULT_MAX_REFERENCES);
  assert.is(SETTING_TABLE.maxKeyWork.default, DEFAULT_MAX_KEY_WORK);
});

test('names are unique in every spelling: setting, flag, variable, Argo CD env and parameter', () => {
  const spellings = [
    SETTINGS.flatMap((s) => [s.name, ...(s.aliases ?? [])]),
    SETTINGS.flatMap((s) => (s.flag ? [s.flag.name] : [])),
    SETTINGS.flatMap((s) => (s.env ? [s.env] : [])),
    SETTINGS.map((s) => argocdEnvOf(s.name)),
    SETTINGS.map((s) => argocdParameterOf(s.name)),
  ];
  for (const names of spellings) assert.is(new Set(names).size, names.length, names.join(' '));
});

test('the flags of stamp, explain and diff and their help come from the table', () => {
  const rows = SETTINGS.filter((s) => s.flag && s.command === undefined);
  assert.equal(CONFIG_FLAGS.slice(1).map((f) => f.name), rows.map((s) => s.flag!.name));
  for (const s of rows) {
    const flag = CONFIG_FLAGS.find((f) => f.name === s.flag!.name)!;
    assert.equal(flag.values, s.values, `--${flag.name}: allowed values`);
    assert.ok(STAMP_HELP.includes(s.flag!.help.split('\n')[0]!), `stamp --help shows --${flag.name}`);
  }
});

test('refresh\'s flags and help come from the table: its own rows, then kubeconfig, context and the hash key file (#34)', () => {
  const rows = [...SETTINGS.filter((s) => s.command === 'refresh'), ...['kubeconfig', 'kubeContext', 'hashKeyFile'].map((n) => SETTINGS.find((s) => s.name === n)!)];
  assert.equal(REFRESH_FLAGS.map((f) => f.name), rows.map((s) => s.flag!.name));
  for (const s of rows) {
    const flag = REFRESH_FLAGS.find((f) => f.name === s.flag!.name)!;
    assert.is(flag.type, s.type === 'boolean' ? 'boolean' : 'string', `--${flag.name}: type`);
    assert.ok(REFRESH_HELP.includes(s.flag!.help.split('\n')[0]!), `refresh --help shows --${flag.name}`);
    if (s.default !== undefined && s.command === 'refresh') assert.ok(s.flag!.help.includes('default'), `--${flag.name} says its default`);
  }
  assert.not.ok(CONFIG_FLAGS.some((f) => rows.some((s) => s.command === 'refresh' && s.flag!.name === f.name)), 'no refresh flag reaches stamp, explain or diff');
});

test('the Argo CD allowlist and the operator-only refusal come from the table; generate --help names every app parameter and operator variable', () => {
  assert.equal(APP_SETTINGS, SETTINGS.filter((s) => s.argocd === 'app').map((s) => s.name));
  assert.equal(OPERATOR_ONLY, SETTINGS.filter((s) => s.argocd === 'operator').flatMap((s) => [s.name, ...(s.aliases ?? [])]));
  for (const s of SETTINGS.filter((row) => row.argocd === 'app')) assert.ok(GENERATE_HELP.replace(/\n/g, ' ').includes(argocdParameterOf(s.name)), `generate --help names ${argocdParameterOf(s.name)}`);
  for (const s of SETTINGS.filter((row) => row.argocd === 'operator' && row.env)) assert.ok(GENERATE_HELP.includes(s.env!), `generate --help names ${s.env}`);
});

test('generate --help shows each operator variable with the default and the other values the table gives it', () => {
  const help = GENERATE_HELP.replace(/\n/g, ' ');
  const paragraph = help.slice(help.indexOf('Operator settings'), help.indexOf('Exit status'));
  for (const s of SETTINGS.filter((row) => row.argocd === 'operator' && row.env)) {
    if (s.values) {
      const others = s.values.filter((v) => v !== s.default).join('|');
      assert.ok(paragraph.includes(`${s.env}=${others} `), `${s.env}=${others}`);
    } else if (s.type === 'number' && s.default !== undefined) {
      const shown = s.name === 'maxInputBytes' ? `${Number(s.default) / 1024 / 1024} MiB` : s.default;
      const after = paragraph.slice(paragraph.indexOf(`${s.env} (`) + s.env!.length);
      assert.match(after.slice(0, after.indexOf(')')), new RegExp(`[ (]${shown}[),:]|[ (]${shown}$`), `${s.env} shows its default ${shown}`);
    }
  }
});

test('an Application sets each app setting by its plugin env and its parameter, as the table spells them', async () => {
  // An invalid value is refused naming the spelling it came by and the setting's own values: proof the name
  // was read as that setting.
  const cwd = mkdtempSync(join(tmpdir(), 'rollstamp-settings-table-'));
  try {
    for (const s of SETTINGS.filter((row) => row.argocd === 'app' && row.values)) {
      const expected = `must be one of ${s.values!.join(', ')}`;
      const env = await runInProcess(['generate'], { cwd, env: { [argocdEnvOf(s.name)]: 'not-a-value' } });
      assert.is(env.code, 2, `${argocdEnvOf(s.name)}: ${env.stderr}`);
      assert.ok(env.stderr.includes(`${argocdEnvOf(s.name)}: ${expected}`), env.stderr);
      const parameters = JSON.stringify([{ name: argocdParameterOf(s.name), string: 'not-a-value' }]);
      const param = await runInProcess(['generate'], { cwd, env: { ARGOCD_APP_PARAMETERS: parameters } });
      assert.is(param.code, 2, `parameter ${argocdParameterOf(s.name)}: ${param.stderr}`);
      assert.ok(param.stderr.includes(`parameter ${argocdParameterOf(s.name)}: ${expected}`), param.stderr);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('an Application that names an operator-only setting by its plugin env or parameter is refused naming the table row', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'rollstamp-settings-table-'));
  try {
    for (const s of SETTINGS.filter((row) => row.argocd === 'operator')) {
      const refused = `${s.name} cannot be set by the repository: it is operator-only`;
      const env = await runInProcess(['generate'], { cwd, env: { [argocdEnvOf(s.name)]: 'x' } });
      assert.is(env.code, 2, `${argocdEnvOf(s.name)}: ${env.stderr}`);
      assert.ok(env.stderr.includes(`${argocdEnvOf(s.name)}: ${refused}`), env.stderr);
      const parameters = JSON.stringify([{ name: argocdParameterOf(s.name), string: 'x' }]);
      const param = await runInProcess(['generate'], { cwd, env: { ARGOCD_APP_PARAMETERS: parameters } });
      assert.is(param.code, 2, `parameter ${argocdParameterOf(s.name)}: ${param.stderr}`);
      assert.ok(param.stderr.includes(`parameter ${argocdParameterOf(s.name)}: ${refused}`), param.stderr);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test.run();
