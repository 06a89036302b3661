// Property 9 (#21): the stamp edit never breaks YAML. An existing stamp written in any scalar style — plain,
// quoted, block (`|`, `|-`, `|+`, `>`, `>-`, with an indentation indicator), tagged `!!str`, with a comment
// after it or on its header, followed by a key, a comment line, blank lines, the end of the document or of the
// input — on a Deployment's pod template or a SandboxAgent's `ROLLSTAMP_HASH` env entry, at any indentation:
// the output parses, as YAML 1.2 and as YAML 1.1, to the input with the new stamp, and stamping it again changes
// nothing. Both readers must print the same (cli()).
import { parseAllDocuments } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Rng } from '../support/property-generate.ts';
import { cli, forAll } from '../support/property-harness.ts';

const OLD_VALUES = ['sha256:0000000000000000000000000000000000000000000000000000000000000000', 'stale', 'two words'];

/** An existing scalar `value` written in a random style, as it follows `key:` at `indent` (its lines included). */
function scalarForm(rng: Rng, value: string, indent: number): { text: string; block: boolean } {
  const tag = rng.bool(0.2) ? '!!str ' : '';
  const comment = rng.bool(0.3) ? ' # set by hand' : '';
  const inner = ' '.repeat(indent + rng.pick([1, 2, 4]));
  switch (rng.int(4)) {
    case 0:
      return { text: `${tag}${value.includes(' ') ? `'${value}'` : value}${comment}`, block: false };
    case 1:
      return { text: `${tag}'${value}'${comment}`, block: false };
    case 2:
      return { text: `${tag}${JSON.stringify(value)}${comment}`, block: false };
    default: {
      const indicator = rng.pick(['|', '|-', '|+', '>', '>-']);
      const explicit = rng.bool(0.2) ? String(inner.length - indent) : '';
      const header = `${tag}${indicator[0]}${explicit}${indicator.slice(1)}${comment}`;
      const trailing = indicator.endsWith('+') || rng.bool(0.3) ? '\n' : '';
      return { text: `${header}\n${inner}${value}\n${trailing}`, block: true };
    }
  }
}

