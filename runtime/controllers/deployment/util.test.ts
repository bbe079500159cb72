import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import { MAX_REVISION_HISTORY_CHARS, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, getScaledValueFromIntOrPercent, newReplicaSetAnnotations, newRSNewReplicas, resolveFenceposts } from './util.ts';

// mirrors apimachinery intstr_test.go TestGetScaledValueFromIntOrPercent
describe('getScaledValueFromIntOrPercent', () => {
  it.each([
    [10, 100, true, 10], ['50%', 10, true, 5], ['0%', 10, true, 0], ['99%', 10, true, 10], ['99%', 10, false, 9],
    ['25%', 3, true, 1], ['25%', 3, false, 0], ['100%', 10, true, 10], ['100%', 10, false, 10],
  ] as const)('%s of %i (roundUp %s) is %i', (value, total, roundUp, want) => {
    expect(getScaledValueFromIntOrPercent(value, total, roundUp)).toEqual({ ok: true, value: want });
  });
  it.each(['%', 'a%', '10', '1.5%'])('%s is an error', (value) => {
    expect(getScaledValueFromIntOrPercent(value, 10, true).ok).toBe(false);
  });
});

// mirrors deployment_util_test.go TestResolveFenceposts
describe('resolveFenceposts', () => {
  it.each([
    ['0', '0', 0, { error: 'invalid type: string is not a percentage' }],
    [0, 0, 10, { surge: 0, unavailable: 1 }],
    ['0%', '0%', 0, { surge: 0, unavailable: 1 }],
    ['10%', '0%', 10, { surge: 1, unavailable: 0 }],
    ['25%', '25%', 3, { surge: 1, unavailable: 0 }],
    ['25%', '25%', 10, { surge: 3, unavailable: 2 }],
    [3, 1, 10, { surge: 3, unavailable: 1 }],
  ] as const)('maxSurge %s maxUnavailable %s of %i', (surge, unavailable, desired, want) => {
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual(want);
  });
});

const rs = (replicas: number): ReplicaSet => ({ metadata: { name: `rs${replicas}` }, spec: { replicas, selector: {} } });
const dep = (replicas: number, maxSurge: number | string, type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate'): Deployment => ({
  metadata: { name: 'd' }, spec: { replicas, selector: {}, template: { spec: { containers: [] } }, strategy: { type, rollingUpdate: { maxSurge, maxUnavailable: 1 } } },
});

// mirrors deployment_util_test.go TestNewRSNewReplicas
describe('newRSNewReplicas', () => {
  it.each([
    { name: 'can not scale up - to newRSReplicas', d: dep(1, 1, 'Recreate'), newRS: 5, old: 0, want: 1 },
    { name: 'scale up - to deployment replicas', d: dep(5, 1), newRS: 0, old: 4, want: 2 },
    { name: 'scale up - to maxSurge', d: dep(5, '25%'), newRS: 0, old: 4, want: 3 },
    { name: 'no room: total at replicas + surge', d: dep(5, 1), newRS: 2, old: 4, want: 2 },
  ])('$name', ({ d, newRS, old, want }) => {
    const n = rs(newRS);
    expect(newRSNewReplicas(d, [n, rs(old)], n)).toBe(want);
  });
});

// mirrors deployment_util.go SetNewReplicaSetAnnotations for an existing new ReplicaSet
describe('newReplicaSetAnnotations', () => {
  const withAnnotations = (annotations: Record<string, string>): ReplicaSet => ({ metadata: { name: 'rs', annotations }, spec: { replicas: 1, selector: {} } });
  const deployment = (annotations: Record<string, string>): Deployment => ({ metadata: { name: 'd', annotations }, spec: { replicas: 1, selector: {}, template: { spec: { containers: [] } } } });
  const CAUSE = 'kubernetes.io/change-cause';
  it.each([
    { name: 'nothing to do', d: {}, rs: { [REVISION_ANNOTATION]: '2' }, revision: 2, want: { [REVISION_ANNOTATION]: '2' }, changed: false },
    { name: 'a change-cause added to the deployment is copied', d: { [CAUSE]: 'v2' }, rs: { [REVISION_ANNOTATION]: '2' }, revision: 2, want: { [REVISION_ANNOTATION]: '2', [CAUSE]: 'v2' }, changed: true },
    { name: 'an annotation removed from the deployment stays on the ReplicaSet', d: {}, rs: { [REVISION_ANNOTATION]: '2', [CAUSE]: 'old' }, revision: 2, want: { [REVISION_ANNOTATION]: '2', [CAUSE]: 'old' }, changed: false },
    { name: 'apply and revision annotations are not copied', d: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', [REVISION_ANNOTATION]: '9' }, rs: { [REVISION_ANNOTATION]: '2' }, revision: 2, want: { [REVISION_ANNOTATION]: '2' }, changed: false },
    { name: 'a higher revision is never lowered', d: {}, rs: { [REVISION_ANNOTATION]: '5' }, revision: 3, want: { [REVISION_ANNOTATION]: '5' }, changed: false },
    { name: 'a rollback renumbers and records the old revision', d: {}, rs: { [REVISION_ANNOTATION]: '1' }, revision: 3, want: { [REVISION_ANNOTATION]: '3', [REVISION_HISTORY_ANNOTATION]: '1' }, changed: true },
    { name: 'a second rollback appends', d: {}, rs: { [REVISION_ANNOTATION]: '3', [REVISION_HISTORY_ANNOTATION]: '1' }, revision: 5, want: { [REVISION_ANNOTATION]: '5', [REVISION_HISTORY_ANNOTATION]: '1,3' }, changed: true },
    { name: 'no revision yet: set without history', d: {}, rs: {}, revision: 1, want: { [REVISION_ANNOTATION]: '1' }, changed: true },
  ] as { name: string; d: Record<string, string>; rs: Record<string, string>; revision: number; want: Record<string, string>; changed: boolean }[])('$name', ({ d, rs, revision, want, changed }) => {
    const got = newReplicaSetAnnotations(deployment(d), withAnnotations(rs), revision);
    expect(got).toEqual({ annotations: want, changed });
  });

  it('drops the oldest history entries past 2,000 characters', () => {
    const history = Array.from({ length: 500 }, (_, i) => String(1000 + i)).join(','); // 2,499 chars
    const got = newReplicaSetAnnotations(deployment({}), withAnnotations({ [REVISION_ANNOTATION]: '7', [REVISION_HISTORY_ANNOTATION]: history }), 9);
    const kept = got.annotations[REVISION_HISTORY_ANNOTATION]!;
    expect(kept.length).toBeLessThanOrEqual(MAX_REVISION_HISTORY_CHARS);
    expect(kept.endsWith(',1499,7')).toBe(true);
    expect(kept.split(',')[0]).toBe('1101');
  });
});
