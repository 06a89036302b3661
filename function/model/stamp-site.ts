// Model: reading a target's stamp site — the field a stamp is written to, the stamp there now, and whether
// every node on the way can hold one. Writing it is write/'s job.
import { ENV_STAMP_NAME } from './constants.ts';
import { child, childIn, formatPath, isMapNode, isNullish, isSeqNode, NodeReader, ROOT_PATH, stringValue } from './nodes.ts';
import type { StampSite } from './target.ts';
import type { MapNode, SeqNode } from './nodes.ts';

/**
 * The field a stamp is written to, as a dot path (`…annotations["rollstamp.dev/hash"]`, `…env[name=ROLLSTAMP_HASH].value`).
 * Formatted once per site and key: every target of a workload row shares its row's site, and each target's report
 * names the field (#37). Kept by the site, so a site that goes takes its field with it.
 */
export function stampField(site: StampSite, key: string): string {
  const known = FIELDS.get(site);
  if (known?.key === key) return known.field;
  const field = site.kind === 'annotation' ? formatPath([...site.path, key]) : `${formatPath(site.path)}[name=${ENV_STAMP_NAME}].value`;
  FIELDS.set(site, { key, field });
  return field;
}

const FIELDS = new WeakMap<StampSite, { key: string; field: string }>();

/** The current stamp at `site` below `root`, if any. */
export function currentStamp(root: MapNode, site: StampSite, key: string): string | undefined {
  const at = childIn(root, site.path);
  if (site.kind === 'annotation') return isMapNode(at) ? stringValue(child(at, key)) : undefined;
  const entry = isSeqNode(at) ? stampEntry(at) : undefined;
  return entry ? stringValue(child(entry.map, 'value')) : undefined;
}

/**
 * Records a WRONG_TYPE result when something on the way to the site is not what a stamp can be written into
 * (a non-map on the path; for env, a non-list or a non-map entry). Returns false then.
 */
export function checkStampSite(root: MapNode, site: StampSite, reader: NodeReader): boolean {
  const before = reader.results.length;
  if (site.kind === 'annotation') {
    reader.mapIn(root, ROOT_PATH, site.path);
    return reader.results.length === before;
  }
  const parent = reader.mapIn(root, ROOT_PATH, site.path.slice(0, -1));
  const env = parent ? reader.seq(child(parent, site.path.at(-1)!), site.path) : undefined;
  env?.items.forEach((item, i) => reader.map(item, [...site.path, i]));
  return reader.results.length === before;
}

/** The first env entry named ROLLSTAMP_HASH. */
export function stampEntry(env: SeqNode): { map: MapNode; index: number } | undefined {
  const index = env.items.findIndex((item) => isMapNode(item) && stringValue(child(item, 'name')) === ENV_STAMP_NAME);
  return index < 0 ? undefined : { map: env.items[index] as MapNode, index };
}

/** An entry that is `{name, value}` only. */
export function isOnlyNameAndValue(entry: MapNode): boolean {
  return entry.items.length === 2 && child(entry, 'value') !== undefined && !isNullish(child(entry, 'value'));
}
