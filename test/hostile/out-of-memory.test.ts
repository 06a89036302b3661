// SECURITY.md "Bounded work" (#21): running out of heap is one line on stderr and exit 1, never V8's fatal
// error with a native stack trace, whichever way the operator limits the heap (node's flag, NODE_OPTIONS)
// and for `stamp` as for `generate`. main.ts runs the work in a worker whose heap is the process's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBundle } from '../support/run-cli.ts';
import { cleanup, requireBundle, tempDir } from '../support/hostile.ts';
import { stream } from '../support/objects.ts';

test.before(requireBundle);
test.after(cleanup);

/**
 * 7 MB that rollstamp stamps in more than HEAP_MB of heap: 6000 ConfigMaps of 100 keys, twelve Deployments using
 * 500 each, so every ConfigMap is decoded (one no target consumes is not, #37). It fits in 64 MiB and runs out at
 * 56, well above HEAP_MB. Half of it (3000 ConfigMaps) once needed 48 MiB; as reading and planning made less
 * garbage (#37) that half came to fit in 36, and at 32 it ran out in some runs and not in others.
 */
function bigInput(): string {
  const docs: string[] = [];
  for (let i = 0; i < 6000; i++) {
    docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n${Array.from({ length: 100 }, (_, k) => `  k${k}: v${k}`).join('\n')}\n`);
  }
  for (let d = 0; d < 12; d++) {
    const envFrom = Array.from({ length: 500 }, (_, i) => `        - configMapRef: {name: cm${d * 500 + i}}`).join('\n');
    docs.push(`apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web${d}\n  annotations: {rollstamp.dev/enabled: "true"}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        envFrom:\n${envFrom}\n`);
  }
  return stream(docs);
}

const HEAP_MB = 32;
const ONE_LINE = new RegExp(`^rollstamp: error: out of memory: the run needed more than the JavaScript heap limit of ${HEAP_MB} MiB \\(raise it with node --max-old-space-size, or lower ROLLSTAMP_MAX_INPUT_BYTES\\); nothing was written\\n$`);

function run(nodeArgs: string[], argv: string[], cwd: string, env: Record<string, string> = {}): { code: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = runBundle(argv, { nodeArgs, cwd, env, timeoutMs: 120_000 });
  return { code: r.signal === null ? r.code : null, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function assertOneLine(r: ReturnType<typeof run>, what: string): void {
  assert.is(r.signal, null, `${what}: not aborted by a signal (${r.signal})`);
  assert.is(r.code, 1, `${what}: exit 1 (stderr: ${r.stderr.slice(0, 400)})`);
  assert.is(r.stdout, '', `${what}: nothing on stdout`);
  assert.not.match(r.stderr, /FATAL ERROR|heap out of memory|node::|v8::/, `${what}: no native stack trace`);
  assert.match(r.stderr, ONE_LINE, `${what}: one line: ${JSON.stringify(r.stderr.slice(0, 400))}`);
}

test('out of heap while stamping (--max-old-space-size, or NODE_OPTIONS): one stderr line, exit 1, nothing on stdout (#21)', () => {
  const dir = tempDir('oom');
  writeFileSync(join(dir, 'big.yaml'), bigInput());
  const control = run([], ['stamp', 'big.yaml'], dir);
  assert.is(control.code, 0, `control: with the default heap the input is stamped (${control.stderr.slice(0, 300)})`);
  assertOneLine(run([`--max-old-space-size=${HEAP_MB}`], ['stamp', 'big.yaml'], dir), 'node flag');
  assertOneLine(run([], ['stamp', 'big.yaml'], dir, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` }), 'NODE_OPTIONS');
});

test('out of heap in generate (the sidecar\'s NODE_OPTIONS): one stderr line, exit 1, nothing on stdout (#21)', () => {
  const app = join(tempDir('oom'), 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'big.yaml'), bigInput());
  assertOneLine(run([], ['generate'], app, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`, ARGOCD_APP_NAMESPACE: 'shop', ARGOCD_APP_NAME: 'shop' }), 'generate');
});

test.run();
