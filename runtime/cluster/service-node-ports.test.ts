// The node port allocation of the Service allocators (service-allocation.ts over the
// RangeAllocation bitmap): the cases of pkg/registry/core/service/storage storage_test.go
// (TestCreateInitNodePorts, TestUpdateNodePorts, TestCreateInitHealthCheckNodePort...) that a
// learner can see: which ports a Service gets, which errors come back, what the bitmap in etcd holds.
import { describe, expect, it } from 'vitest';
import { defaultObject, errorString, validateObject, type Service, type ServiceSpec, type Status } from '../api/index.ts';
import { allocationHarness, serviceOf } from './service-allocation-harness.ts';
import { nodePortsOf } from './service-node-ports.ts';

const harness = (seed = 1) => allocationHarness({ seed });
const svc = (name: string, spec: ServiceSpec): Service => serviceOf(name, spec);

const port = (p: number, extra: Record<string, unknown> = {}) => ({ name: `p${p}`, port: p, protocol: 'TCP' as const, ...extra });
const causes = (s: Status | undefined): string[] => (s?.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);

describe('node ports on create (initNodePorts)', () => {
  it.each<[string, ServiceSpec, (ports: (number | undefined)[]) => void]>([
    ['ClusterIP gets none', { type: 'ClusterIP', ports: [port(80)] }, (p) => expect(p).toEqual([undefined])],
    ['NodePort gets one per port, from the upper band', { type: 'NodePort', ports: [port(80), port(443)] }, (p) => {
      expect(p.every((n) => n !== undefined && n >= 30086 && n <= 32767)).toBe(true);
      expect(new Set(p).size).toBe(2);
    }],
    ['LoadBalancer gets them too', { type: 'LoadBalancer', ports: [port(80)] }, (p) => expect(p[0]).toBeGreaterThanOrEqual(30000)],
    ['LoadBalancer with allocateLoadBalancerNodePorts: false gets none', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [port(80)] }, (p) => expect(p).toEqual([undefined])],
    ['LoadBalancer with allocateLoadBalancerNodePorts: false keeps a requested one', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [port(80, { nodePort: 30555 }), port(81)] }, (p) => expect(p).toEqual([30555, undefined])],
    ['a requested port is honoured', { type: 'NodePort', ports: [port(80, { nodePort: 30080 })] }, (p) => expect(p).toEqual([30080])],
    ['TCP and UDP on the same port number share one node port', { type: 'NodePort', ports: [{ name: 'dns', port: 53, protocol: 'TCP' }, { name: 'dns-udp', port: 53, protocol: 'UDP' }] }, (p) => {
      expect(p[0]).toBeDefined();
      expect(p[1]).toBe(p[0]);
    }],
    ['the shared port is the one either of them asked for', { type: 'NodePort', ports: [{ name: 'a', port: 53, protocol: 'TCP' }, { name: 'b', port: 53, protocol: 'UDP', nodePort: 30053 }] }, (p) => expect(p).toEqual([30053, 30053])],
  ])('%s', (_name, spec, check) => {
    const h = harness();
    const { svc: out, error } = h.write('CREATE', svc('s', spec));
    expect(error).toBeUndefined();
    check((out.spec?.ports ?? []).map((p) => p.nodePort));
    expect(h.range.held()).toEqual(nodePortsOf(out.spec));
  });

  it('refuses a taken port and one out of range, naming the field, and takes nothing', () => {
    const h = harness();
    h.write('CREATE', svc('first', { type: 'NodePort', ports: [port(80, { nodePort: 30080 })] }));
    const taken = h.write('CREATE', svc('second', { type: 'NodePort', ports: [port(81), port(80, { nodePort: 30080 })] }));
    expect(taken.error?.code).toBe(422);
    expect(taken.error?.message).toBe('Service "second" is invalid: spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated');
    expect(h.range.held()).toEqual([30080]); // the random port for ports[0] was never written
    const outside = h.write('CREATE', svc('third', { type: 'NodePort', ports: [port(80, { nodePort: 8080 })] }));
    expect(causes(outside.error)).toEqual(['spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767']);
  });

  it('a create that fails with AlreadyExists leaves the stored Service its ports and takes no new one', () => {
    const h = harness();
    const first = h.write('CREATE', svc('web', { type: 'NodePort', ports: [port(80)] })).svc;
    const held = nodePortsOf(first.spec);
    expect(h.write('CREATE', svc('web', { type: 'NodePort', ports: [port(80)] })).error?.message).toBe('AlreadyExists');
    expect(h.range.held()).toEqual(held);
  });

  it('LoadBalancer with externalTrafficPolicy Local also gets a healthCheckNodePort; a taken one is an internal error', () => {
    const h = harness();
    const out = h.write('CREATE', svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [port(80)] })).svc;
    expect(out.spec?.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(h.range.held()).toHaveLength(2);
    const clash = h.write('CREATE', svc('lb2', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: out.spec!.healthCheckNodePort!, ports: [port(80)] }));
    expect(clash.error?.code).toBe(500);
    expect(clash.error?.message).toBe(`Internal error occurred: failed to allocate requested HealthCheck NodePort ${out.spec!.healthCheckNodePort!}: provided port is already allocated`);
    expect(h.range.held()).toEqual(nodePortsOf(out.spec));
  });
});

