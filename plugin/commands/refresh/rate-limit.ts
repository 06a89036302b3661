// `rollstamp refresh`: the rate limits on hard refreshes — at most one request per Application per interval, and
// a global budget per minute (a token bucket that refills continuously). A request over a limit is not dropped:
// the caller passes again when `nextAt` says a slot opens, and the decision, being level-triggered, asks again.

export interface RateLimits {
  /** Least time between two requests of one Application. */
  perApplicationMs: number;
  /** Requests per minute in all. */
  perMinute: number;
}

export class RateLimiter {
  private readonly lastByApp = new Map<string, number>();
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly limits: RateLimits,
    now: number,
  ) {
    this.tokens = limits.perMinute;
    this.refilledAt = now;
  }

  /** Whether `app` may be requested now: undefined when it may (a slot is taken), else the limit that holds it back. */
  take(app: string, now: number): 'application' | 'global' | undefined {
    this.refill(now);
    const last = this.lastByApp.get(app);
    if (last !== undefined && now - last < this.limits.perApplicationMs) return 'application';
    if (this.tokens < 1) return 'global';
    this.tokens -= 1;
    this.lastByApp.set(app, now);
    return undefined;
  }

  /** When a request now held back could go: the earliest of its Application's slot and the next token. */
  nextAt(app: string, now: number): number {
    this.refill(now);
    const last = this.lastByApp.get(app);
    const appAt = last === undefined ? now : last + this.limits.perApplicationMs;
    const tokenAt = this.tokens >= 1 ? now : now + ((1 - this.tokens) * 60_000) / this.limits.perMinute;
    return Math.max(appAt, tokenAt);
  }

  /** Forgets an Application that is gone. */
  forget(app: string): void {
    this.lastByApp.delete(app);
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.limits.perMinute, this.tokens + ((now - this.refilledAt) * this.limits.perMinute) / 60_000);
    this.refilledAt = now;
  }
}
