// Table tests for the scheduler component's pure decisions.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodCondition } from '../../api/index.ts';
import { FILTER_RESULT } from '../annotations.ts';
import { container, makePod } from '../testing-builders.ts';
import { SchedulerCache } from './cache.ts';
import {
  MAX_EVENT_MESSAGE_LENGTH,
  isPodUpdated,
  nodeUpdateEvents,
  scheduledMessage,
  truncateMessage,
  updatePodCondition,
} from './pod-changes.ts';

const node = (name: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name, labels: { a: '1' } },
  spec: {},
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  ...extra,
});

describe('isPodUpdated', () => {
  const base = makePod('web', { containers: [container({ cpu: '100m' })] });
  const cases: [string, Pod, boolean][] = [
    ['status only', { ...base, status: { phase: 'Pending', conditions: [] } }, false],
    ['resourceVersion', { ...base, metadata: { ...base.metadata, resourceVersion: '99' } }, false],
    ['TypeMeta (list items lack it)', { ...base, apiVersion: 'v1', kind: 'Pod' }, false],
    [
      "the simulator's result annotations",
      { ...base, metadata: { ...base.metadata, annotations: { [FILTER_RESULT]: '{}' } } },
      false,
    ],
    ['a label', { ...base, metadata: { ...base.metadata, labels: { app: 'x' } } }, true],
    ['a toleration', { ...base, spec: { ...base.spec, tolerations: [{ operator: 'Exists' }] } }, true],
  ];
  it.each(cases)('%s -> %s', (_name, updated, expected) => {
    expect(isPodUpdated(base, updated)).toBe(expected);
  });
});

describe('nodeUpdateEvents (nodeSchedulingPropertiesChange)', () => {
  const old = node('n');
  const cases: [string, Node, string[]][] = [
    ['a heartbeat (conditions only)', { ...old, status: { ...old.status, conditions: [] } }, []],
    ['a label', { ...old, metadata: { name: 'n', labels: { a: '2' } } }, ['UpdateNodeLabel']],
    [
      'a taint',
      { ...old, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } },
      ['UpdateNodeTaint'],
    ],
    ['cordon', { ...old, spec: { unschedulable: true } }, ['UpdateNodeTaint']],
    [
      'allocatable',
      { ...old, status: { allocatable: { cpu: '8', memory: '8Gi', pods: '110' } } },
      ['UpdateNodeAllocatable'],
    ],
  ];
  it.each(cases)('%s', (_name, updated, expected) => {
    expect(nodeUpdateEvents(old, updated).map((e) => e.action)).toEqual(expected);
  });
});

describe('updatePodCondition (UpdatePodCondition)', () => {
  const unschedulable = {
    type: 'PodScheduled',
    status: 'False' as const,
    lastProbeTime: null,
    reason: 'Unschedulable',
    message: '0/1 nodes are available: 1 Insufficient cpu.',
  };
  it('adds a missing condition with the current time', () => {
    const r = updatePodCondition([], unschedulable, 'T1');
    expect(r).toEqual({ changed: true, conditions: [{ ...unschedulable, lastTransitionTime: 'T1' }] });
  });
  it('the same condition again changes nothing and keeps the transition time', () => {
    const existing: PodCondition[] = [{ ...unschedulable, lastTransitionTime: 'T1' }];
    expect(updatePodCondition(existing, unschedulable, 'T2')).toEqual({
      changed: false,
      conditions: existing,
    });
  });
  it('a new message with the same status keeps the transition time', () => {
    const existing: PodCondition[] = [{ ...unschedulable, lastTransitionTime: 'T1' }];
    const r = updatePodCondition(existing, { ...unschedulable, message: 'other' }, 'T2');
    expect(r.changed).toBe(true);
    expect(r.conditions[0]).toMatchObject({ message: 'other', lastTransitionTime: 'T1' });
  });
  it('a status change moves the transition time', () => {
    const existing: PodCondition[] = [{ type: 'PodScheduled', status: 'True', lastTransitionTime: 'T1' }];
    const r = updatePodCondition(existing, unschedulable, 'T2');
    expect(r.conditions[0]?.lastTransitionTime).toBe('T2');
  });
});

describe('event messages', () => {
  it('Scheduled names namespace/name and the node', () => {
    expect(scheduledMessage(makePod('web-abc'), 'worker-1')).toBe(
      'Successfully assigned default/web-abc to worker-1',
    );
  });
  it('long messages are cut to 1024 characters ending in " ..."', () => {
    const long = 'x'.repeat(2000);
    const cut = truncateMessage(long);
    expect(cut).toHaveLength(MAX_EVENT_MESSAGE_LENGTH);
    expect(cut.endsWith('x ...')).toBe(true);
    expect(truncateMessage('short')).toBe('short');
  });
});

describe('SchedulerCache', () => {
  it('an assumed pod counts at once, and the bound copy replaces it without double counting', () => {
    const cache = new SchedulerCache();
    cache.addOrUpdateNode(node('n1'));
    const pod = makePod('p', { containers: [container({ cpu: '1' })] });
    cache.assume({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } }, 'n1');
    expect(cache.updateSnapshot().get('n1')?.requested.milliCPU).toBe(1000);
    cache.addOrUpdateBoundPod({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } });
    expect(cache.isAssumed(pod)).toBe(false);
    cache.addOrUpdateNode(node('n2')); // forces a rebuild
    expect(cache.updateSnapshot().get('n1')?.requested.milliCPU).toBe(1000);
    cache.removePod(pod);
    expect(cache.updateSnapshot().get('n1')?.requested.milliCPU).toBe(0);
  });
  it('forget undoes an assumption; assuming twice breaks an invariant', () => {
    const cache = new SchedulerCache();
    cache.addOrUpdateNode(node('n1'));
    const pod = makePod('p', { containers: [container({ cpu: '1' })] });
    cache.assume(pod, 'n1');
    expect(() => cache.assume(pod, 'n1')).toThrow(/invariant violated/);
    cache.forget(pod);
    expect(cache.updateSnapshot().get('n1')?.requested.milliCPU).toBe(0);
  });
  it('a finished pod leaves its node', () => {
    const cache = new SchedulerCache();
    cache.addOrUpdateNode(node('n1'));
    const pod = makePod('p', { containers: [container({ cpu: '1' })] });
    const bound = { ...pod, spec: { ...pod.spec, nodeName: 'n1' } };
    cache.addOrUpdateBoundPod(bound);
    cache.addOrUpdateBoundPod({ ...bound, status: { phase: 'Succeeded' } });
    expect(cache.updateSnapshot().get('n1')?.pods).toHaveLength(0);
  });
});
