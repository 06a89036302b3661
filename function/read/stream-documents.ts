// Read stage for plain multi-document streams, one document at a time: each document's text is cut at its
// `---` marker and read alone, by the subset reader when it fits, else by the yaml library, so only one
// document's tree exists at a time and a document the subset reader declines costs only itself. A document
// the caller needs only the identity of is skimmed (read/scan-identity.ts) and gets no tree at all.
import { splitJsonStream } from './json-stream.ts';
import { markerLines, plainSubsetText, readSubsetStream } from './subset-yaml.ts';
import { scanIdentity } from './scan-identity.ts';
import { scanSource } from './scan-source.ts';
import { parseWithLibrary, type StreamDoc } from './stream.ts';
import type { FileRef } from '../model/results.ts';
import type { Node } from '../model/nodes.ts';
import type { ReadBy, ScannedIdentity, ScannedSource } from '../model/object.ts';

/** A `---` marker line: where a document starts (the line cannot be content: YAML forbids it there). */
const MARKER = /^---(?:[ \t\r\n]|$)/gm;
/** A top-level `kind:` line with a plain name: the skim scans only documents whose kind may be skimmed. */
const KIND_LINE = /^kind: *([A-Za-z]+) *$/m;
const SOURCE_KINDS: ReadonlySet<string> = new Set(['Secret', 'ConfigMap']);

/** Which documents a caller needs only the identity of. */
export interface Skim {
  /** Kind names that may be: a document is scanned only when a top-level `kind:` line names one. */
  kinds: ReadonlySet<string>;
  /** Whether the scanned identity, in that document's text, is all the caller reads. */
  wants(identity: ScannedIdentity, text: string): boolean;
  /** Whether a plain Secret or ConfigMap, in that document's text, may be scanned for its entries (read/scan-source.ts). Default: none. */
  sources?(identity: ScannedIdentity, text: string): boolean;
}

/** Blank and comment lines: before the first marker they belong to the first document. */
const PROLOGUE = /^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:#[^\n]*)?$/;

/**
 * A plain stream's documents read one at a time, each from its own text (node ranges count from the start of
 * that text).
 * - A document the subset reader declines is read alone by the yaml library (`readBy: 'yaml-document'`): the
 *   rest of the stream stays with the subset reader.
 * - `skim`: which documents the caller needs only the identity of (read/scan-identity.ts); such a document comes
 *   with `identity` and no tree (`contents` undefined); a plain Secret or ConfigMap it may scan
 *   (read/scan-source.ts) comes with `source` too. Default: none is skimmed.
 * - Returns false, after any number of documents, when a document is not one the yaml library reads alone
 *   without a result (a YAML error, whose line and column must count from the stream's start; a directive;
 *   text that is not exactly one document), and at once for a JSON stream: the caller then reads the whole
 *   stream with parseStream, which gives the same documents, or the errors.
 */
export function* streamDocuments(text: string, path: string, skim?: Skim): Generator<StreamDoc, boolean> {
  // Searched once for the stream: a document of a stream with nothing unusual has nothing unusual either (#37).
  const plain = plainSubsetText(text);
  const pieces = splitDocuments(text, plain);
  if (!pieces) return false;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const file = i === 0 ? { path } : { path, index: i };
    const kind = skim ? (KIND_LINE.exec(piece)?.[1] ?? '') : '';
    // The kind found here is the one scanSource would find: the first top-level `kind:` line.
    const source = skim?.sources && SOURCE_KINDS.has(kind) ? scanSource(piece, plain, kind as 'Secret' | 'ConfigMap') : undefined;
    if (source && skim!.sources!(source.identity, piece)) {
      yield streamDoc(undefined, piece, file, 'subset', source.identity, source);
      continue;
    }
    const identity = skim && skim.kinds.has(kind) ? scanIdentity(piece, plain) : undefined;
    if (identity && skim!.wants(identity, piece)) {
      yield streamDoc(undefined, piece, file, 'subset', identity);
      continue;
    }
    const read = readSubsetStream(piece, plain);
    if (read?.length === 1 && read[0]!.offset === 0) {
      yield streamDoc(read[0]!.contents, piece, file, 'subset');
      continue;
    }
    // A document that is most of the stream is read with the rest of it, as a stream of one document is: read
    // alone first, a YAML error in it would be read twice, alone and with the whole stream for its line, twice
    // the yaml library's time on the same bytes (SECURITY.md "Bounded work").
    const alone = 2 * piece.length <= text.length ? readAlone(piece, path) : undefined;
    if (!alone) return false;
    yield streamDoc(alone.contents, piece, file, 'yaml-document');
  }
  return true;
}

/**
 * A document as streamDocuments yields it, with every field a run sets later (streamItems, the skim's planner)
 * there from the start: one hidden class for every document, and no property array added to each as the run goes
 * on (#37: a 50k stream keeps its documents to the end).
 */
function streamDoc(contents: Node | null | undefined, piece: string, file: FileRef, readBy: ReadBy, identity?: ScannedIdentity, source?: ScannedSource): StreamDoc {
  return { contents, firstItem: 0, itemCount: 0, readBy, identity, source, text: piece, offset: 0, file };
}

/**
 * A plain stream's text cut into its documents' texts, each from its `---` line (blank and comment lines
 * before the first marker open the first document), joining back to `text`; undefined for a JSON stream.
 * `plain`: plainSubsetText(text) is known true, so its only line break is `\n` and markers are found by a
 * search for `---` (#37). Default: false.
 */
export function splitDocuments(text: string, plain = false): string[] | undefined {
  if (splitJsonStream(text)) return undefined;
  const starts = [0];
  if (plain) markerLines(text, 1, starts);
  else for (const m of text.matchAll(MARKER)) if (m.index > 0) starts.push(m.index);
  if (starts.length > 1 && PROLOGUE.test(text.slice(0, starts[1]))) starts.splice(1, 1);
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}

/**
 * One document's text read by the yaml library, its library document let go (it is not printed again: see
 * ReadBy); undefined unless the text is exactly one document, read without a result and with no directive.
 */
function readAlone(piece: string, path: string): StreamDoc | undefined {
  const read = parseWithLibrary(piece, path);
  if ('results' in read || read.docs.length !== 1) return undefined;
  const [only] = read.docs;
  // A directive line (`%YAML`, `%TAG`, after a byte order mark too) belongs to the stream around the
  // document, and a byte order mark may start a new one: such a text is not read alone.
  if (only!.offset !== 0 || /^%/m.test(piece) || piece.includes('\uFEFF')) return undefined;
  return only;
}
