// Write stage, the stamp in text form: the smallest edit to the source text that writes the stamp, so a stamped file
// diffs only in its annotation lines (comments, spacing and quoting elsewhere stay byte for byte). When the
// shape is unusual the answer is "no edit" and the document is printed again from its syntax tree instead.
import { ENV_STAMP_NAME } from '../model/constants.ts';
import { blockIndent, child, childIn, isSeqNode, childPair, flowStart, hasDoubleQuotedKeys, isMapNode, isNullish, keyOffset, leadingCommentOffset, nodeRange, scalarRange, type MapNode, type PairNode, type ScalarNode, type SeqNode } from '../model/nodes.ts';
import type { EditPlan, EditWindow, StampSite } from '../model/target.ts';
import { isOnlyNameAndValue, stampEntry } from '../model/stamp-site.ts';
import { resolveYaml11 } from './yaml11.ts';

/**
 * The edit that writes the stamp at `site` below `root`, planned from the tree as read (source positions) before
 * the value is known: the value goes between the plan's `before` and `after` (fillEdit).
 * - annotation: `<path>[key] = "value"` (path names the annotations map, e.g. `spec.template.metadata.annotations`).
 *   Missing maps on the path are created; an empty (null) one is filled in.
 * - env: the value of an existing `{name: ROLLSTAMP_HASH, value: …}` entry is edited in place; a new entry
 *   goes first in a block list whose entries are block maps. Other shapes are left to a fresh rendering.
 * - undefined: no safe text edit (explicit `?` keys, nodes without positions, a non-map on the path).
 */
export function planStampEdit(root: MapNode, site: StampSite, key: string): EditPlan | undefined {
  const plan = site.kind === 'env' ? planEnvEdit(root, site.path) : planAnnotationEdit(root, site.path, key);
  if (plan) {
    const window = editWindow(root, site.path, plan);
    if (window) plan.window = window;
  }
  return plan;
}

/**
 * The innermost block map on the path (never the root: the whole document is read back then anyway) that
 * holds the whole edit, from the start of its first key's line; the writer checks that only spaces come
 * before that key on its line (a map that is a list entry starts after `- `). The maps are walked outermost
 * first, the last that holds the edit kept: no list of them per plan (#37).
 */
function editWindow(root: MapNode, path: readonly string[], plan: EditPlan): EditWindow | undefined {
  let holder: MapNode | undefined;
  let holderStart = 0;
  let map = root;
  for (const key of path) {
    const next = child(map, key);
    if (!isMapNode(next)) break;
    map = next;
    const start = keyOffset(map);
    if (start === undefined) continue;
    if (start - map.indent <= plan.offset && plan.offset + plan.remove <= map.end) {
      holder = map;
      holderStart = start;
    }
  }
  return holder ? { start: holderStart, end: holder.end, indent: holder.indent } : undefined;
}

function planEnvEdit(root: MapNode, path: readonly string[]): EditPlan | undefined {
  const env = childIn(root, path);
  if (!isSeqNode(env)) return undefined;
  const found = stampEntry(env);
  if (!found) {
    const parent = childIn(root, path.slice(0, -1)) as MapNode;
    return prependEnvEntry(env, { map: parent, index: parent.items.findIndex((p) => p.value === env) });
  }
  if (!isOnlyNameAndValue(found.map)) return undefined;
  return replaceScalar(childPair(found.map, 'value')?.value);
}

/**
 * A new first entry of a block list whose first entry is a map starting on its `-` line, written in the same
 * layout (`-` column, key column): `- name: ROLLSTAMP_HASH` / `value: "…"`, above comment lines that open the list.
 */
function prependEnvEntry(env: SeqNode, parent: ParentPair): EditPlan | undefined {
  const first = env.items[0];
  const dash = env.start;
  if (env.flow || !isMapNode(first)) return undefined;
  const keyColumn = blockIndent(first);
  const keyAt = keyOffset(first);
  if (keyColumn === undefined || keyAt === undefined || keyAt <= dash) return undefined;
  const dashColumn = keyColumn - (keyAt - dash); // the key follows the dash on its line, or this is negative
  if (dashColumn < 0) return undefined;
  const entry = `-${' '.repeat(keyColumn - dashColumn - 1)}name: ${ENV_STAMP_NAME}\n${' '.repeat(keyColumn)}value: `;
  // Comment lines written above the first entry stay with it: insert above them.
  const offset = leadingCommentOffset(parent.map, parent.index, dashColumn) ?? dash;
  return { offset, remove: 0, before: entry, after: `\n${' '.repeat(dashColumn)}` };
}

function planAnnotationEdit(root: MapNode, path: readonly string[], key: string): EditPlan | undefined {
  let map = root;
  let parent: ParentPair | undefined;
  for (let i = 0; i < path.length; i++) {
    const pair = childPair(map, path[i]!);
    if (!pair) return insertEntry(map, parent, path, i, key);
    if (isNullish(pair.value)) return fillEmpty(map, pair, path, i, key);
    if (!isMapNode(pair.value)) return undefined;
    parent = { map, index: map.items.indexOf(pair) };
    map = pair.value;
  }
  const existing = childPair(map, key);
  if (!existing) return insertEntry(map, parent, path, path.length, key);
  return replaceScalar(existing.value);
}

