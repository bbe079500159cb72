// The kubelet's container restart back-off, mirroring k8s.io/client-go/util/flowcontrol/backoff.go
// as pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff uses it: the first restart after an
// exit is immediate and arms 10 s; each later exit inside the window doubles it up to 5 min
// (MaxContainerBackOff); an entry whose last update is older than twice the maximum is forgotten,
// so a container that ran cleanly for 10 minutes starts over at 10 s.

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  backoffMs: number;
  lastUpdateMs: number;
}

export class RestartBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly initialMs = INITIAL_BACKOFF_MS, private readonly maxMs = MAX_BACKOFF_MS) {}

  /** The current back-off for key (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** IsInBackOffSince: is `nowMs` still inside the back-off window counted from eventMs (the exit)? */
  isInBackOffSince(key: string, eventMs: number, nowMs: number): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (this.hasExpired(eventMs, entry.lastUpdateMs)) return false;
    return nowMs - eventMs < entry.backoffMs;
  }

  /** Next: arms the first back-off, or doubles it (capped), stamping eventMs as the last update. */
  next(key: string, eventMs: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(eventMs, entry.lastUpdateMs)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdateMs: eventMs });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdateMs = eventMs;
  }

  /** When the window that began at eventMs ends (for scheduling the retry). */
  readyAtMs(key: string, eventMs: number): number {
    return eventMs + this.get(key);
  }

  private hasExpired(eventMs: number, lastUpdateMs: number): boolean {
    return eventMs - lastUpdateMs > 2 * this.maxMs;
  }
}
