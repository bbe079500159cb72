// The admission plugins' deferred work of one write, run once the storage result is known.
// mirrors staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go: Create calls the
// FinishFunc of BeginCreate with true after Storage.Create succeeded and with false otherwise;
// AfterDelete runs only after a successful delete. Upstream's Update runs BeginUpdate's
// FinishFunc(true) at the end of each tryUpdate, before the write; ours waits for the write, so a
// try that loses its race, or a write etcd fails, gives back what it took.
import type { AdmissionAttributes, AdmissionFinish, WriteOutcome } from './types.ts';

export const NOT_STORED: WriteOutcome = { committed: false, deleted: false };
export const STORED: WriteOutcome = { committed: true, deleted: false };

/** The work registered by one admission pass; it runs once, in registration order. */
export class WriteFinish {
  private pending: AdmissionFinish[] = [];

  /** Lets the plugins of `a` register their work here. */
  attach(a: AdmissionAttributes): AdmissionAttributes {
    a.onFinish = (finish) => this.pending.push(finish);
    return a;
  }

  run(outcome: WriteOutcome, done: () => void): void {
    const work = this.pending;
    this.pending = [];
    const next = (i: number): void => {
      const finish = work[i];
      if (!finish) return done();
      finish(outcome, () => next(i + 1));
    };
    next(0);
  }
}

/**
 * A GuaranteedUpdate's finish work: each try runs admission again, and a new try means the
 * previous one's write lost its race, so the previous try's work is undone before the new one.
 */
export class AttemptsFinish {
  private current: WriteFinish | undefined;

  /** Starts a try: undoes the previous try's work, then hands out a fresh WriteFinish. */
  nextAttempt(then: (finish: WriteFinish) => void): void {
    const previous = this.current;
    const fresh = new WriteFinish();
    this.current = fresh;
    if (!previous) return then(fresh);
    previous.run(NOT_STORED, () => then(fresh));
  }

  /** The last try's outcome. */
  settle(outcome: WriteOutcome, done: () => void): void {
    const last = this.current;
    this.current = undefined;
    if (!last) return done();
    last.run(outcome, done);
  }
}
