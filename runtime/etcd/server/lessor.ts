// The leader-only half of etcd's lessor: when each lease expires. Lease IDs, TTLs and attached
// keys are replicated in the store; expiry times live only in the leader's memory, measured on the
// leader's clock. mirrors server/lease/lessor.go: Promote (a new leader restarts every lease's
// clock, extended by an election timeout), Renew (keep-alive), and the expired-lease loop, which
// proposes a revoke through Raft (so every member deletes the keys at the same revision).

/** lessor.go expiredLeaseRetryInterval: how long before re-proposing a revoke that did not apply. */
export const EXPIRED_LEASE_RETRY_MS = 3000;

const NONE: readonly number[] = Object.freeze([]);

export class LeaderLessor {
  private readonly expiryMs = new Map<number, number>();
  private readonly revokingSinceMs = new Map<number, number>();
  private primary = false;

  get isPrimary(): boolean {
    return this.primary;
  }

  /** Became leader: every known lease lives for its TTL plus `extendMs` from now. */
  promote(leases: { id: number; ttl: number }[], nowMs: number, extendMs: number): void {
    this.primary = true;
    this.expiryMs.clear();
    this.revokingSinceMs.clear();
    for (const l of leases) this.expiryMs.set(l.id, nowMs + extendMs + l.ttl * 1000);
  }

  /** Lost leadership: expiry is somebody else's job now. */
  demote(): void {
    this.primary = false;
    this.expiryMs.clear();
    this.revokingSinceMs.clear();
  }

  granted(id: number, ttlSeconds: number, nowMs: number): void {
    if (this.primary) this.expiryMs.set(id, nowMs + ttlSeconds * 1000);
  }

  revoked(id: number): void {
    this.expiryMs.delete(id);
    this.revokingSinceMs.delete(id);
  }

  /** Keep-alive: returns false when the lease already expired (it is being revoked). */
  renew(id: number, ttlSeconds: number, nowMs: number): boolean {
    const expiry = this.expiryMs.get(id);
    if (expiry !== undefined && expiry <= nowMs) return false;
    this.expiryMs.set(id, nowMs + ttlSeconds * 1000);
    return true;
  }

  /** Seconds left, truncated like Go's Duration.Seconds() conversion to int64. */
  remainingSeconds(id: number, nowMs: number): number {
    const expiry = this.expiryMs.get(id);
    return expiry === undefined ? 0 : Math.max(0, Math.floor((expiry - nowMs) / 1000));
  }

  /** Leases whose time is up and whose revoke is not already in flight (oldest IDs first). */
  expired(nowMs: number): readonly number[] {
    // Every 500 ms over every lease: forEach makes no [id, expiry] pair per lease, and the usual
    // answer (none) is one shared empty list.
    let out: number[] | undefined;
    this.expiryMs.forEach((expiry, id) => {
      if (expiry > nowMs) return;
      const since = this.revokingSinceMs.get(id);
      if (since !== undefined && nowMs - since < EXPIRED_LEASE_RETRY_MS) return;
      this.revokingSinceMs.set(id, nowMs);
      (out ??= []).push(id);
    });
    return out === undefined ? NONE : out.sort((a, b) => a - b);
  }
}
