// Shared by the producer property tests (test/property/producers-*.test.ts, property 8): the properties every
// producer has — value mutations change the hash, the others do not; a second object making the same output is
// AMBIGUOUS_SOURCE; rollstamp.dev/ignore drops the source — and the regressions one producer carries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, forAll } from './property-harness.ts';
import { clone, hashOf, metadata, type Mutation, type Obj, objectsParam, other, pickMutation, prod, render, type Rng, type Scenario, sealed, spec, type State } from './producer-model.ts';

export const CASES_PER_PRODUCER = 50;
export const SEED = 0x9e8a0001;

/** Registers the property of one producer: value mutations change the hash, the others do not. */
export function mutationProperty(sc: Scenario): void {
  const i = sc.index;
  test(`P8 ${sc.producer}: value-determining mutations change the hash, the others do not`, async () => {
    const seenValue = new Map<string, number>();
    const seenNeutral = new Map<string, number>();
    await forAll(`P8-${sc.producer}`, SEED + i, async (c) => {
      const base = sc.base(c.rng);
      const where = (kind: string, m: Mutation, detail: string | void): string =>
        `${sc.producer}, ${kind} mutation "${m.name}"${detail ? ` (${detail})` : ''}, ${c.label}`;
      const before = await hashOf(base, c.rng, 'base', c.keep);

      const vm = pickMutation(sc.value, base, seenValue, c.rng)!;
      const changed = clone(base);
      const vd = vm.apply(changed, c.rng);
      seenValue.set(vm.name, (seenValue.get(vm.name) ?? 0) + 1);
      const after = await hashOf(changed, c.rng, 'value-mutated', c.keep);
      assert.is.not(after.hash, before.hash, `${where('value', vm, vd)}: must change the Deployment's hash`);

      // One to three non-value mutations at once, each a different one.
      const neutral = clone(base);
      const applied: string[] = [];
      const n = c.rng.range(1, 3);
      for (let k = 0; k < n; k++) {
        const nm = pickMutation(
          sc.neutral.filter((m) => !applied.some((a) => a.startsWith(`"${m.name}"`))),
          neutral,
          seenNeutral,
          c.rng,
        );
        if (!nm) break;
        const nd = nm.apply(neutral, c.rng);
        seenNeutral.set(nm.name, (seenNeutral.get(nm.name) ?? 0) + 1);
        applied.push(`"${nm.name}"${nd ? ` (${nd})` : ''}`);
      }
      const same = await hashOf(neutral, c.rng, 'neutral-mutated', c.keep);
      assert.is(same.hash, before.hash, `${sc.producer}, non-value mutation(s) ${applied.join(' + ')}, ${c.label}: must not change the Deployment's hash`);
    }, CASES_PER_PRODUCER);
    for (const m of sc.value) assert.ok(seenValue.has(m.name), `${sc.producer}: no case tried the value mutation "${m.name}" (seed 0x${(SEED + i).toString(16)})`);
    for (const m of sc.neutral) assert.ok(seenNeutral.has(m.name), `${sc.producer}: no case tried the non-value mutation "${m.name}" (seed 0x${(SEED + i).toString(16)})`);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Two objects making one Secret; rollstamp.dev/ignore; external-secrets.io/v1beta1

export interface Explanation {
  results: Array<{ severity: string; message: string; tags: { code: string } }>;
}

export async function explainCodes(text: string): Promise<{ code: number; codes: string[] }> {
  const run = await cli(['explain', '--json', '-'], text);
  const doc = JSON.parse(run.stdout) as Explanation;
  return { code: run.code, codes: doc.results.map((r) => `${r.severity}:${r.tags.code}`) };
}

/** A second producer (of another kind, or the same) that makes the Secret `name`. */
export function otherProducer(rng: Rng, s: State, name: string, exclude: string): Obj {
  const meta = { name: `${name}-other`, ...(s.ns ? { namespace: s.ns } : {}) };
  const makers: Array<[string, () => Obj]> = [
    ['SealedSecret', () => ({ apiVersion: 'bitnami.com/v1alpha1', kind: 'SealedSecret', metadata: { ...meta, name }, spec: { encryptedData: { password: sealed(rng) } } })],
    ['ExternalSecret', () => ({ apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', metadata: meta, spec: { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' }, target: { name }, data: [{ secretKey: 'password', remoteRef: { key: 'x' } }] } })],
    ['VaultStaticSecret', () => ({ apiVersion: 'secrets.hashicorp.com/v1beta1', kind: 'VaultStaticSecret', metadata: meta, spec: { mount: 'kv', type: 'kv-v2', path: 'x', destination: { name, create: true } } })],
    ['Certificate', () => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: meta, spec: { secretName: name, dnsNames: ['x.example.com'], issuerRef: { name: 'ca', kind: 'Issuer' } } })],
    ['SecretProviderClass', () => ({ apiVersion: 'secrets-store.csi.x-k8s.io/v1', kind: 'SecretProviderClass', metadata: meta, spec: { provider: 'vault', parameters: { roleName: 'r' }, secretObjects: [{ secretName: name, type: 'Opaque', data: [{ objectName: 'o', key: 'k' }] }] } })],
  ];
  const [, make] = rng.pick(makers.filter(([k]) => k !== exclude));
  return make();
}

export const kindOf = (s: State): string => (prod(s).kind === 'Secret' ? 'sops' : prod(s).kind);

