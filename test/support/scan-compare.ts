// Compares the identity scanner (function/read/scan-identity.ts) with the subset reader's tree, document by
// document, as a run cuts a stream: the scanner must accept exactly the documents the subset reader reads into
// one object with a block-map (or no) metadata, and give the identity that tree gives. Returns the first
// difference as a sentence (no values), or undefined when they agree.
import { scanIdentity } from '../../function/read/scan-identity.ts';
import { splitDocuments } from '../../function/read/stream-documents.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { child, isMapNode, stringValue } from '../../function/model/nodes.ts';
import type { ScannedIdentity } from '../../function/model/object.ts';

export function scanDifference(text: string): string | undefined {
  const pieces = splitDocuments(text) ?? [];
  for (let i = 0; i < pieces.length; i++) {
    const got = scanIdentity(pieces[i]!);
    const want = identityFromTree(pieces[i]!);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      const what = (v: ScannedIdentity | undefined): string => (v ? `an identity with fields ${Object.keys(v).join(', ')}` : 'none');
      if (!got || !want) return `document ${i}: the scanner gives ${what(got)}, the subset reader's tree ${what(want)}`;
      const fields = (Object.keys({ ...got, ...want }) as Array<keyof ScannedIdentity>).filter((k) => got[k] !== want[k]);
      return `document ${i}: the scanner and the subset reader's tree differ in ${fields.join(', ')}`;
    }
  }
  return undefined;
}

/** The identity the planner would read from the subset reader's tree of one document's text, or undefined. */
export function identityFromTree(piece: string): ScannedIdentity | undefined {
  const read = readSubsetStream(piece);
  if (!read || read.length !== 1 || read[0]!.offset !== 0 || !read[0]!.contents) return undefined;
  const root = read[0]!.contents;
  if (child(root, 'items') !== undefined) return undefined;
  const meta = child(root, 'metadata');
  if (meta !== undefined && !(isMapNode(meta) && !meta.flow)) return undefined;
  const apiVersion = stringValue(child(root, 'apiVersion'));
  const kind = stringValue(child(root, 'kind'));
  if (!apiVersion || !kind) return undefined;
  const name = (meta && (stringValue(child(meta, 'name')) ?? stringValue(child(meta, 'generateName')))) ?? '';
  const namespace = meta ? stringValue(child(meta, 'namespace')) : undefined;
  return namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
}
