// Compares the Secret and ConfigMap scanner (function/read/scan-source.ts) with the tree path, document by
// document as a run cuts a stream: wherever the scanner accepts a document, the subset reader must read it, and
// the object the planner files from the scan (indexScanned) must equal the one it files from that tree
// (indexObject) in every field downstream reads — identity, subject, labels, annotations, uid, metadata problems —
// and resolve to the same entries (keys, decoded bytes, binaryData and masked keys) with the same results.
// Returns the first difference as a sentence (no values), or undefined when they agree.
import { scanSource } from '../../function/read/scan-source.ts';
import { splitDocuments } from '../../function/read/stream-documents.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { emptyIndex, indexObject, indexScanned } from '../../function/plan/inventory.ts';
import { binaryDataKeys, maskedKeys, treelessEntries } from '../../function/resolve/bundle.ts';
import { DEFAULT_CONFIG } from '../../function/config/config.ts';
import { isMapNode } from '../../function/model/nodes.ts';
import type { KObject, SourceEntries } from '../../function/model/object.ts';
import type { Result } from '../../function/model/results.ts';

const FILE = { path: 'in.yaml' };

export function sourceScanDifference(text: string): string | undefined {
  const pieces = splitDocuments(text) ?? [];
  for (let i = 0; i < pieces.length; i++) {
    const difference = pieceDifference(pieces[i]!);
    if (difference) return `document ${i}: ${difference}`;
  }
  return undefined;
}

/** The scanned and the tree-read object of one document's text, when the scanner accepts it. */
export function bothReadings(piece: string): { scanned: KObject; tree: KObject | undefined } | undefined {
  const source = scanSource(piece);
  if (!source) return undefined;
  const read = readSubsetStream(piece);
  const root = read?.length === 1 && read[0]!.offset === 0 ? read[0]!.contents : undefined;
  const results: Result[] = [];
  const tree = isMapNode(root) ? indexObject(emptyIndex(), { node: root, file: FILE, readBy: 'subset' }, 0, DEFAULT_CONFIG, results) : undefined;
  return { scanned: indexScanned(emptyIndex(), source, FILE, 0, DEFAULT_CONFIG), tree: results.length === 0 ? tree : undefined };
}

function pieceDifference(piece: string): string | undefined {
  const both = bothReadings(piece);
  if (!both) return undefined;
  const { scanned, tree } = both;
  if (!tree) return 'the scanner accepts a document the subset reader does not read into one object';
  if (!tree.decoded) return 'the scanner accepts a document whose tree the planner keeps (a SOPS Secret, a producer\'s output, no name)';
  const facts = (o: KObject): unknown => [o.apiVersion, o.group, o.kind, o.name, o.namespace, o.subject, [...o.labels], [...o.annotations], o.uid, o.metadataProblems];
  if (JSON.stringify(facts(scanned)) !== JSON.stringify(facts(tree))) return 'the scanned object\'s identity, labels, annotations or uid differ from the tree\'s';
  const got: Result[] = [];
  const want: Result[] = [];
  const a = treelessEntries(scanned, got);
  const b = treelessEntries(tree, want);
  if (JSON.stringify(got) !== JSON.stringify(want)) return 'decoding the scanned entries gives other results than decoding the tree\'s';
  if (entriesOf(a) !== entriesOf(b)) return 'the scanned entries decode to other keys or bytes than the tree\'s';
  return undefined;
}

/** Keys in order, each value's bytes, and which keys came from binaryData or hold Argo CD's mask. */
function entriesOf(entries: SourceEntries | undefined): string {
  if (!entries) return 'none';
  return JSON.stringify([[...entries].map(([k, v]) => [k, Buffer.from(v).toString('hex')]), [...binaryDataKeys(entries)], [...maskedKeys(entries)]]);
}
