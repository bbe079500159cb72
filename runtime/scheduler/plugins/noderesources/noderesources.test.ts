// Tables ported from pkg/scheduler/framework/plugins/noderesources/fit_test.go (enoughRequests),
// least_allocated_test.go, most_allocated_test.go, requested_to_capacity_ratio_test.go
// (TestRequestedToCapacityRatioScoringStrategy, TestBrokenLinearFunction) and
// balanced_allocation_test.go. Upstream's bare "4000" CPU is 4000 cores; the ratios are what matter.
// st.MakePod() without Req() has no containers at all, so it adds no non-zero defaults either.
import { describe, expect, it } from 'vitest';
import { newPodInfo } from '../../framework/pod-info.ts';
import { Snapshot } from '../../framework/snapshot.ts';
import { container, makeNode, makePod } from '../../testing-builders.ts';
import { newBalancedAllocation } from './balanced-allocation.ts';
import { fitsRequest, newNodeResourcesFit, type NodeResourcesFitArgs } from './fit.ts';
import { brokenLinearFunction } from './scorers.ts';

const req = (cpu: string, memory: string) => container({ cpu, memory });

function scores(
  args: NodeResourcesFitArgs | null,
  pod: ReturnType<typeof makePod>,
  snap: Snapshot,
) {
  const plugin = args ? newNodeResourcesFit(args) : newBalancedAllocation();
  const state = new Map();
  const p = newPodInfo(pod);
  plugin.preScore(state, p, snap.nodeInfoList, { allNodes: snap.nodeInfoList });
  return snap.nodeInfoList.map((n) => plugin.score(state, p, n)[0]);
}

const strategy = (
  type: NodeResourcesFitArgs['scoringStrategy']['type'],
  shape?: { utilization: number; score: number }[],
): NodeResourcesFitArgs => ({
  scoringStrategy: {
    type,
    resources: [
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ],
    ...(shape ? { requestedToCapacityRatio: { shape } } : {}),
  },
});

describe('NodeResourcesFit Filter (fit_test.go enoughRequests)', () => {
  // Node: 10 milli-CPU, 20 bytes memory, 32 pods; existing pod uses 5 / 19 unless stated.
  const node = (used: { cpu: string; memory: string } | null) => {
    const n = makeNode('n', { cpu: '10m', memory: '20', pods: 32 });
    const pods = used
      ? [makePod('e', { nodeName: 'n', containers: [req(used.cpu, used.memory)] })]
      : [];
    return Snapshot.build([n], pods).get('n')!;
  };
  const cases: [string, string, string, { cpu: string; memory: string } | null, string[]][] = [
    ['no resources requested always fits', '0', '0', { cpu: '10m', memory: '20' }, []],
    [
      'too many resources fails',
      '1m',
      '1',
      { cpu: '10m', memory: '20' },
      ['Insufficient cpu', 'Insufficient memory'],
    ],
    ['equal edge case', '5m', '1', { cpu: '5m', memory: '19' }, []],
    ['one resource memory fits', '2m', '1', { cpu: '9m', memory: '5' }, ['Insufficient cpu']],
    ['one resource cpu fits', '1m', '2', { cpu: '5m', memory: '19' }, ['Insufficient memory']],
    ['fits on an empty node', '10m', '20', null, []],
  ];
  for (const [name, cpu, memory, used, reasons] of cases) {
    it(name, () => {
      const pod = newPodInfo(makePod('p', { containers: [req(cpu, memory)] }));
      expect(fitsRequest(pod.requests, node(used)).map((r) => r.reason)).toEqual(reasons);
    });
  }

  it('reports "Too many pods" first, then the resources', () => {
    const n = makeNode('n', { cpu: '10m', memory: '20', pods: 1 });
    const snap = Snapshot.build(
      [n],
      [makePod('e', { nodeName: 'n', containers: [req('10m', '20')] })],
    );
    const pod = newPodInfo(makePod('p', { containers: [req('1m', '1')] }));
    expect(fitsRequest(pod.requests, snap.get('n')!).map((r) => r.reason)).toEqual([
      'Too many pods',
      'Insufficient cpu',
      'Insufficient memory',
    ]);
  });

  it('init containers count as their max, not their sum', () => {
    // containers 1m/1 + init containers max(3m/1, 2m/5): cpu max(1,3)=3m, memory max(1,5)=5
    const pod = newPodInfo(
      makePod('p', {
        containers: [req('1m', '1')],
        initContainers: [req('3m', '1'), req('2m', '5')],
      }),
    );
    expect([pod.requests.milliCPU, pod.requests.memory]).toEqual([3, 5]);
  });

  it('Filter returns Unschedulable with every reason', () => {
    const plugin = newNodeResourcesFit();
    const state = new Map();
    const pod = newPodInfo(makePod('p', { containers: [req('1m', '1')] }));
    plugin.preFilter(state, pod, { allNodes: [] });
    expect(plugin.filter(state, pod, node({ cpu: '10m', memory: '20' }))).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu', 'Insufficient memory'],
    });
  });
});

