// Objects of every row of the workload kind table, built from the row itself: a pod spec at each of its pod
// spec paths (a container env keyRef and a Secret volume; a `*` key is a list of one), an entry in each env,
// envFrom and name list, a key selector at each key ref, and the Secrets and ConfigMaps they name. Used by the
// row, property and real-app suites.
import { stringify } from 'yaml';
import type { KeyPath, WorkloadRow } from '../../function/model/workload-row.ts';

/** `apiVersion` of an object the row reads (its first version, `v1` for a row of any version). */
export const apiVersionOf = (row: WorkloadRow): string => {
  const version = row.versions?.[0] ?? 'v1';
  return row.group === '' ? version : `${row.group}/${version}`;
};

/** Sets `value` at `path`, making maps on the way; a `*` key makes (or enters) a list of one map. */
function setIn(root: Record<string, unknown>, path: KeyPath, value: unknown): void {
  let cur = root;
  path.forEach((key, i) => {
    if (path[i + 1] === '*') {
      if (!Array.isArray(cur[key])) cur[key] = [{}];
      return;
    }
    if (key === '*') {
      cur = (cur[path[i - 1]!] as Record<string, unknown>[])[0]!;
      return;
    }
    if (i === path.length - 1) {
      const had = cur[key];
      cur[key] = typeof had === 'object' && had !== null && !Array.isArray(had) && typeof value === 'object' ? { ...had, ...(value as object) } : value;
      return;
    }
    if (typeof cur[key] !== 'object' || cur[key] === null) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  });
}

/** The names of what an object of `row` named `name` uses, one source per field, each with one key `k`. */
export interface RowObject {
  object: Record<string, unknown>;
  secrets: string[];
  configMaps: string[];
}

/** An object of `row`, opted in, whose every reference field names its own source (`<name>-<field n>`). */
export function objectOf(row: WorkloadRow, name: string, namespace = 'shop'): RowObject {
  const object: Record<string, unknown> = { apiVersion: apiVersionOf(row), kind: row.kind, metadata: { name, namespace, annotations: { 'rollstamp.dev/enabled': 'true' } } };
  const secrets: string[] = [];
  const configMaps: string[] = [];
  const fresh = (list: string[], field: string): string => {
    const source = `${name}-${field}-${list.length}`;
    list.push(source);
    return source;
  };
  if (row.required.length > 0) setIn(object, row.required, {});
  // A rule that stamps nothing unless a field says so (a VMCluster balancer that is not enabled): say so.
  for (const rule of row.rules ?? []) if (rule.unless && rule.rolls === 'immutable') setIn(object, rule.path, rule.unless[0] === 'true' ? true : rule.unless[0]);
  for (const path of row.podSpecs) {
    const env = [{ name: 'A', valueFrom: { secretKeyRef: { name: fresh(secrets, 'env'), key: 'k' } } }];
    setIn(object, path, {
      containers: [{ name: 'app', image: 'example/app:1', env }],
      volumes: [{ name: 'conf', configMap: { name: fresh(configMaps, 'volume') } }],
    });
  }
  for (const path of row.env ?? []) setIn(object, path, [{ name: 'B', valueFrom: { configMapKeyRef: { name: fresh(configMaps, 'env'), key: 'k' } } }]);
  for (const path of row.envFrom ?? []) setIn(object, path, [{ secretRef: { name: fresh(secrets, 'envfrom') } }]);
  for (const path of row.keyRefs ?? []) setIn(object, path, { name: fresh(secrets, 'keyref'), key: 'k' });
  for (const path of row.secretNames ?? []) setIn(object, path, [fresh(secrets, 'names')]);
  for (const path of row.configMapNames ?? []) setIn(object, path, [fresh(configMaps, 'names')]);
  return { object, secrets, configMaps };
}

/** The Secrets and ConfigMaps an object uses, each with key `k` holding `value`. */
export function sourcesOf(o: RowObject, value = 'one', namespace = 'shop'): Record<string, unknown>[] {
  return [
    ...o.secrets.map((name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData: { k: value } })),
    ...o.configMaps.map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { k: value } })),
  ];
}

/** A YAML stream of objects. */
export const streamOf = (objects: readonly unknown[]): string => objects.map((o) => stringify(o)).join('---\n');
