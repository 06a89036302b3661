// Compares what the subset reader built with what the yaml library reads from the same stream (as the light
// nodes read/from-yaml.ts makes of it, which is what the stages read then): the promise the fast path rests on. Returns the first difference as a sentence (no values: test data may be secret-like),
// or undefined when the subset reader declined or agrees.
import { parseAllDocuments } from 'yaml';
import { addDuplicateKeyErrors, PARSE_OPTIONS } from '../../function/read/parse-yaml.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { fromYaml } from '../../function/read/from-yaml.ts';
import { blockIndent, flowStart, hasDoubleQuotedKeys, isScalarNode, isMapNode, keyOffset, leadingCommentOffset, type Node } from '../../function/model/nodes.ts';

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
    const theirContents = fromYaml(theirs.contents);
    if (mine.contents === null) {
      if (theirContents !== null && !(isScalarNode(theirContents) && theirContents.value === null)) return fail(`document ${i}: empty, the yaml library reads content`);
      continue;
    }
    const d = compareNode(mine.contents, theirContents, `doc[${i}]`);
    if (d) return fail(d);
  }
  return { accepted: true };
}

function compareNode(a: Node | null, b: Node | null, at: string): string | undefined {
  if (a === null || b === null) {
    const nullish = (n: Node | null): boolean => n === null || (isScalarNode(n) && n.value === null);
    return nullish(a) && nullish(b) ? undefined : `${at}: absent vs present`;
  }
  if (a.kind !== b.kind) return `${at}: ${a.kind} vs ${b.kind}`;
  if (a.kind === 'scalar' && b.kind === 'scalar') {
    if (!Object.is(a.value, b.value)) return `${at}: values differ (${typeof a.value} vs ${typeof b.value})`;
    if (a.style !== b.style) return `${at}: style ${a.style} vs ${b.style}`;
    if (a.start !== b.start || a.end !== b.end) return `${at}: range ${a.start},${a.end} vs ${b.start},${b.end}`;
    return undefined;
  }
  if (a.kind === 'map' && b.kind === 'map') {
    if (a.flow !== b.flow) return `${at}: flow differs`;
    if (a.items.length !== b.items.length) return `${at}: ${a.items.length} entries vs ${b.items.length}`;
    if (flowStart(a) !== flowStart(b)) return `${at}: flow start ${flowStart(a)} vs ${flowStart(b)}`;
    if (blockIndent(a) !== blockIndent(b)) return `${at}: indent ${blockIndent(a)} vs ${blockIndent(b)}`;
    if (keyOffset(a) !== keyOffset(b)) return `${at}: first key ${keyOffset(a)} vs ${keyOffset(b)}`;
    if (hasDoubleQuotedKeys(a) !== hasDoubleQuotedKeys(b)) return `${at}: quoted keys differ`;
    for (let i = 0; i < a.items.length; i++) {
      const pa = a.items[i]!;
      const pb = b.items[i]!;
      const key = isScalarNode(pa.key) ? String(pa.key.value) : '?';
      // Text edits read the comment above a map value only (leadingCommentOffset's one use).
      for (let col = 0; isMapNode(pa.value) && col < 24; col++) {
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
  if (a.kind === 'seq' && b.kind === 'seq') {
    if (a.flow !== b.flow) return `${at}: flow differs`;
    if (a.items.length !== b.items.length) return `${at}: ${a.items.length} items vs ${b.items.length}`;
    // A block list's first `-`: where a text edit inserts a new first entry.
    if (!a.flow && a.start !== b.start) return `${at}: list starts at ${a.start} vs ${b.start}`;
    for (let i = 0; i < a.items.length; i++) {
      const d = compareNode(a.items[i] ?? null, b.items[i] ?? null, `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  return `${at}: unknown node`;
}