describe('node ports on update and delete', () => {
  it('keeps the ports on an update that leaves nodePort out (patchAllocatedValues), and allocates for a new port', () => {
    const h = harness();
    const created = h.write('CREATE', svc('web', { type: 'NodePort', ports: [port(80)] })).svc;
    const was = created.spec!.ports![0]!.nodePort!;
    const updated = h.write('UPDATE', svc('web', { type: 'NodePort', ports: [port(80), port(443)] })).svc;
    expect(updated.spec!.ports![0]!.nodePort).toBe(was);
    expect(updated.spec!.ports![1]!.nodePort).toBeGreaterThanOrEqual(30000);
    expect(h.range.held()).toEqual(nodePortsOf(updated.spec));
  });

  it('releases a port the update stops using, and all of them when the type goes back to ClusterIP', () => {
    const h = harness();
    const created = h.write('CREATE', svc('web', { type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [port(80), port(443)] })).svc;
    const [p80, p443] = created.spec!.ports!.map((p) => p.nodePort!);
    const one = h.write('UPDATE', svc('web', { type: 'NodePort', ports: [port(80, { nodePort: p80 })] })).svc;
    expect(h.range.held()).toEqual([p80]);
    expect(h.range.held()).not.toContain(p443);
    const back = h.write('UPDATE', svc('web', { ...one.spec, type: 'ClusterIP' })); // a copy, as the API server hands the plugin
    expect(back.error).toBeUndefined();
    expect(back.svc.spec!.ports![0]!.nodePort).toBeUndefined(); // dropTypeDependentFields
    expect(back.svc.spec!.externalTrafficPolicy).toBeUndefined();
    expect(h.range.held()).toEqual([]);
  });

  it('refuses an update that asks for another Service\'s port', () => {
    const h = harness();
    h.write('CREATE', svc('a', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] }));
    h.write('CREATE', svc('b', { type: 'NodePort', ports: [port(80, { nodePort: 30200 })] }));
    const r = h.write('UPDATE', svc('b', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] }));
    expect(causes(r.error)).toEqual(['spec.ports[0].nodePort: Invalid value: 30100: provided port is already allocated']);
    expect(h.range.held()).toEqual([30100, 30200]);
  });

  it('gives the ports back on delete, so another Service can ask for them', () => {
    const h = harness();
    h.write('CREATE', svc('a', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] }));
    h.remove('a');
    expect(h.range.held()).toEqual([]);
    expect(h.write('CREATE', svc('b', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] })).error).toBeUndefined();
  });

  it('keeps the ports of a Service held by a finalizer until the update that removes the finalizer', () => {
    const h = harness();
    const lb = h.write('CREATE', svc('lb', { type: 'LoadBalancer', ports: [port(80)] })).svc;
    lb.metadata.finalizers = ['service.kubernetes.io/load-balancer-cleanup'];
    h.stored.set('default/lb', lb);
    h.remove('lb');
    h.stored.set('default/lb', { ...lb, metadata: { ...lb.metadata, deletionTimestamp: '2026-01-01T00:00:10Z' } });
    expect(h.range.held()).toEqual(nodePortsOf(lb.spec));
    const last = h.stored.get('default/lb')!;
    h.write('UPDATE', { ...last, metadata: { ...last.metadata, finalizers: [] } });
    expect(h.range.held()).toEqual([]);
  });

  it('is deterministic: the same seed gives the same ports', () => {
    const ports = (seed: number): number[] => {
      const h = harness(seed);
      return nodePortsOf(h.write('CREATE', svc('web', { type: 'NodePort', ports: [port(80), port(81), port(82)] })).svc.spec);
    };
    expect(ports(4)).toEqual(ports(4));
  });
});

