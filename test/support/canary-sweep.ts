// The canary sweep's rule and its ways of running rollstamp, shared by test/property/canary.test.ts and the fuzz
// suites (and meant for the live-cluster canaries: see `sweepGenerate`). Not a test file (no `.test.ts`).
//
// The rule (SECURITY.md "It never prints a Secret value"): no channel — stdout, stderr, the ResourceList's
// results, anything written to the real process streams meanwhile — holds a canary marker, its base64 (padded,
// unpadded, URL-safe) or its hex, except where rollstamp prints back what it was given: there a form may occur at
// most as often as in that text (the input for `stamp` and `fn`, the renderer's output for `generate`).
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { generateEnv, runGenerate, type ArgoParam } from './argocd-request.ts';
import { runInProcess, type CliRun } from './run-cli.ts';
import { tempDir } from './hostile.ts';

export type { ArgoParam };

/** Every form of a marker that counts as a leak. */
export function leakForms(marker: string): string[] {
  const b = Buffer.from(marker, 'utf8');
  const b64 = b.toString('base64');
  const hex = b.toString('hex');
  const bare = marker.startsWith('CANARY-') ? [marker.slice('CANARY-'.length)] : [];
  return [...new Set([marker, ...bare, b64, b64.replace(/=+$/, ''), b.toString('base64url'), hex, hex.toUpperCase()])];
}

export function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** What a run printed. `stray`: whatever reached the real process streams meanwhile (in-process runs). */
export interface Channels {
  stdout: string;
  stderr: string;
  stray?: string;
}

/**
 * Asserts the rule for one run.
 * - `echoed`: the text the command may print back (undefined: it may print back nothing, like `explain`).
 *   A canary that lives outside it (a live-cluster Secret) may therefore appear nowhere.
 */
export function assertNoLeak(run: Channels, canaries: readonly string[], opts: { where: string; echoed?: string }): void {
  for (const marker of canaries) {
    for (const f of leakForms(marker)) {
      const allowed = opts.echoed === undefined ? 0 : count(opts.echoed, f);
      assert.ok(count(run.stdout, f) <= allowed, `${opts.where}: stdout holds ${JSON.stringify(f)} (a form of ${marker}) more often than ${opts.echoed === undefined ? 'never' : 'the text it echoes'}`);
      assert.is(count(run.stderr, f), 0, `${opts.where}: stderr holds ${JSON.stringify(f)} (a form of ${marker})`);
      assert.is(count(run.stray ?? '', f), 0, `${opts.where}: the process streams got ${JSON.stringify(f)} (a form of ${marker})`);
    }
  }
}

/** Runs `fn` and records whatever reaches the real process streams meanwhile (console, stray writes). */
export async function watched<T>(fn: () => Promise<T>): Promise<{ value: T; stray: string }> {
  let stray = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown): boolean => {
    stray += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    return { value: await fn(), stray };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

// ---- generate, as Argo CD's argocd-cmp-server runs it -------------------------------------------------------

/** One Application and the sidecar it runs in. */
export interface ArgoApp {
  /** spec.source.path, relative to the repository root (default `apps/app`). */
  path?: string;
  /** ARGOCD_APP_NAME (default `app`). */
  name?: string;
  /** The destination namespace, ARGOCD_APP_NAMESPACE (default `default`). */
  namespace?: string;
  /** spec.source.plugin.env, without the ARGOCD_ENV_ prefix Argo CD adds. */
  env?: Record<string, string>;
  /** spec.source.plugin.parameters. */
  params?: ArgoParam[];
  /** The sidecar container's own environment (operator settings: ROLLSTAMP_OUTPUT, a hash key, live reads …). */
  sidecarEnv?: Record<string, string>;
}

const appPath = (app: ArgoApp): string => app.path ?? 'apps/app';

/** The environment of one generate request (test/support/argocd-request.ts), with this sweep's defaults. */
export function argoEnv(app: ArgoApp, home: string): Record<string, string> {
  return generateEnv({ ...app, path: appPath(app), name: app.name ?? 'app', namespace: app.namespace ?? 'default' }, home);
}

/** A checkout as the sidecar unpacks one (`<tmp>/_cmp_server/<uuid>/`), with `files` under the app path. */
export function checkout(files: Record<string, string>, app: ArgoApp = {}): { work: string; appDir: string } {
  const work = tempDir('argo');
  const appDir = join(work, '_cmp_server', randomUUID(), appPath(app));
  mkdirSync(appDir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(appDir, path)), { recursive: true });
    writeFileSync(join(appDir, path), text);
  }
  return { work, appDir };
}

