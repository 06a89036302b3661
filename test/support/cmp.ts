// Repositories and the failure contract for the end-to-end tests of the trust boundary and Helm rendering;
// the request itself (plugin.yaml's command, Argo CD's variables, the checkout) is test/support/argocd-request.ts.
// Not a test file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as assert from 'uvu/assert';
import { generateInCheckout, type ArgoRequest } from './argocd-request.ts';
import { tempDir, type Run } from './tools.ts';

export type Files = Record<string, string>;

/** One Application and its sidecar (test/support/argocd-request.ts), and what to do to the checkout first. */
export type CmpApp = ArgoRequest & {
  /** Runs after the checkout is unpacked: (the sidecar's work dir, the checkout). */
  prepare?: (work: string, checkout: string) => void;
};

/** A repository: files written into a new directory (symlinks are added by `CmpApp.prepare`). */
export function repository(files: Files): string {
  const dir = join(tempDir('cmp-repo'), 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** One generate request in a fresh checkout (`generateInCheckout`), both readers agreeing. */
export function generateIn(repo: string, app: CmpApp): Run {
  return generateInCheckout(repo, app);
}

/** Argo CD's contract for a failure: the exit code, nothing on stdout, one stderr line, no canary anywhere. */
export function assertFailsClosed(r: Run, expect: { code: number; message: RegExp; canaries?: string[] }): void {
  assert.is(r.code, expect.code, `exit code\n--- stderr:\n${r.stderr}`);
  assert.is(r.stdout, '', 'stdout stays empty');
  assert.match(r.stderr, /^rollstamp: [^\n]+\n$/, `stderr is one line:\n${r.stderr}`);
  assert.match(r.stderr, expect.message);
  for (const c of expect.canaries ?? []) assert.not.ok(r.stderr.includes(c) || r.stdout.includes(c), `${c} leaked`);
}
