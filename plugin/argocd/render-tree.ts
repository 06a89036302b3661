// Argo CD CMP render stage, before a renderer runs: every directory helm or kustomize may read — the app
// directory and the local charts and bases it uses — is walked, and a symlink whose target leaves the
// repository is refused by name. Argo CD's repo-server runs the same scan on each checkout
// (util/app/path/path.go CheckOutOfBoundsSymlinks); rollstamp must not depend on the checkout having had it.
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { InputError } from '../errors.ts';
import { checkLink, isInside } from '../link-check.ts';
import { parseYamlDocument } from '../../function/index.ts';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** Kustomization fields whose entries may be local directories (kustomize api/types/kustomization.go). */
const KUSTOMIZE_DIR_FIELDS = ['resources', 'bases', 'components', 'generators', 'transformers', 'validators'];
/** A Chart.yaml or kustomization larger than this is not read for dependencies (the render fails closed). */
const MAX_DESCRIPTOR_BYTES = 1024 * 1024;

/**
 * Refuses, naming the path, any symlink under the app directory `appDir` or under a local chart or base it
 * uses that points outside `root` (absolute, `..` above the root at any step, or resolving outside).
 * - helm: `Chart.yaml`/`requirements.yaml` dependencies with a `file://` repository.
 * - kustomize: local `resources`, `bases`, `components`, `generators`, `transformers`, `validators` and
 *   `helmGlobals.chartHome`; remote ones (URLs, `git@…`) are kustomize's business.
 * - A local chart or base outside the repository is refused too. In-bound directory links are followed
 *   (each real directory once, so a loop ends).
 */
export async function checkRenderTree(renderer: 'helm' | 'kustomize', appDir: string, root: string): Promise<void> {
  const queue = [await realpath(appDir)];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const dir = queue.pop()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    await walk(dir, root, queue);
    const uses = renderer === 'helm' ? await chartDependencies(dir, root) : await kustomizeDirs(dir, root);
    for (const used of uses) {
      const real = await localDir(used.path, used.shown, root);
      if (real !== undefined) queue.push(real);
    }
  }
}

/** Checks every symlink below `dir` (not `.git`); real directories that in-bound links lead to are queued. */
async function walk(dir: string, root: string, queue: string[]): Promise<void> {
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
        const real = await checkLink(full, shownPath(full, root), root, true);
        if (real !== undefined && (await stat(real)).isDirectory()) queue.push(real);
      }
    }
  }
}

interface Used {
  path: string;
  shown: string;
}

/** A chart's `file://` dependencies (helm pkg/chart/dependency.go: the repository field), as absolute paths. */
async function chartDependencies(dir: string, root: string): Promise<Used[]> {
  const out: Used[] = [];
  for (const name of ['Chart.yaml', 'requirements.yaml']) {
    const doc = await descriptor(join(dir, name), root);
    const deps = isRecord(doc) && Array.isArray(doc.dependencies) ? doc.dependencies : [];
    for (const dep of deps) {
      const repo = isRecord(dep) && typeof dep.repository === 'string' ? dep.repository : '';
      if (!repo.startsWith('file://')) continue;
      out.push({ path: resolve(dir, repo.slice('file://'.length)), shown: `${shownPath(join(dir, name), root)}: dependency ${repo}` });
    }
  }
  return out;
}

/** A kustomization's local directories (entries that exist on disk; the rest are remote or kustomize's error). */
async function kustomizeDirs(dir: string, root: string): Promise<Used[]> {
  const out: Used[] = [];
  for (const name of KUSTOMIZATION_FILES) {
    const doc = await descriptor(join(dir, name), root);
    if (!isRecord(doc)) continue;
    const entries: string[] = [];
    for (const field of KUSTOMIZE_DIR_FIELDS) {
      const list = doc[field];
      if (Array.isArray(list)) for (const e of list) if (typeof e === 'string') entries.push(e);
    }
    const home = isRecord(doc.helmGlobals) ? doc.helmGlobals.chartHome : undefined;
    if (typeof home === 'string') entries.push(home);
    for (const entry of entries) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^git@|^github\.com\//.test(entry)) continue;
      out.push({ path: resolve(dir, entry), shown: `${shownPath(join(dir, name), root)}: ${entry}` });
    }
  }
  return out;
}

/**
 * A local chart or base: refused when it lies outside the repository (even if it does not exist: an
 * absent path is left to the renderer); its real directory when it is one, else undefined.
 */
async function localDir(path: string, shown: string, root: string): Promise<string | undefined> {
  const outside = `${shown}: outside the repository; refused`;
  if (!isInside(path, root)) throw new InputError(outside);
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  if (!isInside(real, root)) throw new InputError(outside);
  return (await stat(real)).isDirectory() ? real : undefined;
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
