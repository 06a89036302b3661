// Kinds a user declares under `spec.kinds` (#24): in a functionConfig and in `.rollstamp.yaml`, checked by the
// schema and the config reader, each refusal one line naming the field; a declared kind is stamped like any
// workload and only adds targets.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { readConfig } from '../../function/config/config.ts';
import { runInProcess } from '../support/run-cli.ts';

const base = mkdtempSync(join(tmpdir(), 'rollstamp-kinds-'));
let n = 0;

const WEBAPP = {
  apiVersion: 'example.com/*',
  kind: 'WebApp',
  podSpecPaths: ['spec.podTemplate.spec'],
  secretNamePaths: ['spec.secrets'],
  stampAnnotationsPath: 'spec.podTemplate.metadata.annotations',
};

const config = (kinds: unknown): Record<string, unknown> => ({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', spec: { kinds } });
const messages = (kinds: unknown): string[] => {
  const r = readConfig(config(kinds));
  return 'results' in r ? r.results.map((x) => x.message) : [];
};

const INPUT = `apiVersion: example.com/v2
kind: WebApp
metadata:
  name: shop
  namespace: shop
  annotations: {rollstamp.dev/enabled: "true"}
spec:
  secrets: [tls]
  podTemplate:
    spec:
      containers:
        - name: web
          image: example/web:1
          env:
            - {name: DB, valueFrom: {secretKeyRef: {name: db, key: password}}}
---
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
stringData: {password: one}
---
apiVersion: v1
kind: Secret
metadata: {name: tls, namespace: shop}
stringData: {tls.crt: one}
`;

function file(name: string, text: string): string {
  const path = join(base, `${n++}-${name}`);
  writeFileSync(path, text);
  return path;
}

test('a declared kind is stamped where its entry says, over its pod spec and its name lists', async () => {
  const run = await runInProcess(['explain', '-o', 'json', '--config', file('c.yaml', stringify(config([WEBAPP]))), file('in.yaml', INPUT)]);
  assert.is(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as { targets: Array<{ field: string; rollout: { how: string }; sources: Array<{ kind: string; name: string; whole: boolean }> }> };
  assert.is(doc.targets.length, 1);
  assert.is(doc.targets[0]!.field, 'spec.podTemplate.metadata.annotations["rollstamp.dev/hash"]');
  assert.is(doc.targets[0]!.rollout.how, 'rolling');
  assert.equal(doc.targets[0]!.sources.map((s) => `${s.name}:${s.whole}`).sort(), ['db:false', 'tls:true']);
  const stamped = await runInProcess(['stamp', '--config', file('c.yaml', stringify(config([WEBAPP]))), file('in.yaml', INPUT)]);
  assert.match(stamped.stdout, /podTemplate:\n {4}metadata:\n {6}annotations:\n {8}rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"\n {4}spec:/);
});

test('without the declaration the same object is not a target: a declared kind only adds targets', async () => {
  const run = await runInProcess(['explain', '-o', 'json', file('in.yaml', INPUT)]);
  assert.is((JSON.parse(run.stdout) as { targets: unknown[] }).targets.length, 0);
});

test('.rollstamp.yaml may declare kinds in rollstamp generate', async () => {
  const dir = join(base, `repo-${n++}`, 'apps', 'web');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'web.yaml'), INPUT);
  writeFileSync(join(dir, '.rollstamp.yaml'), stringify(config([WEBAPP])));
  const run = await runInProcess(['generate'], { cwd: dir, env: { ARGOCD_APP_NAME: 'web', ARGOCD_APP_NAMESPACE: 'shop', ARGOCD_APP_SOURCE_PATH: 'apps/web' } });
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /rollstamp\.dev\/hash: "sha256:/);
});

const PATH_FORM = (field: string): string =>
  `spec.kinds[0].${field}: must be a dot path of at most 16 field names (each a letter, then letters, digits, - or _), such as spec.template.spec`;

const REFUSED: Array<{ name: string; kinds: unknown; message: string }> = [
  { name: 'a stamp path outside metadata or spec', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'status.annotations' }], message: 'spec.kinds[0].stampAnnotationsPath: must be inside metadata or spec (an annotations map the operator copies onto its pods)' },
  { name: 'a stamp path that is not a dot path', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec..x' }], message: PATH_FORM('stampAnnotationsPath') },
  { name: 'a path of 17 keys: the schema bounds the depth, so a stamp stays within what rollstamp reads back (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: `spec.${'a.'.repeat(15)}annotations` }], message: PATH_FORM('stampAnnotationsPath') },
  { name: 'a path key that starts with a digit (#33)', kinds: [{ ...WEBAPP, podSpecPaths: ['spec.0.spec'] }], message: PATH_FORM('podSpecPaths[0]') },
  { name: 'a path key YAML 1.1 reads as a boolean (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec.on.annotations' }], message: 'spec.kinds[0].stampAnnotationsPath: must be a dot path of field names: on is a boolean or null to YAML 1.1, not a field name' },
  { name: 'a path key YAML reads as null (#33)', kinds: [{ ...WEBAPP, secretNamePaths: ['spec.null'] }], message: 'spec.kinds[0].secretNamePaths[0]: must be a dot path of field names: null is a boolean or null to YAML 1.1, not a field name' },
  { name: 'a stamp path to labels (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec.podTemplate.metadata.labels' }], message: 'spec.kinds[0].stampAnnotationsPath: must end in an annotations map (annotations, podAnnotations …) the operator copies onto its pods, such as spec.template.metadata.annotations' },
  { name: 'a stamp path that replaces a pod spec (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec.pod' }], message: 'spec.kinds[0].stampAnnotationsPath: must end in an annotations map (annotations, podAnnotations …) the operator copies onto its pods, such as spec.template.metadata.annotations' },
  { name: 'a stamp path in metadata other than metadata.annotations (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'metadata.labels' }], message: 'spec.kinds[0].stampAnnotationsPath: inside metadata, only metadata.annotations holds a stamp' },
  { name: 'a stamp path inside a pod spec path (#33)', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec.podTemplate.spec.annotations' }], message: "spec.kinds[0].stampAnnotationsPath: is inside podSpecPaths[0] (a pod spec has no annotations; its template's metadata.annotations is beside it)" },
  { name: 'a pod spec path outside spec', kinds: [{ ...WEBAPP, podSpecPaths: ['status.pod'] }], message: 'spec.kinds[0].podSpecPaths[0]: must be inside spec' },
  { name: 'a core-group apiVersion', kinds: [{ ...WEBAPP, apiVersion: 'v1' }], message: 'spec.kinds[0].apiVersion: must be group/version or group/* with a dotted group, such as example.com/v1' },
  { name: 'a kind that is not a kind name', kinds: [{ ...WEBAPP, kind: 'web-app' }], message: 'spec.kinds[0].kind: must be a Kubernetes kind name, such as MyApp' },
  { name: 'the same kind twice', kinds: [WEBAPP, { ...WEBAPP, apiVersion: 'example.com/v2' }], message: 'spec.kinds[1].kind: declares WebApp of example.com/v2 again (spec.kinds[0] has it)' },
  { name: 'an unknown field', kinds: [{ ...WEBAPP, podSpecPath: 'spec' }], message: 'spec.kinds[0].podSpecPath: unknown field' },
  { name: 'a missing field', kinds: [{ apiVersion: 'example.com/v1', kind: 'WebApp', podSpecPaths: ['spec'] }], message: 'spec.kinds[0].stampAnnotationsPath: required' },
  { name: 'no pod spec path', kinds: [{ ...WEBAPP, podSpecPaths: [] }], message: 'spec.kinds[0].podSpecPaths: must NOT have fewer than 1 items' },
];

