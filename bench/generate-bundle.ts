// Synthetic bundles for the benchmark: a realistic mix of objects with comments, as a multi-document
// stream and as a KRM ResourceList. Deterministic for a given size (seeded), so runs compare.

const MIX = { workload: 0.4, secret: 0.3, configMap: 0.2 } as const;

/** mulberry32: small, seeded, good enough for shaping test data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The documents of a bundle of `count` objects, each as YAML text (no `---`). */
export function bundleDocuments(count: number): string[] {
  const random = rng(count);
  const workloads = Math.round(count * MIX.workload);
  const secrets = Math.round(count * MIX.secret);
  const configMaps = Math.round(count * MIX.configMap);
  const rest = count - workloads - secrets - configMaps;
  const ns = (i: number): string => `team-${i % 20}`;
  const docs: string[] = [];
  for (let i = 0; i < secrets; i++) docs.push(secret(i, ns(i)));
  for (let i = 0; i < configMaps; i++) docs.push(configMap(i, ns(i)));
  // A source in the workload's own namespace: same index modulo the 20 namespaces.
  const sameNamespace = (i: number, count: number): number => Math.min(count - 1, Math.floor((random() * count) / 20) * 20 + (i % 20));
  for (let i = 0; i < workloads; i++) {
    const s = sameNamespace(i, secrets);
    const c = sameNamespace(i, configMaps);
    docs.push(workload(i, ns(i), s, c, i % 10 === 0 ? 'StatefulSet' : 'Deployment'));
  }
  for (let i = 0; i < rest; i++) {
    if (i % 50 === 0) docs.push(agent(i, ns(i)));
    else if (i % 50 === 1) docs.push(modelConfig(i - 1, ns(i - 1)));
    else if (i % 50 === 2) docs.push(sealedSecret(i, ns(i)));
    else docs.push(service(i, ns(i)));
  }
  return docs;
}

export function asStream(docs: readonly string[]): string {
  return docs.join('---\n');
}

export function asResourceList(docs: readonly string[]): string {
  const items = docs.map((d) => d.replace(/\n$/, '').split('\n').map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`)).join('\n'));
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/**
 * A second render of a bundle: the same documents with the password of every `every`-th Secret changed, so
 * that `rollstamp diff` between the two has workloads to list (those that consume a changed Secret).
 */
export function withChangedSecrets(docs: readonly string[], every = 10): string[] {
  let secrets = 0;
  return docs.map((d) => {
    if (!/^kind: Secret$/m.test(d) || secrets++ % every !== 0) return d;
    return d.replace(/^( {2}password: )(\S+)$/m, (_all, lead: string, value: string) => `${lead}${b64(`changed-${value}`)}`);
  });
}

function secret(i: number, ns: string): string {
  return `# credentials for service ${i}
apiVersion: v1
kind: Secret
metadata:
  name: creds-${i}
  namespace: ${ns}
  labels: {app.kubernetes.io/part-of: shop}
type: Opaque
data:
  username: ${b64(`user-${i}`)}
  password: ${b64(`password-${i}-${'x'.repeat(i % 7)}`)}
  token: ${b64(`token-${i}`)}
`;
}

function configMap(i: number, ns: string): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings-${i}
  namespace: ${ns}
data:
  LOG_LEVEL: info   # raise to debug when needed
  FEATURE_FLAGS: "a,b,c"
  app.properties: |
    server.port=8080
    cache.size=${i % 512}
`;
}

function workload(i: number, ns: string, s: number, c: number, kind: string): string {
  return `# ${kind.toLowerCase()} ${i}
apiVersion: apps/v1
kind: ${kind}
metadata:
  name: app-${i}
  namespace: ${ns}
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  replicas: 2
  selector:
    matchLabels: {app: app-${i}}
  template:
    metadata:
      labels: {app: app-${i}}
    spec:
      containers:
        - name: app
          image: registry.example/app:${i % 17}.0
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef: {name: creds-${s}, key: password}
          envFrom:
            - configMapRef: {name: settings-${c}}
          volumeMounts:
            - {name: tls, mountPath: /etc/tls}
      volumes:
        - name: tls
          projected:
            sources:
              - secret: {name: creds-${s}, items: [{key: token, path: token}]}
              - configMap: {name: settings-${c}}
`;
}

function service(i: number, ns: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: svc-${i}
  namespace: ${ns}
spec:
  selector: {app: app-${i}}
  ports:
    - {port: 80, targetPort: 8080}
`;
}

function modelConfig(i: number, ns: string): string {
  return `apiVersion: kagent.dev/v1alpha2
kind: ModelConfig
metadata:
  name: model-${i}
  namespace: ${ns}
spec:
  provider: OpenAI
  model: gpt-4o
  apiKeySecret: creds-${i}
  apiKeySecretKey: token
`;
}

function agent(i: number, ns: string): string {
  return `apiVersion: kagent.dev/v1alpha2
kind: Agent
metadata:
  name: agent-${i}
  namespace: ${ns}
spec:
  type: Declarative
  declarative:
    modelConfig: model-${i}
    systemMessage: You help.
`;
}

function sealedSecret(i: number, ns: string): string {
  return `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: sealed-${i}
  namespace: ${ns}
spec:
  encryptedData:
    password: AgB${'x'.repeat(60)}${i}
`;
}
