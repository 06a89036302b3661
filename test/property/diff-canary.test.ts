// `rollstamp diff` never prints a value (#16): random pairs of renders whose Secret (and ConfigMap) values are
// unique markers, some rotated, added or removed between OLD and NEW, some read by kagent ModelConfigs. No
// output of any format (text, markdown, json) — stdout, stderr, or the process streams — holds a marker, its
// base64 or its hex; with a hash key no digest is unkeyed, and none of the unkeyed run's digests appears.
// A failing case (a marker that is not valid base64 in NEW) must fail closed without echoing it either.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertNoLeak, watched } from '../support/canary-sweep.ts';
import { ROOT } from '../support/run-cli.ts';
import type { Rng } from '../support/property-generate.ts';
import { CASES, cli, forAll } from '../support/property-harness.ts';

const validate = new Ajv({ strict: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas/stamp-diff.schema.json'), 'utf8')) as object);

interface Model {
  secrets: Map<string, Map<string, string>>;
  /** Deployment name → the Secret keys it reads (`secret/key`, or `secret/*` for the whole Secret). */
  workloads: Map<string, string[]>;
  /** ModelConfig `secret/key` read by its Agents, when there is one. */
  modelConfig?: { ref: string; agents: number };
}

/** A unique marker; long enough that its bare hex cannot occur in a digest by chance. */
function canary(rng: Rng, canaries: string[]): string {
  const marker = `CANARY-${rng.hex(rng.pick([12, 16, 24]))}`;
  canaries.push(marker);
  return marker;
}

function genModel(rng: Rng, canaries: string[]): Model {
  const secrets = new Map<string, Map<string, string>>();
  for (let s = 0; s < rng.range(1, 4); s++) {
    const keys = new Map<string, string>();
    for (let k = 0; k < rng.range(1, 4); k++) keys.set(`key-${k}`, canary(rng, canaries));
    secrets.set(`secret-${s}`, keys);
  }
  const refs = [...secrets].flatMap(([name, keys]) => [`${name}/*`, ...[...keys.keys()].map((k) => `${name}/${k}`)]);
  const workloads = new Map<string, string[]>();
  for (let w = 0; w < rng.range(1, 3); w++) workloads.set(`app-${w}`, rng.shuffle(refs).slice(0, rng.range(1, 3)));
  const model: Model = { secrets, workloads };
  const keyed = refs.filter((r) => !r.endsWith('/*'));
  if (rng.bool()) model.modelConfig = { ref: rng.pick(keyed), agents: rng.range(1, 3) };
  return model;
}

/** NEW: values rotated, keys and Secrets added or removed, workloads added or removed. */
function mutate(m: Model, rng: Rng, canaries: string[]): Model {
  const secrets = new Map([...m.secrets].map(([n, keys]) => [n, new Map(keys)]));
  for (const keys of secrets.values()) {
    for (const k of [...keys.keys()]) {
      if (rng.bool(0.3)) keys.set(k, canary(rng, canaries));
      else if (rng.bool(0.1)) keys.delete(k);
    }
    if (rng.bool(0.2)) keys.set(`key-new-${rng.hex(4)}`, canary(rng, canaries));
  }
  if (rng.bool(0.15)) secrets.delete(rng.pick([...secrets.keys()]));
  const workloads = new Map(m.workloads);
  if (rng.bool(0.15)) workloads.delete(rng.pick([...workloads.keys()]));
  if (rng.bool(0.15)) workloads.set('app-new', [rng.pick([...m.workloads.values()].flat())]);
  return { ...m, secrets, workloads };
}

/** The model as a YAML stream of JSON documents; each Secret value in `data` (base64) or `stringData`. */
function render(m: Model, rng: Rng, broken?: string): string {
  const docs: object[] = [];
  const meta = (name: string, extra: object = {}): object => ({ name, namespace: 'shop', ...extra });
  for (const [name, keys] of m.secrets) {
    const plain = rng.bool();
    const values = Object.fromEntries([...keys].map(([k, v]) => [k, plain ? v : Buffer.from(v).toString('base64')]));
    docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: meta(name), [plain ? 'stringData' : 'data']: values });
  }
  if (broken) docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: meta('broken'), data: { k: `${broken}*` } });
  // The broken Secret must be read to fail the run: an unused Secret is never decoded.
  const workloads = broken ? [...m.workloads, ['reader', ['broken/k']] as const] : [...m.workloads];
  for (const [name, refs] of workloads) {
    const env = refs.filter((r) => !r.endsWith('/*')).map((r, i) => ({ name: `V${i}`, valueFrom: { secretKeyRef: { name: r.split('/')[0], key: r.split('/')[1] } } }));
    const envFrom = refs.filter((r) => r.endsWith('/*')).map((r) => ({ secretRef: { name: r.split('/')[0] } }));
    const spec = { containers: [{ name: 'c', image: 'example/app:1', env, envFrom }] };
    docs.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name, { annotations: { 'rollstamp.dev/enabled': 'true' } }), spec: { template: { spec } } });
  }
  if (m.modelConfig) {
    const [secret, key] = m.modelConfig.ref.split('/');
    docs.push({ apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: meta('llm'), spec: { provider: 'OpenAI', model: 'gpt-4o', apiKeySecret: secret, apiKeySecretKey: key } });
    for (let a = 0; a < m.modelConfig.agents; a++) {
      docs.push({ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: meta(`agent-${a}`), spec: { type: 'Declarative', declarative: { modelConfig: 'llm', systemMessage: 'hi' } } });
    }
  }
  return rng.shuffle(docs).map((d) => JSON.stringify(d)).join('\n---\n');
}

