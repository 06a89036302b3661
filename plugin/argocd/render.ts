// Argo CD CMP render stage: turns the app directory into one manifest stream — kustomize (a kustomization
// file), helm (Chart.yaml), or every manifest file below it — as Argo CD's own tools would.
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Config } from '../../function/config.ts';
import { decodeUtf8 } from '../../function/text.ts';
import { InputError, UsageError } from '../errors.ts';
import { runCommand } from '../exec.ts';
import type { Io } from '../io.ts';
import { readInputs, type InputFile } from '../read-inputs.ts';
import { renderTimeoutSeconds } from '../run-deadline.ts';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export type Renderer = 'kustomize' | 'helm' | 'directory';

/** The renderer for the app directory: the setting, else kustomize, helm or directory by the files present. */
export function detectRenderer(dir: string, config: Config): Renderer {
  if (config.renderer) return config.renderer;
  if (KUSTOMIZATION_FILES.some((f) => existsSync(join(dir, f)))) return 'kustomize';
  if (existsSync(join(dir, 'Chart.yaml'))) return 'helm';
  return 'directory';
}

/**
 * Renders the app directory (`io.cwd`) and returns the stream as input files.
 * - kustomize: `kustomize build .` when `kustomize` is on PATH, else `kubectl kustomize .`.
 * - helm: `helm template <app> . --namespace <ns>` with Argo CD's KUBE_VERSION / KUBE_API_VERSIONS and the
 *   values files, which must stay inside the repository.
 */
export async function renderApp(renderer: Renderer, config: Config, io: Io, maxBytes: number): Promise<InputFile[]> {
  if (renderer === 'directory') return readInputs(['.'], io, maxBytes, repoRoot(io));
  const argv = renderer === 'kustomize' ? kustomizeArgv(io) : helmArgv(config, io);
  const timeoutMs = 1000 * renderTimeoutSeconds(io);
  const what = `rendering ${renderer} in ${io.env.ARGOCD_APP_SOURCE_PATH || '.'}`;
  let bytes: Uint8Array;
  try {
    bytes = await runCommand(argv, what, { cwd: io.cwd, env: rendererEnv(io.env), timeoutMs, maxOutputBytes: maxBytes });
  } catch (err) {
    // The renderer's own messages may quote the repository's files (Secrets included): shown only when the
    // operator asks for them.
    if (io.env.ROLLSTAMP_RENDERER_STDERR === 'show' && err instanceof Error && 'stderr' in err) {
      io.writeStderr(String((err as { stderr: string }).stderr));
    }
    throw err;
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new InputError(`${what}: output is not valid UTF-8 (byte ${decoded.offset})`);
  return [{ path: `<${renderer}>`, text: decoded.text }];
}

/** The renderer's environment: ours without rollstamp's own settings (the hash key is not the renderer's business). */
function rendererEnv(env: Io['env']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('ROLLSTAMP_')));
}

function kustomizeArgv(io: Io): string[] {
  return onPath('kustomize', io) ? ['kustomize', 'build', '.'] : ['kubectl', 'kustomize', '.'];
}

function helmArgv(config: Config, io: Io): string[] {
  const name = releaseName(io.env.ARGOCD_APP_NAME ?? '');
  const argv = ['helm', 'template', name, '.', '--namespace', io.env.ARGOCD_APP_NAMESPACE || config.defaultNamespace];
  const kubeVersion = io.env.KUBE_VERSION;
  if (kubeVersion) argv.push('--kube-version', kubeVersion);
  for (const v of (io.env.KUBE_API_VERSIONS ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) argv.push('--api-versions', v);
  for (const file of config.valuesFiles ?? []) argv.push('--values', valuesFile(file, io));
  return argv;
}

/** A values file path, refused unless it is a regular file inside the repository. */
function valuesFile(file: string, io: Io): string {
  const root = repoRoot(io);
  const full = resolve(io.cwd, file);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    throw new UsageError(`values file ${file}: not found`);
  }
  const inside = (p: string): boolean => p === root || p.startsWith(root + sep);
  if (isAbsolute(file) || !inside(full) || !inside(real)) throw new UsageError(`values file ${file}: outside the repository`);
  if (!statSync(real).isFile()) throw new UsageError(`values file ${file}: not a regular file`);
  return relative(io.cwd, real) || '.';
}

/** The repository root: the working directory minus ARGOCD_APP_SOURCE_PATH (the app's path in the repo). */
function repoRoot(io: Io): string {
  const cwd = realpathSync(io.cwd);
  const path = (io.env.ARGOCD_APP_SOURCE_PATH ?? '').replace(/^\.?\/+|\/+$/g, '');
  if (path === '' || path === '.') return cwd;
  const depth = path.split('/').filter((p) => p !== '' && p !== '.').length;
  return resolve(cwd, ...Array<string>(depth).fill('..'));
}

/** Argo CD names apps outside its namespace `<namespace>_<name>`; a Helm release name cannot hold `_`. */
function releaseName(appName: string): string {
  const name = appName.slice(appName.lastIndexOf('_') + 1);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 53) {
    throw new UsageError(`ARGOCD_APP_NAME ${JSON.stringify(appName)} is not a valid Helm release name`);
  }
  return name;
}

function onPath(command: string, io: Io): boolean {
  return (io.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
