// Shared set-up for the live-read tests: test PKI, a fake API server per test, a kubeconfig for it, and one
// check every failure must pass (one line, the right failure kind, no value, no token, no server message).
import { tempDir as sharedTempDir } from './temp-dirs.ts';
import * as assert from 'uvu/assert';
import { LiveReadError, type LiveFailure, type LiveNeed } from '../../plugin/live/reader.ts';
import { STATUS_MESSAGE_MARKER, testPki, type TestPki } from './fake-apiserver.ts';

/** Every Secret value in these tests contains this; no error message may. */
export const VALUE_MARKER = 'SECRET-VALUE-MARKER-c0ffee';
export const TOKEN = 'TOKEN-MARKER-0123456789abcdef';

/** The PKI, or undefined after printing why the live tests are skipped (never under CI=true: testPki throws). */
export function pkiOrSkip(file: string): TestPki | undefined {
  const p = testPki();
  if ('skip' in p) {
    console.log(`${file}: skipped: ${p.skip}`);
    return undefined;
  }
  return p;
}

/** A fresh directory, removed when the test process exits (temp-dirs.ts). */
export function tempDir(): string {
  return sharedTempDir('live');
}

export function secret(namespace: string, name: string): LiveNeed {
  return { id: `Secret/${namespace}/${name}`, cls: 'Secret', namespace, name };
}

export function configMap(namespace: string, name: string): LiveNeed {
  return { id: `ConfigMap/${namespace}/${name}`, cls: 'ConfigMap', namespace, name };
}

/** Minimal env: no KUBECONFIG, no HOME config, nothing that could leak into the tests from the machine. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: '/nonexistent-home-for-tests', ...extra };
}

/** Fast retry/timeout settings for tests. */
export const FAST = { requestTimeoutMs: 1000, deadlineMs: 4000, maxRetries: 4 } as const;

/**
 * Time a loaded machine may add to a timer-driven failure (TLS set-up, the client's first load, a late
 * timer). The failure kind and message show which timer fired (a request timeout, a retry budget, the
 * deadline); the time bound only catches a hang, so it carries this margin (#12: absolute bounds of a few
 * hundred ms failed under load).
 */
export const LOAD_MARGIN_MS = 2000;

/**
 * Awaits a promise that must reject with a LiveReadError and checks the message: one line, matches every
 * pattern, and contains no secret value, token or Status message. It must end within `withinMs` (the
 * mechanism's own bound) + LOAD_MARGIN_MS.
 */
export async function expectFailure(
  run: () => Promise<unknown>,
  failure: LiveFailure,
  patterns: readonly RegExp[],
  withinMs = 10_000,
): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  let caught: unknown;
  try {
    await run();
  } catch (err) {
    caught = err;
  }
  const ms = Date.now() - started;
  assert.ok(caught !== undefined, 'expected the live read to fail, but it succeeded');
  assert.instance(caught, LiveReadError, `not a LiveReadError: ${String(caught)}`);
  const err = caught as LiveReadError;
  const message = err.message;
  assert.is(err.failure, failure, `failure kind of: ${message}`);
  assert.is(err.exitCode, 1);
  assert.not.match(message, /[\r\n]/, 'one line');
  for (const p of patterns) assert.match(message, p);
  for (const secretText of [VALUE_MARKER, TOKEN, STATUS_MESSAGE_MARKER, 'BEGIN', 'PRIVATE']) {
    assert.not.ok(message.includes(secretText), `message leaks ${secretText}: ${message}`);
  }
  assert.ok(ms <= withinMs + LOAD_MARGIN_MS, `took ${ms} ms, limit ${withinMs} + ${LOAD_MARGIN_MS} ms: ${message}`);
  return { message, ms };
}
