// A run reads its environment once (plugin/settings/run-settings.ts): a Proxy env counts every read of every variable
// during one `stamp` and one `generate`, and each setting is parsed lazily, once, from what was read.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../../plugin/cli/run-cli.ts';
import type { Io } from '../../plugin/process/io.ts';
import { positiveWholeEnv } from '../../plugin/settings/settings.ts';
import { resolveSetting, runSettings } from '../../plugin/settings/run-settings.ts';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec: {template: {spec: {containers: [{name: web, envFrom: [{secretRef: {name: api}}]}]}}}
---
apiVersion: v1
kind: Secret
metadata: {name: api, namespace: shop}
stringData: {token: CANARY-51a7}
`;

/** An env whose every read (and every listing of its names) is counted. */
function countedEnv(vars: Record<string, string>): { env: Record<string, string | undefined>; reads: Map<string, number>; listings: () => number } {
  const reads = new Map<string, number>();
  let listings = 0;
  const env = new Proxy(vars as Record<string, string | undefined>, {
    get(target, name, receiver) {
      if (typeof name === 'string') reads.set(name, (reads.get(name) ?? 0) + 1);
      return Reflect.get(target, name, receiver);
    },
    ownKeys(target) {
      listings++;
      return Reflect.ownKeys(target);
    },
  });
  return { env, reads, listings: () => listings };
}

async function run(argv: string[], env: Io['env'], cwd: string, stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    readStdin: async () => new TextEncoder().encode(stdin),
    writeStdout: async (t) => void (stdout += t),
    writeStderr: (t) => void (stderr += t),
    env,
    cwd,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** Valid operator settings a stamp and a generate both consult, plus a bad one neither run uses. */
const OPERATOR = {
  PATH: process.env.PATH ?? '',
  ROLLSTAMP_MAX_INPUT_BYTES: '1000000',
  ROLLSTAMP_MAX_REFERENCES: '100',
  ROLLSTAMP_MAX_KEY_WORK: '10000',
  ROLLSTAMP_READER: 'fast',
  ROLLSTAMP_HASH_KEY: 'k3y-for-the-test',
  ROLLSTAMP_LIVE_TIMEOUT_SECONDS: 'soon', // no live reads: never parsed, so never an error
};

function assertEachReadOnce(reads: Map<string, number>, listings: number, names: readonly string[]): void {
  assert.ok(listings <= 1, `the environment was listed ${listings} times`);
  for (const [name, n] of reads) assert.ok(n <= 1, `${name} was read ${n} times`);
  for (const name of names) assert.is(reads.get(name), 1, `${name} was not read`);
}

test('one stamp reads each environment variable at most once, and an unused bad setting fails nothing', async () => {
  const { env, reads, listings } = countedEnv({ ...OPERATOR });
  const r = await run(['stamp', '--targets', 'all', '-'], env, process.cwd(), APP);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "hmac-sha256:/);
  assertEachReadOnce(reads, listings(), Object.keys(OPERATOR));
});

test('one generate reads each environment variable at most once', async () => {
  const app = mkdtempSync(join(tmpdir(), 'rollstamp-settings-once-'));
  writeFileSync(join(app, 'app.yaml'), APP);
  writeFileSync(join(app, '.rollstamp.yaml'), 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nmetadata: {name: s}\nspec: {targets: all}\n');
  const vars = { ...OPERATOR, ARGOCD_APP_NAMESPACE: 'shop', ARGOCD_APP_NAME: 'web', ARGOCD_ENV_ROLLSTAMP_ON_MISSING: 'error', ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '40' };
  const { env, reads, listings } = countedEnv(vars);
  const r = await run(['generate'], env, app);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /rollstamp\.dev\/hash: "hmac-sha256:/);
  assertEachReadOnce(reads, listings(), Object.keys(vars));
});

test('a setting is parsed once per run: the same value, or the same error, each time it is asked for', () => {
  const io: Io = { readStdin: async () => new Uint8Array(), writeStdout: async () => {}, writeStderr: () => {}, env: { ROLLSTAMP_MAX_LIVE_READS: 'many', ROLLSTAMP_MAX_REFERENCES: '7' }, cwd: '/' };
  assert.is(runSettings(io), runSettings(io));
  let parses = 0;
  const twice = [0, 1].map(() => resolveSetting(io, 'counted', () => ++parses));
  assert.equal(twice, [1, 1]);
  assert.is(positiveWholeEnv(io, 'ROLLSTAMP_MAX_REFERENCES', 'references'), 7);
  const errors = [0, 1].map(() => {
    try {
      positiveWholeEnv(io, 'ROLLSTAMP_MAX_LIVE_READS', 'reads');
    } catch (err) {
      return err;
    }
    return undefined;
  });
  assert.ok(errors[0] instanceof Error && errors[0] === errors[1], 'the same error both times');
  assert.is((errors[0] as Error).message, 'ROLLSTAMP_MAX_LIVE_READS must be a positive number of reads');
  // Another run (another Io) reads its own environment.
  const other: Io = { ...io, env: { ROLLSTAMP_MAX_REFERENCES: '9' } };
  assert.is(positiveWholeEnv(other, 'ROLLSTAMP_MAX_REFERENCES', 'references'), 9);
});

test('plugin code reads the environment only through the run settings', () => {
  const plugin = join(dirname(fileURLToPath(import.meta.url)), '../../plugin');
  const files = readdirSync(plugin, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== join('settings', 'run-settings.ts'));
  assert.ok(files.length > 20);
  const offenders = files.filter((f) => /\bio\.env\b/.test(readFileSync(join(plugin, f), 'utf8')));
  assert.equal(offenders, []);
});

test.run();
