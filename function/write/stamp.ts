// Write stage, the stamp in tree form: writes the hash at a target's stamp site into the yaml library's tree of the
// document, for a re-rendering when no text edit can write it — an annotations map (a pod template's, or a
// kagent Agent's deployment annotations), or, for a kagent SandboxAgent, a literal env entry — creating the
// maps on the way when absent. The value is always a double-quoted scalar, so no YAML 1.1 reader retypes it.
// Writing the same value is a no-op. The stages read light nodes (model/nodes.ts); the library's tree is
// reached through the root's back-link, which only the yaml front-end sets: a document the subset reader read
// has no tree to render, and its caller reads the input again with the yaml library.
import { isMap, isScalar, isSeq, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ENV_STAMP_NAME } from '../model/constants.ts';
import type { MapNode } from '../model/nodes.ts';
import type { StampSite } from '../model/target.ts';
import { currentStamp } from '../model/stamp-site.ts';

/**
 * Sets the stamp at `site` below `root`.
 * - Returns false (and changes nothing) when the value is already there.
 * - env: the first entry named ROLLSTAMP_HASH is replaced in place (kagent keeps the first of a name), other
 *   entries and their order stay; without one, the entry goes first.
 * - Callers have checked the site (checkStampSite).
 */
export function writeStamp(root: MapNode, site: StampSite, key: string, value: string): boolean {
  if (currentStamp(root, site, key) === value) return false;
  const tree = root.yaml;
  if (!isMap(tree)) return true; // read by the subset reader: nothing to render
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  if (site.kind === 'annotation') {
    site.path.reduce(ensureMap, tree).set(key, scalar);
    return true;
  }
  const parent = site.path.slice(0, -1).reduce(ensureMap, tree);
  const name = site.path.at(-1)!;
  let env: unknown = parent.get(name, true);
  if (!isSeq(env)) {
    env = new YAMLSeq();
    parent.set(name, env);
  }
  const seq = env as YAMLSeq;
  const entry = new YAMLMap();
  entry.set('name', ENV_STAMP_NAME);
  entry.set('value', scalar);
  const index = seq.items.findIndex((item) => isMap(item) && scalarValue(item.get('name', true)) === ENV_STAMP_NAME);
  const found = index < 0 ? undefined : (seq.items[index] as YAMLMap);
  if (!found) seq.items.unshift(entry); // first: where the text edit puts it too
  else if (isOnlyNameAndValue(found)) found.set('value', scalar); // keeps the entry's layout
  else seq.items[index] = entry; // e.g. valueFrom: the entry becomes a literal
  return true;
}

const scalarValue = (node: unknown): unknown => (isScalar(node) ? node.value : undefined);

/** An entry that is `{name, value}` only, with a non-null value (as model/stamp-site.ts isOnlyNameAndValue). */
function isOnlyNameAndValue(entry: YAMLMap): boolean {
  const v = entry.get('value', true);
  return entry.items.length === 2 && v !== undefined && v !== null && !(isScalar(v) && v.value === null);
}

function ensureMap(parent: YAMLMap, key: string): YAMLMap {
  const existing: unknown = parent.get(key, true);
  if (existing instanceof YAMLMap) return existing;
  const created = new YAMLMap();
  parent.set(key, created); // replaces an empty (null) value, or appends the key
  return created;
}
