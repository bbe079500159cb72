import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../kernel/index.ts';
import { instanceTypeFor } from './instance-type.ts';
import { IpPool } from './ip-pool.ts';
import { SimulatedCloud } from './provider.ts';
import { INSTANCE_NOT_FOUND, defaultLoadBalancerName, type CloudResult, type LoadBalancerService } from './types.ts';

function cloudOn(kernel: Kernel, running = new Set<string>(['w1', 'w2', 'w3', 'w4'])) {
  const deleted: string[] = [];
  const records: string[] = [];
  const cloud = new SimulatedCloud({
    clock: kernel, rng: kernel.rng.fork('cloud'), isRunning: (n) => running.has(n),
    onInstanceDeleted: (n) => deleted.push(n), record: (kind, detail) => records.push(`${kind} ${detail}`),
  });
  for (const [i, name] of ['w1', 'w2', 'w3', 'w4'].entries()) cloud.addInstance({ name, cpu: '4', memory: '8Gi', internalIP: `192.168.49.${10 + i}` });
  return { cloud, deleted, records, running };
}

/** Calls fn and runs the kernel until its callback answers; returns the answer and when it came. */
function answer<T>(kernel: Kernel, fn: (done: (r: CloudResult<T>) => void) => void): { r: CloudResult<T>; afterMs: number } {
  const start = kernel.now();
  let r: CloudResult<T> | undefined;
  fn((x) => (r = x));
  kernel.runUntil(() => r !== undefined, 100_000);
  if (!r) throw new Error('the cloud never answered');
  return { r, afterMs: kernel.now() - start };
}

const svc = (name: string, uid: string): LoadBalancerService => ({ namespace: 'default', name, uid, ports: [{ protocol: 'TCP', port: 80 }] });

describe('instanceTypeFor', () => {
  it.each([
    ['4', '16Gi', 'sim-standard-4'],
    ['2', '2Gi', 'sim-highcpu-2'],
    ['8', '64Gi', 'sim-highmem-8'],
    ['4', '8Gi', 'sim-custom-4-8192'],
    ['500m', '1Gi', 'sim-custom-1-1024'],
    ['x', '1Gi', 'sim-custom'],
  ])('%s CPU, %s memory -> %s', (cpu, memory, want) => {
    expect(instanceTypeFor(cpu, memory)).toBe(want);
  });
});

describe('IpPool', () => {
  it('hands out .1, .2, ... moves on past a released address, wraps, and runs out after 254', () => {
    const pool = new IpPool('203.0.113.0/24');
    expect([pool.allocate(), pool.allocate(), pool.allocate()]).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.3']);
    pool.release('203.0.113.2');
    expect(pool.allocate()).toBe('203.0.113.4');
    for (let i = 5; i <= 254; i++) expect(pool.allocate()).toBe(`203.0.113.${i}`);
    expect(pool.allocate()).toBe('203.0.113.2'); // wrapped to the one free address
    expect(pool.allocate()).toBeUndefined();
    expect(pool.inUse).toBe(254);
  });

  it.each(['203.0.113.0/16', '10.0.0.1/24', '300.1.1.0/24', 'nonsense'])('rejects %s', (cidr) => {
    expect(() => new IpPool(cidr)).toThrow(/is not an IPv4 \/24/);
  });
});

describe('SimulatedCloud instances', () => {
  it('spreads instances over the zones with sim:// provider IDs, and answers metadata after an API round trip', () => {
    const kernel = createKernel({ seed: 1 });
    const { cloud } = cloudOn(kernel);
    expect(cloud.instances().map((i) => `${i.name} ${i.zone} ${i.providerID}`)).toEqual([
      'w1 sim-region-1a sim://sim-region-1a/w1',
      'w2 sim-region-1b sim://sim-region-1b/w2',
      'w3 sim-region-1c sim://sim-region-1c/w3',
      'w4 sim-region-1a sim://sim-region-1a/w4',
    ]);
    const { r, afterMs } = answer(kernel, (done) => cloud.api().instances.instanceMetadata({ name: 'w2' }, done));
    expect(r).toEqual({
      ok: true,
      value: {
        providerID: 'sim://sim-region-1b/w2', instanceType: 'sim-custom-4-8192', zone: 'sim-region-1b', region: 'sim-region-1',
        nodeAddresses: [
          { type: 'InternalIP', address: '192.168.49.11' },
          { type: 'ExternalIP', address: '198.51.100.2' },
          { type: 'Hostname', address: 'w2' },
        ],
      },
    });
    expect(afterMs).toBeGreaterThanOrEqual(50);
    expect(afterMs).toBeLessThan(150);
  });

  it('a deleted instance no longer exists, its machine is told to stop, and its metadata is not found', () => {
    const kernel = createKernel({ seed: 2 });
    const { cloud, deleted, records } = cloudOn(kernel);
    expect(cloud.deleteInstance('w3')).toBe(true);
    expect(cloud.deleteInstance('w3')).toBe(false);
    expect(deleted).toEqual(['w3']);
    expect(records).toContain('cloud.instance-deleted w3 (sim://sim-region-1c/w3)');
    const api = cloud.api().instances;
    expect(answer<boolean>(kernel, (d) => api.instanceExists({ name: 'w3' }, d)).r).toEqual({ ok: true, value: false });
    expect(answer<boolean>(kernel, (d) => api.instanceExists({ name: 'w3', providerID: 'sim://sim-region-1c/w3' }, d)).r).toEqual({ ok: true, value: false });
    expect(answer<boolean>(kernel, (d) => api.instanceExists({ name: 'w1' }, d)).r).toEqual({ ok: true, value: true });
    expect(answer(kernel, (d) => api.instanceMetadata({ name: 'w3' }, d)).r).toEqual({ ok: false, error: INSTANCE_NOT_FOUND });
    expect(answer(kernel, (d) => api.instanceShutdown({ name: 'w3' }, d)).r).toEqual({ ok: false, error: INSTANCE_NOT_FOUND });
  });

  it('an existing instance whose machine is powered off reports shut down', () => {
    const kernel = createKernel({ seed: 3 });
    const { cloud, running } = cloudOn(kernel);
    running.delete('w1');
    const api = cloud.api().instances;
    expect(answer<boolean>(kernel, (d) => api.instanceShutdown({ name: 'w1' }, d)).r).toEqual({ ok: true, value: true });
    expect(answer<boolean>(kernel, (d) => api.instanceShutdown({ name: 'w2' }, d)).r).toEqual({ ok: true, value: false });
  });
});

