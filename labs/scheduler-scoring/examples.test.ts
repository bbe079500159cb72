// Visible examples for the scheduler-scoring lab: read them, run them, add your own.
// `npm run grade -- scheduler-scoring --examples`
import { describe, expect, it } from 'vitest';
import type { NodeInfo, PodInfo } from '../../runtime/scheduler/index.ts';
import { defaultNormalizeScore, newBalancedAllocation, newLeastAllocated, selectHost, sumWeightedScores } from '@lab/submission';

// A node with 4 CPUs and 10000 bytes of memory, and nothing on it yet.
const empty: NodeInfo = {
  node: { name: 'node-1' },
  allocatable: { milliCPU: 4000, memory: 10000 },
  requested: { milliCPU: 0, memory: 0 },
  nonZeroRequested: { milliCPU: 0, memory: 0 },
  pods: [],
};

// A pod asking for 3 CPUs and 5000 bytes in total, over two containers.
const pod: PodInfo = {
  name: 'web',
  namespace: 'default',
  containers: [
    { name: 'app', requests: { milliCPU: 1000, memory: 2000 } },
    { name: 'sidecar', requests: { milliCPU: 2000, memory: 3000 } },
  ],
};

describe('examples', () => {
  it('LeastAllocated: cpu (4000-3000)*100/4000 = 25, memory (10000-5000)*100/10000 = 50, (25+50)/2 = 37', () => {
    const [score, status] = newLeastAllocated().score(new Map(), pod, empty);
    expect(status.code).toBe('Success');
    expect(score).toBe(37);
  });

  it('BalancedAllocation: fractions 3000/4000 = 0.75 and 5000/10000 = 0.5, std |0.75-0.5|/2 = 0.125, (1-0.125)*100 = 87.5, so 87', () => {
    const [score, status] = newBalancedAllocation().score(new Map(), pod, empty);
    expect(status.code).toBe('Success');
    expect(score).toBe(87);
  });

  it('normalizes so the best node gets 100', () => {
    const out = defaultNormalizeScore(100, false, [
      { name: 'a', score: 1 },
      { name: 'b', score: 4 },
    ]);
    expect(out).toEqual([
      { name: 'a', score: 25 },
      { name: 'b', score: 100 },
    ]);
  });

  it('weights each plugin', () => {
    const [totals] = sumWeightedScores(['a'], [
      { plugin: 'X', weight: 1, scores: [{ name: 'a', score: 10 }] },
      { plugin: 'Y', weight: 3, scores: [{ name: 'a', score: 20 }] },
    ]);
    expect(totals).toEqual([{ name: 'a', score: 70 }]);
  });

  it('picks the highest total', () => {
    const [host] = selectHost([{ name: 'a', score: 10 }, { name: 'b', score: 90 }], () => 0);
    expect(host).toBe('b');
  });
});
