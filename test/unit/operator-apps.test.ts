// Two operator-deployed apps, checked key by key (#24): a kube-prometheus-stack-shaped render (Prometheus and
// Alertmanager with spec.secrets and spec.configMaps, a sidecar in spec.containers) and a Strimzi Kafka
// cluster (node pools, Connect). Every key of every Secret and ConfigMap is changed in turn: exactly the
// targets that consume it get a new hash, through both readers, and nothing else does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { ROOT, runInProcess } from '../support/run-cli.ts';

const APPS = join(ROOT, 'fixtures', 'operator-apps');

/** `Kind/name` of a source → for each key (`*`: every key), the targets (`Kind/name`) that consume it. */
type Consumers = Record<string, Record<string, string[]>>;

const CASES: Array<{ app: string; targets: string[]; consumers: Consumers }> = [
  {
    app: 'kube-prometheus-stack',
    targets: ['Deployment/kube-prometheus-stack-operator', 'Prometheus/kube-prometheus-stack-prometheus', 'Alertmanager/kube-prometheus-stack-alertmanager', 'Deployment/kube-prometheus-stack-grafana', 'DaemonSet/kube-prometheus-stack-prometheus-node-exporter'],
    consumers: {
      'Secret/kube-prometheus-stack-admission': { '*': ['Deployment/kube-prometheus-stack-operator'] },
      'Secret/etcd-client-cert': { '*': ['Prometheus/kube-prometheus-stack-prometheus'] },
      'ConfigMap/prometheus-recording-rules': { '*': ['Prometheus/kube-prometheus-stack-prometheus'] },
      'Secret/remote-write': { token: ['Prometheus/kube-prometheus-stack-prometheus'], 'unused-endpoint': [] },
      'ConfigMap/remote-write-ca': { 'ca.crt': ['Prometheus/kube-prometheus-stack-prometheus'], 'other.crt': [] },
      'Secret/alertmanager-tls': { '*': ['Alertmanager/kube-prometheus-stack-alertmanager'] },
      'ConfigMap/alertmanager-templates': { '*': ['Alertmanager/kube-prometheus-stack-alertmanager'] },
      'Secret/kube-prometheus-stack-grafana': { 'admin-user': ['Deployment/kube-prometheus-stack-grafana'], 'admin-password': ['Deployment/kube-prometheus-stack-grafana'], 'ldap-toml': [] },
      'ConfigMap/kube-prometheus-stack-grafana': { '*': ['Deployment/kube-prometheus-stack-grafana'] },
      // The operator renders Alertmanager's configuration from this Secret and its reloader applies it live.
      'Secret/alertmanager-kube-prometheus-stack-alertmanager': { '*': [] },
    },
  },
  {
    app: 'strimzi-kafka',
    targets: ['Kafka/events', 'KafkaNodePool/brokers', 'KafkaConnect/events-connect'],
    consumers: {
      'Secret/log-shipper': { token: ['Kafka/events'], endpoint: [] },
      'ConfigMap/events-rack-config': { '*': ['Kafka/events', 'KafkaNodePool/brokers'] },
      'ConfigMap/broker-tier': { tier: ['KafkaNodePool/brokers'], unused: [] },
      'Secret/sink-credentials': { password: ['KafkaConnect/events-connect'], username: [] },
      'Secret/sink-truststore': { '*': ['KafkaConnect/events-connect'] },
      // Strimzi watches its cluster CA itself (trustedCertificates): not a pod-template input.
      'Secret/events-cluster-ca-cert': { '*': [] },
    },
  },
];

async function hashes(app: string, text: string, env: Record<string, string> = {}): Promise<Map<string, string>> {
  const run = await runInProcess(['explain', '-o', 'json', '--config', join(APPS, app, 'config.yaml'), '-'], { stdin: text, env });
  assert.is(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as { targets: Array<{ resourceRef: { kind: string; name: string }; hash: string }> };
  return new Map(doc.targets.map((t) => [`${t.resourceRef.kind}/${t.resourceRef.name}`, t.hash]));
}

/** The input with one key's value changed. */
function mutate(text: string, source: string, key: string): string {
  const docs = parseAllDocuments(text);
  for (const doc of docs) {
    if (`${String(doc.get('kind'))}/${String(doc.getIn(['metadata', 'name']))}` !== source) continue;
    const field = doc.hasIn(['stringData', key]) ? 'stringData' : 'data';
    doc.setIn([field, key], `${String(doc.getIn([field, key]))}-changed`);
  }
  return docs.map((d) => d.toString({ lineWidth: 0 })).join('');
}

for (const c of CASES) {
  test(`${c.app}: every consumed key changed rolls exactly its consumers, and an unused key rolls nothing`, async () => {
    const text = readFileSync(join(APPS, c.app, 'input.yaml'), 'utf8');
    const base = await hashes(c.app, text);
    assert.equal([...base.keys()].sort(), [...c.targets].sort());
    const sources = parseAllDocuments(text).flatMap((d) => {
      const kind = String(d.get('kind'));
      if (kind !== 'Secret' && kind !== 'ConfigMap') return [];
      const map = (d.get('stringData') ?? d.get('data')) as { items: Array<{ key: { value: string } }> };
      return [{ id: `${kind}/${String(d.getIn(['metadata', 'name']))}`, keys: map.items.map((p) => p.key.value) }];
    });
    assert.equal(sources.map((s) => s.id).sort(), Object.keys(c.consumers).sort(), 'the table names every Secret and ConfigMap');
    for (const { id, keys } of sources) {
      for (const key of keys) {
        const expected = c.consumers[id]![key] ?? c.consumers[id]!['*'];
        assert.ok(expected, `${id} ${key}: not in the table`);
        for (const env of [{}, { ROLLSTAMP_READER: 'full' }] as Array<Record<string, string>>) {
          const after = await hashes(c.app, mutate(text, id, key), env);
          const rolled = [...base].filter(([t, h]) => after.get(t) !== h).map(([t]) => t);
          assert.equal(rolled.sort(), [...expected].sort(), `${id} ${key} (${JSON.stringify(env)})`);
        }
      }
    }
  });
}

test.run();
