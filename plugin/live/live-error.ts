// Live reads: the one error type they throw, and the wording helpers its messages share. Every message is
// built here from names, paths, status codes and error codes only: never from a response body, a Status
// `message`, an exec plugin's output or a kubeconfig's contents, so no value can reach it.
import { InputError } from '../process/errors.ts';

/** Why a live read failed; callers may branch on it, users read the message. */
export type LiveFailure =
  | 'kubeconfig' // missing or invalid kubeconfig, unknown context, refused server URL
  | 'exec' // exec credential plugin failed or did not return
  | 'unauthorized' // HTTP 401
  | 'forbidden' // HTTP 403
  | 'http' // any other unexpected status, incl. 429/5xx after retries
  | 'network' // connect failure, reset after retries
  | 'tls' // certificate verification or handshake failure
  | 'timeout' // one request took longer than requestTimeoutMs
  | 'deadline' // the whole run passed deadlineMs
  | 'response' // the answer was not the object asked for (too large, not JSON, bad base64 …)
  | 'reference'; // a need that cannot name a Kubernetes object

/** A live read failed: exit 1 (InputError), one line, no values. */
export class LiveReadError extends InputError {
  override name = 'LiveReadError';
  constructor(
    message: string,
    readonly failure: LiveFailure,
    /** `Secret/ns/name` when one object is to blame. */
    readonly objectId?: string,
  ) {
    super(message);
  }
}

/** `1.5 s`, `30 s`, `0.25 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** `Secret team-a/db-creds`. */
export function objectLabel(need: { cls: string; namespace: string; name: string }): string {
  return `${need.cls} ${need.namespace}/${need.name}`;
}
