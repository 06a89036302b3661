// Compares what the subset reader built with what the yaml library reads from the same stream: the promise
// the fast path rests on. Returns the first difference as a sentence (no values: test data may be secret-like),
// or undefined when the subset reader declined or agrees.
import { isMap, isScalar, isSeq, parseAllDocuments, Scalar } from 'yaml';
import { addDuplicateKeyErrors, PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { blockIndent, flowStart, keyOffset, leadingCommentOffset } from '../../function/model/nodes.ts';

export type Verdict = { accepted: false } | { accepted: true; difference?: string };

export function compareWithYaml(text: string): Verdict {
  const subset = readSubsetStream(text);
  if (!subset) return { accepted: false };
  const full = parseAllDocuments(text, PARSE_OPTIONS);
  const fullDocs = Array.isArray(full) ? full : [];
  fullDocs.forEach(addDuplicateKeyErrors);
  const fail = (difference: string): Verdict => ({ accepted: true, difference });
  const errors = fullDocs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.code));
  if (errors.length > 0) return fail(`the yaml library reports ${errors.join(', ')}`);
  if (fullDocs.length !== subset.length) return fail(`${subset.length} documents, the yaml library reads ${fullDocs.length}`);
  for (let i = 0; i < subset.length; i++) {
    const mine = subset[i]!;
    const theirs = fullDocs[i]!;
    const start = i === 0 ? 0 : (theirs.contents as { range?: number[] } | null)?.range?.[0];
    if (i > 0 && start !== undefined && !(mine.offset <= start)) return fail(`document ${i} starts at ${mine.offset}, after its content`);
    if (i > 0 && text.slice(mine.offset, mine.offset + 3) !== '---') return fail(`document ${i} does not start at its marker`);
    const theirContents = theirs.contents;
    if (mine.contents === null) {
      if (theirContents !== null && !(isScalar(theirContents) && theirContents.value === null)) return fail(`document ${i}: empty, the yaml library reads content`);
      continue;
    }
    const d = compareNode(mine.contents, theirContents, `doc[${i}]`);
    if (d) return fail(d);
  }
  return { accepted: true };
}

function compareNode(a: unknown, b: unknown, at: string): string | undefined {
  if (isScalar(a) || isScalar(b)) {
    if (!isScalar(a) || !isScalar(b)) return `${at}: scalar vs collection`;
    if (!Object.is(a.value, b.value)) return `${at}: values differ (${typeof a.value} vs ${typeof b.value})`;
    if (a.type !== b.type) return `${at}: type ${a.type} vs ${b.type}`;
    if (a.source !== b.source) return `${at}: source differs`;
    if (a.format !== b.format) return `${at}: format ${a.format} vs ${b.format}`;
    if (a.tag !== b.tag) return `${at}: tag differs`;
    if (a.range?.[0] !== b.range?.[0] || a.range?.[1] !== b.range?.[1]) return `${at}: range ${a.range?.slice(0, 2)} vs ${b.range?.slice(0, 2)}`;
    return undefined;
  }
  if (isMap(a)) {
    if (!isMap(b)) return `${at}: map vs other`;
    if (Boolean(a.flow) !== Boolean(b.flow)) return `${at}: flow differs`;
    if (a.items.length !== b.items.length) return `${at}: ${a.items.length} entries vs ${b.items.length}`;
    if (flowStart(a) !== flowStart(b)) return `${at}: flow start ${flowStart(a)} vs ${flowStart(b)}`;
    if (blockIndent(a) !== blockIndent(b)) return `${at}: indent ${blockIndent(a)} vs ${blockIndent(b)}`;
    if (keyOffset(a) !== keyOffset(b)) return `${at}: first key ${keyOffset(a)} vs ${keyOffset(b)}`;
    for (let i = 0; i < a.items.length; i++) {
      const pa = a.items[i]!;
      const pb = b.items[i]!;
      const key = isScalar(pa.key) ? String(pa.key.value) : '?';
      // Text edits read the comment above a map value only (leadingCommentOffset's one use).
      for (let col = 0; isMap(pa.value) && col < 24; col++) {
        const ca = leadingCommentOffset(a, i, col);
        const cb = leadingCommentOffset(b, i, col);
        if (ca !== cb) return `${at}.${key}: comment before value ${ca} vs ${cb} (column ${col})`;
      }
      const dk = compareNode(pa.key, pb.key, `${at}{key ${i}}`);
      if (dk) return dk;
      const dv = compareNode(pa.value, pb.value, `${at}.${key}`);
      if (dv) return dv;
    }
    return undefined;
  }
  if (isSeq(a)) {
    if (!isSeq(b)) return `${at}: list vs other`;
    if (Boolean(a.flow) !== Boolean(b.flow)) return `${at}: flow differs`;
    if (a.items.length !== b.items.length) return `${at}: ${a.items.length} items vs ${b.items.length}`;
    for (let i = 0; i < a.items.length; i++) {
      const d = compareNode(a.items[i], b.items[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a === null && (b === null || (isScalar(b) && (b as Scalar).value === null))) return undefined;
  return `${at}: unknown node`;
}
