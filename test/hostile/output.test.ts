// Output guarantees: nothing on stdout when any input fails (even the last one), the same bytes through a
// pipe as into a file, and the same objects out as in — only rollstamp's annotation changes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { Rng } from '../support/property-generate.ts';
import { runInProcess } from '../support/run-cli.ts';
import { assertFailsClosed, BUNDLE, cleanup, requireBundle, runMeasured, tempDir } from '../support/hostile.ts';
import { asResourceList, deployment, secret, stream } from '../support/objects.ts';

test.before.each(requireBundle);
test.after(cleanup);

test('a failure in the last of several files prints nothing at all', () => {
  const dir = tempDir('last-fails');
  writeFileSync(join(dir, 'a.yaml'), stream([deployment('web', { secret: 'db' }), secret('db', 'password: cGFzcw==')]));
  writeFileSync(join(dir, 'b.yaml'), stream([secret('other', 'k: dg==')]));
  writeFileSync(join(dir, 'z.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\n');
  const r = runMeasured(['stamp', 'a.yaml', 'b.yaml', 'z.yaml'], { cwd: dir });
  assertFailsClosed(r, 'last file broken');
});

test('a 5 MiB stamped stream through a pipe is byte-identical to the same output written to a file', () => {
  const dir = tempDir('big-pipe');
  const docs: string[] = [];
  let size = 0;
  for (let i = 0; size < 5 * 1024 * 1024; i++) {
    const pair = [deployment(`web-${i}`, { secret: `db-${i}` }), secret(`db-${i}`, `password: ${Buffer.from(`pw-${i}`).toString('base64')}`)];
    docs.push(...pair);
    size += pair.join('---\n').length + 4;
  }
  writeFileSync(join(dir, 'big.yaml'), stream(docs));
  const env = { ...process.env, ROLLSTAMP_MAX_INPUT_BYTES: String(64 * 1024 * 1024) };
  execFileSync('sh', ['-c', `node '${BUNDLE}' stamp big.yaml > file.out`], { cwd: dir, env });
  execFileSync('sh', ['-c', `node '${BUNDLE}' stamp big.yaml | cat > pipe.out`], { cwd: dir, env });
  const viaFile = readFileSync(join(dir, 'file.out'));
  assert.ok(viaFile.length > 5 * 1024 * 1024, `output is ${viaFile.length} bytes`);
  assert.ok(viaFile.equals(readFileSync(join(dir, 'pipe.out'))), 'pipe and file differ');
});

/** (apiVersion, kind, namespace, name) of every object, sorted: the multiset. */
function identities(text: string): string[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } | null)
    .filter((o) => o !== null)
    .map((o) => `${o!.apiVersion}|${o!.kind}|${o!.metadata?.namespace ?? ''}|${o!.metadata?.name}`)
    .sort();
}

/** The objects with rollstamp's stamp (and the maps created only to hold it) removed, for comparing the rest. */
function withoutStamps(text: string): unknown[] {
  const empty = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  return parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((o) => o !== null)
    .map((o) =>
      JSON.parse(JSON.stringify(o), (k, v) => (k === 'rollstamp.dev/hash' || ((k === 'annotations' || k === 'metadata') && empty(v)) ? undefined : v)),
    );
}

test('200 generated bundles: the same objects come out as go in, and only rollstamp.dev/hash differs (stamp and fn)', async () => {
  const rng = new Rng(0x6f757470);
  for (let c = 0; c < 200; c++) {
    const docs: string[] = [];
    const n = 1 + rng.int(6);
    for (let i = 0; i < n; i++) {
      docs.push(secret(`s${i}`, `k: ${Buffer.from(rng.hex(6)).toString('base64')}`));
      if (rng.bool()) docs.push(deployment(`d${i}`, { secret: `s${rng.int(n)}` }));
      if (rng.bool(0.3)) docs.push(`apiVersion: v1\nkind: Service\nmetadata:\n  name: svc${i}\nspec: {ports: [{port: 80}]}\n`);
    }
    const input = stream(rng.shuffle(docs));
    const out = await runInProcess(['stamp', '-'], { stdin: input });
    assert.is(out.code, 0, `case ${c}: ${out.stderr}`);
    assert.equal(identities(out.stdout), identities(input), `case ${c}: objects in ≠ objects out`);
    assert.equal(withoutStamps(out.stdout), withoutStamps(input), `case ${c}: something besides the stamp changed`);
    if (c % 20 === 0) {
      const fn = await runInProcess(['fn'], { stdin: asResourceList(docs) });
      assert.is(fn.code, 0, `case ${c} fn: ${fn.stderr}`);
      const items = (parseAllDocuments(fn.stdout)[0]!.toJS() as { items: unknown[] }).items;
      assert.is(items.length, docs.length, `case ${c} fn: item count`);
    }
  }
});

test.run();
