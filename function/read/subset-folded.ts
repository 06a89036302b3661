// Read stage, fast form (plain scalars of block context): one on its line, and one that goes on over the lines
// below it, indented deeper than its collection, folded as YAML folds it — one line break between two lines
// is a space, n empty lines between them are n line breaks, the spaces around each break dropped. Only lines
// that plainly continue it are read (first character a letter, digit, `-`, quote or other ordinary one, no
// `: `); the rest, and a folded value that would not be a string, is left to the yaml library (throws OUT).
import { ScalarNode } from '../model/nodes.ts';
import { lineEnd, outside, plainScalar, plainStart, plainTextEnd } from './subset-scalars.ts';

/** A plain scalar in block context at `at`: to the end of the line or a ` #` comment (`a: b: c` is outside). */
export function plainValue(t: string, at: number, eol: number): ScalarNode {
  if (!plainStart(t, at, eol)) outside();
  return plainScalar(t, at, plainTextEnd(t, at, eol));
}

/**
 * First characters of a continuation line read here. Past a plain scalar's first line, YAML gives no
 * indicator a meaning but `#` after a space and `: `, so `-`, quotes, `\` and the backquote continue it
 * (generated API descriptions wrap before `- item`, `"1"`, `\n` and `code`); the other indicators are left
 * to the library.
 */
const CONTINUES = /[A-Za-z0-9_.\/()$=+~<;^`"'\\\-\u00a0-\uffff]/;

/**
 * The plain scalar `first` (read on its own line, in a collection in column `parent`) with the lines below it
 * that continue it, or `first` itself when none does. Its `end` is where the text of its last line ends.
 */
export function foldedPlain(t: string, first: ScalarNode, parent: number, docEnd: number): ScalarNode {
  let eol = lineEnd(t, first.end, docEnd);
  for (let i = first.end; i < eol; i++) if (t.charCodeAt(i) !== 32) return first; // a comment ends it
  let pieces: string[] | undefined; // made at the first continuation line: most values have none (#37)
  let end = first.end;
  let empties = 0;
  for (let start = eol + 1; start < docEnd; ) {
    const next = lineEnd(t, start, docEnd);
    let col = start;
    while (col < next && t.charCodeAt(col) === 32) col++;
    if (col === next) {
      empties++;
      start = next + 1;
      continue;
    }
    if (col - start <= parent || t[col] === '#') break; // not a continuation: the caller reads on from here
    if (!CONTINUES.test(t[col]!)) outside();
    const stop = plainTextEnd(t, col, next); // a `: ` in it is a key, or an error
    pieces ??= [t.slice(first.start, first.end)];
    pieces.push(empties === 0 ? ' ' : '\n'.repeat(empties), t.slice(col, stop));
    empties = 0;
    end = stop;
    eol = next;
    let rest = stop;
    while (rest < next && t.charCodeAt(rest) === 32) rest++;
    if (rest < next) break; // past the spaces, only a ` #` comment can follow: it ends the scalar
    start = next + 1;
  }
  if (!pieces) return first;
  const value = pieces.join('');
  if (typeof plainScalar(value, 0, value.length).value !== 'string') outside();
  return new ScalarNode(value, 'plain', first.start, end);
}
