// Live reads: the contract between the commands and the reader.

import type { LiveNeed } from '../../function/index.ts';
import type { ChildDeadline } from '../process/run-deadline.ts';
import { SETTING_TABLE } from '../settings/settings-table.ts';

/** One object to read, as the core's plan names it (`id` is `${cls}/${namespace}/${name}`). */
export type { LiveNeed };

export interface LiveOptions {
  /** Explicit path (--kubeconfig); else KUBECONFIG from `env`, ~/.kube/config, or in-cluster when in a pod. */
  kubeconfig?: string;
  /** --context; else the kubeconfig's current-context. */
  context?: string;
  /** The process env (the reader never reads process.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Per request, connect + full body. Default 5000. */
  requestTimeoutMs?: number;
  /** The whole run, kubeconfig and exec plugin included. Default 30000 (Argo CD's limit is 60 s). */
  deadlineMs?: number;
  /** The whole run's deadline (generate), which also bounds an exec credential plugin. */
  runDeadline?: ChildDeadline;
  /** Requests in flight at once. Default 16. */
  concurrency?: number;
  /**
   * Retries on 429, 5xx, ECONNRESET/EPIPE/socket hang up. Default 4. Backoff 100, 200, 400, 800 … ms;
   * a Retry-After (capped at 2 s) lengthens a step; a retry that would pass the deadline is not made.
   */
  maxRetries?: number;
}

export interface LiveOutcome {
  /** id → key → bytes (Secret data base64-decoded strictly; ConfigMap data as UTF-8 + binaryData decoded), or null for 404. */
  fetched: Map<string, Map<string, Uint8Array> | null>;
  /** id → the uid and resourceVersion of each object found (the live-read record names them). */
  versions: Map<string, { uid: string; resourceVersion: string }>;
  /** HTTP requests made (incl. retries). */
  requests: number;
}

export const LIVE_DEFAULTS = {
  // The operator's defaults (ROLLSTAMP_LIVE_TIMEOUT_SECONDS, ROLLSTAMP_LIVE_DEADLINE_SECONDS), from their rows.
  requestTimeoutMs: SETTING_TABLE.liveTimeoutSeconds.default * 1000,
  deadlineMs: SETTING_TABLE.liveDeadlineSeconds.default * 1000,
  concurrency: 16,
  maxRetries: 4,
  /** Largest answer accepted for one object (a Secret is at most ~1 MiB, ~1.4 MiB as base64 JSON). */
  maxBodyBytes: 4 * 1024 * 1024,
  /** Backoff before retry n (1-based): baseBackoffMs · 2^(n-1). */
  baseBackoffMs: 100,
  maxRetryAfterMs: 2000,
} as const;
