// Stamp stage: writes the hash at a target's stamp site — an annotations map (a pod template's, or a kagent
// Agent's deployment annotations), or, for a kagent SandboxAgent, a literal env entry — creating the maps on
// the way when absent. The value is always a double-quoted scalar, so no YAML 1.1 reader retypes it. Writing
// the same value is a no-op.
import { Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ENV_STAMP_NAME } from '../model/constants.ts';
import { child, isSeqNode } from '../model/nodes.ts';
import type { StampSite } from '../model/target.ts';
import { currentStamp, isOnlyNameAndValue, stampEntry } from '../model/stamp-site.ts';

/**
 * Sets the stamp at `site` below `root`.
 * - Returns false (and changes nothing) when the value is already there.
 * - env: the first entry named ROLLSTAMP_HASH is replaced in place (kagent keeps the first of a name), other
 *   entries and their order stay; without one, the entry goes first.
 * - Callers have checked the site (checkStampSite).
 */
export function writeStamp(root: YAMLMap, site: StampSite, key: string, value: string): boolean {
  if (currentStamp(root, site, key) === value) return false;
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  if (site.kind === 'annotation') {
    site.path.reduce(ensureMap, root).set(key, scalar);
    return true;
  }
  const parent = site.path.slice(0, -1).reduce(ensureMap, root);
  const name = site.path.at(-1)!;
  let env = child(parent, name);
  if (!isSeqNode(env)) {
    env = new YAMLSeq();
    parent.set(name, env);
  }
  const seq = env as YAMLSeq;
  const entry = new YAMLMap();
  entry.set('name', ENV_STAMP_NAME);
  entry.set('value', scalar);
  const found = stampEntry(seq);
  if (!found) seq.items.unshift(entry); // first: where the text edit puts it too
  else if (isOnlyNameAndValue(found.map)) found.map.set('value', scalar); // keeps the entry's layout
  else seq.items[found.index] = entry; // e.g. valueFrom: the entry becomes a literal
  return true;
}

function ensureMap(parent: YAMLMap, key: string): YAMLMap {
  const existing = child(parent, key);
  if (existing instanceof YAMLMap) return existing;
  const created = new YAMLMap();
  parent.set(key, created); // replaces an empty (null) value, or appends the key
  return created;
}
