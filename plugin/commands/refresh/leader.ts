// `rollstamp refresh --leader-elect`: one replica acts at a time, by holding a coordination.k8s.io/v1 Lease, as
// client-go's leader election does (leaseDuration 15 s, renew deadline 10 s, retry every 2 s). Expiry is judged by
// this replica's own clock from when it last saw the Lease change, never by comparing clocks across nodes. A leader
// that cannot renew within the deadline stops acting before its Lease can expire; on stop it releases the Lease so
// the other replica takes over at once.
import { Api, ApiError, sleep } from './api.ts';

export interface LeaseSettings {
  namespace: string;
  name: string;
  /** This replica: the pod name and a random suffix. */
  identity: string;
  leaseSeconds?: number;
  renewDeadlineSeconds?: number;
  retrySeconds?: number;
}

interface LeaseObject {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: { holderIdentity?: string | null; leaseDurationSeconds?: number; acquireTime?: string | null; renewTime?: string | null; leaseTransitions?: number };
}

/** MicroTime as the API server writes it: RFC 3339 with microseconds. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export class LeaderElector {
  private leading = false;
  private lastRenew = 0;
  private observed: { record: string; at: number } | undefined;
  private readonly path: string;

  constructor(
    private readonly api: Api,
    private readonly lease: LeaseSettings,
    private readonly onChange: (leading: boolean) => void,
  ) {
    this.path = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(lease.namespace)}/leases`;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Tries to acquire or renew every retry period until `signal` fires, then releases the Lease if held. */
  async run(signal: AbortSignal): Promise<void> {
    const retryMs = (this.lease.retrySeconds ?? 2) * 1000;
    const deadlineMs = (this.lease.renewDeadlineSeconds ?? 10) * 1000;
    while (!signal.aborted) {
      let ok = false;
      try {
        ok = await this.tryAcquireOrRenew();
      } catch (err) {
        if (err instanceof ApiError && err.failure === 'aborted') break;
      }
      if (ok) this.lastRenew = Date.now();
      const holding = ok || (this.leading && Date.now() - this.lastRenew < deadlineMs);
      this.set(holding);
      await sleep(retryMs, signal).catch(() => {});
    }
  }

  /** Gives the Lease up (holder cleared, 1 s duration), when held: bounded, best effort. */
  async release(api: Api): Promise<void> {
    if (!this.leading) return;
    this.set(false);
    const current = await this.get(api).catch(() => undefined);
    if (!current || current.spec.holderIdentity !== this.lease.identity) return;
    const released: LeaseObject = { ...current, spec: { ...current.spec, holderIdentity: null, leaseDurationSeconds: 1, renewTime: microTime(Date.now()) } };
    await api.json(`release lease ${this.lease.namespace}/${this.lease.name}`, `${this.path}/${encodeURIComponent(this.lease.name)}`, { method: 'PUT', body: JSON.stringify(released), contentType: 'application/json' }).catch(() => {});
  }

  private set(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.onChange(leading);
  }

  private get(api: Api = this.api): Promise<LeaseObject | undefined> {
    return api.json(`get lease ${this.lease.namespace}/${this.lease.name}`, `${this.path}/${encodeURIComponent(this.lease.name)}`).then(
      (l) => l as LeaseObject,
      (err: unknown) => {
        if (err instanceof ApiError && err.failure === 'not-found') return undefined;
        throw err;
      },
    );
  }

  /** One round: true when this replica holds the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const { identity, name, namespace } = this.lease;
    const duration = this.lease.leaseSeconds ?? 15;
    const current = await this.get();
    const spec = { holderIdentity: identity, leaseDurationSeconds: duration, renewTime: microTime(now) };
    if (!current) {
      const created = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 } };
      return this.write('POST', this.path, created);
    }
    const record = JSON.stringify(current.spec);
    if (this.observed?.record !== record) this.observed = { record, at: now };
    const holder = current.spec.holderIdentity ?? '';
    const expired = now - this.observed.at > (current.spec.leaseDurationSeconds ?? duration) * 1000;
    if (holder !== identity && holder !== '' && !expired) return false;
    const taking = holder !== identity;
    const next: LeaseObject = {
      metadata: current.metadata,
      spec: { ...current.spec, ...spec, ...(taking ? { acquireTime: microTime(now), leaseTransitions: (current.spec.leaseTransitions ?? 0) + 1 } : {}) },
    };
    return this.write('PUT', `${this.path}/${encodeURIComponent(name)}`, next);
  }

  /** Writes the Lease; a 409 (another replica wrote first) is a lost round, not an error. */
  private async write(method: 'POST' | 'PUT', path: string, body: object): Promise<boolean> {
    try {
      await this.api.json(`${method === 'POST' ? 'create' : 'update'} lease ${this.lease.namespace}/${this.lease.name}`, path, { method, body: JSON.stringify(body), contentType: 'application/json' });
      return true;
    } catch (err) {
      if (err instanceof ApiError && (err.failure === 'conflict' || err.failure === 'not-found')) return false;
      throw err;
    }
  }
}
