/**
 * The virtual clock: integer milliseconds since the simulated boot.
 * Invariant: time never goes backwards. The kernel moves it forward to the time of each event it
 * runs; nothing else in the runtime may read a real clock (see runtime/testing/boundaries.test.ts).
 */
export class VirtualClock {
  private nowMs = 0;

  /** Simulated milliseconds since boot. */
  now(): number {
    return this.nowMs;
  }

  /** Moves the clock to `timeMs`. Throws if that would move it backwards or off the integer grid. */
  advanceTo(timeMs: number): void {
    if (timeMs < this.nowMs) {
      throw new Error(
        `invariant violated: the virtual clock is monotonic (cannot move from ${this.nowMs} ms back to ${timeMs} ms)`,
      );
    }
    if (!Number.isSafeInteger(timeMs)) {
      throw new Error(`invariant violated: virtual time is integer milliseconds (got ${timeMs})`);
    }
    this.nowMs = timeMs;
  }
}
