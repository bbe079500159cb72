import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../api/index.ts';
import { createRng } from '../kernel/index.ts';
import { ClusterNetwork } from './data-plane.ts';
import { PodCidrIpam, ServiceIpRange, ipToNumber, numberToIp } from './ipam.ts';
import { buildNatRules, endpointChainName, renderRule, servicePortChainName, servicePorts } from './iptables.ts';
import { base32, sha256 } from './sha256.ts';

const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

function service(name: string, clusterIP: string, ports: { name?: string; port: number }[]): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns1' }, spec: { clusterIP, ports } } as Service;
}
function slice(svc: string, ips: string[], port: number, portName = 'p80', ready: boolean[] = []): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: `${svc}-abc`, namespace: 'ns1', labels: { 'kubernetes.io/service-name': svc } },
    addressType: 'IPv4',
    endpoints: ips.map((ip, i) => ({ addresses: [ip], conditions: { ready: ready[i] ?? true } })),
    ports: [{ name: portName, port, protocol: 'TCP' }],
  };
}

describe('sha256 and base32', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('sha256(%j)', (text, digest) => expect(hex(sha256(text))).toBe(digest));

  it.each([['f', 'MY======'], ['foobar', 'MZXW6YTBOI======']])('base32(%j) = %s (RFC 4648)', (text, out) => {
    expect(base32(new Uint8Array([...text].map((c) => c.charCodeAt(0))))).toBe(out);
  });
});

describe('kube-proxy chain names (proxier_test.go)', () => {
  it('names the service chain and the endpoint chain as upstream does', () => {
    expect(servicePortChainName('ns1/svc1:p80', 'tcp')).toBe('KUBE-SVC-XPGD46QRK7WJZT7O');
    expect(endpointChainName('ns1/svc1:p80', 'tcp', '10.180.0.1:80')).toBe('KUBE-SEP-SXIVWICOYRO3J4NJ');
  });
});

describe('buildNatRules', () => {
  it('jumps from KUBE-SERVICES to KUBE-SVC and splits with probabilities 1/3, 1/2, then unconditional', () => {
    const rules = buildNatRules(servicePorts([service('svc1', '10.20.30.41', [{ name: 'p80', port: 80 }])], [slice('svc1', ['10.180.0.3', '10.180.0.1', '10.180.0.2'], 80)]));
    const text = rules.map(renderRule);
    expect(text[0]).toBe('-A KUBE-SERVICES -d 10.20.30.41/32 -p tcp -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O');
    const svcRules = text.filter((t) => t.startsWith('-A KUBE-SVC-XPGD46QRK7WJZT7O'));
    expect(svcRules).toEqual([
      `-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m statistic --mode random --probability 0.3333333333 -j KUBE-SEP-SXIVWICOYRO3J4NJ`,
      expect.stringMatching(/--comment "ns1\/svc1:p80 -> 10\.180\.0\.2:80" -m statistic --mode random --probability 0\.5000000000 -j KUBE-SEP-/),
      expect.stringMatching(/--comment "ns1\/svc1:p80 -> 10\.180\.0\.3:80" -j KUBE-SEP-/),
    ]);
    expect(text).toContain('-A KUBE-SEP-SXIVWICOYRO3J4NJ -p tcp -m comment --comment ns1/svc1:p80 -m tcp -j DNAT --to-destination 10.180.0.1:80');
    expect(text).toContain('-A KUBE-SEP-SXIVWICOYRO3J4NJ -s 10.180.0.1/32 -m comment --comment ns1/svc1:p80 -j KUBE-MARK-MASQ');
  });

  it('rejects traffic to a service with no ready endpoints', () => {
    const rules = buildNatRules(servicePorts([service('svc1', '10.20.30.41', [{ name: 'p80', port: 80 }])], [slice('svc1', ['10.180.0.1'], 80, 'p80', [false])]));
    expect(rules.map(renderRule)).toEqual([
      '-A KUBE-SERVICES -d 10.20.30.41/32 -p tcp -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
    ]);
    // the REJECT is in the filter table (proxier.go writes it to filterRules), the jump in nat
    expect(rules.map((r) => r.table ?? 'nat')).toEqual(['filter', 'nat']);
  });

  it('skips headless services and ports whose slice port does not match', () => {
    const ports = servicePorts([service('h', 'None', [{ port: 80 }]), service('svc1', '10.0.0.9', [{ name: 'web', port: 80 }])], [slice('svc1', ['10.1.1.1'], 80, 'other')]);
    expect(ports).toEqual([{
      servicePortName: 'ns1/svc1:web', clusterIP: '10.0.0.9', port: 80, protocol: 'tcp', endpoints: [], localEndpoints: [],
      nodePort: 0, loadBalancerIPs: [], externalPolicyLocal: false,
    }]);
  });
});

