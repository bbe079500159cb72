import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './backoff.ts';
import { formatPod } from './format.ts';

describe('RestartBackoff (flowcontrol.Backoff as doBackOff uses it)', () => {
  it('restarts at once after the first exit, then waits 10s, 20s, 40s ... capped at 5m', () => {
    const b = new RestartBackoff();
    const waits: number[] = [];
    let t = 0;
    for (let exit = 0; exit < 9; exit++) {
      // the container exits at t; the kubelet restarts it as soon as it is out of back-off
      const exitAt = t;
      let restartAt = exitAt;
      while (b.isInBackOffSince('c', exitAt, restartAt)) restartAt += 1000;
      b.next('c', exitAt);
      waits.push(restartAt - exitAt);
      t = restartAt + 2000; // runs 2 s, then crashes again
    }
    expect(waits).toEqual([0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('forgets an entry whose last update is more than 10 minutes older than the new exit', () => {
    const b = new RestartBackoff();
    b.next('c', 0);
    b.next('c', 5000);
    expect(b.get('c')).toBe(20_000);
    expect(b.isInBackOffSince('c', 605_001, 605_002)).toBe(false);
    b.next('c', 605_001);
    expect(b.get('c')).toBe(10_000);
  });

  it('keeps keys apart', () => {
    const b = new RestartBackoff();
    b.next('a', 0);
    expect(b.isInBackOffSince('a', 0, 9999)).toBe(true);
    expect(b.isInBackOffSince('b', 0, 1)).toBe(false);
  });
});

describe('formatPod', () => {
  it('formats a pod as name_namespace(uid)', () => {
    expect(formatPod({ metadata: { name: 'web', namespace: 'default', uid: 'u1' } })).toBe('web_default(u1)');
  });
});