/** `rollstamp generate` in-process, in the app directory, with the request's environment (stray writes recorded). */
export async function generateInProcess(appDir: string, work: string, app: ArgoApp = {}): Promise<CliRun & { stray: string; internal?: unknown }> {
  const { value, stray } = await watched(async (): Promise<CliRun & { internal?: unknown }> => {
    try {
      return await runInProcess(['generate'], { cwd: appDir, env: argoEnv(app, work) });
    } catch (err) {
      return { code: 1, stdout: '', stderr: `rollstamp: error: internal error (${(err as Error)?.name ?? 'unknown'})\n`, internal: err };
    }
  });
  return { ...value, stray };
}

/** `node dist/rollstamp.js generate` as the plugin's generate command runs: stdin closed, in the app directory. */
export function generateProcess(appDir: string, work: string, app: ArgoApp = {}): CliRun {
  return runGenerate(appDir, argoEnv(app, work));
}

export interface SweepExpectation {
  /** The run must fail (then: exit ≠ 0, nothing on stdout, one `rollstamp: ` line on stderr). */
  mustFail: boolean;
  /** What generate may print back: the app's manifests, or the renderer's output (kustomize, helm), from the app directory. */
  echoed: string | ((appDir: string) => string);
  /** Also run the built bundle as a child process, as the sidecar does (slower; catches output of children). */
  process?: boolean;
}

/**
 * The canary sweep for one generate request: runs it (in-process, and as a process when asked) once with YAML
 * and once with JSON output (ROLLSTAMP_OUTPUT=json on the sidecar), checks the failure contract and that no
 * canary leaks. Returns the runs for further checks. For live-cluster canaries: put the Secrets in the fake API
 * server, the live settings in `app.sidecarEnv`, and their markers in `canaries` (they are in no echoed text,
 * so any form of them anywhere fails).
 */
export async function sweepGenerate(
  files: Record<string, string>,
  canaries: readonly string[],
  app: ArgoApp,
  expect: SweepExpectation,
  where: string,
): Promise<Array<{ how: string; run: CliRun & { stray?: string } }>> {
  const { work, appDir } = checkout(files, app);
  const runs: Array<{ how: string; run: CliRun & { stray?: string; internal?: unknown } }> = [];
  for (const output of ['yaml', 'json'] as const) {
    const a: ArgoApp = { ...app, sidecarEnv: { ...app.sidecarEnv, ...(output === 'json' ? { ROLLSTAMP_OUTPUT: 'json' } : {}) } };
    runs.push({ how: `generate in-process, ${output}`, run: await generateInProcess(appDir, work, a) });
    if (expect.process) runs.push({ how: `generate process, ${output}`, run: generateProcess(appDir, work, a) });
  }
  const echoed = typeof expect.echoed === 'string' ? expect.echoed : expect.echoed(appDir);
  const asJson = jsonEcho(echoed);
  for (const { how, run } of runs) {
    const at = `${where}: ${how}`;
    assert.ok(run.internal === undefined, `${at}: internal error ${String((run.internal as Error)?.stack ?? run.internal)}`);
    if (expect.mustFail) assert.is.not(run.code, 0, `${at}: expected a failure, got exit 0`);
    if (run.code !== 0) {
      assert.is(run.stdout, '', `${at}: printed on stdout after an error`);
      assert.match(run.stderr, /^rollstamp: [^\n]*\n$/, `${at}: a failure is one "rollstamp: " line on stderr: ${JSON.stringify(run.stderr.slice(0, 300))}`);
    }
    assertNoLeak(run, canaries, { where: at, echoed: how.endsWith('json') ? asJson : echoed });
  }
  return runs;
}

/** What JSON output may print back of a YAML text: each document as JSON (aliases expanded, as JSON must); the text itself when it does not parse. */
function jsonEcho(text: string): string {
  try {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return text;
    return docs.map((d) => JSON.stringify(d.toJS())).join('\n');
  } catch {
    return text;
  }
}