describe('node ports in etcd (the RangeAllocation bitmap)', () => {
  it('a lost race re-reads the bitmap and allocates again, never handing out a port another replica just took', () => {
    const h = harness(9);
    // the "other replica" (same seed, so it picks the port our first try picked) writes between our read and our write
    h.range.interfere = () => {
      const other = allocationHarness({ seed: 9 });
      other.range.snapshot = h.range.snapshot;
      other.write('CREATE', svc('theirs', { type: 'NodePort', ports: [port(80)] }));
      h.range.snapshot = other.range.snapshot;
    };
    const theirs = (): number[] => h.range.held();
    const mine = h.write('CREATE', svc('mine', { type: 'NodePort', ports: [port(80)] }));
    expect(mine.error).toBeUndefined();
    expect(h.range.tries).toBe(2);
    expect(theirs()).toHaveLength(2); // both ports are in the bitmap: the retry did not reuse theirs
    expect(new Set(theirs()).size).toBe(2);
  });

  it('a create refused after the cluster IP was taken gives the IP back at once (the transaction Revert)', () => {
    const h = harness();
    h.write('CREATE', svc('a', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] }));
    const ipsBefore = [...h.ips.items.keys()];
    const r = h.write('CREATE', svc('b', { type: 'NodePort', ports: [port(80, { nodePort: 30100 })] }));
    expect(r.error?.code).toBe(422);
    expect([...h.ips.items.keys()]).toEqual(ipsBefore);
  });

  it('a dry run reports ports but writes nothing', () => {
    const h = harness();
    const r = h.write('CREATE', svc('dry', { type: 'NodePort', ports: [port(80)] }), true);
    expect(r.error).toBeUndefined();
    expect(r.svc.spec?.ports?.[0]?.nodePort).toBeGreaterThanOrEqual(30000);
    expect(h.range.snapshot).toBeUndefined();
    expect(h.ips.items.size).toBe(0);
  });

  it('an update that changes nothing about node ports does not write the bitmap', () => {
    const h = harness();
    const created = h.write('CREATE', svc('web', { type: 'NodePort', ports: [port(80)] })).svc;
    const before = h.range.tries;
    h.write('UPDATE', { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(h.range.tries).toBe(before);
  });
});

describe('healthCheckNodePort validation (validateServiceExternalTrafficPolicy)', () => {
  const messages = (spec: ServiceSpec): string[] => validateObject(defaultObject(svc('s', spec))).map(errorString);
  it.each<[string, ServiceSpec, string[]]>([
    ['allowed on a Local LoadBalancer', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, ports: [port(80)] }, []],
    ['refused on a Cluster LoadBalancer', { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', healthCheckNodePort: 31000, ports: [port(80)] },
      ["spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"]],
    ['refused on a NodePort', { type: 'NodePort', healthCheckNodePort: 31000, ports: [port(80)] },
      ["spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"]],
    ['a port number', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 70000, ports: [port(80)] },
      ['spec.healthCheckNodePort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
  ])('%s', (_name, spec, want) => expect(messages(spec)).toEqual(want));
});
