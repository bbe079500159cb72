// slowStartBatch, mirroring pkg/controller/replicaset/replica_set.go: call fn count times in
// batches of 1, 2, 4, 8 ... (SlowStartInitialBatchSize = 1), each batch in parallel; stop after
// the first batch with an error. So a controller whose every create fails (quota, admission)
// sends one doomed request, not 500. The runtime is callback-driven: each call reports its
// outcome, and the next batch starts when the current one has answered.

export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** Calls fn(index, done) in growing batches; done(true) on success. Reports the successes. */
export function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: (index: number, done: (ok: boolean) => void) => void,
  finished: (successes: number, batches: number[]) => void,
): void {
  let remaining = count;
  let successes = 0;
  let started = 0;
  const batches: number[] = [];
  const runBatch = (size: number): void => {
    if (size <= 0) return finished(successes, batches);
    batches.push(size);
    let answered = 0;
    let failed = false;
    for (let i = 0; i < size; i++) {
      fn(started++, (ok) => {
        answered++;
        if (ok) successes++;
        else failed = true;
        if (answered < size) return;
        remaining -= size;
        if (failed) return finished(successes, batches);
        runBatch(Math.min(2 * size, remaining));
      });
    }
  };
  runBatch(Math.min(remaining, initialBatchSize));
}