/** Replaces exactly an existing scalar; a block scalar's range includes its line breaks (TextEdit.block). */
function replaceScalar(node: unknown): EditPlan | undefined {
  const range = scalarRange(node);
  if (!range) return undefined;
  const plan: EditPlan = { offset: range[0], remove: range[1] - range[0], before: '', after: '' };
  if ((node as ScalarNode).style === 'block') plan.block = true;
  return plan;
}

/** The map holding the pair whose value is the map being edited, and that pair's index. */
interface ParentPair {
  map: MapNode;
  index: number;
}

/** Inserts the entry (wrapped in the maps `path` names from `from` on) as the first entry of `map`. */
function insertEntry(map: MapNode, parent: ParentPair | undefined, path: readonly string[], from: number, key: string): EditPlan | undefined {
  const open = flowStart(map);
  if (open !== undefined) {
    const wrappers = path.slice(from);
    const k = hasDoubleQuotedKeys(map) ? JSON.stringify : yamlKey; // a JSON document stays JSON
    // `w1: {w2: {key: ` value `}}`
    const before = `${wrappers.map((w) => `${k(w)}: {`).join('')}${k(key)}: `;
    const closing = '}'.repeat(wrappers.length);
    // Before the first key (keeps `{ a: b }` padding as written), or right after `{` when there is none.
    const firstKey = map.items.length > 0 ? scalarRange(map.items[0]!.key)?.[0] : undefined;
    if (map.items.length > 0 && firstKey === undefined) return undefined;
    return firstKey !== undefined ? { offset: firstKey, remove: 0, before, after: `${closing}, ` } : { offset: open + 1, remove: 0, before, after: closing };
  }
  const indent = blockIndent(map);
  const first = keyOffset(map);
  if (indent === undefined || first === undefined) return undefined;
  // Comment lines written above the first key stay with it: insert above them.
  const offset = (parent && leadingCommentOffset(parent.map, parent.index, indent)) ?? first;
  const block = blockInsert(path, from, key, indent, childStep(map, indent));
  return { offset, remove: 0, before: block.before, after: block.after };
}

/** Replaces `name:` (empty or `null`) with the map it should hold. */
function fillEmpty(map: MapNode, pair: PairNode, path: readonly string[], from: number, key: string): EditPlan | undefined {
  const indent = blockIndent(map);
  const start = scalarRange(pair.key)?.[0];
  const end = nodeRange(pair.value)?.[1];
  if (indent === undefined || start === undefined || end === undefined || end < start) return undefined;
  const block = blockInsert(path, from, key, indent, childStep(map, indent));
  return { offset: start, remove: end - start, before: block.before, after: '' };
}

/**
 * The text a block insert writes before the value (blockLines without its first indentation) and after it (a line
 * break and `indent` spaces), for the maps `path` names from `from` on and `key`.
 */
interface BlockInsert {
  wrappers: readonly string[];
  key: string;
  indent: number;
  step: number;
  before: string;
  after: string;
}

/**
 * The last block insert made, given again for the same path, key and layout: a render's workloads are stamped at
 * one path, in one layout, so almost every plan takes the one before's text, and the plan keeps one copy of it
 * instead of one per workload (#37).
 */
let lastInsert: BlockInsert | undefined;

function blockInsert(path: readonly string[], from: number, key: string, indent: number, step: number): BlockInsert {
  const last = lastInsert;
  if (last !== undefined && last.key === key && last.indent === indent && last.step === step && samePathFrom(last, path, from)) return last;
  const wrappers = path.slice(from);
  const made: BlockInsert = { wrappers, key, indent, step, before: blockLines(wrappers, key, indent, step).slice(indent), after: `\n${' '.repeat(indent)}` };
  lastInsert = made;
  return made;
}

/** True when `path` from `from` on names the maps `last` was made for. */
function samePathFrom(last: BlockInsert, path: readonly string[], from: number): boolean {
  const { wrappers } = last;
  if (path.length - from !== wrappers.length) return false;
  for (let i = 0; i < wrappers.length; i++) if (path[from + i] !== wrappers[i]) return false;
  return true;
}

/** `w1:\n  w2:\n    key: ` (the value follows) at `indent`, each level `step` deeper. */
function blockLines(wrappers: readonly string[], key: string, indent: number, step: number): string {
  const lines = [...wrappers.map((w) => `${yamlKey(w)}:`), `${yamlKey(key)}: `];
  return lines.map((text, depth) => `${' '.repeat(indent + depth * step)}${text}`).join('\n');
}

/** The indentation step the file uses: from a nested block map of `map`, else 2. */
function childStep(map: MapNode, indent: number): number {
  for (const pair of map.items) {
    const inner = blockIndent(pair.value);
    if (inner !== undefined && inner > indent) return inner - indent;
  }
  return 2;
}

/**
 * A plain key when it reads back as the same string in YAML 1.2 and in YAML 1.1 (Kubernetes' reader), else a
 * double-quoted one: a plain `true:`, `null:`, `123:` or `on:` is a boolean, null or number key, and the stamp
 * written under it would not be found there by the next run (#33).
 */
function yamlKey(key: string): string {
  return /^[A-Za-z0-9][-A-Za-z0-9_./]*$/.test(key) && resolveYaml11(key).type === 'str' ? key : JSON.stringify(key);
}
