// `rollstamp generate` run as argocd-cmp-server runs it (a fresh copy of the repository under
// <tmp>/_cmp_server/<uuid>, the app path as working directory, stdin closed, Argo CD's request variables),
// for the end-to-end tests of the trust boundary and Helm rendering. Not a test file.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, normalize } from 'node:path';
import * as assert from 'uvu/assert';
import { assertSameWithFullReader, BUNDLE, fullReaderEnv, tempDir, type Run } from './helpers.ts';

export type Files = Record<string, string>;

export interface CmpApp {
  /** spec.source.path exactly as the Application writes it (ARGOCD_APP_SOURCE_PATH). */
  path: string;
  /** ARGOCD_APP_SOURCE_PATH when it should differ from `path` (what a broken or hostile request could send). */
  sourcePathEnv?: string;
  /** Default `shop`. */
  namespace?: string;
  /** spec.source.plugin.env, without the ARGOCD_ENV_ prefix. */
  env?: Record<string, string>;
  params?: { name: string; string?: string; array?: string[] }[];
  /** The sidecar container's own environment (operator settings). */
  sidecarEnv?: Record<string, string>;
  /** Directories put first on PATH (e.g. helm's). */
  binDirs?: string[];
  /** Runs after the checkout is unpacked: (the sidecar's work dir, the checkout). */
  prepare?: (work: string, checkout: string) => void;
}

/** A repository: files written into a new directory. */
export function repository(files: Files): string {
  const dir = join(tempDir('cmp-repo'), 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/**
 * One generate request. The working directory is `filepath.Clean(filepath.Join(workDir, path))` as in
 * argocd-cmp-server (cmpserver/plugin/plugin.go), while ARGOCD_APP_SOURCE_PATH carries the path as written.
 */
export function generateIn(repo: string, app: CmpApp): Run {
  const work = tempDir('cmp-work');
  const checkout = join(work, '_cmp_server', randomUUID());
  cpSync(repo, checkout, { recursive: true, verbatimSymlinks: true });
  app.prepare?.(work, checkout);
  const cwd = normalize(join(checkout, app.path.replace(/^\/+/, '')));
  assert.ok(cwd.startsWith(checkout), `${app.path} stays in the checkout (argocd-cmp-server refuses it otherwise)`);
  const env: Record<string, string> = {
    PATH: [...(app.binDirs ?? []), dirname(process.execPath), process.env.PATH ?? ''].filter((p) => p !== '').join(delimiter),
    HOME: work,
    ...app.sidecarEnv,
    ARGOCD_APP_NAME: 'shop',
    ARGOCD_APP_NAMESPACE: app.namespace ?? 'shop',
    ARGOCD_APP_SOURCE_PATH: app.sourcePathEnv ?? app.path,
    ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/shop.git',
    KUBE_VERSION: '1.32.4',
    KUBE_API_VERSIONS: 'v1,apps/v1,apiextensions.k8s.io/v1',
  };
  for (const [name, value] of Object.entries(app.env ?? {})) env[`ARGOCD_ENV_${name}`] = value;
  if (app.params) env.ARGOCD_APP_PARAMETERS = JSON.stringify(app.params);
  const once = (e: NodeJS.ProcessEnv): Run => {
    const r = spawnSync(process.execPath, [BUNDLE, 'generate'], { cwd, env: e, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 60_000 });
    return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: `${r.error ? `spawn failed: ${r.error.message}\n` : ''}${r.stderr ?? ''}` };
  };
  const r = once(env);
  // The same request with ROLLSTAMP_READER=full must print the same.
  assertSameWithFullReader(r, once(fullReaderEnv(env)), `generate in ${app.path}`);
  rmSync(checkout, { recursive: true, force: true });
  return r;
}

/** Argo CD's contract for a failure: the exit code, nothing on stdout, one stderr line, no canary anywhere. */
export function assertFailsClosed(r: Run, expect: { code: number; message: RegExp; canaries?: string[] }): void {
  assert.is(r.code, expect.code, `exit code\n--- stderr:\n${r.stderr}`);
  assert.is(r.stdout, '', 'stdout stays empty');
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `stderr is one line:\n${r.stderr}`);
  assert.match(r.stderr, expect.message);
  for (const c of expect.canaries ?? []) assert.not.ok(r.stderr.includes(c) || r.stdout.includes(c), `${c} leaked`);
}
