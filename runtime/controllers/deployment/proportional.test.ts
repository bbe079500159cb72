// Table from pkg/controller/deployment/sync_test.go TestScale (the cases of v1.33, before the
// PodReplacementPolicy ones): each ReplicaSet carries the replica annotations the old deployment
// gave it; planScale must size them as upstream's scale() does.
import { describe, expect, it } from 'vitest';
import type { Deployment, IntOrString, ReplicaSet } from '../../api/index.ts';
import { isScalingEvent, planScale } from './proportional.ts';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, fenceposts } from './util.ts';

const NEW = '2016-05-20T02:00:00Z';
const OLD = '2016-05-20T01:00:00Z';
const OLDER = '2016-05-20T00:00:00Z';

function deployment(replicas: number, maxSurge: IntOrString = 0, maxUnavailable: IntOrString = 0): Deployment {
  return {
    metadata: { name: 'foo', namespace: 'default' },
    spec: { replicas, selector: {}, template: { spec: { containers: [] } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
  };
}

function rs(name: string, replicas: number, created: string, sizedFor: Deployment, desired?: number): ReplicaSet {
  const want = desired ?? sizedFor.spec.replicas!;
  return {
    metadata: {
      name, namespace: 'default', creationTimestamp: created,
      annotations: { [DESIRED_REPLICAS_ANNOTATION]: String(want), [MAX_REPLICAS_ANNOTATION]: String(want + fenceposts(sizedFor).surge) },
    },
    spec: { replicas, selector: {} },
  };
}

interface Case {
  name: string;
  d: Deployment;
  old: Deployment;
  newRS?: [string, number, string];
  oldRSs: [string, number, string][];
  want: Record<string, number>;
  /** ReplicaSets scale() leaves alone. */
  untouched?: string[];
  desired?: Record<string, number>;
}

const cases: Case[] = [
  { name: 'normal scaling event: 10 -> 12', d: deployment(12), old: deployment(10), newRS: ['foo-v1', 10, NEW], oldRSs: [], want: { 'foo-v1': 12 } },
  { name: 'normal scaling event: 10 -> 5', d: deployment(5), old: deployment(10), newRS: ['foo-v1', 10, NEW], oldRSs: [], want: { 'foo-v1': 5 } },
  { name: 'proportional scaling: 5 -> 10', d: deployment(10), old: deployment(5), newRS: ['foo-v2', 2, NEW], oldRSs: [['foo-v1', 3, OLD]], want: { 'foo-v2': 4, 'foo-v1': 6 } },
  { name: 'proportional scaling: 5 -> 3', d: deployment(3), old: deployment(5), newRS: ['foo-v2', 2, NEW], oldRSs: [['foo-v1', 3, OLD]], want: { 'foo-v2': 1, 'foo-v1': 2 } },
  { name: 'proportional scaling: 9 -> 4', d: deployment(4), old: deployment(9), newRS: ['foo-v2', 8, NEW], oldRSs: [['foo-v1', 1, OLD]], want: { 'foo-v2': 4, 'foo-v1': 0 } },
  { name: 'proportional scaling: 7 -> 10', d: deployment(10), old: deployment(7), newRS: ['foo-v3', 2, NEW], oldRSs: [['foo-v2', 3, OLD], ['foo-v1', 2, OLDER]], want: { 'foo-v3': 3, 'foo-v2': 4, 'foo-v1': 3 } },
  { name: 'proportional scaling: 13 -> 8', d: deployment(8), old: deployment(13), newRS: ['foo-v3', 2, NEW], oldRSs: [['foo-v2', 8, OLD], ['foo-v1', 3, OLDER]], want: { 'foo-v3': 1, 'foo-v2': 5, 'foo-v1': 2 } },
  { name: 'leftover distribution: 3 -> 4 (scales up the new replica set)', d: deployment(4), old: deployment(3), newRS: ['foo-v3', 1, NEW], oldRSs: [['foo-v2', 1, OLD], ['foo-v1', 1, OLDER]], want: { 'foo-v3': 2, 'foo-v2': 1, 'foo-v1': 1 } },
  { name: 'leftover distribution: 3 -> 2 (scales down the older replica set)', d: deployment(2), old: deployment(3), newRS: ['foo-v3', 1, NEW], oldRSs: [['foo-v2', 1, OLD], ['foo-v1', 1, OLDER]], want: { 'foo-v3': 1, 'foo-v2': 1, 'foo-v1': 0 } },
  { name: 'proportional scaling (no new rs): 4 -> 5 (the latest first)', d: deployment(5), old: deployment(4), oldRSs: [['foo-v2', 2, OLD], ['foo-v1', 2, OLDER]], want: { 'foo-v2': 3, 'foo-v1': 2 } },
  { name: 'proportional scaling: 6 -> 0', d: deployment(0), old: deployment(6), newRS: ['foo-v3', 3, NEW], oldRSs: [['foo-v2', 2, OLD], ['foo-v1', 1, OLDER]], want: { 'foo-v3': 0, 'foo-v2': 0, 'foo-v1': 0 } },
  { name: 'proportional scaling: 0 -> 6', d: deployment(6), old: deployment(6), newRS: ['foo-v3', 0, NEW], oldRSs: [['foo-v2', 0, OLD], ['foo-v1', 0, OLDER]], want: { 'foo-v3': 6, 'foo-v2': 0, 'foo-v1': 0 }, untouched: ['foo-v2', 'foo-v1'] },
  { name: 'failed rs update (foo-v2 already sized for 3)', d: deployment(5), old: deployment(5), newRS: ['foo-v3', 2, NEW], oldRSs: [['foo-v2', 1, OLD], ['foo-v1', 1, OLDER]], want: { 'foo-v3': 2, 'foo-v2': 2, 'foo-v1': 1 }, untouched: ['foo-v3', 'foo-v1'], desired: { 'foo-v2': 3 } },
  { name: 'deployment with surge pods', d: deployment(20, 2), old: deployment(10, 2), newRS: ['foo-v2', 6, NEW], oldRSs: [['foo-v1', 6, OLD]], want: { 'foo-v2': 11, 'foo-v1': 11 } },
  { name: 'change both surge and size', d: deployment(50, 6), old: deployment(10, 3), newRS: ['foo-v2', 5, NEW], oldRSs: [['foo-v1', 8, OLD]], want: { 'foo-v2': 22, 'foo-v1': 34 } },
  { name: 'saturated but broken new replica set does not affect old pods', d: deployment(2, 1, 1), old: deployment(2, 1, 1), newRS: ['foo-v2', 2, NEW], oldRSs: [['foo-v1', 1, OLD]], want: { 'foo-v2': 2, 'foo-v1': 1 } },
];

describe('planScale (sync.go scale)', () => {
  it.each(cases)('$name', (c) => {
    const newRS = c.newRS ? rs(c.newRS[0], c.newRS[1], c.newRS[2], c.old, c.desired?.[c.newRS[0]]) : undefined;
    const oldRSs = c.oldRSs.map(([n, r, t]) => rs(n, r, t, c.old, c.desired?.[n]));
    const steps = planScale(c.d, newRS, oldRSs);
    const got = Object.fromEntries([...(newRS ? [newRS] : []), ...oldRSs].map((x) => [x.metadata.name!, x.spec.replicas!]));
    for (const s of steps) got[s.rs.metadata.name!] = s.to;
    expect(got).toEqual(c.want);
    for (const name of c.untouched ?? []) expect(steps.map((s) => s.rs.metadata.name)).not.toContain(name);
  });

  it('change both size and template: no new ReplicaSet yet, the old ones share the growth', () => {
    // sync_test "change both size and template": 10 -> 14, foo-v2 7 and foo-v1 3 -> 10 and 4
    const steps = planScale(deployment(14), undefined, [rs('foo-v2', 7, NEW, deployment(10)), rs('foo-v1', 3, OLD, deployment(10))]);
    expect(steps.map((s) => [s.rs.metadata.name, s.to])).toEqual([['foo-v2', 10], ['foo-v1', 4]]);
  });
});

describe('isScalingEvent', () => {
  it('is true only when an active ReplicaSet was sized for another spec.replicas', () => {
    expect(isScalingEvent(deployment(5), [rs('a', 2, NEW, deployment(5)), rs('b', 3, OLD, deployment(5))])).toBe(false);
    expect(isScalingEvent(deployment(6), [rs('a', 2, NEW, deployment(5))])).toBe(true);
    expect(isScalingEvent(deployment(6), [rs('a', 0, NEW, deployment(5))])).toBe(false);
    expect(isScalingEvent(deployment(6), [undefined, { metadata: { name: 'x' }, spec: { replicas: 2, selector: {} } }])).toBe(false);
  });
});
