// Reading the repository's Markdown for the documentation tests: fenced code blocks with their info string,
// relative links, and the anchors GitHub makes of headings. Not a test file.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './run-cli.ts';

/** One fenced code block. */
export interface Fence {
  /** The info string's first word (`sh`, `console`, `yaml` …), empty when there is none. */
  lang: string;
  /** The info string's other words (`norun`, `exit=3`). */
  flags: string[];
  /** The lines between the fences. */
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const FENCE = /^(\s*)(```+|~~~+)\s*([^`\s]*)(.*)$/;

/** Every fenced block of `text`, in order. */
export function fences(text: string): Fence[] {
  const out: Fence[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const marker = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(marker); j++) body.push(lines[j]!);
    out.push({ lang: open[3]!, flags: open[4]!.trim().split(/\s+/).filter((f) => f !== ''), body: body.length ? `${body.join('\n')}\n` : '', line: i + 1 });
    i = j;
  }
  return out;
}

/** The lines of `text` with fenced blocks blanked (line numbers kept); inline code too unless `keepCode`. */
export function prose(text: string, keepCode = false): string[] {
  let inFence = '';
  return text.split('\n').map((l) => {
    if (inFence) {
      if (l.trimStart().startsWith(inFence)) inFence = '';
      return '';
    }
    const open = FENCE.exec(l);
    if (open) {
      inFence = open[2]!;
      return '';
    }
    return keepCode ? l : l.replace(/`[^`]*`/g, '``');
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a document's headings, with GitHub's `-1`, `-2` … for repeats. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text, true)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A link in prose: its target as written and its line. */
export interface Link {
  target: string;
  line: number;
}

/** The inline links and images of `text` outside code (`[text](target)`, `![alt](target "title")`). */
export function links(text: string): Link[] {
  const out: Link[] = [];
  prose(text).forEach((l, i) => {
    for (const m of l.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

/** README.md and every Markdown page under docs/, relative to the repository root. */
export function docPages(): string[] {
  const out = ['README.md'];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir).sort()) {
      const full = join(dir, e);
      if (statSync(full).isDirectory()) walk(full);
      else if (e.endsWith('.md')) out.push(relative(ROOT, full));
    }
  };
  walk(join(ROOT, 'docs'));
  return out;
}
