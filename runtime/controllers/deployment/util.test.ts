import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import { getScaledValueFromIntOrPercent, newRSNewReplicas, resolveFenceposts } from './util.ts';

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
