// examples/producers: the explain output its README shows, and its table of which Git changes roll the
// Deployment and which do not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, runInProcess } from '../support/run-cli.ts';

const APP = readFileSync(join(ROOT, 'examples/producers/app.yaml'), 'utf8');
const README = readFileSync(join(ROOT, 'examples/producers/README.md'), 'utf8');

async function hashOf(text: string): Promise<string> {
  const r = await runInProcess(['stamp', '-'], { stdin: text });
  assert.is(r.code, 0, r.stderr);
  return /rollstamp\.dev\/hash: "(sha256:[0-9a-f]{64})"/.exec(r.stdout)![1]!;
}

function edit(from: string, to: string): string {
  assert.ok(APP.includes(from), `app.yaml holds ${from}`);
  return APP.replace(from, to);
}

test('the README shows what explain prints', async () => {
  const r = await runInProcess(['explain', 'examples/producers/app.yaml']);
  assert.is(r.code, 0, r.stderr);
  const shown = /```\n(apps\/v1\/Deployment[\s\S]*?)```/.exec(README)![1]!;
  const actual = r.stdout.replace(/(sha256:[0-9a-f]{12})[0-9a-f]{52}/, '$1…');
  assert.is(actual, shown);
});

test('the README table: which changes roll the Deployment', async () => {
  const base = await hashOf(APP);
  const rows: Array<[string, string, string, boolean]> = [
    ['pinned version of a used key', 'version: "4"', 'version: "5"', true],
    ['a key the Deployment does not read', 'property: username}', 'property: user}', false],
    ['refreshInterval', 'refreshInterval: 1h', 'refreshInterval: 15m', false],
    ['a resealed value', 'AgBvMDk3', 'AgBvMDk4', true],
    ['a new DNS name', 'api.shop.example.com', 'api2.shop.example.com', true],
    ['a new issuer', 'name: letsencrypt', 'name: internal-ca', true],
    ['duration', 'duration: 2160h', 'duration: 720h', true],
    ['renewBefore', 'renewBefore: 360h', 'renewBefore: 720h', false],
  ];
  for (const [what, from, to, rolls] of rows) {
    const h = await hashOf(edit(from, to));
    if (rolls) assert.is.not(h, base, `${what} must roll the Deployment`);
    else assert.is(h, base, `${what} must not roll the Deployment`);
  }
});

test.run();
