// Target kinds, OpenKruise SidecarSet (#38): never written, and said so with the pods its Secrets reach. A
// SidecarSet injects its containers and volumes into a pod when the pod is created, and updates the sidecars of
// running pods in place for an image change only (openkruise/kruise apis/apps/v1beta1/sidecarset_types.go;
// openkruise.io docs/user-manuals/sidecarset.md): a stamp on it would roll nothing, so the info result names the
// Secrets and ConfigMaps its containers read and the pods they reach (its selector), to be named on the
// workloads that make those pods.
import { podSpecRefs } from '../discover/pod-spec.ts';
import { EXTRA_CONFIGMAPS_ANNOTATION, EXTRA_SECRETS_ANNOTATION } from '../model/constants.ts';
import { childIn, isMapNode, isSeqNode, NodeReader, stringValue } from '../model/nodes.ts';
import { infoResult, type Result } from '../model/results.ts';
import type { KObject } from '../model/object.ts';
import type { PassThrough } from './kind.ts';

const GROUP = 'apps.kruise.io';

/** `app=web,tier=api`, `key in (a,b)` … as kubectl prints a label selector; `everything` for an empty one. */
function selectorText(selector: unknown): string {
  const parts: string[] = [];
  const labels = childIn(selector, ['matchLabels']);
  if (isMapNode(labels)) for (const pair of labels.items) parts.push(`${stringValue(pair.key) ?? ''}=${stringValue(pair.value) ?? ''}`);
  const expressions = childIn(selector, ['matchExpressions']);
  if (isSeqNode(expressions)) {
    for (const e of expressions.items) {
      const key = stringValue(childIn(e, ['key'])) ?? '';
      const op = (stringValue(childIn(e, ['operator'])) ?? '').toLowerCase();
      const values = childIn(e, ['values']);
      const list = isSeqNode(values) ? values.items.map((v) => stringValue(v) ?? '').join(',') : '';
      parts.push(op === 'exists' ? key : op === 'doesnotexist' ? `!${key}` : `${key} ${op} (${list})`);
    }
  }
  return parts.length === 0 ? 'every pod' : parts.join(',');
}

/** Where the pods are: `spec.namespace`, the namespaces `spec.namespaceSelector` matches, or every namespace. */
function namespacesText(obj: KObject): string {
  const namespace = stringValue(childIn(obj.item.node, ['spec', 'namespace']));
  if (namespace) return ` in namespace ${namespace}`;
  const selector = childIn(obj.item.node, ['spec', 'namespaceSelector']);
  return selector === undefined ? ' in every namespace' : ` in the namespaces ${selectorText(selector)}`;
}

/**
 * The info for a SidecarSet whose containers, initContainers or volumes name Secrets or ConfigMaps (undefined
 * for one that names none, or of another group). Names only: what it references, and its selectors.
 */
export function sidecarSetNote(obj: KObject): Result | undefined {
  if (obj.group !== GROUP || obj.kind !== 'SidecarSet' || !isMapNode(childIn(obj.item.node, ['spec']))) return undefined;
  const ignored: Result[] = []; // what the operator would refuse is its webhook's to say
  const spec = childIn(obj.item.node, ['spec']) as Parameters<typeof podSpecRefs>[0];
  const refs = podSpecRefs(spec, ['spec'], new NodeReader(obj.subject, ignored));
  const names = [...new Set(refs.filter((r) => r.cls !== 'SecretProviderClass').map((r) => `${r.cls} ${r.name}`))].sort();
  if (names.length === 0) return undefined;
  const selector = selectorText(childIn(obj.item.node, ['spec', 'selector']));
  const message =
    `not stamped: OpenKruise injects its containers when a pod is created and updates running sidecars in place for an image change only, ` +
    `so ${names.join(', ')} reach the pods ${selector === 'every pod' ? 'it selects' : `labelled ${selector}`}${namespacesText(obj)} when those pods are next created; ` +
    `to roll them on a change, name these on the workloads that make the pods (${EXTRA_SECRETS_ANNOTATION}, ${EXTRA_CONFIGMAPS_ANNOTATION})`;
  return infoResult('NO_TEMPLATE', message, obj.subject);
}

/** SidecarSets, whatever their labels say: never written; the info says which pods their Secrets reach. */
export const sidecarSetPassThrough: PassThrough = (obj) => sidecarSetNote(obj);
