// Stamp stage: writes the hash at a target's stamp site — an annotations map (a pod template's, or a kagent
// Agent's deployment annotations), or, for a kagent SandboxAgent, a literal env entry — creating the maps on
// the way when absent. The value is always a double-quoted scalar, so no YAML 1.1 reader retypes it. Writing
// the same value is a no-op.
import { Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ENV_STAMP_NAME } from '../model/constants.ts';
import { child, childIn, formatPath, isMapNode, isNullish, isSeqNode, NodeReader, stringValue } from '../model/nodes.ts';

/**
 * Where a target's stamp goes.
 * - `annotation`: `<path>[annotationKey]`, path naming an annotations map;
 * - `env`: the entry named `ROLLSTAMP_HASH` of the env list at `path` (its `value`): kagent's Substrate
 *   ActorTemplate takes only image, command and env from a SandboxAgent (#13).
 */
export interface StampSite {
  kind: 'annotation' | 'env';
  path: readonly string[];
}

/** The field a stamp is written to, as a dot path (`…annotations["rollstamp.dev/hash"]`, `…env[name=ROLLSTAMP_HASH].value`). */
export function stampField(site: StampSite, key: string): string {
  return site.kind === 'annotation' ? formatPath([...site.path, key]) : `${formatPath(site.path)}[name=${ENV_STAMP_NAME}].value`;
}

/** The current stamp at `site` below `root`, if any. */
export function currentStamp(root: YAMLMap, site: StampSite, key: string): string | undefined {
  const at = childIn(root, site.path);
  if (site.kind === 'annotation') return isMapNode(at) ? stringValue(child(at, key)) : undefined;
  const entry = isSeqNode(at) ? stampEntry(at) : undefined;
  return entry ? stringValue(child(entry.map, 'value')) : undefined;
}

/**
 * Records a WRONG_TYPE result when something on the way to the site is not what a stamp can be written into
 * (a non-map on the path; for env, a non-list or a non-map entry). Returns false then.
 */
export function checkStampSite(root: YAMLMap, site: StampSite, reader: NodeReader): boolean {
  const before = reader.results.length;
  if (site.kind === 'annotation') {
    reader.mapIn(root, [], site.path);
    return reader.results.length === before;
  }
  const parent = reader.mapIn(root, [], site.path.slice(0, -1));
  const env = parent ? reader.seq(child(parent, site.path.at(-1)!), site.path) : undefined;
  env?.items.forEach((item, i) => reader.map(item, [...site.path, i]));
  return reader.results.length === before;
}

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

/** The first env entry named ROLLSTAMP_HASH. */
export function stampEntry(env: YAMLSeq): { map: YAMLMap; index: number } | undefined {
  const index = env.items.findIndex((item) => isMapNode(item) && stringValue(child(item, 'name')) === ENV_STAMP_NAME);
  return index < 0 ? undefined : { map: env.items[index] as YAMLMap, index };
}

/** An entry that is `{name, value}` only. */
export function isOnlyNameAndValue(entry: YAMLMap): boolean {
  return entry.items.length === 2 && child(entry, 'value') !== undefined && !isNullish(child(entry, 'value'));
}

function ensureMap(parent: YAMLMap, key: string): YAMLMap {
  const existing = child(parent, key);
  if (existing instanceof YAMLMap) return existing;
  const created = new YAMLMap();
  parent.set(key, created); // replaces an empty (null) value, or appends the key
  return created;
}
