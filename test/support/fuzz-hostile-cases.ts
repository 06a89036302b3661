// Fuzz cases, hostile inputs (issue #7 item 10; run by hostile.test.ts): generated bundles and the golden fixtures' inputs, broken in their
// object tree, text and bytes (mutate.ts), through `stamp -`, `explain --json -` and `fn`, in-process. Whatever
// the input: the contract of support.ts (exit 0 or 1, no internal error or stack, exactly one stderr line and
// nothing on stdout on failure, no canary on stderr). When a broken input is still accepted, stamping the output
// again changes nothing (`fn`: the same data and digests, on a second and third run).
// Seed, case count and replay: see support.ts.
import * as assert from 'uvu/assert';
import { bundleDocs, genBundle, resourceListDoc, type Rng } from './property-generate.ts';
import { randomStyle, renderStream, ymap, type Style, type YMap, type YNode } from './property-render.ts';
import { asResourceList } from './objects.ts';
import { fixtureInputs, mutateBytes, mutateText, mutateTree, randomValue } from './fuzz-mutate.ts';
import { checkContract, dataOf, digestsIn, run, type CaseModule, type FuzzCase } from './fuzz.ts';

/** The input as rollstamp reads it (a string is sent as UTF-8: lone surrogates become U+FFFD). */
const text = (d: string | Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(typeof d === 'string' ? new TextEncoder().encode(d) : d);

const FIXTURES = fixtureInputs();

/** Valid flags only: the input is what is hostile here. */
function flags(rng: Rng): { args: string[]; env: Record<string, string> } {
  const env: Record<string, string> = rng.bool(0.15) ? { ROLLSTAMP_HASH_KEY: 'fuzz-hmac-key-0710' } : {};
  const args = rng.pick([[], [], [], ['--targets', 'all'], ['--on-missing', 'error'], ['--on-missing', 'ignore'], ['-n', 'prod'], ['--selector', 'app'], ['--annotation-key', 'example.com/h'], ['--kagent', 'disabled']]);
  if (env.ROLLSTAMP_HASH_KEY === undefined && rng.bool(0.05)) args.push('--hash-scheme', 'kagent');
  return { args, env };
}

/** A hostile stream style: anything the writer can do, YAML 1.1 directives included. */
function style(rng: Rng): Style {
  return { ...randomStyle(rng), yaml11: rng.bool(0.1), exotic: rng.pick([0, 0.05, 0.2, 0.5]) };
}

/** Tree, then text, then (sometimes) byte mutations of documents; at least one is applied. */
function breakDocs(docs: YMap[], rng: Rng, write: (docs: YMap[]) => string): { input: string | Uint8Array; applied: string[] } {
  const applied: string[] = [];
  const nTree = docs.length > 0 ? rng.pick([0, 0, 1, 1, 2, 3]) : 0;
  for (let j = 0; j < nTree; j++) {
    const name = mutateTree(rng.pick(docs), rng);
    if (name) applied.push(name);
  }
  return breakText(write(docs), rng, applied);
}

function breakText(text: string, rng: Rng, applied: string[]): { input: string | Uint8Array; applied: string[] } {
  const t = mutateText(text, rng, rng.pick([0, 1, 1, 2, 3]));
  applied.push(...t.applied);
  if (applied.length === 0 || rng.bool(0.2)) {
    const b = mutateBytes(t.text, rng);
    applied.push(b.applied);
    return { input: b.bytes, applied };
  }
  return { input: t.text, applied };
}

/** A hostile stream: from a generated bundle (mostly) or a fixture's input. */
function hostileStream(c: FuzzCase): { input: string | Uint8Array; applied: string[]; canaries: string[] } {
  if (c.rng.bool(0.25)) {
    const i = c.rng.int(FIXTURES.length);
    const out = breakText(FIXTURES[i]!, c.rng, [`fixture#${i}`]);
    return { ...out, canaries: [] };
  }
  const { bundle, canaries } = genBundle(c.rng, { canary: c.rng.bool(0.3) });
  const st = style(c.rng);
  const out = breakDocs(bundleDocs(bundle), c.rng, (docs) => renderStream(docs, st, c.rng.fork()));
  return { ...out, canaries };
}

/** A functionConfig that may be wrong in any way (never one naming a file: fn would read it). */
function hostileConfig(rng: Rng): YNode | undefined {
  const settings: Array<[string, YNode]> = [];
  const names = ['targets', 'selector', 'annotationKey', 'onMissing', 'defaultNamespace', 'kagent', 'hashScheme', 'unknownSetting', '__proto__'];
  const values: YNode[] = ['all', 'opted-in', 'bogus', 'error', 'warn', 'ignore', '', 'a=b', 'x in (y', 'app', 'rollstamp.dev/hash', 'Bad Key!', 'prod', 'enabled', 'disabled', 'v1', 'kagent'];
  for (let i = rng.int(4); i > 0; i--) settings.push([rng.pick(names), rng.bool(0.8) ? rng.pick(values) : randomValue(rng)]);
  switch (rng.int(6)) {
    case 0: return undefined;
    case 1: return ymap(['apiVersion', 'v1'], ['kind', 'ConfigMap'], ['metadata', ymap(['name', 'cfg'])], ['data', ymap(...settings)]);
    case 2: return ymap(['apiVersion', 'rollstamp.dev/v1alpha1'], ['kind', 'RollstampConfig'], ['metadata', ymap(['name', 'r'])], ['spec', ymap(...settings)]);
    case 3: return randomValue(rng);
    default: return undefined;
  }
}

/** A hostile ResourceList: generated items (and config) broken in tree and text, or a fixture's input wrapped. */
function hostileList(c: FuzzCase): { input: string | Uint8Array; applied: string[]; canaries: string[] } {
  if (c.rng.bool(0.2)) {
    const i = c.rng.int(FIXTURES.length);
    const docs = FIXTURES[i]!.split(/^---[^\n]*\n/m).filter((d) => d.trim() !== '' && !d.startsWith('%'));
    const out = breakText(asResourceList(docs), c.rng, [`fixture#${i}`]);
    return { ...out, canaries: [] };
  }
  const { bundle, canaries } = genBundle(c.rng, { canary: c.rng.bool(0.3) });
  const items = bundleDocs(bundle);
  const config = hostileConfig(c.rng);
  const root = resourceListDoc(items, undefined);
  if (config !== undefined) root.entries.push(['functionConfig', config]);
  if (c.rng.bool(0.05)) root.entries[c.rng.int(root.entries.length)]![1] = randomValue(c.rng);
  const st: Style = { ...style(c.rng), shuffleDocs: false, flowDoc: 0, json: c.rng.bool(0.2) ? 1 : 0, docEnd: false };
  const out = breakDocs([...items, root], c.rng, ([...docs]) => renderStream([docs[docs.length - 1]!], st, c.rng.fork()));
  return { ...out, canaries };
}

async function streamCase(c: FuzzCase): Promise<void> {
  const { input, applied, canaries } = hostileStream(c);
  const { args, env } = flags(c.rng);
  const cmd = c.rng.bool(0.75) ? 'stamp' : 'explain-json';
  const argv = cmd === 'stamp' ? ['stamp', ...args, '-'] : ['explain', '--json', ...args, '-'];
  c.keep('input.yaml', input);
  const where = `${argv.join(' ')} after ${applied.join(', ')}`;
  const r = await run(argv, input, { env });
  c.keep('stdout', r.stdout);
  c.keep('stderr', r.stderr);
  checkContract(r, cmd, where, input, canaries);
  if (cmd === 'stamp' && r.code === 0) {
    const key = args[0] === '--annotation-key' ? args[1]! : 'rollstamp.dev/hash';
    const before = dataOf(text(input), key, false);
    const after = dataOf(r.stdout, key, false);
    if (before !== undefined) assert.is(after, before, `${where}: stamp changed data other than the stamp`);
    const again = await run(argv, r.stdout, { env });
    checkContract(again, 'stamp', `${where}, then on its output`, r.stdout, canaries);
    assert.is(again.code, 0, `${where}: stamping the output again failed: ${again.stderr}`);
    assert.fixture(again.stdout, r.stdout, `${where}: stamping the output again changed it`);
  }
}

async function listCase(c: FuzzCase): Promise<void> {
  const { input, applied, canaries } = hostileList(c);
  const env: Record<string, string> = c.rng.bool(0.15) ? { ROLLSTAMP_HASH_KEY: 'fuzz-hmac-key-0710' } : {};
  c.keep('input.yaml', input);
  const where = `fn after ${applied.join(', ')}`;
  const r = await run(['fn'], input, { env });
  c.keep('stdout', r.stdout);
  c.keep('stderr', r.stderr);
  checkContract(r, 'fn', where, input, canaries);
  if (r.code !== 0) return;
  const before = dataOf(text(input), 'rollstamp.dev/hash', true);
  const after = dataOf(r.stdout, 'rollstamp.dev/hash', true);
  if (before !== undefined) assert.is(after, before, `${where}: fn changed data other than the stamp`);
  const again = await run(['fn'], r.stdout, { env });
  c.keep('again.stdout', again.stdout);
  checkContract(again, 'fn', `${where}, then on its output`, r.stdout, canaries);
  assert.is(again.code, 0, `${where}: fn of its own output failed: ${again.stderr}`);
  assert.equal(digestsIn(again.stdout), digestsIn(r.stdout), `${where}: fn of its own output changed a digest`);
  const afterAgain = dataOf(again.stdout, 'rollstamp.dev/hash', true);
  if (after !== undefined) assert.is(afterAgain, after, `${where}: fn of its own output changed data other than the stamp`);
  if (c.rng.bool(0.3)) {
    const third = await run(['fn'], again.stdout, { env });
    checkContract(third, 'fn', `${where}, third run`, again.stdout, canaries);
    assert.is(third.code, 0, `${where}: fn of its own output, third run, failed: ${third.stderr}`);
    assert.equal(digestsIn(third.stdout), digestsIn(again.stdout), `${where}: fn of its own output, third run, changed a digest`);
  }
}

export const CASES: CaseModule['CASES'] = { 'hostile-stream': streamCase, 'hostile-resource-list': listCase };
