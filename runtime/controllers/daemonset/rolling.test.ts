// Cases after pkg/controller/daemon/update_test.go (TestGetUnavailableNumbers, TestDaemonSetUpdates*)
// and daemon_controller_test.go (manage: failed pods, extra pods, misscheduled status).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/index.ts';
import { calculateDaemonSetStatus, FailedPodBackoff, nodesToDaemonPods, planManage } from './manage.ts';
import { desiredNodeCounts, planRollingUpdate, surgeCount, unavailableCount } from './rolling.ts';
import { daemonPod, daemonSet, node } from './testdata.ts';

const NOW_MS = 10 * 60_000;
const nodes = (n: number) => Array.from({ length: n }, (_, i) => node(`n${i + 1}`));

describe('maxUnavailable and maxSurge arithmetic (percentages round up)', () => {
  const table: { value: number | string; desired: number; want: number }[] = [
    { value: 1, desired: 10, want: 1 },
    { value: '10%', desired: 10, want: 1 },
    { value: '10%', desired: 5, want: 1 },
    { value: '25%', desired: 3, want: 1 },
    { value: '50%', desired: 3, want: 2 },
    { value: '100%', desired: 7, want: 7 },
    { value: '0%', desired: 7, want: 0 },
  ];
  for (const c of table) {
    it(`maxUnavailable ${c.value} of ${c.desired} is ${c.want}`, () => {
      expect(unavailableCount(daemonSet({}, { maxUnavailable: c.value }), c.desired)).toEqual({ ok: true, value: c.want });
      expect(surgeCount(daemonSet({}, { maxSurge: c.value }), c.desired)).toEqual({ ok: true, value: c.want });
    });
  }

  it('OnDelete has neither', () => {
    expect(unavailableCount(daemonSet({}, { onDelete: true }), 5)).toEqual({ ok: true, value: 0 });
  });

  it('0 and 0 fall back to maxUnavailable 1, but only with nodes to run on', () => {
    const ds = daemonSet({}, { maxUnavailable: 0, maxSurge: 0 });
    expect(desiredNodeCounts(ds, nodes(3), new Map())).toMatchObject({ maxUnavailable: 1, maxSurge: 0, desired: 3 });
    expect(desiredNodeCounts(ds, [], new Map())).toMatchObject({ maxUnavailable: 0, desired: 0 });
  });

  it('a bad percentage is an error', () => {
    expect(desiredNodeCounts(daemonSet({}, { maxUnavailable: 'x%' }), nodes(2), new Map())).toHaveProperty('error');
  });
});

const byNode = (pods: Pod[]) => nodesToDaemonPods(pods);

describe('rollingUpdate without surge', () => {
  const ds = daemonSet();
  it('deletes one old available pod at a time (maxUnavailable 1), lowest node name first', () => {
    const pods = [daemonPod('a', 'n1', 'old'), daemonPod('b', 'n2', 'old'), daemonPod('c', 'n3', 'old')];
    expect(planRollingUpdate(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: ['a'], nodesToCreate: [] });
  });

  it('waits while a new pod is not yet available', () => {
    const pods = [daemonPod('a', 'n1', 'new', { ready: false }), daemonPod('b', 'n2', 'old'), daemonPod('c', 'n3', 'old')];
    expect(planRollingUpdate(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: [], nodesToCreate: [] });
  });

  it('moves on once the new pod is available', () => {
    const pods = [daemonPod('a', 'n1', 'new'), daemonPod('b', 'n2', 'old'), daemonPod('c', 'n3', 'old')];
    expect(planRollingUpdate(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: ['b'], nodesToCreate: [] });
  });

  it('a node waiting for its pod counts as unavailable', () => {
    const pods = [daemonPod('b', 'n2', 'old'), daemonPod('c', 'n3', 'old')];
    expect(planRollingUpdate(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: [], nodesToCreate: [] });
  });

  it('an unavailable old pod is replaced at once, even past maxUnavailable', () => {
    const pods = [daemonPod('a', 'n1', 'old', { ready: false }), daemonPod('b', 'n2', 'old', { ready: false }), daemonPod('c', 'n3', 'old')];
    expect(planRollingUpdate(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: ['a', 'b'], nodesToCreate: [] });
  });

  it('maxUnavailable 50% of 4 deletes two', () => {
    const pods = ['n1', 'n2', 'n3', 'n4'].map((n, i) => daemonPod(`p${i}`, n, 'old'));
    expect(planRollingUpdate(daemonSet({}, { maxUnavailable: '50%' }), nodes(4), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: ['p0', 'p1'], nodesToCreate: [] });
  });

  it('minReadySeconds: a ready new pod is not available until it has been ready that long', () => {
    const slow = daemonSet({}, { minReadySeconds: 300 });
    const fresh = daemonPod('a', 'n1', 'new');
    fresh.status!.conditions![0]!.lastTransitionTime = '2026-01-01T00:08:00Z'; // ready 2 of the 5 minutes
    const pods = [fresh, daemonPod('b', 'n2', 'old')];
    expect(planRollingUpdate(slow, nodes(2), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: [], nodesToCreate: [] });
    expect(planRollingUpdate(slow, nodes(2), byNode(pods), 'new', NOW_MS + 180_000)).toEqual({ podsToDelete: ['b'], nodesToCreate: [] });
  });
});

