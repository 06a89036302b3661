// Argo CD CMP render stage, before a renderer runs: every directory helm or kustomize may read — the app
// directory and the local charts and bases it uses — is walked, and a symlink whose target leaves the
// repository is refused by name. Argo CD's repo-server runs the same scan on each checkout
// (util/app/path/path.go CheckOutOfBoundsSymlinks); rollstamp must not depend on the checkout having had it.
// The walk also holds each chart and kustomization to the chart rules of chart-repos.ts (#21).
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { InputError } from '../process/errors.ts';
import { checkLink, isInside } from '../inputs/link-check.ts';
import { checkChartRepo, checkGeneratorConfig, checkKustomizationHelm, isRecord, type RepoPolicy } from './chart-repos.ts';
import { parseYamlDocument, plainDocuments } from '../../function/index.ts';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** Kustomization fields whose entries may be local directories (kustomize api/types/kustomization.go). */
const KUSTOMIZE_DIR_FIELDS = ['resources', 'bases', 'components', 'generators', 'transformers', 'validators'];
/** A Chart.yaml or kustomization larger than this is not read for dependencies (the render fails closed). */
const MAX_DESCRIPTOR_BYTES = 1024 * 1024;
/**
 * Files `helm dependency build` writes. A symlink there is refused wherever it is, even one that stays in the
 * repository: helm wrote through it (CVE-2025-53547, code execution with content from Chart.yaml).
 */
const LOCK_FILES = new Set(['Chart.lock', 'requirements.lock']);

/** A directory to check; `generated`: kustomize loads what it holds as generator configurations. */
interface Queued {
  dir: string;
  generated: boolean;
}

/**
 * Refuses, naming the path, any symlink under the app directory `appDir` or under a local chart or base it
 * uses that points outside `root` (absolute, `..` above the root at any step, or resolving outside).
 * - helm: `Chart.yaml`/`requirements.yaml` dependencies with a `file://` repository; every dependency's
 *   repository must pass `checkChartRepo` (#21).
 * - kustomize: local `resources`, `bases`, `components`, `generators`, `transformers`, `validators` and
 *   `helmGlobals.chartHome`; remote ones (URLs, `git@…`) are kustomize's business. Each kustomization's
 *   helm settings and each file loaded as a generator configuration pass `checkKustomizationHelm` and
 *   `checkGeneratorConfig` (#21).
 * - A `Chart.lock` or `requirements.lock` that is a symlink is refused (#21).
 * - A local chart or base outside the repository is refused too. In-bound directory links are followed
 *   (each real directory once, so a loop ends).
 */
