// Refresh stage, tracking: which Argo CD Application manages a workload, from Argo CD's tracking annotation
// (`APP:GROUP/KIND:NAMESPACE/NAME`, APP written `NS_NAME` for an Application outside the control plane's namespace)
// or else its instance label — and only when that Application is in scope and lists the workload among the
// resources it manages (`status.resources`). A workload anyone could annotate by hand, or copy an annotation
// onto, so names no Application it does not belong to (#33 item 11).
import { ARGOCD_INSTANCE_LABEL, ARGOCD_TRACKING_ANNOTATION } from '../model/constants.ts';
import { result, type Result } from '../model/results.ts';
import type { ApplicationView, RefreshScope, WorkloadView } from '../model/refresh.ts';

/** The tracking id's parts: `APP:GROUP/KIND:NAMESPACE/NAME`. */
const TRACKING_ID = /^([^:/]+):([^/:]*)\/([^:/]+):([^/:]*)\/([^:/]+)$/;
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** `group/Kind/namespace/name`: how a workload is keyed in ApplicationView.resources. */
export const resourceKey = (group: string, kind: string, namespace: string, name: string): string => `${group}/${kind}/${namespace}/${name}`;

/** The Application that manages `w` (in scope, and listing it), or why none does (a result naming the workload). */
export function managingApplication(w: WorkloadView, scope: RefreshScope, applications: ReadonlyMap<string, ApplicationView>): { app: ApplicationView } | { problem: Result } {
  const subject = { ref: w.ref };
  const named = applicationNamed(w, scope);
  if ('problem' in named) return { problem: result(named.severity, 'UNMANAGED_WORKLOAD', named.problem, subject) };
  const { namespace, name, by } = named;
  if (namespace !== scope.argocdNamespace && !scope.applicationNamespaces.has(namespace)) {
    const message = `its ${by} names Application ${namespace}/${name}, outside the Argo CD namespaces it may refresh (--argocd-namespace, --application-namespaces): record not acted on`;
    return { problem: result('warning', 'UNMANAGED_WORKLOAD', message, subject) };
  }
  const app = applications.get(`${namespace}/${name}`);
  if (!app) return { problem: result('info', 'UNMANAGED_WORKLOAD', `its ${by} names Application ${namespace}/${name}, which does not exist: record not acted on`, subject) };
  if (!app.resources.has(resourceKey(w.group, w.ref.kind, w.ref.namespace, w.ref.name))) {
    const message = `its ${by} names Application ${namespace}/${name}, which does not list it among its resources (status.resources): record not acted on`;
    return { problem: result('warning', 'UNMANAGED_WORKLOAD', message, subject) };
  }
  return { app };
}

type Named = { namespace: string; name: string; by: string } | { problem: string; severity: 'info' | 'warning' };

function applicationNamed(w: WorkloadView, scope: RefreshScope): Named {
  if (w.trackingId !== undefined) {
    const by = `${ARGOCD_TRACKING_ANNOTATION} annotation`;
    const m = TRACKING_ID.exec(w.trackingId);
    if (!m) return { problem: `its ${by} does not read as APP:GROUP/KIND:NAMESPACE/NAME: record not acted on`, severity: 'warning' };
    const [, app, group, kind, namespace, name] = m as unknown as [string, string, string, string, string, string];
    // Argo CD itself ignores a tracking id that names another object: the annotation was copied (e.g. by a controller).
    if (group !== w.group || kind !== w.ref.kind || namespace !== w.ref.namespace || name !== w.ref.name) {
      return { problem: `its ${by} names another object (${group}/${kind} ${namespace}/${name}): record not acted on`, severity: 'warning' };
    }
    const underscore = app.indexOf('_');
    const [appNamespace, appName] = underscore < 0 ? [scope.argocdNamespace, app] : [app.slice(0, underscore), app.slice(underscore + 1)];
    if (!NAME.test(appNamespace) || !NAME.test(appName)) return { problem: `its ${by} names no valid Application: record not acted on`, severity: 'warning' };
    return { namespace: appNamespace, name: appName, by };
  }
  if (w.instance !== undefined) {
    if (!NAME.test(w.instance)) return { problem: `its ${ARGOCD_INSTANCE_LABEL} label names no valid Application: record not acted on`, severity: 'warning' };
    return { namespace: scope.argocdNamespace, name: w.instance, by: `${ARGOCD_INSTANCE_LABEL} label` };
  }
  return { problem: `it carries a live-read record but no ${ARGOCD_TRACKING_ANNOTATION} annotation or ${ARGOCD_INSTANCE_LABEL} label: no Application to refresh`, severity: 'info' };
}