describe('rollingUpdate with surge', () => {
  const ds = daemonSet({}, { maxUnavailable: 0, maxSurge: 1 });
  it('starts one new pod beside an old available one', () => {
    const pods = [daemonPod('a', 'n1', 'old'), daemonPod('b', 'n2', 'old')];
    expect(planRollingUpdate(ds, nodes(2), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: [], nodesToCreate: ['n1'] });
  });

  it('deletes the old pod once the new one is available, and surges onto the next node', () => {
    const pods = [daemonPod('a', 'n1', 'old'), daemonPod('a2', 'n1', 'new'), daemonPod('b', 'n2', 'old')];
    expect(planRollingUpdate(ds, nodes(2), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: ['a'], nodesToCreate: ['n2'] });
  });

  it('holds while the surged pod is not available', () => {
    const pods = [daemonPod('a', 'n1', 'old'), daemonPod('a2', 'n1', 'new', { ready: false }), daemonPod('b', 'n2', 'old')];
    expect(planRollingUpdate(ds, nodes(2), byNode(pods), 'new', NOW_MS)).toEqual({ podsToDelete: [], nodesToCreate: [] });
  });
});

describe('manage', () => {
  const ctx = () => ({ nowMs: NOW_MS, backoff: new FailedPodBackoff(), minReadySeconds: 0 });

  it('creates on nodes without a pod and deletes from nodes that no longer qualify', () => {
    const ds = daemonSet({ nodeSelector: { role: 'edge' } });
    const ns = [node('n1', { labels: { role: 'edge' } }), node('n2'), node('n3', { labels: { role: 'edge' } })];
    const pods = [daemonPod('a', 'n2', 'h'), daemonPod('b', 'n3', 'h')];
    expect(planManage(ds, ns, byNode(pods), 'h', ctx())).toEqual({ nodesNeedingDaemonPods: ['n1'], podsToDelete: ['a'], failedPods: [] });
  });

  it('keeps the oldest of two pods on a node', () => {
    const pods = [daemonPod('young', 'n1', 'h', { created: '2026-01-01T00:05:00Z' }), daemonPod('old', 'n1', 'h')];
    expect(planManage(daemonSet(), nodes(1), byNode(pods), 'h', ctx()).podsToDelete).toEqual(['young']);
  });

  it('deletes a failed pod, then backs off (1 s, doubling) before deleting the next one', () => {
    const c = ctx();
    const failed = [daemonPod('f1', 'n1', 'h', { phase: 'Failed' })];
    const first = planManage(daemonSet(), nodes(1), byNode(failed), 'h', c);
    expect(first).toMatchObject({ podsToDelete: ['f1'], failedPods: [{ node: 'n1' }] });
    const again = planManage(daemonSet(), nodes(1), byNode([daemonPod('f2', 'n1', 'h', { phase: 'Failed' })]), 'h', c);
    expect(again).toMatchObject({ podsToDelete: [], requeueAfterMs: 1000 });
    c.nowMs += 1000;
    expect(planManage(daemonSet(), nodes(1), byNode([daemonPod('f2', 'n1', 'h', { phase: 'Failed' })]), 'h', c).podsToDelete).toEqual(['f2']);
    expect(c.backoff.delayMs(`ds-uid/0/n1`)).toBe(2000);
  });

  it('deletes unscheduled pods pinned to a node that is gone', () => {
    const pods = [daemonPod('ghost', 'gone', 'h', { bound: false })];
    expect(planManage(daemonSet(), nodes(1), byNode(pods), 'h', ctx())).toMatchObject({ nodesNeedingDaemonPods: ['n1'], podsToDelete: ['ghost'] });
  });

  it('leaves a pod on a node with an untolerated NoSchedule taint, but does not count it as desired', () => {
    const ns = [node('n1', { taints: [{ key: 'x', effect: 'NoSchedule' }] })];
    const pods = [daemonPod('a', 'n1', 'h')];
    expect(planManage(daemonSet(), ns, byNode(pods), 'h', ctx())).toMatchObject({ nodesNeedingDaemonPods: [], podsToDelete: [] });
    expect(calculateDaemonSetStatus(daemonSet(), ns, byNode(pods), 'h', NOW_MS)).toMatchObject({ desiredNumberScheduled: 0, numberMisscheduled: 1 });
  });
});

describe('status', () => {
  it('counts desired, current, ready, updated, available and unavailable from the oldest pod per node', () => {
    const ds = daemonSet();
    const pods = [daemonPod('a', 'n1', 'new'), daemonPod('b', 'n2', 'old', { ready: false }), daemonPod('c', 'n4', 'new')];
    expect(calculateDaemonSetStatus(ds, nodes(3), byNode(pods), 'new', NOW_MS)).toEqual({
      desiredNumberScheduled: 3, currentNumberScheduled: 2, numberMisscheduled: 0, numberReady: 1,
      updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 2,
    });
  });

  it('a pod with the current template generation label counts as updated without the hash', () => {
    const pod = daemonPod('a', 'n1', 'stale');
    pod.metadata.labels = { ...pod.metadata.labels, 'pod-template-generation': '1' };
    expect(calculateDaemonSetStatus(daemonSet(), nodes(1), byNode([pod]), 'new', NOW_MS).updatedNumberScheduled).toBe(1);
  });
});
