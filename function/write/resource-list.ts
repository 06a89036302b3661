// Write stage for KRM function mode: the ResourceList's text with the stamp edits and results appended, or,
// where that cannot be done, its Document (edited in place) printed again.
import type { YAMLMap } from 'yaml';
import type { Result } from '../model/results.ts';
import type { TextEdit } from '../model/target.ts';
import type { ResourceList } from '../read/resource-list.ts';
import { detectFormat } from './format.ts';
import { lastNonEmpty, textEditPieces } from './apply-edits.ts';
import { assertEditsReadBack } from './read-back.ts';
import { resultsYaml } from './results-yaml.ts';

/**
 * Writes the ResourceList with `results` replaced by ours (absent when there are none), as the pieces the output
 * joins: mostly slices of the input, so the list is not copied whole into a second string (#37).
 * - When every stamp has a text edit, the input text is kept as it was apart from the stamp lines and the
 *   results appended at the end (no second rendering: faster than printing the tree, and byte-faithful); the
 *   edited text is read back first (write/read-back.ts: a broken edit throws).
 * - Otherwise (JSON, an existing `results`, an edit-less stamp) the tree is printed again; undefined when the
 *   list was read without one (the caller reads it again with the yaml library and runs again).
 */
export function serializeResourceList(rl: ResourceList, results: readonly Result[], changed: ReadonlyMap<number, ReadonlyArray<TextEdit | undefined>> = new Map()): string[] | undefined {
  const edited = !rl.json ? editText(rl, results, changed) : undefined;
  if (edited !== undefined) return edited;
  if (!rl.doc) return undefined;
  const root = rl.doc.contents as YAMLMap;
  root.delete('results');
  // No anchors: results share objects (one resourceRef), and kpt refuses aliases in its input.
  if (results.length > 0) root.set('results', rl.doc.createNode(results, { aliasDuplicateObjects: false }));
  if (rl.json) return [`${JSON.stringify(rl.doc.toJS(), null, 2)}\n`];
  return [rl.doc.toString(detectFormat(rl.text))];
}

function editText(rl: ResourceList, results: readonly Result[], changed: ReadonlyMap<number, ReadonlyArray<TextEdit | undefined>>): string[] | undefined {
  const edits = [...changed.values()].flat();
  if (edits.some((e) => e === undefined) || rl.hasResults || rl.indent !== 0) return undefined;
  // Appending `results:` must land inside the document: not after a `...` end marker. (A list the subset
  // reader read is the stream's only document and has no `...`: its end is the text's.)
  if (/^(\.\.\.|---)(\s|$)/m.test(rl.text.slice(rl.end))) return undefined;
  const crlf = rl.text.includes('\r\n');
  const pieces = textEditPieces(rl.text, 0, edits as TextEdit[]);
  // As stamp reads back each document it edited: here the block maps the edits are in, else the whole list.
  if (edits.length > 0) assertEditsReadBack(rl.text, 0, rl.doc === undefined, edits as TextEdit[], () => pieces.join(''));
  if (results.length === 0) return pieces;
  // No anchors (results share objects, one resourceRef, and kpt refuses aliases in its input): resultsYaml
  // prints what stringify({ results }, { lineWidth: 0, aliasDuplicateObjects: false }) would.
  const block = resultsYaml(results);
  const ended = lastNonEmpty(pieces)?.endsWith('\n') === true;
  // The line break that ends the last item before `results:` follows the list's own, as the block's do.
  return [...pieces, ...(ended ? [] : [crlf ? '\r\n' : '\n']), crlf ? block.replace(/\n/g, '\r\n') : block];
}

