// Shared by the hostile-input tests: the built bundle as a child process with its wall time and peak RSS,
// temp dirs, and small bundle builders. Not a test file (no `.test.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as assert from 'uvu/assert';
import { BUNDLE, ROOT } from '../support/run-cli.ts';

export { BUNDLE, ROOT };

const made: string[] = [];

/** A fresh directory under the OS temp dir, removed by `cleanup`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rollstamp-hostile-${prefix}-`));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function requireBundle(): void {
  if (!existsSync(BUNDLE)) throw new Error('dist/rollstamp.js not found: run `npm run build` (npm test does this)');
}

export interface Measured {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident set size of the rollstamp process, KiB. */
  maxRssKiB: number;
}

let preload: string | undefined;

/** Runs `node dist/rollstamp.js ...argv` with a preload that records its peak RSS at exit. */
export function runMeasured(argv: string[], opts: { stdin?: string | Uint8Array; cwd?: string; env?: Record<string, string> } = {}): Measured {
  if (preload === undefined || !existsSync(preload)) { // cleanup() of an earlier test file may have removed it
    const dir = tempDir('rss');
    preload = join(dir, 'rss.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => { if (process.env.HOSTILE_RSS_FILE) require('node:fs').writeFileSync(process.env.HOSTILE_RSS_FILE, String(process.resourceUsage().maxRSS)); });\n",
    );
  }
  const rssFile = join(tempDir('rssout'), 'rss.txt');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', preload, BUNDLE, ...argv], {
    input: opts.stdin ?? '',
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', ...opts.env, HOSTILE_RSS_FILE: rssFile },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 30_000,
  });
  const ms = performance.now() - t0;
  const maxRssKiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms, maxRssKiB };
}

/** Time limit for one run: the guarantee is < 1 s; this 2-core machine gets 2 s. */
export const TIME_LIMIT_MS = 2000;
export const RSS_LIMIT_KIB = 256 * 1024;

/** Fails closed as SECURITY.md says: exit 1, nothing on stdout, one `rollstamp: ` line on stderr, no stack. */
export function assertFailsClosed(r: { code: number; stdout: string; stderr: string }, what: string): void {
  assert.is(r.code, 1, `${what}: exit code (stderr: ${r.stderr.slice(0, 300)})`);
  assert.is(r.stdout.length, 0, `${what}: stdout must be exactly empty`);
  assert.ok(r.stderr.startsWith('rollstamp: '), `${what}: stderr starts with "rollstamp: " (got ${JSON.stringify(r.stderr.slice(0, 200))})`);
  assert.ok(r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1, `${what}: stderr is exactly one line (got ${JSON.stringify(r.stderr.slice(0, 400))})`);
  assert.not.ok(r.stderr.includes('    at '), `${what}: no stack trace on stderr`);
}

export function assertCheap(r: Measured, what: string): void {
  assert.ok(r.ms < TIME_LIMIT_MS, `${what}: took ${r.ms.toFixed(0)} ms (limit ${TIME_LIMIT_MS} ms)`);
  assert.ok(Number.isFinite(r.maxRssKiB), `${what}: peak RSS was not recorded`);
  assert.ok(r.maxRssKiB < RSS_LIMIT_KIB, `${what}: peak RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB (limit 256 MiB)`);
}

/** Wraps YAML documents (block style, no directives) as the items of a ResourceList. */
export function asResourceList(docs: readonly string[], functionConfig?: string): string {
  const items = docs
    .map((doc) =>
      doc
        .replace(/\n+$/, '')
        .split('\n')
        .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
        .join('\n'),
    )
    .join('\n');
  const fc = functionConfig ? `functionConfig: ${functionConfig}\n` : '';
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${fc}items:\n${items}\n`;
}

/** A Deployment that opts in and uses Secret `secret` (envFrom) and, if given, ConfigMap `configMap`. */
export function deployment(name: string, secret: string, configMap?: string, extraTemplate = ''): string {
  const cm = configMap ? `\n        - configMapRef: {name: ${configMap}}` : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  annotations:
    rollstamp.dev/enabled: "true"
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}${extraTemplate}
    spec:
      containers:
      - name: c
        image: example/app:1
        envFrom:
        - secretRef: {name: ${secret}}${cm}
`;
}

export function secret(name: string, dataLines: string): string {
  return `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
data:
${dataLines}
`;
}

/** Joins documents into one YAML stream. */
export function stream(docs: readonly string[]): string {
  return docs.map((d) => d.replace(/\n*$/, '\n')).join('---\n');
}

/** `rollstamp.dev/hash` values in a text, in order. */
export function stampsIn(text: string): string[] {
  return [...text.matchAll(/rollstamp\.dev\/hash: "?((?:sha256|hmac-sha256):[0-9a-f]{64})"?/g)].map((m) => m[1]!);
}
