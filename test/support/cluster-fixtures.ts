// Test support for golden cases that read the cluster (fixtures/<area>/<case>/cluster.yaml): the case's objects
// served by a fake cluster on loopback (plain http, which a kubeconfig allows only with insecure-skip-tls-verify),
// and a kubeconfig for it. The objects get the same uids and resourceVersions on every run, in file order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { writeKubeconfig } from './fake-apiserver.ts';
import { startFakeCluster, type FakeCluster } from './fake-cluster.ts';
import type { GoldenCase } from './fixtures.ts';

export interface CaseCluster {
  cluster: FakeCluster;
  kubeconfig: string;
  close(): Promise<void>;
}

/** A fake cluster serving the case's cluster.yaml, and a kubeconfig that reaches it. */
export async function startCaseCluster(c: GoldenCase): Promise<CaseCluster> {
  const cluster = await startFakeCluster();
  for (const doc of parseAllDocuments(c.cluster ?? '')) {
    const obj = doc.toJS() as Record<string, unknown> | null;
    if (obj) cluster.apply(obj);
  }
  const dir = mkdtempSync(join(tmpdir(), 'rollstamp-case-cluster-'));
  const kubeconfig = writeKubeconfig(dir, { server: cluster.url, insecure: true, user: { token: 'case-token' } });
  return {
    cluster,
    kubeconfig,
    close: async () => {
      await cluster.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `stamp`'s argv for a cluster case: its config (which sets `live`) and the kubeconfig of its cluster. */
export function clusterStampArgs(c: GoldenCase, kubeconfig: string, input = 'input.yaml'): string[] {
  return ['stamp', ...(c.config !== undefined ? ['--config', 'config.yaml'] : []), '--kubeconfig', kubeconfig, input];
}
