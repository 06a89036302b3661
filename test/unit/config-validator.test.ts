// The bundle checks functionConfig with a validator generated ahead of time (function/config/
// build/schema-validator.mjs, via build.mjs's plugin); in-source runs compile the same schema with ajv
// (schema-validator.ts). Both must give the same verdicts and the same errors — so the same INVALID_CONFIG
// results — on every config fixture and example and on a set of bad settings; the CLI must print the same
// INVALID_CONFIG lines either way.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import type { ValidateFunction } from 'ajv';
import { locateSettings, readConfig } from '../../function/config/config.ts';
import { AJV_OPTIONS, compileSchema } from '../../function/config/schema-validator.ts';
import { AJV_OPTIONS as STANDALONE_OPTIONS, standaloneSchemaValidator } from '../../build/schema-validator.mjs';
import { ROOT, runBundle, runInProcess } from '../support/run-cli.ts';

const CONFIG_DIR = join(ROOT, 'function/config');

/** The validator exactly as the bundle gets it: config.ts's import of ./schema-validator.ts through the plugin. */
async function generatedValidator(): Promise<{ validate: ValidateFunction; code: string }> {
  const out = await build({
    stdin: { contents: "export { compileSchema } from './schema-validator.ts';", resolveDir: CONFIG_DIR, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    plugins: [standaloneSchemaValidator],
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  const mod = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { compileSchema: () => ValidateFunction };
  return { validate: mod.compileSchema(), code };
}

const spec = (settings: unknown): unknown => ({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', spec: settings });

/** Settings that must fail, one or more ways at once (allErrors reports each). */
const BAD_SETTINGS: unknown[] = [
  { onMising: 'warn' },
  { onMissing: 'loud' },
  { targets: 'some' },
  { annotationKey: 'Not A Key' },
  { annotationKey: '' },
  { defaultNamespace: 'Upper_Case' },
  { selector: '' },
  { selector: 5 },
  { allowEmpty: 'yes' },
  { skipCrds: [] },
  { hashScheme: 'v9' },
  { kagent: null },
  { live: {} },
  { renderer: true },
  { valuesFiles: 1 },
  { onMissing: 'loud', targets: 'x', extra: 1, other: 2, annotationKey: '-' },
  [],
  'targets=all',
  7,
  null,
];

function fixtureConfigs(): { name: string; value: unknown }[] {
  const found: { name: string; value: unknown }[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(e.name)) {
        const text = readFileSync(join(ROOT, path), 'utf8');
        if (!/kind:\s*(RollstampConfig|ConfigMap)/.test(text)) continue;
        parseAllDocuments(text).forEach((d, i) => {
          if (d.errors.length > 0) return;
          const value: unknown = d.toJS();
          const located = locateSettings(value);
          if (!('error' in located) && Object.keys(located.settings).length > 0) found.push({ name: `${path}#${i}`, value: spec(located.settings) });
        });
      }
    }
  };
  walk('fixtures');
  walk('examples');
  return found;
}

test('the generated validator is built with the options the run-time one uses', () => {
  assert.equal(STANDALONE_OPTIONS, { ...AJV_OPTIONS });
});

test('generated and run-time validators agree on every fixture and example config and on bad settings', async () => {
  const { validate: generated, code } = await generatedValidator();
  assert.not.ok(/ajv\/dist\/(core|compile)/.test(code), 'the generated validator does not bring ajv itself');
  const runtime = compileSchema();
  const fixtures = fixtureConfigs();
  assert.ok(fixtures.length >= 20, `found ${fixtures.length} config fixtures`);
  const cases = [
    ...fixtures,
    ...BAD_SETTINGS.map((s, i) => ({ name: `bad #${i}`, value: spec(s) })),
    { name: 'no kind', value: { apiVersion: 'rollstamp.dev/v1alpha1', spec: {} } },
    { name: 'other kind', value: { apiVersion: 'v1', kind: 'RollstampConfig', spec: {} } },
  ];
  let invalid = 0;
  for (const c of cases) {
    const a = runtime(c.value);
    const b = generated(c.value);
    assert.is(b, a, `${c.name}: same verdict`);
    assert.equal(generated.errors ?? null, runtime.errors ?? null, `${c.name}: same errors`);
    if (!a) invalid++;
  }
  assert.ok(invalid >= BAD_SETTINGS.length, `every bad setting is refused (${invalid})`);
});

test('the built bundle prints the same INVALID_CONFIG lines as the in-source CLI', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-validator-'));
  try {
    const manifest = join(dir, 'app.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n');
    for (const [i, settings] of BAD_SETTINGS.entries()) {
      if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) continue;
      const config = join(dir, `config-${i}.json`);
      writeFileSync(config, JSON.stringify(spec(settings)));
      const inSource = await runInProcess(['stamp', '-c', config, manifest]);
      const bundled = runBundle(['stamp', '-c', config, manifest]);
      assert.match(inSource.stderr, /^rollstamp: error: \S+config-\d+\.json: spec\.\w+: /, `config ${i}: refused`);
      assert.is(bundled.code, inSource.code, `config ${i}: exit code`);
      assert.is(bundled.stderr, inSource.stderr, `config ${i}: stderr`);
      assert.is(bundled.stdout, inSource.stdout, `config ${i}: stdout`);
    }
    // readConfig itself, for one: the fields and messages the lines above were built from.
    const r = readConfig(spec({ onMissing: 'loud', extra: 1 }));
    assert.equal('results' in r ? r.results.map((x) => x.message) : [], ['spec.extra: unknown setting', 'spec.onMissing: must be one of warn, error, ignore']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
