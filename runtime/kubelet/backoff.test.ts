import { describe, expect, it } from 'vitest';
import { RestartBackoff, newCrashLoopBackoff, restartDecision, type ContainerHistory, type ContainerRun } from './backoff.ts';
import { formatPod } from './format.ts';

describe('RestartBackoff (flowcontrol.Backoff as doBackOff uses it)', () => {
  it('restarts at once after the first exit, then waits 10s, 20s, 40s ... capped at 5m', () => {
    const b = newCrashLoopBackoff();
    const waits: number[] = [];
    let t = 0;
    for (let exit = 0; exit < 9; exit++) {
      // the container exits at t; the kubelet restarts it as soon as it is out of back-off
      const exitAt = t;
      let restartAt = exitAt;
      while (b.isInBackOffSince('c', exitAt, restartAt)) restartAt += 1000;
      b.next('c', exitAt, restartAt);
      waits.push(restartAt - exitAt);
      t = restartAt + 2000; // runs 2 s, then crashes again
    }
    expect(waits).toEqual([0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('stamps lastUpdate at the restart: the window keeps doubling while runs are short', () => {
    const b = newCrashLoopBackoff();
    b.next('c', 0, 0); // 10 s
    b.next('c', 5000, 15_000); // 20 s, lastUpdate 15 s (the restart), not 5 s (the exit)
    // ran 100 s, exits at 115 s: 20 s window, then doubled
    expect(b.isInBackOffSince('c', 115_000, 134_999)).toBe(true);
    b.next('c', 115_000, 135_000);
    expect(b.get('c')).toBe(40_000);
    // ran 585 s (from 135 s to 720 s): the 40 s window would end at 760 s, but at 735.001 s the
    // entry's lastUpdate is more than 600 s old and GC forgets it: restart then, back at 10 s
    expect(b.isInBackOffSince('c', 720_000, 735_000)).toBe(true);
    expect(b.readyAtMs('c', 720_000)).toBe(735_001);
    expect(b.isInBackOffSince('c', 720_000, 735_001)).toBe(false);
    b.next('c', 720_000, 735_001);
    expect(b.get('c')).toBe(10_000);
  });

  it('forgets an entry more than 10 minutes after its last update (GC), even inside a window', () => {
    const b = newCrashLoopBackoff();
    b.next('c', 0, 0);
    for (let i = 1; i <= 6; i++) b.next('c', i, i); // 10 -> 20 -> ... -> 300 s (capped), lastUpdate 6
    expect(b.get('c')).toBe(300_000);
    // exits after 500 s of running: the window would end at 800.006 s, GC forgets it after 600.006 s
    expect(b.readyAtMs('c', 500_006)).toBe(600_007);
    expect(b.isInBackOffSince('c', 500_006, 600_006)).toBe(true);
    expect(b.isInBackOffSince('c', 500_006, 600_007)).toBe(false);
  });

  it('keeps keys apart', () => {
    const b = new RestartBackoff();
    b.next('a', 0, 0);
    expect(b.isInBackOffSince('a', 0, 9999)).toBe(true);
    expect(b.isInBackOffSince('b', 0, 1)).toBe(false);
  });
});

describe('restartDecision (doBackOff over a container history)', () => {
  const pod = { name: 'web-7d9f', namespace: 'default', uid: 'u-1' };
  const history = (runs: ContainerRun[], restartPolicy: ContainerHistory['restartPolicy'] = 'Always'): ContainerHistory => ({ pod, container: 'web', restartPolicy, runs });

  it('names the window in the message, as kubectl describe shows it', () => {
    const runs: ContainerRun[] = [
      { startedAtMs: 0, finishedAtMs: 1000, exitCode: 1 },
      { startedAtMs: 1000, finishedAtMs: 2000, exitCode: 1 },
      { startedAtMs: 12_000, finishedAtMs: 13_000, exitCode: 1 },
      { startedAtMs: 33_000, finishedAtMs: 34_000, exitCode: 1 },
    ];
    expect(restartDecision(history(runs), 50_000)).toEqual({
      action: 'wait', backOffMs: 40_000, retryAtMs: 74_000, message: 'back-off 40s restarting failed container=web pod=web-7d9f_default(u-1)',
    });
    expect(restartDecision(history(runs), 74_000)).toEqual({ action: 'restart', backOffMs: 80_000 });
  });

  it('restarts a first exit at once; respects the restart policy; leaves a running container alone', () => {
    expect(restartDecision(history([{ startedAtMs: 0, finishedAtMs: 5, exitCode: 0 }]), 5)).toEqual({ action: 'restart', backOffMs: 10_000 });
    expect(restartDecision(history([{ startedAtMs: 0, finishedAtMs: 5, exitCode: 0 }], 'OnFailure'), 5)).toEqual({ action: 'done' });
    expect(restartDecision(history([{ startedAtMs: 0, finishedAtMs: 5, exitCode: 2 }], 'Never'), 5)).toEqual({ action: 'done' });
    expect(restartDecision(history([{ startedAtMs: 0 }]), 5)).toEqual({ action: 'running' });
  });

  it('agrees with a RestartBackoff driven step by step', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let round = 0; round < 200; round++) {
      const b = newCrashLoopBackoff();
      const runs: ContainerRun[] = [{ startedAtMs: 0, finishedAtMs: rand(700_000), exitCode: 1 }];
      for (let i = 0; i < 12; i++) {
        const exit = runs[runs.length - 1]!.finishedAtMs!;
        let now = exit + rand(5000);
        while (b.isInBackOffSince('c', exit, now)) {
          const d = restartDecision(history(runs), now);
          expect(d.action).toBe('wait');
          now += 1000 + rand(20_000);
        }
        const d = restartDecision(history(runs), now);
        b.next('c', exit, now);
        expect(d).toEqual({ action: 'restart', backOffMs: b.get('c') });
        runs.push({ startedAtMs: now, finishedAtMs: now + rand(rand(2) ? 700_000 : 20_000), exitCode: 1 });
      }
    }
  });
});

describe('formatPod', () => {
  it('formats a pod as name_namespace(uid)', () => {
    expect(formatPod({ metadata: { name: 'web', namespace: 'default', uid: 'u1' } })).toBe('web_default(u1)');
  });
});