export async function checkRenderTree(renderer: 'helm' | 'kustomize', appDir: string, root: string, policy: RepoPolicy): Promise<void> {
  const queue: Queued[] = [{ dir: await realpath(appDir), generated: false }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const { dir, generated } = queue.pop()!;
    const key = `${generated ? 'g' : 'd'}${dir}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await walk(dir, root, (real) => queue.push({ dir: real, generated }));
    const uses = renderer === 'helm' ? await chartDependencies(dir, root, policy) : await kustomizeDirs(dir, root, policy, generated);
    for (const used of uses) {
      const real = await localDir(used.path, used.shown, root);
      if (real === undefined) continue;
      if (real.dir) queue.push({ dir: real.path, generated: used.generated });
      else if (used.generated) await checkGeneratorFile(real.path, root, policy);
    }
  }
}

/** Checks every symlink below `dir` (not `.git`); real directories that in-bound links lead to go to `found`. */
async function walk(dir: string, root: string, found: (real: string) => void): Promise<void> {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      throw new InputError(`${shownPath(current, root)}: cannot read directory`);
    }
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isSymbolicLink()) {
        if (LOCK_FILES.has(entry.name)) throw new InputError(`${shownPath(full, root)}: a symlink; refused (helm dependency build would write through it)`);
        const real = await checkLink(full, shownPath(full, root), root, true);
        if (real !== undefined && (await stat(real)).isDirectory()) found(real);
      }
    }
  }
}

interface Used {
  path: string;
  shown: string;
  /** kustomize loads it as generator configurations (it is listed under `generators`, or below such an entry). */
  generated: boolean;
}

/** A chart's `file://` dependencies (helm pkg/chart/dependency.go: the repository field), as absolute paths. */
async function chartDependencies(dir: string, root: string, policy: RepoPolicy): Promise<Used[]> {
  const out: Used[] = [];
  for (const name of ['Chart.yaml', 'requirements.yaml']) {
    const shown = shownPath(join(dir, name), root);
    const doc = await descriptor(join(dir, name), root);
    const deps = isRecord(doc) && Array.isArray(doc.dependencies) ? doc.dependencies : [];
    deps.forEach((dep, i) => {
      const repo = isRecord(dep) && typeof dep.repository === 'string' ? dep.repository : '';
      checkChartRepo(repo, `${shown}: dependencies[${i}].repository`, policy, true);
      if (!/^file:\/\//i.test(repo)) return;
      const path = repo.slice('file://'.length);
      out.push({ path: resolve(dir, path), shown: `${shown}: dependency ${isAbsoluteish(path) ? '(an absolute file:// path)' : repo}`, generated: false });
    });
  }
  return out;
}

/** A kustomization's local directories and files (entries that exist on disk; the rest are remote or kustomize's error). */
async function kustomizeDirs(dir: string, root: string, policy: RepoPolicy, generated: boolean): Promise<Used[]> {
  const out: Used[] = [];
  for (const name of KUSTOMIZATION_FILES) {
    const shown = shownPath(join(dir, name), root);
    const doc = await descriptor(join(dir, name), root);
    if (!isRecord(doc)) continue;
    checkKustomizationHelm(doc, shown, policy);
    const entries: [string, boolean][] = [];
    for (const field of KUSTOMIZE_DIR_FIELDS) {
      const list = doc[field];
      if (Array.isArray(list)) for (const e of list) if (typeof e === 'string') entries.push([e, generated || field === 'generators']);
    }
    const home = isRecord(doc.helmGlobals) ? doc.helmGlobals.chartHome : undefined;
    if (typeof home === 'string') entries.push([home, false]);
    for (const [entry, gen] of entries) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^git@|^github\.com\//.test(entry)) continue;
      out.push({ path: resolve(dir, entry), shown: `${shown}: ${isAbsoluteish(entry) ? 'an absolute path' : entry}`, generated: gen });
    }
  }
  return out;
}

/** Every document of a file kustomize loads as generator configurations, through `checkGeneratorConfig`. */
async function checkGeneratorFile(path: string, root: string, policy: RepoPolicy): Promise<void> {
  const shown = shownPath(path, root);
  const info = await stat(path);
  if (info.size > MAX_DESCRIPTOR_BYTES) throw new InputError(`${shown}: cannot be read to check its generators`);
  const docs = plainDocuments((await readFile(path)).toString('utf8'), shown);
  if (!docs) throw new InputError(`${shown}: cannot be read to check its generators`);
  for (const doc of docs) checkGeneratorConfig(doc, shown, policy);
}

/**
 * A local chart or base: refused when it lies outside the repository (even if it does not exist: an
 * absent path is left to the renderer); its real path and whether it is a directory, else undefined.
 */
async function localDir(path: string, shown: string, root: string): Promise<{ path: string; dir: boolean } | undefined> {
  const outside = `${shown}: outside the repository; refused`;
  if (!isInside(path, root)) throw new InputError(outside);
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  if (!isInside(real, root)) throw new InputError(outside);
  const info2 = await stat(real);
  return info2.isDirectory() || info2.isFile() ? { path: real, dir: info2.isDirectory() } : undefined;
}

/** A Chart.yaml or kustomization as plain data; undefined when absent. Unreadable: refused (fail closed). */
async function descriptor(path: string, root: string): Promise<unknown> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  const shown = shownPath(path, root);
  const cannot = `${shown}: cannot be read to check its local dependencies`;
  if (!info.isFile() || info.size > MAX_DESCRIPTOR_BYTES) throw new InputError(cannot);
  try {
    const doc = parseYamlDocument((await readFile(path)).toString('utf8'));
    if (doc.errors.length > 0) throw new Error('invalid');
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    throw new InputError(cannot);
  }
}

function shownPath(path: string, root: string): string {
  return relative(root, path) || '.';
}

/** An absolute path as a repository may write it: shown as such, never echoed (#21, errors print no sidecar path). */
function isAbsoluteish(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[a-z]:/i.test(path);
}