describe('LeastAllocated (least_allocated_test.go)', () => {
  it('nothing scheduled, nothing requested: 100 everywhere', () => {
    const snap = Snapshot.build([
      makeNode('node1', { cpu: '4000', memory: '10000' }),
      makeNode('node2', { cpu: '4000', memory: '10000' }),
    ]);
    expect(scores(strategy('LeastAllocated'), makePod('p'), snap)).toEqual([100, 100]);
  });
  it('nothing scheduled, resources requested, differently sized machines', () => {
    // node1: cpu (4000-3000)*100/4000 = 25, memory (10000-5000)*100/10000 = 50 -> (25+50)/2 = 37
    // node2: cpu (6000-3000)*100/6000 = 50, memory 50 -> 50
    const snap = Snapshot.build([
      makeNode('node1', { cpu: '4000', memory: '10000' }),
      makeNode('node2', { cpu: '6000', memory: '10000' }),
    ]);
    const pod = makePod('p', { containers: [req('1000', '2000'), req('2000', '3000')] });
    expect(scores(strategy('LeastAllocated'), pod, snap)).toEqual([37, 50]);
  });
  it('requested resources exceed node capacity score 0', () => {
    // cpu 6000 > 4000 -> 0; memory (10000-5000)*100/10000 = 50 -> (0+50)/2 = 25
    const snap = Snapshot.build(
      [makeNode('node1', { cpu: '4000', memory: '10000' })],
      [makePod('e', { nodeName: 'node1', containers: [req('3000', '0')] })],
    );
    const pod = makePod('p', { containers: [req('3000', '5000')] });
    expect(scores(strategy('LeastAllocated'), pod, snap)).toEqual([25]);
  });
  it('a pod without requests counts as 100m and 200Mi', () => {
    // cpu (1000-100)*100/1000 = 90; memory (1000Mi-200Mi)*100/1000Mi = 80 -> 85
    const snap = Snapshot.build([makeNode('n', { cpu: '1', memory: '1000Mi' })]);
    expect(
      scores(strategy('LeastAllocated'), makePod('p', { containers: [container()] }), snap),
    ).toEqual([85]);
  });
});

describe('MostAllocated (most_allocated_test.go)', () => {
  it('nothing scheduled, resources requested, differently sized machines', () => {
    // node1: cpu 3000*100/4000 = 75, memory 5000*100/10000 = 50 -> 62; node2: 50, 50 -> 50
    const snap = Snapshot.build([
      makeNode('node1', { cpu: '4000', memory: '10000' }),
      makeNode('node2', { cpu: '6000', memory: '10000' }),
    ]);
    const pod = makePod('p', { containers: [req('1000', '2000'), req('2000', '3000')] });
    expect(scores(strategy('MostAllocated'), pod, snap)).toEqual([62, 50]);
  });
  it('requested over capacity is capped at capacity', () => {
    // cpu min(5000,4000)*100/4000 = 100; memory 9000*100/10000 = 90 -> 95
    const snap = Snapshot.build([makeNode('node1', { cpu: '4000', memory: '10000' })]);
    const pod = makePod('p', { containers: [req('5000', '9000')] });
    expect(scores(strategy('MostAllocated'), pod, snap)).toEqual([95]);
  });
});

