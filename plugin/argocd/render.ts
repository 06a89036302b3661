// Argo CD CMP render stage: turns the app directory into one manifest stream — kustomize (a kustomization
// file), helm (Chart.yaml), or every manifest file below it — as Argo CD's own tools would.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { InputError } from '../process/errors.ts';
import { runCommand } from '../process/exec.ts';
import type { Io } from '../process/io.ts';
import { readInputs, type InputFile } from '../inputs/read-inputs.ts';
import { helmHomes } from './helm-homes.ts';
import { helmArgv, renderHelm, type RunRenderer } from './render-helm.ts';
import { redactPaths } from './redact-paths.ts';
import { kustomizeBuildOptions } from './kustomize-options.ts';
import { checkRenderTree } from './render-tree.ts';
import { envOf } from '../settings/settings-table.ts';
import { cleanSourcePath, repoRoot, rootsToShow } from './repo-root.ts';
import { decodeUtf8 } from '../../function/index.ts';
import type { PluginConfig } from '../settings/plugin-config.ts';
import type { RunIo, TimedRunIo } from '../settings/run-settings.ts';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export type Renderer = NonNullable<PluginConfig['renderer']>;

/** The renderer for the app directory: the setting, else kustomize, helm or directory by the files present. */
export function detectRenderer(dir: string, config: PluginConfig): Renderer {
  if (config.renderer) return config.renderer;
  if (KUSTOMIZATION_FILES.some((f) => existsSync(join(dir, f)))) return 'kustomize';
  if (existsSync(join(dir, 'Chart.yaml'))) return 'helm';
  return 'directory';
}

/**
 * Renders the app directory (`io.cwd`) and returns the stream as input files.
 * - kustomize: `kustomize build .` when `kustomize` is on PATH, else `kubectl kustomize .`, with the
 *   operator's ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS (argocd-cm `kustomize.buildOptions`).
 * - helm: see `renderHelm`.
 * - Before either runs, `checkRenderTree` (with ROLLSTAMP_HELM_ALLOW_HTTP); every command of the render gets
 *   what is left of the run's deadline (`io.deadline`, ROLLSTAMP_RENDER_TIMEOUT_SECONDS), and their output counts against
 *   `maxBytes`.
 * - helm, and kustomize's helm, run with the sidecar's own empty helm directories (`helmHomes`), removed after.
 */
export async function renderApp(renderer: Renderer, config: PluginConfig, io: TimedRunIo, maxBytes: number): Promise<InputFile[]> {
  if (renderer === 'directory') return readInputs(['.'], io, maxBytes, repoRoot(io));
  // A renderer's output is sized only once it ran, and a render is not made twice: the run is admitted for the
  // most the renderer may print, so one that would be over the size gate moves to a worker first (#37).
  io.admit?.(maxBytes, 'most');
  // Settings first (a values file outside the repository is a usage error, exit 2), then, before any
  // renderer reads the repository, no symlink out of it under the app or what it uses.
  const argv = renderer === 'helm' ? helmArgv(config, io) : kustomizeArgv(io);
  await checkRenderTree(renderer, io.cwd, repoRoot(io), { allowHttp: io.settings.helmAllowHttp });
  io.trace?.('rendering');
  const homes = await helmHomes(renderer);
  const env = { ...rendererEnv(io.settings.env), ...homes.env };
  const run: RunRenderer = (command, doing) => runCommand(command, doing, { cwd: io.cwd, env, timeoutMs: io.deadline.leftMs(), maxOutputBytes: maxBytes, deadline: io.deadline });
  const what = `rendering ${renderer} in ${cleanSourcePath(io.settings.env.ARGOCD_APP_SOURCE_PATH ?? '').join('/') || '.'}`;
  let bytes: Uint8Array;
  try {
    bytes = renderer === 'helm' ? await renderHelm(argv, run, what) : await run(argv, what);
  } catch (err) {
    // The renderer's own messages may quote the repository's files (Secrets included): shown only when the
    // operator asks for them, and without the sidecar's paths (#21).
    if (io.settings.env[envOf('rendererStderr')] === 'show' && err instanceof Error && 'stderr' in err) {
      io.writeStderr(redactPaths(String((err as { stderr: string }).stderr), rootsToShow(io)));
    }
    throw err;
  } finally {
    await homes.remove();
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new InputError(`${what}: output is not valid UTF-8 (byte ${decoded.offset})`);
  return [{ path: `<${renderer}>`, text: decoded.text }];
}

/** The renderer's environment: ours without rollstamp's own settings (the hash key is not the renderer's business). */
function rendererEnv(env: Io['env']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('ROLLSTAMP_')));
}

/**
 * `kustomize build .` plus the operator's build options (`kustomizeBuildOptions`); with `--enable-helm`,
 * also `--helm-kube-version` and `--helm-api-versions` from KUBE_VERSION / KUBE_API_VERSIONS, as Argo CD adds
 * them for kustomize 5.3 and later.
 */
function kustomizeArgv(io: RunIo): string[] {
  const argv = onPath('kustomize', io) ? ['kustomize', 'build', '.'] : ['kubectl', 'kustomize', '.'];
  const env = io.settings.env;
  const options = kustomizeBuildOptions(env);
  argv.push(...options);
  if (options.some((o) => o.startsWith('--enable-helm'))) {
    if (env.KUBE_VERSION) argv.push('--helm-kube-version', env.KUBE_VERSION);
    for (const v of (env.KUBE_API_VERSIONS ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) argv.push('--helm-api-versions', v);
  }
  return argv;
}

function onPath(command: string, io: RunIo): boolean {
  return (io.settings.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
