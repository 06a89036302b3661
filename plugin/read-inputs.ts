// Plugin read stage: files, directories (recursive) and stdin → decoded text, with a total size limit
// checked before anything is read. Nothing here parses YAML.
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { decodeUtf8 } from '../function/text.ts';
import { InputError } from './errors.ts';
import type { Io } from './io.ts';

export interface InputFile {
  /** As shown in results: relative to the working directory, or `<stdin>`. */
  path: string;
  text: string;
}

/** Default limit on the total input: 10 MiB (Argo CD's own default for directory apps). */
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;
const MANIFEST = /\.(ya?ml|json)$/i;

/**
 * Reads every input.
 * - No path, or `-`: standard input (once).
 * - A directory: every *.yaml, *.yml and *.json below it, in byte order of path; hidden entries are skipped.
 * - Fails with one line naming the file: not found, not a regular file, over the limit, invalid UTF-8.
 */
export async function readInputs(paths: readonly string[], io: Io, maxBytes: number): Promise<InputFile[]> {
  const files: InputFile[] = [];
  let total = 0;
  const account = (path: string, size: number): void => {
    total += size;
    if (total > maxBytes) throw new InputError(`${path}: input exceeds the limit of ${maxBytes} bytes (ROLLSTAMP_MAX_INPUT_BYTES)`);
  };
  const list = paths.length === 0 ? ['-'] : paths;
  if (list.filter((p) => p === '-').length > 1) throw new InputError('standard input (-) can be read only once');
  for (const p of list) {
    if (p === '-') {
      const bytes = await io.readStdin();
      account('<stdin>', bytes.length);
      files.push({ path: '<stdin>', text: decode(bytes, '<stdin>') });
      continue;
    }
    const root = resolve(io.cwd, p);
    for (const abs of await expand(root, p)) {
      const shown = abs === root ? p : join(p, relative(root, abs));
      const info = await stat(abs);
      if (!info.isFile()) throw new InputError(`${shown}: not a regular file`);
      account(shown, info.size);
      files.push({ path: shown, text: decode(await readFile(abs), shown) });
    }
  }
  return files;
}

async function expand(abs: string, shown: string): Promise<string[]> {
  const info = await stat(abs).catch(() => undefined);
  if (!info) throw new InputError(`${shown}: no such file or directory`);
  if (!info.isDirectory()) return [abs];
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir)).filter((e) => !e.startsWith('.')).sort();
    for (const name of entries) {
      const full = join(dir, name);
      const entry = await lstat(full);
      if (entry.isDirectory()) await walk(full);
      else if (MANIFEST.test(name)) out.push(full);
    }
  };
  await walk(abs);
  return out;
}

function decode(bytes: Uint8Array, path: string): string {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new InputError(`${path}: invalid UTF-8 at byte ${decoded.offset}`);
  return decoded.text;
}
