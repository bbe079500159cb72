// Where a grade's time goes, for the browser suite's speed report (not for the verdict). The worker
// and the page have different time origins, so phases travel as wall-clock epoch milliseconds
// (timeOrigin + now) and the page turns them into performance.measure entries on its own timeline.

/** One timed step, in epoch milliseconds (comparable between the worker and the page). */
export interface Phase {
  name: string;
  startMs: number;
  endMs: number;
}

/** Now, in epoch milliseconds with sub-millisecond precision. */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Collects phases; `time` wraps a step, `mark` records one that started at an earlier instant. */
export class PhaseLog {
  readonly phases: Phase[] = [];

  mark(name: string, startMs: number, endMs = epochNowMs()): void {
    this.phases.push({ name, startMs, endMs });
  }

  time<T>(name: string, step: () => T): T {
    const startMs = epochNowMs();
    try {
      return step();
    } finally {
      this.mark(name, startMs);
    }
  }

  async timeAsync<T>(name: string, step: () => Promise<T>): Promise<T> {
    const startMs = epochNowMs();
    try {
      return await step();
    } finally {
      this.mark(name, startMs);
    }
  }
}

/** Prefix of every grading measure on the page; `detail.grade` numbers the grade it belongs to. */
export const GRADE_MEASURE_PREFIX = 'lab-grade:';

/** Records phases as page measures (names prefixed), tagged with the grade they belong to. */
export function recordPhases(phases: readonly Phase[], grade: number): void {
  for (const phase of phases) {
    performance.measure(`${GRADE_MEASURE_PREFIX}${phase.name}`, {
      start: phase.startMs - performance.timeOrigin,
      end: Math.max(phase.startMs, phase.endMs) - performance.timeOrigin,
      detail: { grade },
    });
  }
}
