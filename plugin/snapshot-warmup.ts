// Runs commands over a few made-up documents while the image's startup snapshot is made (#37), so that the functions
// a render calls are compiled already in the blob's heap and a render does not compile them again: about a quarter
// of a 3-object render's instructions on node 24 went to V8 compiling functions on their first call.
//
// The documents are written here, the settings are the defaults (every workload a target for the core's runs), the
// CLI's environment is empty and no hash key is used: nothing of the build's environment, files or settings goes
// in. Every run's result is dropped; snapshot-entry.ts gives the hashing a stand-in for node:crypto meanwhile
// (crypto must not load while the blob is made), so no digest made here is a real one either.
// test/e2e/snapshot.test.ts holds the blob's output byte-identical to the bundle's, and finds none of these names in
// the heap of a process started from the blob (V8's own result caches may still hold a copy in the blob's bytes,
// which nothing reaches).
import { DEFAULT_CONFIG, diffStamps, startListRun, startStreamRun, type Config, type RunOutcome } from '../function/index.ts';
import { Readable, Writable } from 'node:stream';
import { runCli } from './cli/run-cli.ts';
import { CheckFailed } from './process/errors.ts';
import type { Io } from './process/io.ts';

/** How many runs warmUpCore makes, each of which must end without an error result. */
export const WARMUP_RUNS = 8;
/** The commands warmUpCli runs, each of which must exit 0. */
const CLI_RUNS: readonly (readonly string[])[] = [['stamp', '-'], ['stamp', '--check', '-'], ['fn'], ['explain', '-']];

/** In every made-up name: the test searches the blob for it. */
export const WARMUP_MARK = 'rollstamp-snapshot-warmup';

const config: Config = { ...DEFAULT_CONFIG, targets: 'all' };

/** A Secret, a ConfigMap and the workloads that use them, in the shapes renders hold (comments, flow, JSON). */
function documents(i: number): string[] {
  const ns = `${WARMUP_MARK}-${i}`;
  return [
    `# a Secret\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: ${ns}\ntype: Opaque\ndata:\n  password: cGFzcw== # base64\nstringData:\n  user: app\n`,
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}, labels: {app: web}}\ndata:\n  log-level: "debug"\n  file.conf: |\n    a = 1\n    b = 2\nbinaryData:\n  blob: AAEC\n`,
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ${ns}\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: 'web:1'\n          envFrom:\n            - secretRef: {name: db}\n          env:\n            - name: LOG\n              valueFrom:\n                configMapKeyRef: {name: settings, key: log-level}\n            - name: MISSING\n              valueFrom:\n                secretKeyRef: {name: gone, key: k, optional: true}\n          volumeMounts:\n            - {name: conf, mountPath: /etc/conf}\n      volumes:\n        - name: conf\n          configMap:\n            name: settings\n            items: [{key: file.conf, path: file.conf}]\n        - name: all\n          projected:\n            sources:\n              - secret: {name: db}\n              - configMap: {name: settings}\n`,
    `{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "store", "namespace": "${ns}"}, "spec": {"serviceName": "store", "template": {"spec": {"containers": [{"name": "s", "envFrom": [{"configMapRef": {"name": "settings"}}]}]}}}}\n`,
    `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n  namespace: ${ns}\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          imagePullSecrets: [{name: db}]\n          containers: [{name: job, env: [{name: P, valueFrom: {secretKeyRef: {name: db, key: password}}}]}]\n`,
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: ${ns}\nspec:\n  ports: [{port: 80}]\n`,
  ];
}

const stream = (docs: readonly string[]): string => docs.join('---\n');
const list = (docs: readonly string[]): string => {
  const items = docs.map((d) => d.replace(/\n$/, '').split('\n').map((line, n) => (n === 0 ? `- ${line}` : `  ${line}`)).join('\n'));
  // No functionConfig: the fast reader keeps a plain key of 13 characters or more that starts as a typed scalar may
  // (`functionConfig`) in a cache as a slice of the text it was read from, which would keep this text in the blob.
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
};

/**
 * What `stamp`, `generate`, `explain`, `diff` and `fn` ask of the core, each with both readers; returns how many
 * runs ended without an error result (snapshot-entry.ts checks that they ran, not what they made).
 */
export function warmUpCore(): number {
  const docs = [0, 1].flatMap(documents);
  const changed = docs.map((d) => d.replace('cGFzcw==', 'cGFzczI='));
  let ok = 0;
  const count = (o: RunOutcome): RunOutcome => {
    if (!o.results.some((r) => r.severity === 'error')) ok++;
    return o;
  };
  for (const reader of ['fast', 'full'] as const) {
    count(startStreamRun([{ path: '-', text: stream(docs) }], { config, reader }).finish());
    const before = count(startStreamRun([{ path: 'a.yaml', text: stream(docs) }], { config, reader, keyDetail: true, keyDigests: true, sourceReports: true, kagentPreview: true, write: false }).finish());
    const after = count(startStreamRun([{ path: 'b.yaml', text: stream(changed) }], { config, reader, keyDetail: true, keyDigests: true, sourceReports: true, kagentPreview: true, write: false }).finish());
    diffStamps(before.targets, after.targets);
    const run = startListRun(list(docs), { reader });
    if (!('refused' in run)) count(run.finish());
  }
  return ok;
}

/**
 * `stamp`, `stamp --check`, `fn` and `explain` as the CLI runs them (flags, settings, the run, the output's format),
 * each with its standard input made here and its output dropped: an environment with nothing set, no terminal, and
 * no file read (every input is `-`). Resolves when all have exited 0; rejects otherwise.
 */
export async function warmUpCli(): Promise<void> {
  const docs = [0, 1].flatMap(documents);
  for (const argv of CLI_RUNS) {
    const input = new TextEncoder().encode(argv[0] === 'fn' ? list(docs) : stream(docs));
    const said: string[] = [];
    const io: Io = { readStdin: async () => input, writeStdout: async () => {}, writeStderr: (text) => void said.push(text), stdinIsTTY: false, env: {}, cwd: '/' };
    // --check fails (exit 3) when stamps would change, which they do here.
    const code = await runCli(argv, io).catch((err: unknown) => (argv.includes('--check') && err instanceof CheckFailed ? 0 : Promise.reject(err)));
    if (code !== 0) throw new Error(`the startup snapshot's warm-up: rollstamp ${argv.join(' ')} exited ${code}: ${said.join('')}`);
  }
}

/**
 * node's stream classes as a render uses them (process.stdin read to its end, process.stdout written with a
 * callback; net.Socket, fs.ReadStream and the rest build on these two): their functions compiled in the blob. Resolves
 * when the data went through. No descriptor is opened: these streams read and write arrays.
 */
export function warmUpStreams(): Promise<void> {
  const written: unknown[] = [];
  const out = new Writable({ write: (chunk, _encoding, done) => void (written.push(chunk), done()) });
  const input = new Readable({ read: () => {} });
  const done = new Promise<void>((resolve, reject) => {
    input.on('data', (chunk) => out.write(chunk, (err) => err && reject(err))).once('end', () => out.end(resolve)).once('error', reject);
  });
  for (const chunk of ['apiVersion: v1\n', 'kind: ConfigMap\n']) input.push(new TextEncoder().encode(chunk));
  input.push(null);
  return done;
}
