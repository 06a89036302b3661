// Argo CD CMP process edge: what `generate` prints never shows where things are on the sidecar (#21).
// Argo CD does the same for helm's errors (argo-cd commit 5d0d429a redacts its temp paths); here every
// absolute path in a message is either made relative to the repository or replaced.
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';

/** What an absolute path outside the repository is printed as. */
export const OUTSIDE_PATH = '<path outside the repository>';

/**
 * An absolute path token: after the start, white space, a quote, `=`, `(`, `[`, `<`, `,` or `:`, or right
 * after `file://`; one `/` and then anything up to white space, a quote or a closing bracket. `//` (the start
 * of a URL's authority) is not a path.
 */
const ABSOLUTE = /(^|[\s'"`=([<,:]|file:\/\/)(\/[^\s'"`)\]>,;/][^\s'"`)\]>,;]*)/g;

/**
 * `text` with every absolute path below one of `roots` (the repository root, as given and with links
 * resolved) made relative to it (`.` for the root itself), and every other path of this filesystem (its first
 * segment is an entry of `/`) replaced by OUTSIDE_PATH. Other text that starts with `/` (an app path such as
 * `/../web` as the request wrote it) is not a place on the sidecar and stays.
 * - Applied to every message `generate` prints, the renderer's own stderr included
 *   (ROLLSTAMP_RENDERER_STDERR=show), whose paths are the sidecar's.
 */
export function redactPaths(text: string, roots: readonly string[]): string {
  const bases = [...new Set(roots.filter((r) => r.startsWith('/')).map((r) => r.replace(/\/+$/, '') || '/'))].sort((a, b) => b.length - a.length);
  return text.replace(ABSOLUTE, (_all, before: string, path: string) => {
    const trailing = /[.:]+$/.exec(path)?.[0] ?? ''; // end of a sentence, not part of the path
    const bare = path.slice(0, path.length - trailing.length);
    for (const base of bases) {
      if (bare === base) return `${before}.${trailing}`;
      if (bare.startsWith(base + sep)) return `${before}${bare.slice(base.length + 1)}${trailing}`;
    }
    if (!topLevel().has(bare.slice(1).split('/')[0]!)) return `${before}${path}`;
    return `${before}${OUTSIDE_PATH}${trailing}`;
  });
}

let entries: Set<string> | undefined;

/** The names in `/`, read once (unreadable: every first segment counts, so everything is replaced). */
function topLevel(): { has(name: string): boolean } {
  if (entries === undefined) {
    try {
      entries = new Set(readdirSync('/'));
    } catch {
      return { has: () => true };
    }
  }
  return entries;
}
