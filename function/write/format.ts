// Write stage: yaml toString options that follow the input's own style, so a stamped file diffs only where it changed.
import type { ToStringOptions } from 'yaml';

/**
 * Output options for a document whose source text is `text`.
 * - `lineWidth: 0`: never fold long strings.
 * - Sequences stay compact (`key:\n- a`) when the input writes them so; flow maps keep or drop inner padding likewise.
 */
export function detectFormat(text: string): ToStringOptions {
  return {
    lineWidth: 0,
    minContentWidth: 0,
    indentSeq: !hasCompactSequence(text),
    flowCollectionPadding: /\{ \S/.test(text),
  };
}

/** True when the first block sequence under a key starts at the key's own column. */
function hasCompactSequence(text: string): boolean {
  const match = /^( *)[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\r?\n(?: *(?:#[^\n]*)?\r?\n)*( *)- /m.exec(text);
  return match !== null && match[1]!.length === match[2]!.length;
}
