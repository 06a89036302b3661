// Plugin read stage: files, directories (recursive) and stdin → decoded text, with a total size limit
// checked before a file is read, and standard input read no further than it. Nothing here parses YAML.
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../process/errors.ts';
import type { Io } from '../process/io.ts';
import { checkLink } from './link-check.ts';
import { decodeUtf8 } from '../../function/index.ts';

export interface InputFile {
  /** As shown in results: relative to the working directory, or `<stdin>`. */
  path: string;
  text: string;
  /** Found by reading a directory argument (not named itself, not stdin). */
  fromDirectory?: true;
}

const MANIFEST = /\.(ya?ml|json)$/i;

/**
 * Reads every input.
 * - No path, or `-`: standard input (once).
 * - A directory: every *.yaml, *.yml and *.json below it, in byte order of path; hidden entries are skipped.
 *   Symlinks inside it are followed only when they stay inside `boundary` (default: that directory) at every
 *   step: an absolute target, a `..` that leaves and comes back, a loop or a dangling link is refused.
 * - Fails with one line naming the file: not found, not a regular file, over the limit, invalid UTF-8. The
 *   content of a refused file is never read; standard input over what is left of the limit is read only to the
 *   byte past it.
 */
export async function readInputs(paths: readonly string[], io: Io, maxBytes: number, boundary?: string): Promise<InputFile[]> {
  const files: InputFile[] = [];
  let total = 0;
  const over = (path: string): InputError => new InputError(`${path}: input exceeds the limit of ${maxBytes} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
  const account = (path: string, size: number): void => {
    total += size;
    if (total > maxBytes) throw over(path);
    io.admit?.(size);
  };
  const list = paths.length === 0 ? ['-'] : paths;
  if (list.filter((p) => p === '-').length > 1) throw new InputError('standard input (-) can be read only once');
  for (const p of list) {
    if (p === '-') {
      // Read no further than what is left of the limit: a pipe or a file far over it is not read to its end.
      const bytes = await io.readStdin(maxBytes - total);
      if (bytes === undefined) throw over('<stdin>');
      account('<stdin>', bytes.length);
      files.push({ path: '<stdin>', text: decode(bytes, '<stdin>') });
      continue;
    }
    for (const file of await expand(resolve(io.cwd, p), p, boundary)) {
      const info = await stat(file.real);
      if (!info.isFile()) throw new InputError(`${file.shown}: not a regular file`);
      account(file.shown, info.size);
      files.push({ path: file.shown, text: decode(await readFile(file.real), file.shown), ...(file.shown !== p ? { fromDirectory: true as const } : {}) });
    }
  }
  return files;
}

interface Found {
  /** The path as the user sees it. */
  shown: string;
  /** Where its bytes are, links resolved. */
  real: string;
}

async function expand(abs: string, shown: string, boundary: string | undefined): Promise<Found[]> {
  const info = await stat(abs).catch(() => undefined);
  if (!info) throw new InputError(`${shown}: no such file or directory`);
  if (!info.isDirectory()) return [{ shown, real: abs }];
  const root = await realpath(boundary ?? abs);
  const out: Found[] = [];
  const visited = new Set<string>();
  const walk = async (dir: string, shownDir: string): Promise<void> => {
    const real = await realpath(dir);
    if (visited.has(real)) throw new InputError(`${shownDir}: symlink loop`);
    visited.add(real);
    const entries = (await readdir(dir)).filter((e) => !e.startsWith('.')).sort();
    for (const name of entries) {
      const full = join(dir, name);
      const shownEntry = join(shownDir, name);
      const entry = await lstat(full);
      let target = full;
      let kind = entry;
      if (entry.isSymbolicLink()) {
        target = (await checkLink(full, shownEntry, root))!;
        kind = await stat(target);
      }
      if (kind.isDirectory()) await walk(target, shownEntry);
      else if (!MANIFEST.test(name)) continue;
      else if (!kind.isFile()) throw new InputError(`${shownEntry}: not a regular file`);
      else out.push({ shown: shownEntry, real: target });
    }
    visited.delete(real);
  };
  await walk(abs, shown);
  return out;
}

/** Strict UTF-8 text of a file's bytes; an error names the file and the byte offset. */
export function decode(bytes: Uint8Array, path: string): string {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new InputError(`${path}: invalid UTF-8 at byte ${decoded.offset}`);
  return decoded.text;
}
