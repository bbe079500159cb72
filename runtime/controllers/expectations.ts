// ControllerExpectations, mirroring pkg/controller/controller_utils.go: after a sync issues N
// creates (or deletes), the controller waits to OBSERVE them through its informer before it
// trusts its cache again, or it would create the same pods twice. Expectations are satisfied
// when both counts reach zero, or when they are older than ExpectationsTimeout (5 minutes), in
// case a watch event was lost.

export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  timestampMs: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly clock: { now(): number }) {}

  /** SatisfiedExpectations: true when the controller may sync key (nothing outstanding, expired, or never set). */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.timestampMs > EXPECTATIONS_TIMEOUT_MS;
  }

  /** SetExpectations (ExpectCreations / ExpectDeletions): replaces the record and restarts its clock. */
  expect(key: string, add: number, del: number): void {
    this.byKey.set(key, { add, del, timestampMs: this.clock.now() });
  }

  /** CreationObserved (also called when a create failed: it will never be observed). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** DeletionObserved. */
  deletionObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.del--;
  }

  /** What is still expected (for tests and the UI). */
  pending(key: string): { add: number; del: number } | undefined {
    const e = this.byKey.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}

/**
 * UIDTrackingControllerExpectations' deletion side: remembers which pods we asked to delete, so
 * a pod deleted twice (or a deletion seen as both an update with deletionTimestamp and a DELETED
 * event) lowers the count once.
 */
export class DeletionTracker {
  private readonly byKey = new Map<string, Set<string>>();

  expectDeletions(key: string, podKeys: string[]): void {
    this.byKey.set(key, new Set(podKeys));
  }

  /** True the first time podKey is observed gone for key. */
  observe(key: string, podKey: string): boolean {
    return this.byKey.get(key)?.delete(podKey) ?? false;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