const UNKEYED = /(?<!hmac-)sha256:[0-9a-f]{64}/g;
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-diff-canary-'));

test('diff: no value, base64 or hex of one in any format; with a hash key no unkeyed digest', async () => {
  let rolled = 0;
  await forAll('diff-canary', 0x16d1ff, async ({ rng, keep, label }) => {
    const canaries: string[] = [];
    const old = genModel(rng, canaries);
    const fails = rng.bool(0.2);
    const oldText = render(old, rng);
    const newText = render(mutate(old, rng, canaries), rng, fails ? canary(rng, canaries) : undefined);
    keep('old.yaml', oldText);
    keep('new.yaml', newText);
    writeFileSync(join(dir, 'old.yaml'), oldText);
    writeFileSync(join(dir, 'new.yaml'), newText);
    const unkeyedHex = new Set<string>();
    for (const hashKey of [undefined, `key-${rng.hex(8)}`]) {
      for (const format of ['json', 'text', 'markdown']) {
        // OLD on stdin, NEW as a file, or the other way round.
        const stdinFirst = rng.bool();
        const argv = ['diff', '-o', format, stdinFirst ? '-' : join(dir, 'old.yaml'), stdinFirst ? join(dir, 'new.yaml') : '-'];
        const env: Record<string, string> = hashKey ? { ROLLSTAMP_HASH_KEY: hashKey } : {};
        const { value: run, stray } = await watched(() => cli(argv, stdinFirst ? oldText : newText, env));
        const where = `${label} ${format}${hashKey ? ' keyed' : ''}`;
        assertNoLeak({ ...run, stray }, canaries, { where });
        if (fails) {
          assert.is(run.code, 1, `${where}: ${run.stderr}`);
          assert.is(run.stdout, '', where);
          continue;
        }
        assert.ok(run.code === 0 || run.code === 3, `${where}: exit ${run.code} ${run.stderr}`);
        if (run.code === 3) rolled++;
        if (!hashKey) {
          for (const d of run.stdout.match(UNKEYED) ?? []) unkeyedHex.add(d.slice('sha256:'.length));
          if (format === 'json') assert.ok(validate(JSON.parse(run.stdout)), `${where}: ${JSON.stringify(validate.errors)}`);
        } else {
          assert.equal(run.stdout.match(UNKEYED) ?? [], [], `${where}: an unkeyed digest with a hash key set`);
          for (const hex of unkeyedHex) assert.not.ok(run.stdout.includes(hex.slice(0, 12)), `${where}: an unkeyed digest's hex appears`);
        }
      }
    }
  }, Math.max(10, Math.round(CASES / 5)));
  // The property means something only if reports with sources and keys were printed.
  assert.ok(rolled > 0, 'no case rolled anything');
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
