// A run reads its environment once (plugin/settings/run-settings.ts): a Proxy env counts every read of every variable
// during one `stamp` and one `generate`, and each operator setting is parsed by its row, lazily, once.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../../plugin/cli/run-cli.ts';
import type { Io } from '../../plugin/process/io.ts';
import { readRunSettings } from '../../plugin/settings/run-settings.ts';

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
    writeStdout: async (t) => void (stdout += typeof t === 'string' ? t : Array.from(t).join('')),
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
  const settings = readRunSettings({ ROLLSTAMP_MAX_LIVE_READS: 'many', ROLLSTAMP_MAX_REFERENCES: '7' });
  assert.is(settings.maxReferences, 7);
  const errors = [0, 1].map(() => {
    try {
      return settings.maxLiveReads;
    } catch (err) {
      return err;
    }
  });
  assert.ok(errors[0] instanceof Error && errors[0] === errors[1], 'the same error both times');
  assert.is((errors[0] as Error).message, 'ROLLSTAMP_MAX_LIVE_READS must be a positive number of reads');
  // Another run reads its own environment.
  assert.is(readRunSettings({ ROLLSTAMP_MAX_REFERENCES: '9' }).maxReferences, 9);
});

test('each operator setting unset or empty is its default; a bad value is one line naming its variable', () => {
  const unset = readRunSettings({});
  const empty = readRunSettings({ ROLLSTAMP_MAX_INPUT_BYTES: '', ROLLSTAMP_READER: '', ROLLSTAMP_HELM_ALLOW_HTTP: '' });
  for (const s of [unset, empty]) {
    assert.is(s.maxInputBytes, 10 * 1024 * 1024);
    assert.is(s.renderTimeoutSeconds, 45);
    assert.is(s.reader, 'fast');
    assert.is(s.helmAllowHttp, false);
    assert.is(s.maxReferences, 1000);
    assert.is(s.liveTimeoutSeconds, 5);
  }
  const set = readRunSettings({ ROLLSTAMP_READER: 'full', ROLLSTAMP_HELM_ALLOW_HTTP: 'true', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '999' });
  assert.is(set.reader, 'full');
  assert.is(set.helmAllowHttp, true);
  assert.is(set.liveDeadlineSeconds, 999);
  const bad = readRunSettings({ ROLLSTAMP_READER: 'quick', ROLLSTAMP_HELM_ALLOW_HTTP: 'yes', ROLLSTAMP_LIVE_DEADLINE_SECONDS: '1000', ROLLSTAMP_RENDER_TIMEOUT_SECONDS: '0' });
  assert.throws(() => bad.reader, /^UsageError: ROLLSTAMP_READER must be fast or full$|ROLLSTAMP_READER must be fast or full/);
  assert.throws(() => bad.helmAllowHttp, /ROLLSTAMP_HELM_ALLOW_HTTP must be true or false/);
  assert.throws(() => bad.liveDeadlineSeconds, /ROLLSTAMP_LIVE_DEADLINE_SECONDS must be a positive number of seconds \(at most 999\)/);
  assert.throws(() => bad.renderTimeoutSeconds, /ROLLSTAMP_RENDER_TIMEOUT_SECONDS must be a positive number of seconds$/);
});

test('plugin code reads the environment only through the run settings', () => {
  const plugin = join(dirname(fileURLToPath(import.meta.url)), '../../plugin');
  const files = readdirSync(plugin, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== join('settings', 'run-settings.ts'));
  assert.ok(files.length > 20);
  const offenders = files.filter((f) => /\bio\.env\b/.test(readFileSync(join(plugin, f), 'utf8')));
  assert.equal(offenders, []);
});

test.run();
