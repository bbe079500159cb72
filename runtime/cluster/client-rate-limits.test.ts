// ClusterOptions.clientRateLimits over upstream's defaults: overrides merge per field, and limits
// that could never hand out a token are refused with a message naming the option.
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CLIENT_RATE_LIMITS, resolveClientRateLimits } from './client-rate-limits.ts';
import { planCluster } from './options.ts';

describe('client rate limits', () => {
  it('defaults to upstream\'s limits for every component', () => {
    expect(planCluster({}).clientRateLimits).toEqual({
      'kube-controller-manager': { qps: 20, burst: 30 }, 'kube-scheduler': { qps: 50, burst: 100 }, kubelet: { qps: 50, burst: 100 },
      'kube-proxy': { qps: 5, burst: 10 }, 'cloud-controller-manager': { qps: 20, burst: 30 }, kubectl: { qps: 5, burst: 10 }, kindnet: { qps: 5, burst: 10 }, coredns: { qps: 5, burst: 10 },
    });
  });

  it.each([
    [{ 'kube-controller-manager': { qps: 100, burst: 200 } }, 'kube-controller-manager', { qps: 100, burst: 200 }],
    [{ 'kube-controller-manager': { qps: 100 } }, 'kube-controller-manager', { qps: 100, burst: 30 }],
    [{ kubectl: { qps: -1 } }, 'kubectl', { qps: -1, burst: 10 }],
    [{ kubelet: { qps: 0, burst: 0 } }, 'kubelet', { qps: 0, burst: 0 }],
  ] as const)('%j sets %s to %j, and leaves the others upstream\'s', (overrides, component, limits) => {
    const resolved = resolveClientRateLimits(overrides);
    expect(resolved[component]).toEqual(limits);
    expect(resolved['kube-scheduler']).toEqual(UPSTREAM_CLIENT_RATE_LIMITS['kube-scheduler']);
  });

  it.each([
    [{ kubectl: { qps: 5, burst: 0 } }, 'clientRateLimits["kubectl"].burst must be an integer of at least 1 (got 0)'],
    [{ kubectl: { qps: 5, burst: 2.5 } }, 'clientRateLimits["kubectl"].burst must be an integer of at least 1 (got 2.5)'],
    [{ kubectl: { qps: Number.NaN } }, 'clientRateLimits["kubectl"].qps must be a number (got NaN)'],
    [{ etcdctl: { qps: 5 } }, 'clientRateLimits has no component "etcdctl"'],
  ])('refuses %j', (overrides, message) => {
    expect(() => planCluster({ clientRateLimits: overrides as never })).toThrow(message);
  });
});
