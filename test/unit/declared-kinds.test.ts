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

const REFUSED: Array<{ name: string; kinds: unknown; message: string }> = [
  { name: 'a stamp path outside metadata or spec', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'status.annotations' }], message: 'spec.kinds[0].stampAnnotationsPath: must be inside metadata or spec (an annotations map the operator copies onto its pods)' },
  { name: 'a stamp path that is not a dot path', kinds: [{ ...WEBAPP, stampAnnotationsPath: 'spec..x' }], message: 'spec.kinds[0].stampAnnotationsPath: must be a dot path such as spec.template.metadata.annotations' },
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

test('kinds in a ConfigMap functionConfig (flat strings) are refused by type', () => {
  const r = readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { kinds: 'WebApp' } });
  assert.equal('results' in r ? r.results.map((x) => x.message) : [], ['data.kinds: must be a array']);
});

async function stampWith(kinds: unknown, input: string): Promise<{ code: number; stderr: string; stdout: string }> {
  return runInProcess(['stamp', '--config', file('c.yaml', stringify(config(kinds))), file('in.yaml', input)]);
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
