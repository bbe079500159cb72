import { describe, expect, it } from 'vitest';
import type { Lease } from '../../api/index.ts';
import { createKernel, type Kernel } from '../../kernel/index.ts';
import { fakeApi, type FakeApi } from '../record/fake-api.test-helper.ts';
import { LeaderElector } from './elector.ts';

function candidate(kernel: Kernel, api: FakeApi, identity: string, log: string[]) {
  const elector = new LeaderElector({
    clock: kernel, rng: kernel.rng.fork(identity), client: api.client,
    lock: { namespace: 'kube-system', name: 'kube-controller-manager' }, identity,
    callbacks: {
      onStartedLeading: () => log.push(`${kernel.now()} ${identity} started`),
      onStoppedLeading: () => log.push(`${kernel.now()} ${identity} stopped`),
    },
  });
  return elector;
}

const lease = (api: FakeApi): Lease => api.objects.get('leases/kube-system/kube-controller-manager') as Lease;

describe('LeaderElector', () => {
  it('the first candidate creates the Lease; the second waits; the lease is renewed every 2 s', () => {
    const kernel = createKernel({ seed: 3 });
    const api = fakeApi(kernel);
    const log: string[] = [];
    const a = candidate(kernel, api, 'cp-1_aaaa', log);
    const b = candidate(kernel, api, 'cp-2_bbbb', log);
    a.start();
    kernel.runFor(1);
    b.start();
    kernel.runFor(30_000);
    expect(log).toEqual(['2 cp-1_aaaa started']);
    expect(a.isLeader()).toBe(true);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe('cp-1_aaaa');
    expect(lease(api).spec).toMatchObject({
      holderIdentity: 'cp-1_aaaa', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: '2026-01-01T00:00:00.000000Z',
    });
    // renewTime trails now by at most one retry period (plus two 1 ms hops)
    const renewedAt = Date.parse(lease(api).spec!.renewTime!) - Date.parse('2026-01-01T00:00:00Z');
    expect(30_000 - renewedAt).toBeLessThanOrEqual(2_004);
  });

  it('a leader that cannot renew stops within renewDeadline; the other takes over after leaseDuration', () => {
    const kernel = createKernel({ seed: 4 });
    const api = fakeApi(kernel);
    const log: string[] = [];
    const a = candidate(kernel, api, 'cp-1_aaaa', log);
    a.start();
    kernel.runFor(100);
    const b = candidate(kernel, api, 'cp-2_bbbb', log);
    b.start();
    kernel.runFor(5_000);
    // cut a off: its requests vanish (a partition); b keeps talking to the server
    const cut = { ...api.client, request: () => undefined } as unknown as typeof api.client;
    (a as unknown as { c: { client: typeof api.client } }).c.client = cut;
    const cutAtMs = kernel.now();
    kernel.runFor(40_000);
    const stopped = log.find((l) => l.endsWith('cp-1_aaaa stopped'));
    const started = log.find((l) => l.endsWith('cp-2_bbbb started'));
    expect(stopped).toBeDefined();
    expect(started).toBeDefined();
    const stoppedAt = Number(stopped!.split(' ')[0]);
    const startedAt = Number(started!.split(' ')[0]);
    // the old leader stops before the new one starts: no two leaders at once
    expect(stoppedAt).toBeLessThan(startedAt);
    expect(stoppedAt - cutAtMs).toBeLessThanOrEqual(2_000 + 10_000);
    // b saw the record stop changing; it waits leaseDuration from the last change it observed
    expect(startedAt - cutAtMs).toBeGreaterThanOrEqual(15_000 - 2_000);
    expect(lease(api).spec).toMatchObject({ holderIdentity: 'cp-2_bbbb', leaseTransitions: 1 });
  });

  it('two candidates racing to take over: the resourceVersion lets exactly one win', () => {
    const kernel = createKernel({ seed: 5 });
    const api = fakeApi(kernel, 5);
    api.objects.set('leases/kube-system/kube-controller-manager', {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-controller-manager', namespace: 'kube-system', resourceVersion: '1' },
      spec: { holderIdentity: 'dead_0000', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 4 },
    } as Lease);
    const log: string[] = [];
    const a = candidate(kernel, api, 'cp-1_aaaa', log);
    const b = candidate(kernel, api, 'cp-2_bbbb', log);
    a.start();
    b.start();
    kernel.runFor(60_000);
    expect(log).toHaveLength(1);
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    expect(lease(api).spec?.leaseTransitions).toBe(5);
  });

  it('stop() ends leadership at once and no further requests are sent', () => {
    const kernel = createKernel({ seed: 6 });
    const api = fakeApi(kernel);
    const log: string[] = [];
    const a = candidate(kernel, api, 'cp-1_aaaa', log);
    a.start();
    kernel.runFor(3_000);
    a.stop();
    const sent = api.requests.length;
    kernel.runFor(30_000);
    expect(api.requests.length).toBe(sent);
    expect(log).toEqual(['2 cp-1_aaaa started', '3000 cp-1_aaaa stopped']);
  });

  it('a leader with a valid lease renews with one update and no GET (the optimistic fast path)', () => {
    const kernel = createKernel({ seed: 7 });
    const api = fakeApi(kernel);
    const a = candidate(kernel, api, 'cp-1_aaaa', []);
    a.start();
    kernel.runFor(1_000);
    const before = api.requests.length;
    kernel.runFor(20_000);
    const renewals = api.requests.slice(before);
    expect(renewals.length).toBeGreaterThanOrEqual(9);
    expect(renewals.every((r) => r.verb === 'update')).toBe(true);
    expect(lease(api).spec).toMatchObject({ holderIdentity: 'cp-1_aaaa', leaseTransitions: 0 });
  });

  it('a failed optimistic update logs it and falls back to GET then update', () => {
    const kernel = createKernel({ seed: 8 });
    const api = fakeApi(kernel);
    const logs: string[] = [];
    const a = new LeaderElector({
      clock: kernel, rng: kernel.rng.fork('a'), client: api.client, identity: 'cp-1_aaaa',
      lock: { namespace: 'kube-system', name: 'kube-controller-manager' },
      callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined }, onLog: (m) => logs.push(m),
    });
    a.start();
    kernel.runFor(1_000);
    // someone else writes the Lease (same holder): the leader's observed resourceVersion is stale
    const current = lease(api);
    api.objects.set('leases/kube-system/kube-controller-manager', { ...current, metadata: { ...current.metadata, resourceVersion: '999' } });
    const before = api.requests.length;
    kernel.runFor(2_500);
    expect(api.requests.slice(before).map((r) => r.verb)).toEqual(['update', 'get', 'update']);
    expect(logs).toContain('Failed to update lock optimistically: Conflict, falling back to slow path');
    expect(a.isLeader()).toBe(true);
  });

  it.each([
    [{ leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }, /leaseDuration must be greater than renewDeadline/],
    [{ renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }, /renewDeadline must be greater than retryPeriod\*JitterFactor/],
  ])('rejects timings %j', (timings, message) => {
    const kernel = createKernel({ seed: 1 });
    const api = fakeApi(kernel);
    expect(() => new LeaderElector({
      clock: kernel, rng: kernel.rng, client: api.client, lock: { namespace: 'kube-system', name: 'x' }, identity: 'me',
      callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined }, ...timings,
    })).toThrow(message);
  });
});
