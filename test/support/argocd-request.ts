// Argo CD's generate request, built once for every test that plays argocd-cmp-server: the command from
// argocd/plugin.yaml, the environment the repo-server sends (reposerver newEnv + getPluginEnvs: the app, the
// revision, the source, the destination cluster's versions, plugin env and parameters), and a run in a fresh
// checkout under <tmp>/_cmp_server/<uuid>. Not a test file.
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, normalize } from 'node:path';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { assertSameReaders, FULL_READER } from './both-readers.ts';
import { PROCESS_TWINS } from './sizes.ts';
import { BUNDLE, ROOT, runProcess, type ProcessRun } from './run-cli.ts';

export const PLUGIN_FILE = join(ROOT, 'argocd', 'plugin.yaml');
/** The plugin's command: the image's launcher (image/rollstamp.sh), which runs the CLI; replaced by the bundle here. */
export const IMAGE_LAUNCHER = 'rollstamp';
/** ARGOCD_APP_REVISION: the resolved commit. */
export const REVISION = '4f2d6c1e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d';
/** KUBE_API_VERSIONS of the default destination: group/versions and group/version/Kinds, as Argo CD lists them. */
export const KUBE_API_VERSIONS = 'v1,v1/Secret,v1/ConfigMap,apps/v1,apps/v1/Deployment,batch/v1,batch/v1/CronJob,apiextensions.k8s.io/v1';

/** One entry of spec.source.plugin.parameters. */
export interface ArgoParam {
  name: string;
  string?: string;
  array?: string[];
  map?: Record<string, string>;
}

/** One Application, the sidecar it runs in, and what the request carries. */
export interface ArgoRequest {
  /** spec.source.path as the Application writes it: the working directory, relative to the repository root. */
  path: string;
  /** ARGOCD_APP_SOURCE_PATH when it should differ from `path` (what a broken or hostile request could send). */
  sourcePathEnv?: string;
  /** ARGOCD_APP_NAME. Default `shop`. */
  name?: string;
  /** The destination namespace, ARGOCD_APP_NAMESPACE. Default `shop`. */
  namespace?: string;
  /** spec.source.plugin.env, without the ARGOCD_ENV_ prefix Argo CD adds. */
  env?: Record<string, string>;
  /** spec.source.plugin.parameters (only those the Application sets: Argo CD sends no announced default). */
  params?: ArgoParam[];
  /** KUBE_VERSION and KUBE_API_VERSIONS of the destination cluster. Default 1.32.4 and `KUBE_API_VERSIONS`. */
  kube?: { version: string; apiVersions: string };
  /** The sidecar container's own environment (operator settings). */
  sidecarEnv?: Record<string, string>;
  /** Directories put first on PATH (e.g. helm's). */
  binDirs?: string[];
}

/** Argo CD's PARAM_ name: upper case, every character outside [A-Z0-9_] as `_`. */
const paramName = (s: string): string => s.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

/** What the repo-server sends with each request: every variable Argo CD sets, then plugin env and parameters. */
export function requestEnv(req: ArgoRequest): Record<string, string> {
  const env: Record<string, string> = {
    ARGOCD_APP_NAME: req.name ?? 'shop',
    ARGOCD_APP_NAMESPACE: req.namespace ?? 'shop',
    ARGOCD_APP_PROJECT_NAME: 'default',
    ARGOCD_APP_REVISION: REVISION,
    ARGOCD_APP_REVISION_SHORT: REVISION.slice(0, 7),
    ARGOCD_APP_REVISION_SHORT_8: REVISION.slice(0, 8),
    ARGOCD_APP_SOURCE_PATH: req.sourcePathEnv ?? req.path,
    ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/shop.git',
    ARGOCD_APP_SOURCE_TARGET_REVISION: 'main',
    KUBE_VERSION: req.kube?.version ?? '1.32.4',
    KUBE_API_VERSIONS: req.kube?.apiVersions ?? KUBE_API_VERSIONS,
  };
  for (const [name, value] of Object.entries(req.env ?? {})) env[`ARGOCD_ENV_${name}`] = value;
  if (req.params && req.params.length > 0) {
    env.ARGOCD_APP_PARAMETERS = JSON.stringify(req.params);
    for (const p of req.params) {
      const base = `PARAM_${paramName(p.name)}`;
      if (p.string !== undefined) env[base] = p.string;
      p.array?.forEach((v, i) => (env[`${base}_${i}`] = v));
      for (const [k, v] of Object.entries(p.map ?? {})) env[`${base}_${paramName(k)}`] = v;
    }
  }
  return env;
}

/** The whole environment of the generate command: PATH and HOME, the sidecar's own settings, then the request (which wins). */
export function generateEnv(req: ArgoRequest, home: string): Record<string, string> {
  const path = [...(req.binDirs ?? []), dirname(process.execPath), process.env.PATH ?? ''].filter((p) => p !== '').join(delimiter);
  return { PATH: path, HOME: home, ...req.sidecarEnv, ...requestEnv(req) };
}

/**
 * The generate command from argocd/plugin.yaml: command, then args, with the image's launcher run as this node and
 * dist/rollstamp.js (the launcher runs the same CLI, from the image's startup snapshot when it has one:
 * test/e2e/snapshot.test.ts holds the two outputs byte-identical).
 */
export function generateArgv(): string[] {
  const generate = (parse(readFileSync(PLUGIN_FILE, 'utf8')) as { spec: { generate: { command: string[]; args?: string[] } } }).spec.generate;
  const argv = [...generate.command, ...(generate.args ?? [])];
  assert.is(argv[0], IMAGE_LAUNCHER, `argocd/plugin.yaml generate must run the image's launcher, ${IMAGE_LAUNCHER}: ${argv.join(' ')}`);
  return [process.execPath, BUNDLE, ...argv.slice(1)];
}

/** The plugin's generate command in `cwd`, stdin closed, with exactly `env`. */
export function runGenerate(cwd: string, env: Record<string, string>, timeoutMs = 60_000): ProcessRun {
  const [cmd, ...args] = generateArgv();
  return runProcess(cmd!, args, { cwd, env, stdin: 'closed', timeoutMs });
}

/**
 * One generate request as argocd-cmp-server makes it: `repo` copied (links verbatim) into
 * `<tmp>/_cmp_server/<uuid>/`, `prepare` run on (the sidecar's temp dir, the checkout), the command run in
 * `filepath.Clean(filepath.Join(checkout, path))` (cmpserver/plugin/plugin.go), the copy removed afterwards.
 * - The same request with ROLLSTAMP_READER=full must print the same (under PROCESS_TWINS, sizes.ts); the first
 *   run is returned.
 */
export function generateInCheckout(repo: string, req: ArgoRequest & { prepare?: (work: string, checkout: string) => void }): ProcessRun {
  const work = mkdtempSync(join(tmpdir(), 'rollstamp-cmp-'));
  try {
    const checkout = join(work, '_cmp_server', randomUUID());
    cpSync(repo, checkout, { recursive: true, verbatimSymlinks: true });
    req.prepare?.(work, checkout);
    const cwd = normalize(join(checkout, req.path.replace(/^\/+/, '')));
    assert.ok(cwd.startsWith(checkout), `${req.path} stays in the checkout (argocd-cmp-server refuses it otherwise)`);
    const env = generateEnv(req, work);
    const r = runGenerate(cwd, env);
    if (PROCESS_TWINS) assertSameReaders(r, runGenerate(cwd, { ...env, ...FULL_READER }), `generate in ${req.path}`);
    return r;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