describe('IPAM', () => {
  it('hands out .2 to .254 of a /24, then nothing, and reuses released addresses', () => {
    const ipam = new PodCidrIpam('10.244.1.0/24');
    const ips = Array.from({ length: 253 }, () => ipam.allocate());
    expect(ips[0]).toBe('10.244.1.2');
    expect(ips[252]).toBe('10.244.1.254');
    expect(new Set(ips).size).toBe(253);
    expect(ipam.allocate()).toBeUndefined();
    ipam.release('10.244.1.77');
    expect(ipam.allocate()).toBe('10.244.1.77');
  });

  it('ServiceIpRange: 10.96.0.0/12 keeps 256 static addresses; candidates visit the upper band first, each address once (property)', () => {
    const seed = Date.now() % 100_000;
    console.log(`service IP range property seed ${seed}`);
    const big = new ServiceIpRange('10.96.0.0/12');
    expect([big.first, big.last, big.rangeOffset].map(numberToIp)).toEqual(['10.96.0.1', '10.111.255.254', '0.0.1.0']);
    expect(big.contains('10.96.0.0')).toBe(false); // the network address
    expect(big.contains('10.111.255.255')).toBe(false); // the broadcast address
    fc.assert(fc.property(fc.integer({ min: 24, max: 28 }), fc.integer(), (bits, s) => {
      const range = new ServiceIpRange(`10.0.0.0/${bits}`);
      const all = [...range.candidates(createRng(s))];
      const size = 2 ** (32 - bits) - 2;
      const upper = all.slice(0, size - range.rangeOffset).map((ip) => ipToNumber(ip)!);
      return all.length === size && new Set(all).size === size && all.every((ip) => range.contains(ip))
        && upper.every((n) => n >= range.first + range.rangeOffset);
    }), { seed, numRuns: 50 });
  });
});

describe('ClusterNetwork.sendRequest', () => {
  function net() {
    const network = new ClusterNetwork(createRng(3));
    const cni = network.attachNode('worker-1', '10.244.1.0/24');
    const ips = ['a', 'b', 'c'].map((name) => cni.setUpPod({ namespace: 'ns1', name, uid: name })!);
    network.programRules('worker-1', buildNatRules(servicePorts([service('svc1', '10.96.5.5', [{ name: 'p80', port: 80 }])], [slice('svc1', ips, 8080)])));
    return network;
  }

  it('walks KUBE-SERVICES -> KUBE-SVC -> KUBE-SEP and DNATs to a pod', () => {
    const r = net().sendRequest('worker-1', '10.96.5.5:80');
    if (!r.ok) throw new Error(r.error);
    expect(r.chains).toEqual(['KUBE-SERVICES', 'KUBE-SVC-XPGD46QRK7WJZT7O', expect.stringMatching(/^KUBE-SEP-[A-Z2-7]{16}$/)]);
    expect(r.targetPort).toBe(8080);
    expect(['a', 'b', 'c']).toContain(r.pod.name);
  });

  it('spreads requests roughly evenly over the endpoints', () => {
    const network = net();
    const counts: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      const r = network.sendRequest('worker-1', '10.96.5.5:80');
      if (r.ok) counts[r.pod.name] = (counts[r.pod.name] ?? 0) + 1;
    }
    for (const name of ['a', 'b', 'c']) expect(counts[name]).toBeGreaterThan(850);
  });

  it('has no route from a node whose kube-proxy has not programmed the service', () => {
    expect(net().sendRequest('worker-2', '10.96.5.5:80')).toMatchObject({ ok: false, error: 'dial tcp 10.96.5.5:80: connect: no route to host' });
  });
});

describe('servicePorts endpoint order', () => {
  // replay a failure with FC_SEED=<seed> npm run test:unit -- runtime/network/network
  const envSeed = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED);
  const seed = Number.isFinite(envSeed) ? envSeed : 20261202;
  const svc: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { clusterIP: '10.96.0.10', ports: [{ port: 80, protocol: 'TCP' }] } };
  const sliceOf = (addrs: string[]): EndpointSlice => ({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4',
    metadata: { name: 's-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 's' } },
    ports: [{ port: 8080, protocol: 'TCP' }],
    endpoints: addrs.map((a) => ({ addresses: [a], conditions: { ready: true } })),
  });

  it('sorts addresses numerically, octet by octet, as kube-proxy does', () => {
    const eps = servicePorts([svc], [sliceOf(['10.244.1.12', '10.244.1.5', '10.244.10.1', '9.0.0.1', '10.244.1.50'])])[0]!.endpoints;
    expect(eps).toEqual(['9.0.0.1:8080', '10.244.1.5:8080', '10.244.1.12:8080', '10.244.1.50:8080', '10.244.10.1:8080']);
  });

  it(`agrees with comparing the split numbers (seed ${seed})`, () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(octet, octet, octet, octet).map((o) => o.join('.')), { minLength: 1, maxLength: 30 }), (addrs) => {
      const key = (e: string): number[] => e.split(/[.:]/).map(Number);
      const expected = addrs.map((a) => `${a}:8080`).sort((a, b) => {
        const ka = key(a), kb = key(b);
        for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
        return 0;
      });
      expect(servicePorts([svc], [sliceOf(addrs)])[0]!.endpoints).toEqual(expected);
    }), { seed, numRuns: 200 });
  });
});