describe('RequestedToCapacityRatio (requested_to_capacity_ratio_test.go)', () => {
  const shape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const nodes = () => [
    makeNode('node1', { cpu: '4000', memory: '10000' }),
    makeNode('node2', { cpu: '6000', memory: '10000' }),
  ];
  it('nothing scheduled, nothing requested', () => {
    const snap = Snapshot.build(
      [
        makeNode('node1', { cpu: '4000', memory: '10000' }),
        makeNode('node2', { cpu: '4000', memory: '10000' }),
      ],
      [makePod('e1', { nodeName: 'node1' }), makePod('e2', { nodeName: 'node1' })],
    );
    expect(scores(strategy('RequestedToCapacityRatio', shape), makePod('p'), snap)).toEqual([
      100, 100,
    ]);
  });
  it('resources requested, differently sized machines', () => {
    // node1: cpu util 75 -> 100-75 = 25, memory util 50 -> 50; round((25+50)/2) = round(37.5) = 38
    // node2: cpu util 50 -> 50, memory 50 -> 50 -> 50
    const pod = makePod('p', { containers: [req('1000', '2000'), req('2000', '3000')] });
    expect(
      scores(strategy('RequestedToCapacityRatio', shape), pod, Snapshot.build(nodes())),
    ).toEqual([38, 50]);
  });
  it('no resources requested, pods scheduled with resources', () => {
    const snap = Snapshot.build(nodes(), [
      makePod('e1', { nodeName: 'node1', containers: [req('3000', '5000')] }),
      makePod('e2', { nodeName: 'node2', containers: [req('3000', '5000')] }),
    ]);
    expect(scores(strategy('RequestedToCapacityRatio', shape), makePod('p'), snap)).toEqual([
      38, 50,
    ]);
  });
  const brokenLinear: [{ utilization: number; score: number }[], [number, number][]][] = [
    [
      [
        { utilization: 10, score: 1 },
        { utilization: 90, score: 9 },
      ],
      [
        [-10, 1],
        [0, 1],
        [9, 1],
        [10, 1],
        [15, 1],
        [19, 1],
        [20, 2],
        [89, 8],
        [90, 9],
        [99, 9],
        [100, 9],
        [110, 9],
      ],
    ],
    [
      [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 10 },
        { utilization: 100, score: 0 },
      ],
      [
        [-10, 2],
        [0, 2],
        [20, 6],
        [30, 8],
        [40, 10],
        [70, 5],
        [100, 0],
        [110, 0],
      ],
    ],
    [
      [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 2 },
        { utilization: 100, score: 2 },
      ],
      [
        [-10, 2],
        [0, 2],
        [20, 2],
        [30, 2],
        [40, 2],
        [70, 2],
        [100, 2],
        [110, 2],
      ],
    ],
  ];
  brokenLinear.forEach(([points, assertions], i) => {
    it(`TestBrokenLinearFunction case_${i}`, () => {
      const f = brokenLinearFunction(points);
      for (const [p, want] of assertions) expect(f(p), `p=${p}`).toBe(want);
    });
  });
});

describe('NodeResourcesBalancedAllocation (balanced_allocation_test.go)', () => {
  it('nothing scheduled, resources requested, differently sized machines', () => {
    // node1: cpu 3000/4000 = 0.75, memory 5000/10000 = 0.5, std |0.75-0.5|/2 = 0.125 -> (1-0.125)*100 = 87
    // node2: 3000/6000 = 0.5, 0.5 -> std 0 -> 100
    const snap = Snapshot.build([
      makeNode('node1', { cpu: '4000', memory: '10000' }),
      makeNode('node2', { cpu: '6000', memory: '10000' }),
    ]);
    const pod = makePod('p', { containers: [req('1000', '2000'), req('2000', '3000')] });
    expect(scores(null, pod, snap)).toEqual([87, 100]);
  });
  it('resources requested, pods scheduled with resources', () => {
    // node1: cpu (3000+3000)/10000 = 0.6, memory (5000+5000)/20000 = 0.5 -> std 0.05 -> 95
    // node2: cpu 6000/10000 = 0.6, memory (5000+10000)/50000 = 0.3 -> std 0.15 -> 85
    const snap = Snapshot.build(
      [
        makeNode('node1', { cpu: '10000', memory: '20000' }),
        makeNode('node2', { cpu: '10000', memory: '50000' }),
      ],
      [
        makePod('e1', { nodeName: 'node1', containers: [req('3000', '5000')] }),
        makePod('e2', { nodeName: 'node2', containers: [req('3000', '10000')] }),
      ],
    );
    expect(scores(null, makePod('p', { containers: [req('3000', '5000')] }), snap)).toEqual([
      95, 85,
    ]);
  });
  it('skips best-effort pods at PreScore', () => {
    const plugin = newBalancedAllocation();
    const pod = newPodInfo(makePod('p', { containers: [container()] }));
    expect(plugin.preScore(new Map(), pod, [], { allNodes: [] }).code).toBe('Skip');
  });
});
