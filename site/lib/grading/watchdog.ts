// One resettable wall-clock timer per grading attempt: armed for the module load, for each test
// (its time limit plus a margin) and between tests (hooks). When it fires the page terminates the
// worker: a synchronous infinite loop cannot be interrupted any other way.
export class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;

  arm(delayMs: number, onFire: () => void): void {
    this.disarm();
    this.timer = setTimeout(onFire, delayMs);
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