describe('SimulatedCloud load balancers', () => {
  it('a new load balancer takes 2-5 s to provision, then serves the next public address', () => {
    const kernel = createKernel({ seed: 4 });
    const { cloud } = cloudOn(kernel);
    const lbs = cloud.api().loadBalancer;
    const web = svc('web', '1111-2222');
    expect(answer(kernel, (d) => lbs.getLoadBalancer('kubernetes', web, d)).r).toEqual({ ok: true, value: undefined });
    const first = answer(kernel, (d) => lbs.ensureLoadBalancer('kubernetes', web, ['w2', 'w1'], d));
    expect(first.r).toEqual({ ok: true, value: { ingress: [{ ip: '203.0.113.1' }] } });
    expect(first.afterMs).toBeGreaterThanOrEqual(2050);
    expect(first.afterMs).toBeLessThanOrEqual(5150);
    expect(cloud.loadBalancers()).toEqual([{ name: 'a11112222', service: 'default/web', ip: '203.0.113.1', nodes: ['w1', 'w2'], state: 'active' }]);
    // ensuring again is an update: same address, one API round trip
    const again = answer(kernel, (d) => lbs.ensureLoadBalancer('kubernetes', web, ['w1'], d));
    expect(again.r).toEqual({ ok: true, value: { ingress: [{ ip: '203.0.113.1' }] } });
    expect(again.afterMs).toBeLessThan(150);
    expect(answer(kernel, (d) => lbs.ensureLoadBalancer('kubernetes', svc('api', '3333'), ['w1'], d)).r).toEqual({ ok: true, value: { ingress: [{ ip: '203.0.113.2' }] } });
    expect(answer(kernel, (d) => lbs.updateLoadBalancer('kubernetes', web, ['w3', 'w4'], d)).r).toEqual({ ok: true, value: undefined });
    expect(cloud.loadBalancers()[0]?.nodes).toEqual(['w3', 'w4']);
    expect(answer(kernel, (d) => lbs.ensureLoadBalancerDeleted('kubernetes', web, d)).r).toEqual({ ok: true, value: undefined });
    expect(answer(kernel, (d) => lbs.ensureLoadBalancerDeleted('kubernetes', web, d)).r).toEqual({ ok: true, value: undefined });
    expect(cloud.loadBalancers().map((l) => l.service)).toEqual(['default/api']);
    expect(answer(kernel, (d) => lbs.updateLoadBalancer('kubernetes', web, ['w1'], d)).r).toEqual({ ok: false, error: 'load balancer a11112222 not found' });
    // the pool moves on: the released .1 is not handed out again at once
    expect(answer(kernel, (d) => lbs.ensureLoadBalancer('kubernetes', svc('web', '4444'), [], d)).r).toEqual({ ok: true, value: { ingress: [{ ip: '203.0.113.3' }] } });
  });

  it('deleting a load balancer while it is provisioning fails the pending ensure with a message', () => {
    const kernel = createKernel({ seed: 5 });
    const { cloud } = cloudOn(kernel);
    const lbs = cloud.api().loadBalancer;
    let ensured: CloudResult<unknown> | undefined;
    lbs.ensureLoadBalancer('kubernetes', svc('web', 'abcd'), ['w1'], (r) => (ensured = r));
    answer(kernel, (d) => lbs.ensureLoadBalancerDeleted('kubernetes', svc('web', 'abcd'), d));
    kernel.runUntil(() => ensured !== undefined, 100_000);
    expect(ensured).toEqual({ ok: false, error: 'load balancer aabcd was deleted while it was being provisioned' });
    expect(cloud.loadBalancers()).toEqual([]);
  });

  it('names load balancers as cloudprovider.DefaultLoadBalancerName does', () => {
    expect(defaultLoadBalancerName({ uid: '0f6c3d6e-8a4b-4c1e-9a65-2d1f3b4c5d6e' })).toBe('a0f6c3d6e8a4b4c1e9a652d1f3b4c5d6');
  });

  it('is deterministic: the same seed gives the same provisioning times and addresses', () => {
    const run = (seed: number): string => {
      const kernel = createKernel({ seed });
      const { cloud } = cloudOn(kernel);
      const times: number[] = [];
      for (const name of ['a', 'b', 'c']) times.push(answer(kernel, (d) => cloud.api().loadBalancer.ensureLoadBalancer('k', svc(name, name), [], d)).afterMs);
      return `${times.join(',')} ${cloud.loadBalancers().map((l) => l.ip).join(',')}`;
    };
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });
});