/** What follows the stamp's line(s) inside its map: another key, a comment line, or nothing (the map ends). */
function after(rng: Rng, indent: number, key: string): string {
  const pad = ' '.repeat(indent);
  return rng.pick([`${pad}${key}: x\n`, `${pad}# a comment\n${pad}${key}: x\n`, `${pad}# a comment\n`, '', `\n${pad}${key}: x\n`]);
}

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** A Deployment whose pod template annotations hold an existing stamp; the annotations may end the document. */
function deployment(rng: Rng, step: number, old: string): string {
  const i = (n: number): string => ' '.repeat(n * step);
  const form = scalarForm(rng, old, 4 * step);
  const annotations = `${i(2)}metadata:\n${i(3)}annotations:\n${i(4)}rollstamp.dev/hash: ${line(form.text)}${after(rng, 4 * step, 'note')}`;
  const spec = `${i(2)}spec:\n${i(3)}containers:\n${i(3)}- name: c\n${i(3)}  image: example/app:1\n`;
  const last = rng.bool();
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n${i(1)}name: web\n${i(1)}annotations:\n${i(2)}rollstamp.dev/enabled: "true"\nspec:\n${i(1)}template:\n${last ? spec + annotations : annotations + spec}`;
}

/** A SandboxAgent whose env holds an existing `ROLLSTAMP_HASH` entry, its value in any form. */
function sandboxAgent(rng: Rng, step: number, old: string): string {
  const i = (n: number): string => ' '.repeat(n * step);
  const form = scalarForm(rng, old, 4 * step + 2);
  const entry = `${i(4)}- name: ROLLSTAMP_HASH\n${i(4)}  value: ${line(form.text)}`;
  const other = `${i(4)}- name: LOG_LEVEL\n${i(4)}  value: debug\n`;
  return `apiVersion: kagent.dev/v1alpha2\nkind: SandboxAgent\nmetadata:\n${i(1)}name: sandboxed\nspec:\n${i(1)}type: BYO\n${i(1)}byo:\n${i(2)}deployment:\n${i(3)}image: example/agent:1\n${i(3)}env:\n${rng.bool() ? entry + other : other + entry}`;
}

/** Every document as plain data under one YAML version (strict: any error fails the property). */
function parsed(text: string, version: '1.1' | '1.2', what: string): unknown[] {
  const docs = parseAllDocuments(text, { version, uniqueKeys: true, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) assert.equal(d.errors.map((e) => e.code), [], `${what} parses as YAML ${version}`);
  return list.map((d) => d.toJS());
}

/** Where each kind keeps its stamp, as plain data. */
function stampOf(obj: any): { get(): unknown; set(v: unknown): void } {
  if (obj?.kind === 'Deployment') {
    const a = obj.spec.template.metadata.annotations;
    return { get: () => a['rollstamp.dev/hash'], set: (v) => (a['rollstamp.dev/hash'] = v) };
  }
  const entry = obj.spec.byo.deployment.env.find((e: any) => e.name === 'ROLLSTAMP_HASH');
  return { get: () => entry.value, set: (v) => (entry.value = v) };
}

test('P9: an existing stamp in any scalar form is replaced exactly: the output reads back as the input plus the stamp, in YAML 1.1 and 1.2, and a second stamp changes nothing (#21)', async () => {
  await forAll('P9', 0x9e9a0001, async (c) => {
    const step = c.rng.pick([2, 4]);
    const old = c.rng.pick(OLD_VALUES);
    const docs = [c.rng.bool(0.6) ? deployment(c.rng, step, old) : sandboxAgent(c.rng, step, old)];
    if (c.rng.bool(0.3)) docs.push('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\ndata:\n  k: v\n');
    let input = docs.join('---\n');
    if (c.rng.bool(0.2)) input = input.replace(/\n+$/, ''); // no line break at the end of the input
    c.keep('input.yaml', input);
    const once = await cli(['stamp', '-'], input);
    assert.is(once.code, 0, `${c.label}: ${once.stderr}`);
    c.keep('once.yaml', once.stdout);
    for (const version of ['1.2', '1.1'] as const) {
      const want = parsed(input, version, 'the input');
      const got = parsed(once.stdout, version, 'the output');
      const stamp = stampOf(got[0]).get();
      assert.ok(typeof stamp === 'string' && /^sha256:[0-9a-f]{64}$/.test(stamp), `${c.label}: the stamp reads back as a string (YAML ${version})`);
      stampOf(want[0]).set(stamp);
      assert.equal(got, want, `${c.label}: the output is the input plus the stamp (YAML ${version})`);
    }
    const twice = await cli(['stamp', '-'], once.stdout);
    assert.is(twice.code, 0, twice.stderr);
    assert.fixture(twice.stdout, once.stdout, `${c.label}: stamping the output again changed it`);
  });
});

/** The documents as the items of a ResourceList (block style: each line indented under its `- `). */
function asResourceList(docs: readonly string[]): string {
  const items = docs.map((d) => d.replace(/\n+$/, '').split('\n').map((l, i) => (i === 0 ? `- ${l}` : l === '' ? '' : `  ${l}`)).join('\n'));
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}

test('P9b: the same forms through fn: the items read back as the items in plus the stamp, in YAML 1.1 and 1.2, and a second run changes nothing (#21)', async () => {
  await forAll('P9b', 0x9e9a0002, async (c) => {
    const step = c.rng.pick([2, 4]);
    const old = c.rng.pick(OLD_VALUES);
    const docs = [c.rng.bool(0.6) ? deployment(c.rng, step, old) : sandboxAgent(c.rng, step, old)];
    if (c.rng.bool(0.3)) docs.push('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\ndata:\n  k: v\n');
    const input = asResourceList(docs);
    c.keep('resource-list.yaml', input);
    const once = await cli(['fn'], input);
    assert.is(once.code, 0, `${c.label}: ${once.stderr}`);
    c.keep('once.yaml', once.stdout);
    for (const version of ['1.2', '1.1'] as const) {
      const want = (parsed(input, version, 'the input')[0] as any).items;
      const got = (parsed(once.stdout, version, 'the output')[0] as any).items;
      const stamp = stampOf(got[0]).get();
      assert.ok(typeof stamp === 'string' && /^sha256:[0-9a-f]{64}$/.test(stamp), `${c.label}: the stamp reads back as a string (YAML ${version})`);
      stampOf(want[0]).set(stamp);
      assert.equal(got, want, `${c.label}: the items are the items in plus the stamp (YAML ${version})`);
    }
    // A list that has results is printed again from its tree (write/resource-list.ts): compare the items.
    const twice = await cli(['fn'], once.stdout);
    assert.is(twice.code, 0, twice.stderr);
    const items = (text: string): unknown => (parsed(text, '1.2', 'fn output')[0] as any).items;
    assert.equal(items(twice.stdout), items(once.stdout), `${c.label}: running fn on its output changed its items`);
  });
});

test('a block-scalar stamp followed directly by a key keeps that key on its own line, both readers (#21)', async () => {
  for (const indicator of ['|', '|-', '|+', '>', '>-']) {
    const input = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    metadata:\n      annotations:\n        rollstamp.dev/hash: ${indicator}\n          stale\n        note: x\n    spec:\n      containers:\n      - name: c\n        image: example/app:1\n`;
    const r = await cli(['stamp', '-'], input);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {8}rollstamp\.dev\/hash: "sha256:[0-9a-f]{64}"\n {8}note: x\n/, indicator);
  }
});

test.run();
