// `kubectl kustomize DIR | node dist/rollstamp.js stamp -` with the real kubectl (its embedded kustomize
// renames generated Secrets and ConfigMaps with a hash suffix and rewrites the references to them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { bothReadersBundle } from '../support/both-readers.ts';
import { assertSameWithFullReader, BUNDLE, fullReaderEnv, pipe, removeTempDirs, requireBundle, stampsIn, tempDir, testNeeding, type Run } from '../support/tools.ts';
import { PROCESS_TWINS } from '../support/sizes.ts';

const it = testNeeding('kubectl');

test.before.each(requireBundle);
test.after(removeTempDirs);

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
        envFrom:
        - configMapRef:
            name: web-config
`;

/** A kustomization: the opted-in Deployment, a generated Secret and a generated ConfigMap. */
function kustomization(opts: { password?: string; replicas?: number } = {}): string {
  const dir = tempDir('kustomize');
  writeFileSync(join(dir, 'deployment.yaml'), DEPLOYMENT.replace('REPLICAS', String(opts.replicas ?? 1)));
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    `resources:
- deployment.yaml
secretGenerator:
- name: db
  literals:
  - password=${opts.password ?? 'hunter2'}
configMapGenerator:
- name: web-config
  literals:
  - LOG_LEVEL=info
`,
  );
  return dir;
}

/** `kubectl kustomize DIR | node dist/rollstamp.js stamp -`; returns rollstamp's side. */
async function kustomizeThenStamp(dir: string): Promise<Run> {
  const stamped = async (env?: NodeJS.ProcessEnv): Promise<Run> => {
    const { first, second } = await pipe(
      { cmd: 'kubectl', args: ['kustomize', dir] },
      { cmd: process.execPath, args: [BUNDLE, 'stamp', '-'] },
      env ? { env } : {},
    );
    assert.is(first.code, 0, `kubectl kustomize failed: ${first.stderr}`);
    return second;
  };
  const second = await stamped();
  if (PROCESS_TWINS) assertSameWithFullReader(second, await stamped(fullReaderEnv()), 'kubectl kustomize | rollstamp stamp -');
  assert.is(second.code, 0, `rollstamp stamp - failed: ${second.stderr}`);
  return second;
}

/** `node dist/rollstamp.js ARGS` over `input`, and again with ROLLSTAMP_READER=full: both must print the same. */
function stampBoth(args: string[], input: string): Run {
  return bothReadersBundle(args, { stdin: input }, `rollstamp ${args.join(' ')}`);
}

it('kubectl kustomize | rollstamp stamp -: the Deployment is stamped, references to generated names resolve', async () => {
  const r = await kustomizeThenStamp(kustomization());
  assert.is(r.stderr, '', 'no warning: the suffixed Secret and ConfigMap names resolve');
  const docs = parseAllDocuments(r.stdout);
  assert.equal(docs.map((d) => d.errors.length), [0, 0, 0]);
  const deployment = docs.find((d) => d.get('kind') === 'Deployment')!;
  const hash = deployment.getIn(['spec', 'template', 'metadata', 'annotations', 'rollstamp.dev/hash']);
  assert.match(String(hash), /^sha256:[0-9a-f]{64}$/);
  assert.equal(stampsIn(r.stdout), [hash], 'one stamp, on the Deployment only');
});

it('stamping the kustomize output again changes nothing, and --check passes', async () => {
  const first = await kustomizeThenStamp(kustomization());
  const again = stampBoth(['stamp', '-'], first.stdout);
  assert.is(again.code, 0, again.stderr);
  assert.is(again.stdout, first.stdout);
  const check = stampBoth(['stamp', '--check', '-'], first.stdout);
  assert.is(check.code, 0, check.stderr);
  assert.is(check.stdout, '');
});

it('a changed secret literal changes the stamp; an unrelated change does not', async () => {
  const [base] = stampsIn((await kustomizeThenStamp(kustomization())).stdout);
  const [rotated] = stampsIn((await kustomizeThenStamp(kustomization({ password: 'correct-horse' }))).stdout);
  const [scaled] = stampsIn((await kustomizeThenStamp(kustomization({ replicas: 3 }))).stdout);
  assert.ok(base && rotated && scaled);
  assert.is.not(rotated, base, 'rotating the password rolls the Deployment');
  assert.is(scaled, base, 'changing replicas does not');
});

test.run();
