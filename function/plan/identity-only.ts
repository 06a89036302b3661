// Plan stage: which objects the planner needs only the identity of, so a run may skim their documents
// (read/scan-identity.ts) instead of reading them into trees. Kinds that are never a target, a source, a
// producer, a kagent object, a Namespace or a Rollout's workloadRef: indexing one of them files nothing and
// selecting it finds nothing, whatever its spec, as long as no rollstamp annotation and no local-config mark is on
// it — a skimmed document has none of those in its text at all.
import type { Config } from '../model/config.ts';
import type { ScannedIdentity } from '../model/object.ts';

/**
 * `group/kind` of the kinds a render holds most of besides workloads and sources (Services, RBAC, CRDs …).
 * test/unit/identity-only.test.ts plans each of them as a tree too and checks the plan is the same.
 */
export const IDENTITY_ONLY_KINDS: ReadonlySet<string> = new Set([
  '/Service',
  '/ServiceAccount',
  '/Endpoints',
  '/PersistentVolumeClaim',
  '/PersistentVolume',
  '/LimitRange',
  '/ResourceQuota',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy',
  'discovery.k8s.io/EndpointSlice',
  'policy/PodDisruptionBudget',
  'autoscaling/HorizontalPodAutoscaler',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/StorageClass',
  'monitoring.coreos.com/ServiceMonitor',
  'monitoring.coreos.com/PodMonitor',
  'monitoring.coreos.com/PrometheusRule',
  'gateway.networking.k8s.io/Gateway',
  'gateway.networking.k8s.io/HTTPRoute',
  'cert-manager.io/Issuer',
  'cert-manager.io/ClusterIssuer',
]);

/** The kind names of IDENTITY_ONLY_KINDS, whatever their group: a cheap first look at a document. */
export const IDENTITY_ONLY_NAMES: ReadonlySet<string> = new Set([...IDENTITY_ONLY_KINDS].map((k) => k.slice(k.indexOf('/') + 1)));

/**
 * Text that makes the planner read more of an object than its identity, whatever its kind: rollstamp's own
 * annotations (`rollstamp.dev/enabled` on a kind without a template warns; a live-read record is replaced, #34)
 * and the KRM local-config mark (the object is dropped). A document holding any of it anywhere is not skimmed.
 */
const READ_MORE = /rollstamp\.dev\/|config\.kubernetes\.io\/local-config/;

/**
 * Whether the planner needs nothing of this document's object but its identity.
 * - False for a kind the config declares as a workload (`spec.kinds`), and for any document whose text names a
 *   rollstamp annotation or the local-config mark.
 */
export function isIdentityOnly(identity: ScannedIdentity, text: string, config: Config): boolean {
  const slash = identity.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : identity.apiVersion.slice(0, slash);
  if (!IDENTITY_ONLY_KINDS.has(`${group}/${identity.kind}`)) return false;
  if (config.kinds?.some((row) => row.group === group && row.kind === identity.kind)) return false;
  return !READ_MORE.test(text);
}

/**
 * Whether a plain Secret or ConfigMap (read/scan-source.ts accepts no other) may be read without a tree: the
 * planner reads its identity, labels, annotations and uid, and resolving its entries, as long as neither a
 * rollstamp annotation nor the local-config mark is in its text and the config declares no workload row of its kind.
 */
export function isScannableSource(identity: ScannedIdentity, text: string, config: Config): boolean {
  if (config.kinds?.some((row) => row.group === '' && row.kind === identity.kind)) return false;
  return !READ_MORE.test(text);
}