for (const c of REFUSED) {
  test(`refused, naming the field: ${c.name}`, () => {
    assert.equal(messages(c.kinds), [c.message]);
  });
}

const STRINGS_ONLY = "a kind is a map and a ConfigMap's data holds only strings; declare kinds under spec.kinds of a RollstampConfig (.rollstamp.yaml, a --config file or the functionConfig)";

test('kinds in a ConfigMap functionConfig (flat strings, kpt fn eval -- kinds=…) are refused saying where kinds go (#33)', () => {
  const r = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { kinds: 'WebApp' } });
  assert.equal('results' in r ? r.results.map((x) => x.message) : [], [`data.kinds: ${STRINGS_ONLY}`]);
});

test('kinds that are not a list are refused as "must be a list", not "must be a array" (#33)', () => {
  assert.equal(messages('WebApp'), ['spec.kinds: must be a list']);
  assert.equal(messages(['WebApp']), ['spec.kinds[0]: must be a map']);
});

const many = (n: number): unknown[] => Array.from({ length: n }, (_, i) => ({ ...WEBAPP, kind: `WebApp${i}` }));
const longRow = { ...WEBAPP, secretNamePaths: Array.from({ length: 32 }, () => 'spec.secrets') };

for (const [name, env, limit] of [
  ['an array parameter of 101 rows', { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', array: many(101).map((r) => JSON.stringify(r)) }]) }, /^rollstamp: error: parameter kinds: 101 entries; at most 100 \(ROLLSTAMP_MAX_KINDS\)\n$/],
  ['a string parameter whose row lists 33 paths', { ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'kinds', string: JSON.stringify([longRow]) }]) }, /^rollstamp: error: parameter kinds\[0\]: 33 paths .*ROLLSTAMP_MAX_KIND_PATHS\)\n$/],
  ['plugin env with 101 rows', { ARGOCD_ENV_ROLLSTAMP_KINDS: JSON.stringify(many(101)) }, /^rollstamp: error: ARGOCD_ENV_ROLLSTAMP_KINDS: 101 entries; at most 100 \(ROLLSTAMP_MAX_KINDS\)\n$/],
] as const) {
  test(`generate: kinds given as ${name} meets the same bounds as .rollstamp.yaml's, one line naming the setting (#33)`, async () => {
    const dir = join(base, `repo-${n++}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'web.yaml'), INPUT);
    const run = await runInProcess(['generate'], { cwd: dir, env: { ARGOCD_APP_NAME: 'web', ARGOCD_APP_NAMESPACE: 'shop', ...env } });
    assert.is(run.code, 2, run.stderr);
    assert.is(run.stdout, '');
    assert.match(run.stderr, limit);
  });
}

test('spec.kinds is bounded before the schema reads it: entries (ROLLSTAMP_MAX_KINDS) and paths per entry (ROLLSTAMP_MAX_KIND_PATHS) (#33)', () => {
  const entries = Array.from({ length: 3 }, (_, i) => ({ ...WEBAPP, kind: `WebApp${i}` }));
  const at = (limits: { maxKinds?: number; maxKindPaths?: number }) => {
    const r = readConfig(config(entries), {}, '', {}, limits);
    return 'results' in r ? r.results.map((x) => x.message) : [];
  };
  assert.equal(at({ maxKinds: 3, maxKindPaths: 2 }), []);
  assert.equal(at({ maxKinds: 2 }), ['spec.kinds: 3 entries; at most 2 (ROLLSTAMP_MAX_KINDS)']);
  assert.equal(at({ maxKindPaths: 1 }).length, 3);
  assert.equal(at({ maxKindPaths: 1 })[0], 'spec.kinds[0]: 2 paths (podSpecPaths, secretNamePaths, configMapNamePaths); at most 1 (ROLLSTAMP_MAX_KIND_PATHS)');
  // The defaults: 100 entries, 32 paths.
  const many = readConfig(config(Array.from({ length: 101 }, (_, i) => ({ ...WEBAPP, kind: `K${i}` }))));
  assert.equal('results' in many ? many.results.map((x) => x.message) : [], ['spec.kinds: 101 entries; at most 100 (ROLLSTAMP_MAX_KINDS)']);
  const paths = readConfig(config([{ ...WEBAPP, secretNamePaths: Array.from({ length: 32 }, () => 'spec.secrets') }]));
  assert.equal('results' in paths ? paths.results.map((x) => x.message) : [], ['spec.kinds[0]: 33 paths (podSpecPaths, secretNamePaths, configMapNamePaths); at most 32 (ROLLSTAMP_MAX_KIND_PATHS)']);
});

test('the run deadline is checked while spec.kinds is read, not only once it is read (#33)', () => {
  const entries = Array.from({ length: 100 }, (_, i) => ({ ...WEBAPP, kind: `WebApp${i}` }));
  let checks = 0;
  const deadline = {
    check(phase: string): void {
      if (++checks === 1) throw new Error(`${phase} ran past the deadline`);
    },
  };
  assert.throws(() => readConfig(config(entries), {}, '', {}, { deadline }), /reading spec\.kinds ran past the deadline/);
  checks = -1_000;
  assert.ok('config' in readConfig(config(entries), {}, '', {}, { deadline }), 'a deadline not passed lets the entries be read');
});

test('the same kind twice is found whatever the order of exact and any-version entries (#33: found by key, not by a scan)', () => {
  const exact = { ...WEBAPP, apiVersion: 'example.com/v1' };
  assert.equal(messages([exact, WEBAPP]), ['spec.kinds[1].kind: declares WebApp of example.com/* again (spec.kinds[0] has it)']);
  assert.equal(messages([exact, { ...WEBAPP, apiVersion: 'example.com/v2' }]), []);
  assert.equal(messages([exact, exact]), ['spec.kinds[1].kind: declares WebApp of example.com/v1 again (spec.kinds[0] has it)']);
  assert.equal(messages([WEBAPP, { ...WEBAPP, kind: 'Other' }, WEBAPP]), ['spec.kinds[2].kind: declares WebApp of example.com/* again (spec.kinds[0] has it)']);
});

test('a stamp path may end in an annotations map under spec (annotations, podAnnotations) or be metadata.annotations (#33)', () => {
  for (const stampAnnotationsPath of ['spec.podTemplate.metadata.annotations', 'spec.podAnnotations', 'metadata.annotations', 'spec.deployment.annotations']) {
    assert.equal(messages([{ ...WEBAPP, stampAnnotationsPath }]), [], stampAnnotationsPath);
  }
});

const READ_ITSELF = [
  'rollstamp.dev/enabled',
  'rollstamp.dev/secrets',
  'rollstamp.dev/configmaps',
  'rollstamp.dev/ignore',
  'rollstamp.dev/live-reads',
  'reloader.stakater.com/auto',
  'secret.reloader.stakater.com/reload',
  'configmap.reloader.stakater.com/reload',
  'config.kubernetes.io/local-config',
  'internal.config.kubernetes.io/path',
];
for (const key of READ_ITSELF) {
  test(`annotationKey ${key} is refused: a stamp under it would change what the next run reads (#33)`, () => {
    const r = readConfig({ apiVersion: 'rollstamp.dev/v1alpha1', kind: 'RollstampConfig', spec: { annotationKey: key } });
    assert.equal('results' in r ? r.results.map((x) => x.message) : [], [`spec.annotationKey: ${key} is read by ${key.startsWith('rollstamp') ? 'rollstamp' : key.includes('reloader') ? "rollstamp (as Reloader's)" : 'kpt or kustomize'} itself; choose another key, such as rollstamp.dev/hash`]);
  });
}

let lastConfig = '';

async function stampWith(kinds: unknown, input: string): Promise<{ code: number; stderr: string; stdout: string }> {
  lastConfig = file('c.yaml', stringify(config(kinds)));
  return runInProcess(['stamp', '--config', lastConfig, file('in.yaml', input)]);
}

for (const [group, kind] of [['cert-manager.io', 'Certificate'], ['external-secrets.io', 'ExternalSecret'], ['bitnami.com', 'SealedSecret'], ['secrets.hashicorp.com', 'VaultStaticSecret'], ['secrets-store.csi.x-k8s.io', 'SecretProviderClass']] as const) {
  test(`a declared ${kind} (a producer kind, whose digest covers its own spec) fails the run, naming the kind (#33)`, async () => {
    const run = await stampWith([{ ...WEBAPP, apiVersion: `${group}/v1`, kind }], INPUT);
    assert.is(run.code, 1);
    assert.is(run.stdout, '');
    assert.is(run.stderr, `rollstamp: error: spec.kinds[0].kind: ${group}/${kind} makes the Secrets workloads use, and its digest covers its own spec: a stamp on it would change its own hash on every run; remove the entry\n`.replace('error: spec', `error: ${lastConfig}: spec`));
  });
}

test('a row that collides with a built-in kind fails the run, naming the entry', async () => {
  const run = await stampWith([{ ...WEBAPP, apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus' }], INPUT);
  assert.is(run.code, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /spec\.kinds\[0\]\.kind: monitoring\.coreos\.com\/Prometheus is a built-in kind/);
  const kagent = await stampWith([{ ...WEBAPP, apiVersion: 'kagent.dev/*', kind: 'Agent' }], INPUT);
  assert.is(kagent.code, 1);
  assert.match(kagent.stderr, /spec\.kinds\[0\]\.apiVersion: kagent\.dev is kagent's group/);
});

test('a pod spec path that holds no pod spec in an object fails the run, naming the entry and the object', async () => {
  const run = await stampWith([{ ...WEBAPP, podSpecPaths: ['spec.template.spec'] }], INPUT);
  assert.is(run.code, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /spec\.kinds\[0\]\.podSpecPaths\[0\]: spec\.template\.spec holds no pod spec \(a map with containers or volumes\) in this WebApp/);
  assert.match(run.stderr, /example\.com\/v2\/WebApp\/shop\/shop/);
});

test('an exact apiVersion reads only that version', async () => {
  const run = await runInProcess(['explain', '-o', 'json', '--config', file('c.yaml', stringify(config([{ ...WEBAPP, apiVersion: 'example.com/v1' }]))), file('in.yaml', INPUT)]);
  assert.is((JSON.parse(run.stdout) as { targets: unknown[] }).targets.length, 0);
});

test.run();
