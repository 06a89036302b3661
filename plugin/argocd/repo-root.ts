// Argo CD CMP paths: the app's path in the repository (ARGOCD_APP_SOURCE_PATH) cleaned as Argo CD cleans it,
// and from it the repository root that bounds every file rollstamp and its renderers may read.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../process/errors.ts';
import type { RunIo } from '../settings/run-settings.ts';

/**
 * The segments of a slash path after Go's `path.Clean` (golang.org/src/path/path.go): empty and `.` segments
 * dropped, each `x/..` pair removed. Leading `/` are dropped first, as `filepath.Join(workDir, path)` does in
 * argocd-cmp-server (cmpserver/plugin/plugin.go), so `/apps`, `//` and `./` are relative to the root.
 * - A path that climbs above the root (`..`, `x/../../y`, `/../y`) is a usage error: Argo CD itself refuses
 *   it ("illegal appPath: out of workDir bound").
 */
export function cleanSourcePath(path: string): string[] {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > 0) out.pop();
    else throw new UsageError(`ARGOCD_APP_SOURCE_PATH ${JSON.stringify(path)} leaves the repository`);
  }
  return out;
}

/**
 * The repository root: the working directory (the app path) minus the cleaned ARGOCD_APP_SOURCE_PATH, links
 * resolved.
 * - When the app path runs through a symlink, going up from the real working directory does not land on
 *   the root: refused rather than guessed, since the root bounds every read.
 */
export function repoRoot(io: RunIo): string {
  const cwd = realpathSync(io.cwd);
  const raw = io.settings.env.ARGOCD_APP_SOURCE_PATH ?? '';
  const segments = cleanSourcePath(raw);
  if (segments.length === 0) return cwd;
  const root = resolve(cwd, ...segments.map(() => '..'));
  let back: string;
  try {
    back = realpathSync(resolve(root, ...segments));
  } catch {
    back = '';
  }
  if (back !== cwd) {
    throw new UsageError(`ARGOCD_APP_SOURCE_PATH ${JSON.stringify(raw)} does not lead from the repository root to the working directory (a symlink in the app path?)`);
  }
  return root;
}

/**
 * The repository root as paths may name it: links resolved, and as the working directory spells it (for
 * `redactPaths`). When the root cannot be found (a bad ARGOCD_APP_SOURCE_PATH), the working directory.
 */
export function rootsToShow(io: RunIo): string[] {
  try {
    const segments = cleanSourcePath(io.settings.env.ARGOCD_APP_SOURCE_PATH ?? '');
    return [repoRoot(io), resolve(io.cwd, ...segments.map(() => '..'))];
  } catch {
    return [io.cwd];
  }
}