/** Registers the properties every producer has: a rival maker is AMBIGUOUS_SOURCE, and rollstamp.dev/ignore drops it. */
export function rivalAndIgnoreProperties(sc: Scenario): void {
  const i = sc.index;
  test(`P8 ${sc.producer}: another object making the same output is AMBIGUOUS_SOURCE (exit 1)`, async () => {
    await forAll(`P8-ambiguous-${sc.producer}`, SEED + 0x100 + i, async (c) => {
      const s = sc.base(c.rng);
      const out = sc.outputs(s)[0]!;
      const isSpcMount = sc.csiMount === true;
      // A plain Secret next to a producer (a plain Secret next to a SOPS Secret is two plain Secrets:
      // DUPLICATE_SOURCE, checked below), or a second producer.
      const plain = !isSpcMount && kindOf(s) !== 'sops' && c.rng.bool();
      let extra: Obj;
      if (plain) extra = { apiVersion: 'v1', kind: 'Secret', metadata: { name: out, ...(s.ns ? { namespace: s.ns } : {}) }, data: { password: 'cGFzcw==' } };
      else if (isSpcMount) extra = { ...clone(prod(s)), spec: { provider: 'azure', parameters: { objects: objectsParam([{ objectName: 'x', objectType: 'secret' }]) } } };
      else extra = otherProducer(c.rng, s, out, kindOf(s));
      s.docs.splice(c.rng.int(s.docs.length + 1), 0, extra);
      const text = render(s, c.rng);
      c.keep('input.yaml', text);
      const what = `${sc.producer}, ${plain ? 'a plain Secret' : `a second producer (${extra.kind})`} making ${out}, ${c.label}`;
      const run = await cli(['stamp', '-'], text);
      assert.is(run.code, 1, `${what}: stamp must exit 1 (stderr: ${run.stderr.trim()})`);
      assert.is(run.stdout, '', `${what}: nothing on stdout`);
      assert.match(run.stderr, /^rollstamp: error: .* is defined by more than one object: /, `${what}: stderr says why (got ${JSON.stringify(run.stderr)})`);
      const ex = await explainCodes(text);
      assert.is(ex.code, 1, `${what}: explain must exit 1`);
      assert.ok(ex.codes.includes('error:AMBIGUOUS_SOURCE'), `${what}: explain --json reports AMBIGUOUS_SOURCE (got ${ex.codes.join(', ')})`);
    }, 8);
  });

  test(`P8 ${sc.producer}: rollstamp.dev/ignore: "true" on the producer drops the source`, async () => {
    await forAll(`P8-ignore-${sc.producer}`, SEED + 0x200 + i, async (c) => {
      const s = sc.base(c.rng);
      const ignored = clone(s);
      prod(ignored).metadata.annotations = { ...(prod(ignored).metadata.annotations ?? {}), 'rollstamp.dev/ignore': 'true' };
      const unreferenced = clone(s);
      unreferenced.refs = [];
      const what = `${sc.producer}, rollstamp.dev/ignore: "true", ${c.label}`;
      const h0 = (await hashOf(s, c.rng, 'base', c.keep)).hash;
      const h1 = await hashOf(ignored, c.rng, 'ignored', c.keep);
      const h2 = (await hashOf(unreferenced, c.rng, 'unreferenced', c.keep)).hash;
      assert.is(h1.hash, h2, `${what}: the hash must equal the hash of the Deployment without the reference`);
      assert.is.not(h0, h2, `${what}: (generator) the producer contributes when not ignored`);
      // ignore is also a non-value switch for everything else: a value mutation of an ignored producer is moot.
      const moved = clone(ignored);
      pickMutation(sc.value.filter((m) => !/renamed|changed \(the|follow/.test(m.name)), moved, new Map(), c.rng)?.apply(moved, c.rng);
      assert.is((await hashOf(moved, c.rng, 'ignored-mutated', c.keep)).hash, h2, `${what}: a value change of an ignored producer changes nothing`);
    }, 6);
  });
}

/** Every property of one producer. */
export function producerProperties(sc: Scenario): void {
  mutationProperty(sc);
  rivalAndIgnoreProperties(sc);
}

// ---------------------------------------------------------------------------------------------------------
// Regressions: metadata-only templates and sealing-scope values that once changed the hash and must not.

export interface Regression {
  scenario: Scenario;
  name: string;
  /** Where the product goes wrong. */
  why: string;
  when: (s: State) => boolean;
  /** Applied to the base too (so the base has the shape the bug needs). */
  prepare?: (s: State, rng: Rng) => void;
  apply: (s: State, rng: Rng) => void;
}


/** Registers one regression (`index`: its seed) that must not change the hash. */
export function regressionProperty(bug: Regression, i: number): void {
  test(`P8 ${bug.scenario.producer}: "${bug.name}" must not change the hash`, async () => {
    let ran = 0;
    await forAll(`P8-regression-${i}`, SEED + 0x500 + i, async (c) => {
      const base = bug.scenario.base(c.rng);
      if (!bug.when(base)) return;
      bug.prepare?.(base, c.rng);
      const after = clone(base);
      bug.apply(after, c.rng);
      const h0 = (await hashOf(base, c.rng, 'base', c.keep)).hash;
      const h1 = (await hashOf(after, c.rng, 'mutated', c.keep)).hash;
      assert.is(h1, h0, `${bug.scenario.producer}, non-value mutation "${bug.name}", ${c.label}: must not change the Deployment's hash [${bug.why}]`);
      ran++;
    }, 40);
    assert.ok(ran > 0, `${bug.name}: no case applied`);
  });
}
