// The deferred admission work of one write (finish.ts): each registered piece runs once, in order,
// with the write's outcome; a GuaranteedUpdate try that is followed by another is settled as not
// stored before the next try's admission runs.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, WriteOutcome } from './types.ts';
import { AttemptsFinish, NOT_STORED, STORED, WriteFinish } from './finish.ts';

const attrs = (): AdmissionAttributes => ({ operation: 'CREATE', resource: {} as never, name: 'x', user: {} as never, dryRun: false });

describe('WriteFinish', () => {
  it('runs the registered work once, in registration order, each waiting for the previous one', () => {
    const finish = new WriteFinish();
    const a = finish.attach(attrs());
    const log: string[] = [];
    let later: (() => void) | undefined;
    a.onFinish!((o, done) => {
      log.push(`first ${o.committed}`);
      later = done; // answers asynchronously
    });
    a.onFinish!((o, done) => {
      log.push(`second ${o.committed}`);
      done();
    });
    let finished = 0;
    finish.run(STORED, () => finished++);
    expect(log).toEqual(['first true']);
    later!();
    expect(log).toEqual(['first true', 'second true']);
    finish.run(NOT_STORED, () => finished++);
    expect(log).toHaveLength(2);
    expect(finished).toBe(2);
  });
});

describe('AttemptsFinish', () => {
  it.each<[string, number, WriteOutcome, string[]]>([
    ['one try, stored', 1, STORED, ['try 1: true']],
    ['one try, not stored', 1, NOT_STORED, ['try 1: false']],
    ['three tries, the last stored', 3, STORED, ['try 1: false', 'try 2: false', 'try 3: true']],
    ['two tries, the last deleted the object', 2, { committed: true, deleted: true }, ['try 1: false', 'try 2: true deleted']],
  ])('%s', (_name, tries, outcome, want) => {
    const attempts = new AttemptsFinish();
    const log: string[] = [];
    for (let t = 1; t <= tries; t++) {
      attempts.nextAttempt((finish) => {
        finish.attach(attrs()).onFinish!((o, done) => {
          log.push(`try ${t}: ${o.committed}${o.deleted ? ' deleted' : ''}`);
          done();
        });
      });
    }
    let settled = false;
    attempts.settle(outcome, () => (settled = true));
    expect(settled).toBe(true);
    expect(log).toEqual(want);
  });
});
