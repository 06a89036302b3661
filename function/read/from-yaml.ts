// Read stage, full form: the yaml library's tree of one document as the light nodes of model/nodes.ts, for
// every stream the subset reader declines (anchors, tags, CRLF, BOM, multi-line scalars and flow, JSON …), so
// every stage reads one node model. Carries exactly what the node helpers read: values as the core schema
// resolved them, quote styles, ranges, aliases, and the layout text edits use (a block map's key column and
// explicit first key, the comment line between `key:` and a block value, a flow map's `{`). Each map and list
// keeps a back-link to the library's node, which a re-rendering (write/stamp.ts) edits. Iterative: a deeply
// nested document must reach the depth check, not overflow the stack.
import { isAlias, isMap, isScalar, isSeq, Scalar, type YAMLMap } from 'yaml';
import { AliasNode, MapNode, PairNode, ScalarNode, SeqNode, type Node, type QuoteStyle, type ScalarValue } from '../model/nodes.ts';

const STYLES: Readonly<Record<string, QuoteStyle>> = {
  [Scalar.PLAIN]: 'plain',
  [Scalar.QUOTE_SINGLE]: 'single',
  [Scalar.QUOTE_DOUBLE]: 'double',
  [Scalar.BLOCK_LITERAL]: 'block',
  [Scalar.BLOCK_FOLDED]: 'block',
};

interface Task {
  src: unknown;
  into: PairNode | SeqNode;
  /** 'key' or 'value' of a pair, or an index of a list. */
  slot: 'key' | 'value' | number;
}

/** The light tree of a yaml library node (a document's `contents`); null stays null. */
export function fromYaml(root: unknown): Node | null {
  const top = new PairNode(null, null);
  const stack: Task[] = [{ src: root, into: top, slot: 'value' }];
  while (stack.length > 0) {
    const { src, into, slot } = stack.pop()!;
    const node = convertOne(src, stack);
    if (typeof slot === 'number') (into as SeqNode).items[slot] = node;
    else (into as PairNode)[slot] = node;
  }
  return top.value;
}

/** One node, its children queued on `stack`. */
function convertOne(src: unknown, stack: Task[]): Node | null {
  if (isScalar(src)) return new ScalarNode(src.value as ScalarValue, STYLES[src.type ?? Scalar.PLAIN] ?? 'plain', src.range?.[0] ?? 0, src.range?.[1] ?? 0);
  if (isAlias(src)) return new AliasNode(src.source, src.range?.[0] ?? 0, src.range?.[1] ?? 0);
  if (isMap(src)) return convertMap(src, stack);
  if (isSeq(src)) {
    const seq = new SeqNode(Boolean(src.flow), src.range?.[0] ?? 0);
    seq.end = src.range?.[1] ?? 0;
    seq.yaml = src;
    src.items.forEach((item, i) => {
      seq.items.push(null);
      // (A pair written in a flow list, `[a: b]`, is already a map of one pair in the library's tree.)
      stack.push({ src: item, into: seq, slot: i });
    });
    return seq;
  }
  return null;
}

function convertMap(src: YAMLMap, stack: Task[]): MapNode {
  const tok = src.srcToken;
  const block = tok?.type === 'block-map' ? tok : undefined;
  const flowOpen = tok?.type === 'flow-collection' && tok.start.source === '{' ? tok.start.offset : -1;
  const map = new MapNode(Boolean(src.flow), src.range?.[0] ?? 0, block ? block.indent : -1, flowOpen);
  map.end = src.range?.[1] ?? 0;
  map.yaml = src;
  if (block) {
    map.explicitKey = block.items[0]?.start.some((t) => t.type === 'explicit-key-ind') ?? false;
    block.items.forEach((item, i) => {
      const comment = commentBelowKey(item.sep ?? []);
      if (comment) (map.comments ??= new Map()).set(i, comment);
    });
  }
  for (const pair of src.items) {
    const light = new PairNode(null, null);
    map.items.push(light);
    stack.push({ src: pair.value, into: light, slot: 'value' }, { src: pair.key, into: light, slot: 'key' });
  }
  return map;
}

/**
 * The first comment line after the line break that follows `key:` ([offset, column]; column -1 when it does not
 * start its line), read from the pair's separator tokens.
 */
function commentBelowKey(sep: ReadonlyArray<{ type: string; offset?: number; source?: string }>): [number, number] | undefined {
  const firstBreak = sep.findIndex((t) => t.type === 'newline');
  for (let i = firstBreak + 1; firstBreak >= 0 && i < sep.length; i++) {
    const t = sep[i]!;
    if (t.type !== 'comment') continue;
    const before = sep[i - 1];
    const col = before?.type === 'space' ? (before.source ?? '').length : before?.type === 'newline' ? 0 : -1;
    return [t.offset ?? 0, col];
  }
  return undefined;
}
