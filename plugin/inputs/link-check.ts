// Plugin read stage, shared rule for symlinks in a repository: a link may be followed only when it stays
// inside the root at every step (Argo CD's rule, util/app/path/path.go CheckOutOfBoundsSymlinks).
import { readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { InputError } from '../process/errors.ts';

/**
 * A symlink's resolved path, if it stays inside `root` at every step: its target is relative, never climbs
 * above `root` on the way, and resolves inside it.
 * - Fails with an InputError naming `shown`: outside the root, a loop, or (unless `allowDangling`) a dangling
 *   link. With `allowDangling`, a lexically in-bound link to nothing resolves to undefined.
 */
export async function checkLink(link: string, shown: string, root: string, allowDangling = false): Promise<string | undefined> {
  const target = await readlink(link);
  const outside = `${shown}: symlink points outside the repository; refused`;
  if (isAbsolute(target)) throw new InputError(outside);
  const parts = relative(root, await realpath(dirname(link))).split(sep).filter((x) => x !== '');
  if (parts[0] === '..') throw new InputError(outside);
  for (const seg of target.split(/[\\/]/)) {
    if (seg === '..') {
      if (parts.length === 0) throw new InputError(outside);
      parts.pop();
    } else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  let real: string;
  try {
    real = await realpath(link);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && allowDangling) return undefined;
    throw new InputError(`${shown}: ${code === 'ELOOP' ? 'symlink loop' : 'dangling symlink'}`);
  }
  if (real !== root && !real.startsWith(root + sep)) throw new InputError(outside);
  return real;
}

/** Whether `path` (absolute, links resolved) is `root` or below it. */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root + sep);
}
