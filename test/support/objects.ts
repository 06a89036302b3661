// The object builders of the tests: Kubernetes objects as YAML text (a Deployment that opts in, a Secret, a
// ConfigMap), joined into a stream or wrapped as a ResourceList, and the stamps read back out of an output.
// Text, not objects, because the tests feed rollstamp bytes: quoting and layout are part of what they try.

export interface DeploymentOpts {
  /** metadata.namespace; none by default (the default namespace). */
  namespace?: string;
  /** The Secret the container reads whole (envFrom secretRef). */
  secret?: string;
  /** A ConfigMap the container reads whole (envFrom configMapRef), after the Secret. */
  configMap?: string;
  /** Lines added to the pod template's metadata (indented 6 spaces), after its labels. */
  extraTemplate?: string;
}

/** A Deployment that opts in (rollstamp.dev/enabled) and reads `secret` and `configMap` through envFrom. */
export function deployment(name: string, opts: DeploymentOpts = {}): string {
  const ns = opts.namespace !== undefined ? `\n  namespace: ${opts.namespace}` : '';
  const refs = [opts.secret !== undefined ? `        - secretRef: {name: ${opts.secret}}` : '', opts.configMap !== undefined ? `        - configMapRef: {name: ${opts.configMap}}` : ''].filter((l) => l !== '');
  const envFrom = refs.length > 0 ? `\n        envFrom:\n${refs.join('\n')}` : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${ns}
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}${opts.extraTemplate ?? ''}
    spec:
      containers:
      - name: c
        image: example/app:1${envFrom}
`;
}

/** A Secret with `dataLines` (already indented by two, e.g. `  password: cGFzcw==`) under `data:`. */
export function secret(name: string, dataLines: string, opts: { namespace?: string } = {}): string {
  const ns = opts.namespace !== undefined ? `\n  namespace: ${opts.namespace}` : '';
  return `apiVersion: v1
kind: Secret
metadata:
  name: ${name}${ns}
data:
${dataLines}
`;
}

/** A ConfigMap with `dataLines` (indented by two) under `data:`. */
export function configMap(name: string, dataLines: string, opts: { namespace?: string } = {}): string {
  return secret(name, dataLines, opts).replace('kind: Secret', 'kind: ConfigMap');
}

/** Joins documents into one YAML stream. */
export function stream(docs: readonly string[]): string {
  return docs.map((d) => d.replace(/\n*$/, '\n')).join('---\n');
}

/** Wraps YAML documents (block style, no directives) as the items of a ResourceList. */
export function asResourceList(docs: readonly string[], functionConfig?: string): string {
  const items = docs
    .map((doc) =>
      doc
        .replace(/\n+$/, '')
        .split('\n')
        .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
        .join('\n'),
    )
    .join('\n');
  const fc = functionConfig ? `functionConfig: ${functionConfig}\n` : '';
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${fc}items:\n${items}\n`;
}

/** `rollstamp.dev/hash` values in a text, in order. */
export function stampsIn(text: string): string[] {
  return [...text.matchAll(/rollstamp\.dev\/hash: "?((?:sha256|hmac-sha256):[0-9a-f]{64})"?/g)].map((m) => m[1]!);
}
