// Read stage, fast form (flow collections): a `[...]` or `{...}` that opens and closes on one line, read into
// light nodes for read/subset-yaml.ts and read/scan-identity.ts alike, so both decide the same. Anything else
// (a collection going on over lines, a pair in a list, a trailing comma, `:x`, a comment inside) throws OUT.
import { MapNode, PairNode, SeqNode, type Node, type ScalarNode } from '../model/nodes.ts';
import { MAX_DEPTH } from '../model/target.ts';
import { outside, plainScalar, plainStart, quoted } from './subset-scalars.ts';
import type { Building } from './subset-keys.ts';

/**
 * The flow collection at `at` (its `[` or `{`) closing before `eol`, at collection depth `depth` (the
 * document's root map is 0, as model/safety.ts counts); its `end` is past the closing bracket. Its items are
 * gathered on `building`, the reader's.
 */
export function readFlow(t: string, at: number, eol: number, depth: number, building: Building): MapNode | SeqNode {
  if (depth >= MAX_DEPTH) outside();
  // Char codes throughout, not one-character strings: every workload holds a few of these (#37).
  const isMap = t.charCodeAt(at) === 123 /* { */;
  const close = isMap ? 125 /* } */ : 93 /* ] */;
  const map = isMap ? new MapNode(true, at, -1, at) : undefined;
  const seq = isMap ? undefined : new SeqNode(true, at);
  const from = isMap ? building.pairMark() : building.entryMark();
  let i = skipSpaces(t, at + 1, eol);
  if (t.charCodeAt(i) === close) i++;
  else {
    for (;;) {
      const item = flowItem(t, i, eol, depth, building);
      i = skipSpaces(t, item.end, eol);
      if (map) {
        const key = item.kind === 'scalar' ? item.value : undefined;
        if (typeof key !== 'string' || t.charCodeAt(i) !== 58 /* : */ || t.charCodeAt(i + 1) !== 32 /* ' ' */ || building.hasKey(from, map, key)) outside();
        if (key === '<<' && (item as ScalarNode).style === 'plain') outside(); // a merge key
        const value = flowItem(t, skipSpaces(t, i + 1, eol), eol, depth, building);
        building.addPair(new PairNode(item, value));
        i = skipSpaces(t, value.end, eol);
      } else {
        if (t.charCodeAt(i) === 58 /* : */) outside(); // `[a: b]`: a pair in a list
        building.addEntry(item);
      }
      if (t.charCodeAt(i) === close) {
        i++;
        break;
      }
      if (t.charCodeAt(i) !== 44 /* , */) outside();
      i = skipSpaces(t, i + 1, eol);
      if (t.charCodeAt(i) === close) outside(); // a trailing comma
    }
  }
  if (map) {
    map.items = building.takePairs(from);
    map.end = i;
    return map;
  }
  seq!.items = building.takeEntries(from);
  seq!.end = i;
  return seq!;
}

/** An item of a flow collection; its `end` is where its text ends (trailing spaces excluded). */
function flowItem(t: string, at: number, eol: number, depth: number, building: Building): Node & { end: number } {
  const c = t.charCodeAt(at);
  if (at >= eol) outside();
  if (c === 91 /* [ */ || c === 123 /* { */) return readFlow(t, at, eol, depth + 1, building);
  if (c === 34 /* " */ || c === 39 /* ' */) return quoted(t, at, eol);
  if (c === 58 /* : */ || !plainStart(t, at, eol)) outside(); // `:x` in a flow collection is left to the library
  // A plain scalar in a flow collection ends at a flow indicator, `: `, ` #` or the line's end.
  let end = at;
  while (end < eol) {
    const ch = t.charCodeAt(end);
    if (ch === 44 /* , */ || ch === 93 /* ] */ || ch === 125 /* } */) break;
    if (ch === 91 /* [ */ || ch === 123 /* { */) outside();
    if (ch === 58 /* : */ && (end + 1 >= eol || endsFlowPlain(t.charCodeAt(end + 1)))) break;
    if (ch === 35 /* # */ && t.charCodeAt(end - 1) === 32 /* ' ' */) outside();
    end++;
  }
  if (end >= eol) outside(); // the collection continues on the next line
  let valueEnd = end;
  while (t.charCodeAt(valueEnd - 1) === 32 /* ' ' */) valueEnd--;
  return plainScalar(t, at, valueEnd);
}

/** A space or a flow indicator: after `:`, they end a plain scalar in a flow collection. */
function endsFlowPlain(c: number): boolean {
  return c === 32 /* ' ' */ || c === 44 /* , */ || c === 91 /* [ */ || c === 93 /* ] */ || c === 123 /* { */ || c === 125 /* } */;
}

function skipSpaces(t: string, i: number, eol: number): number {
  while (i < eol && t.charCodeAt(i) === 32 /* ' ' */) i++;
  return i;
}
