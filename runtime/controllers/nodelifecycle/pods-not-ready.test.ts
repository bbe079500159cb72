// MarkPodsNotReady as a table: which pods get a write, and what it says.
import { describe, expect, it } from 'vitest';
import type { Pod, PodCondition } from '../../api/index.ts';
import { notReadyConditions } from './pods-not-ready.ts';

const cond = (type: string, status: 'True' | 'False', at = 'T0'): PodCondition => ({ type, status, lastProbeTime: null, lastTransitionTime: at });
const pod = (nodeName: string | undefined, conditions?: PodCondition[]): Pod =>
  ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [], ...(nodeName ? { nodeName } : {}) }, ...(conditions ? { status: { conditions } } : {}) }) as Pod;

describe('notReadyConditions (MarkPodsNotReady + UpdatePodCondition)', () => {
  it.each<[string, Pod, PodCondition[] | null]>([
    ['a ready pod on the node: Ready turns False with a new transition time, nothing else changes',
      pod('n1', [cond('Initialized', 'True'), cond('Ready', 'True'), cond('ContainersReady', 'True')]),
      [cond('Initialized', 'True'), cond('Ready', 'False', 'NOW'), cond('ContainersReady', 'True')]],
    ['a pod on another node (the defensive check)', pod('n2', [cond('Ready', 'True')]), null],
    ['an unscheduled pod', pod(undefined, [cond('Ready', 'True')]), null],
    ['a pod without a Ready condition yet', pod('n1', [cond('PodScheduled', 'True')]), null],
    ['a pod without status', pod('n1'), null],
    ['a pod that is already not ready (no write)', pod('n1', [cond('Ready', 'False')]), null],
  ])('%s', (_name, p, want) => {
    expect(notReadyConditions(p, 'n1', 'NOW')).toEqual(want);
  });

  it('keeps the reason and message of the Ready condition as they were (only the status is set)', () => {
    const p = pod('n1', [{ ...cond('Ready', 'True'), reason: 'R', message: 'M' }]);
    expect(notReadyConditions(p, 'n1', 'NOW')).toEqual([{ ...cond('Ready', 'False', 'NOW'), reason: 'R', message: 'M' }]);
  });
});
