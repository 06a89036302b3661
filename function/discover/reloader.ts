// Discover stage: Stakater Reloader's annotations on a workload (#38), read as Reloader reads them
// (stakater/Reloader pkg/common/common.go ShouldReload): `reloader.stakater.com/auto`, the typed
// `secret.`/`configmap.reloader.stakater.com/auto` and the named `…/reload` lists. For each kind of source,
// the workload's own annotations are read when any of that kind's keys (reload, auto, typed auto, search) is
// there, else its pod template's. Opting in and named sources map; `search`/`match` does not (a render cannot
// see which live objects carry `match`), but a workload with `search` is one Reloader reloads too.
import { RELOADER } from '../model/constants.ts';
import { childIn, formatPath, isMapNode, stringValue, type MapNode } from '../model/nodes.ts';
import { errorResult, type Result } from '../model/results.ts';
import type { SourceRef } from '../model/dependencies.ts';
import type { KeyPath } from '../model/workload-row.ts';
import type { KObject } from '../model/object.ts';

/**
 * The kinds Reloader reloads (its internal/pkg/handler/upgrade.go RollingUpgradeFuncs), Kind to group: each kind
 * is in one group, and the object's kind string is looked up as it is, with no `group/Kind` key built (#37).
 */
const RELOADED_KINDS: ReadonlyMap<string, string> = new Map([['Deployment', 'apps'], ['DaemonSet', 'apps'], ['StatefulSet', 'apps'], ['CronJob', 'batch'], ['Job', 'batch'], ['Rollout', 'argoproj.io']]);

const CLASSES = ['Secret', 'ConfigMap'] as const;

/** What every key this module reads has in it. */
const RELOADER_DOMAIN = 'reloader.stakater.com/';

/** Go's strconv.ParseBool true values: what Reloader takes for "true". */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** What Reloader's annotations on one workload say, per kind of source. */
export interface ReloaderView {
  /** Reloader would reload the workload: an auto annotation true, a reload list, or search true. */
  reloaded: boolean;
  /** The annotations opt the workload in: an auto annotation true, or a reload list with a name. */
  optsIn: boolean;
  /** The named sources (`…/reload`), with where each list was read. */
  named: Array<{ cls: 'Secret' | 'ConfigMap'; value: string; field: string }>;
}

/** Whether Reloader reloads objects of this kind at all. */
export const isReloaderKind = (obj: KObject): boolean => RELOADED_KINDS.get(obj.kind) === obj.group;

/**
 * Reloader's annotations on `obj`; `template` is where its pod template's annotations are (a workload row's
 * stamp path). Undefined for a kind Reloader does not reload, or when it carries none of the keys.
 */
export function readReloader(obj: KObject, template: KeyPath): ReloaderView | undefined {
  if (!isReloaderKind(obj)) return undefined;
  const onPod = childIn(obj.item.node, template);
  // Most workloads carry none of Reloader's keys: one look at each map's keys says so.
  if (!mentionsReloader(obj.annotations.keys()) && !(isMapNode(onPod) && onPod.items.some((p) => mentions(stringValue(p.key))))) return undefined;
  const view: ReloaderView = { reloaded: false, optsIn: false, named: [] };
  for (const cls of CLASSES) {
    const keys = [RELOADER[cls].reload, RELOADER.auto, RELOADER[cls].auto, RELOADER.search];
    const own = keys.some((k) => obj.annotations.has(k));
    const get = (key: string): string | undefined => (own ? obj.annotations.get(key) : isMapNode(onPod) ? podAnnotation(onPod, key) : undefined);
    const at = own ? ['metadata', 'annotations'] : [...template];
    const auto = TRUE.has(get(RELOADER.auto) ?? '') || TRUE.has(get(RELOADER[cls].auto) ?? '');
    const reload = get(RELOADER[cls].reload);
    const named = reload !== undefined && reload.split(',').some((e) => e.trim() !== '');
    if (named) view.named.push({ cls, value: reload, field: formatPath([...at, RELOADER[cls].reload]) });
    view.optsIn ||= auto || named;
    view.reloaded ||= auto || named || get(RELOADER.search) === 'true';
  }
  return view.reloaded || view.optsIn ? view : undefined;
}

const mentions = (key: string | undefined): boolean => key !== undefined && key.includes(RELOADER_DOMAIN);

/** Whether a key names one of Reloader's annotations: the keys are read as they are, not copied to a list (#37). */
function mentionsReloader(keys: Iterable<string>): boolean {
  for (const key of keys) if (mentions(key)) return true;
  return false;
}

function podAnnotation(annotations: MapNode, key: string): string | undefined {
  return stringValue(childIn(annotations, [key]));
}

/**
 * The named sources as whole-object references in the workload's namespace.
 * - Reloader reads each entry as an anchored regular expression over names; rollstamp names sources exactly, so
 *   an entry that is not an object name (a pattern) is a BAD_ANNOTATION error that says so: a render cannot
 *   match a pattern against objects only the cluster has.
 * - Reads at most `max` + 1 entries, so a huge annotation costs no more than the cap (the caller refuses a
 *   target over it, #12).
 */
export function reloaderRefs(obj: KObject, view: ReloaderView, results: Result[], max: number): SourceRef[] {
  const refs: SourceRef[] = [];
  let seen = 0;
  for (const { cls, value, field } of view.named) {
    value.split(',', max + 2).forEach((raw, i) => {
      const name = raw.trim();
      if (name === '' || seen++ > max) return;
      if (DNS_SUBDOMAIN.test(name) && name.length <= 253) refs.push({ cls, namespace: '', name, keys: 'whole', optional: false, field });
      else {
        const message = `entry ${i + 1} is not a ${cls} name: Reloader reads it as a pattern, rollstamp names sources exactly (list the names, or set reloader: disabled)`;
        results.push(errorResult('BAD_ANNOTATION', message, obj.subject, field));
      }
    });
  }
  return refs;
}
