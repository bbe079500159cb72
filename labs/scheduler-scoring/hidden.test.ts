// Hidden grading suite for the scheduler-scoring lab. Behaviour only: the exact scores upstream
// computes, the normalization, the weighted sum and the host selection, plus properties.
// Tables ported from pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go
// (TestLeastAllocatedScoringStrategy), balanced_allocation_test.go (TestNodeResourcesBalancedAllocation,
// recomputed with the current std-dev formula), helper/normalize_score_test.go
// (TestDefaultNormalizeScore) and schedule_one_test.go (TestSelectHost).
// Upstream capacities like "cpu": "4000" are cores: here 4000 cores = 4_000_000 millicores.
import { describe, expect, it } from 'vitest';
import type { ContainerRequests, NodeInfo, NodeScore, PodInfo, ResourceSpec, ScorePlugin, Status } from '../../runtime/scheduler/index.ts';
import {
  defaultNormalizeScore,
  newBalancedAllocation,
  newLeastAllocated,
  selectHost,
  sumWeightedScores,
} from '@lab/submission';

const MI = 1024 * 1024;
const cores = (n: number) => n * 1000;

/** A container with requests in upstream test units (cpu in cores, memory in bytes). */
function req(cpu?: number, memory?: number): ContainerRequests {
  return {
    name: 'c',
    requests: { ...(cpu === undefined ? {} : { milliCPU: cores(cpu) }), ...(memory === undefined ? {} : { memory }) },
  };
}

function pod(...containers: ContainerRequests[]): PodInfo {
  return { name: 'p', namespace: 'default', containers };
}

/** Builds NodeInfo the way the scheduler cache does (framework.NodeInfo.AddPod). */
function node(name: string | null, cpuCores: number, memory: number, pods: PodInfo[] = []): NodeInfo {
  const requested = { milliCPU: 0, memory: 0 };
  const nonZeroRequested = { milliCPU: 0, memory: 0 };
  for (const p of pods) {
    for (const c of p.containers) {
      requested.milliCPU += c.requests.milliCPU ?? 0;
      requested.memory += c.requests.memory ?? 0;
      nonZeroRequested.milliCPU += c.requests.milliCPU ?? 100;
      nonZeroRequested.memory += c.requests.memory ?? 200 * MI;
    }
  }
  return { node: name === null ? null : { name }, allocatable: { milliCPU: cores(cpuCores), memory }, requested, nonZeroRequested, pods };
}

function score(plugin: ScorePlugin, p: PodInfo, n: NodeInfo): [number, Status] {
  const [value, status] = structuredClone(plugin.score(new Map(), p, n));
  return [value, status];
}

function scores(plugin: ScorePlugin, p: PodInfo, nodes: NodeInfo[]): number[] {
  return nodes.map((n) => {
    const [value, status] = score(plugin, p, n);
    expect(status.code, `status for node ${n.node?.name}`).toBe('Success');
    return value;
  });
}

const noResources = pod();
const cpuAndMemory = pod(req(1000, 2000), req(2000, 3000));
const cpuOnly = pod(req(1000, 0), req(2000, 0));
const cpuOnlyExisting = pod(req(3000, 0));
const cpuAndMemoryExisting = pod(req(3000, 5000));

describe('NodeResourcesFit LeastAllocated', () => {
  const least = () => newLeastAllocated();
  const table: [string, PodInfo, NodeInfo[], number[], ResourceSpec[]?][] = [
    // cpu (4000-0)*100/4000 = 100, memory 100: (100+100)/2 = 100 on both nodes
    ['nothing scheduled, nothing requested', noResources, [node('n1', 4000, 10000), node('n2', 4000, 10000)], [100, 100]],
    // n1: cpu (4000-3000)*100/4000 = 25, mem (10000-5000)*100/10000 = 50 -> 75/2 = 37
    // n2: cpu (6000-3000)*100/6000 = 50, mem 50 -> 50
    ['nothing scheduled, resources requested, differently sized nodes', cpuAndMemory, [node('n1', 4000, 10000), node('n2', 6000, 10000)], [37, 50]],
    // existing pods without containers request nothing: 100 and 100
    ['no resources requested, pods scheduled', noResources, [node('n1', 4000, 10000, [pod(), pod()]), node('n2', 4000, 10000, [pod(), pod()])], [100, 100]],
    // n1: cpu (10000-6000)*100/10000 = 40, mem 100 -> 70; n2: cpu 40, mem (20000-5000)*100/20000 = 75 -> 57
    [
      'no resources requested, pods scheduled with resources',
      noResources,
      [node('n1', 10000, 20000, [cpuOnlyExisting, cpuOnlyExisting]), node('n2', 10000, 20000, [cpuOnlyExisting, cpuAndMemoryExisting])],
      [70, 57],
    ],
    // n1: cpu 40, mem (20000-5000)*100/20000 = 75 -> 57; n2: cpu 40, mem (20000-10000)*100/20000 = 50 -> 45
    [
      'resources requested, pods scheduled with resources',
      cpuAndMemory,
      [node('n1', 10000, 20000, [cpuOnlyExisting]), node('n2', 10000, 20000, [cpuAndMemoryExisting])],
      [57, 45],
    ],
    // n2: cpu 40, mem (50000-10000)*100/50000 = 80 -> 60
    [
      'resources requested, pods scheduled with resources, differently sized nodes',
      cpuAndMemory,
      [node('n1', 10000, 20000, [cpuOnlyExisting]), node('n2', 10000, 50000, [cpuAndMemoryExisting])],
      [57, 60],
    ],
    // cpu 6000 > 4000 -> 0; n1 mem 100 -> 50; n2 mem (10000-5000)*100/10000 = 50 -> 25
    [
      'requested resources exceed node capacity',
      pod(req(3000, 0)),
      [node('n1', 4000, 10000, [cpuOnlyExisting]), node('n2', 4000, 10000, [cpuAndMemoryExisting])],
      [50, 25],
    ],
    // allocatable 0 for every resource: nothing to score, 0
    ['zero node resources, pods scheduled with resources', noResources, [node('n1', 0, 0, [cpuOnlyExisting]), node('n2', 0, 0, [cpuAndMemoryExisting])], [0, 0]],
    // n1: (25*1 + 50*2)/3 = 41; n2: (50*1 + 50*2)/3 = 50
    [
      'resources requested with different weight on CPU and memory, differently sized nodes',
      cpuAndMemory,
      [node('n1', 4000, 10000), node('n2', 6000, 10000)],
      [41, 50],
      [
        { name: 'memory', weight: 2 },
        { name: 'cpu', weight: 1 },
      ],
    ],
  ];

  it.each(table)('%s', (_name, p, nodes, expected, resources) => {
    expect(scores(resources ? newLeastAllocated(resources) : least(), p, nodes)).toEqual(expected);
  });

  // Not in the upstream table, from pkg/scheduler/util/pod_resources.go: a container with no
  // CPU request counts as 100m and one with no memory request as 200Mi when scoring.
  it('counts a missing request as 100m CPU and 200Mi memory', () => {
    // cpu (1000m-100m)*100/1000m = 90, mem (1000Mi-200Mi)*100/1000Mi = 80 -> 85
    const n = { ...node('n1', 1, 1000 * MI) };
    expect(scores(least(), pod({ name: 'c', requests: {} }), [n])).toEqual([85]);
  });

  it('keeps an explicit zero request at zero', () => {
    // cpu explicit 0 -> 100, memory missing -> 200Mi -> 80: (100+80)/2 = 90
    expect(scores(least(), pod({ name: 'c', requests: { milliCPU: 0 } }), [node('n1', 1, 1000 * MI)])).toEqual([90]);
  });

  it('sums the non-zero requests of every container', () => {
    // two containers without requests: 200m and 400Mi -> cpu 80, mem 60 -> 70
    expect(scores(least(), pod({ name: 'a', requests: {} }, { name: 'b', requests: {} }), [node('n1', 1, 1000 * MI)])).toEqual([70]);
  });

  it("scores against the node's non-zero requested resources", () => {
    // the existing pod sets no requests: requested 0, nonZeroRequested 100m/200Mi; the new pod asks 0/0
    const n = node('n1', 1, 1000 * MI, [pod({ name: 'old', requests: {} })]);
    expect(scores(least(), pod({ name: 'c', requests: { milliCPU: 0, memory: 0 } }), [n])).toEqual([85]);
  });

  it('reports "node not found" as an Error status when the snapshot lost the node', () => {
    const [, status] = score(least(), cpuAndMemory, node(null, 4000, 10000));
    expect(status).toEqual({ code: 'Error', reasons: ['node not found'] });
  });

  it('is named NodeResourcesFit and has no NormalizeScore step', () => {
    const plugin = least();
    expect(plugin.name).toBe('NodeResourcesFit');
    expect(plugin.scoreExtensions()).toBeNull();
  });
});

describe('NodeResourcesBalancedAllocation', () => {
  const balanced = () => newBalancedAllocation();
  const table: [string, PodInfo, NodeInfo[], number[]][] = [
    // n1: fractions cpu 3000/4000 = 0.75, mem 5000/10000 = 0.5, std |0.75-0.5|/2 = 0.125 -> (1-0.125)*100 = 87
    // n2: 0.5 and 0.5, std 0 -> 100
    ['nothing scheduled, resources requested, differently sized nodes', cpuAndMemory, [node('n1', 4000, 10000), node('n2', 6000, 10000)], [87, 100]],
    // n1: cpu 6000/10000 = 0.6, mem 5000/20000 = 0.25, std 0.175 -> 82
    // n2: cpu 0.6, mem 10000/20000 = 0.5, std 0.05 -> 95
    [
      'resources requested, pods scheduled with resources',
      cpuAndMemory,
      [node('n1', 10000, 20000, [cpuOnlyExisting]), node('n2', 10000, 20000, [cpuAndMemoryExisting])],
      [82, 95],
    ],
    // n2: cpu 0.6, mem 10000/50000 = 0.2, std 0.2 -> 80
    [
      'resources requested, pods scheduled with resources, differently sized nodes',
      cpuAndMemory,
      [node('n1', 10000, 20000, [cpuOnlyExisting]), node('n2', 10000, 50000, [cpuAndMemoryExisting])],
      [82, 80],
    ],
    // cpu 6000/4000 capped at 1; n1 mem 0 -> std 0.5 -> 50; n2 mem 5000/10000 = 0.5 -> std 0.25 -> 75
    [
      'requested resources exceed node capacity',
      cpuOnly,
      [node('n1', 4000, 10000, [cpuOnlyExisting]), node('n2', 4000, 10000, [cpuAndMemoryExisting])],
      [50, 75],
    ],
  ];

  it.each(table)('%s', (_name, p, nodes, expected) => {
    expect(scores(balanced(), p, nodes)).toEqual(expected);
  });

  it('gives a best-effort pod (no requests at all) a score of 0', () => {
    expect(scores(balanced(), noResources, [node('n1', 4000, 10000), node('n2', 4000, 10000, [cpuOnlyExisting])])).toEqual([0, 0]);
  });

  it('uses the requests as written, without the non-zero defaults', () => {
    // existing pod without requests adds nothing; the pod asks 500m CPU and no memory:
    // fractions 0.5 and 0 -> std 0.25 -> 75
    const n = node('n1', 1, 1000 * MI, [pod({ name: 'old', requests: {} })]);
    expect(scores(balanced(), pod({ name: 'c', requests: { milliCPU: 500 } }), [n])).toEqual([75]);
  });

  it('skips a resource the node has none of', () => {
    // memory allocatable 0: only cpu 0.3 counts, one fraction -> std 0 -> 100
    expect(scores(balanced(), pod({ name: 'c', requests: { milliCPU: 300, memory: 10 } }), [node('n1', 1, 0)])).toEqual([100]);
  });

  it('reports "node not found" as an Error status', () => {
    expect(score(balanced(), cpuAndMemory, node(null, 4000, 10000))[1]).toEqual({ code: 'Error', reasons: ['node not found'] });
  });

  it('is named NodeResourcesBalancedAllocation and has no NormalizeScore step', () => {
    expect(balanced().name).toBe('NodeResourcesBalancedAllocation');
    expect(balanced().scoreExtensions()).toBeNull();
  });
});

describe('defaultNormalizeScore', () => {
  const list = (values: number[]): NodeScore[] => values.map((score, i) => ({ name: `n${i}`, score }));
  const table: [string, boolean, number[], number[]][] = [
    ['scales so the best node gets 100', false, [1, 2, 3, 4, 5], [20, 40, 60, 80, 100]],
    ['reverses: the best raw score gets 0', true, [1, 2, 3, 4, 5], [80, 60, 40, 20, 0]],
    ['leaves all-zero scores at 0', false, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]],
    ['reversed all-zero scores all get 100', true, [0, 0, 0, 0, 0], [100, 100, 100, 100, 100]],
    ['scales one large score down', false, [1000, 0, 0, 0, 0], [100, 0, 0, 0, 0]],
    ['reversed one large score', true, [1000, 0, 0, 0, 0], [0, 100, 100, 100, 100]],
    // 100*3/11 = 27.3 -> 27, 100*7/11 = 63.6 -> 63 (integer division)
    ['uses integer division', false, [3, 7, 11], [27, 63, 100]],
    ['reverses after the integer division', true, [3, 7, 11], [73, 37, 0]],
  ];

  it.each(table)('%s', (_name, reverse, input, expected) => {
    const scoresIn = list(input);
    const before = structuredClone(scoresIn);
    const out = structuredClone(defaultNormalizeScore(100, reverse, scoresIn));
    expect(out).toEqual(list(expected));
    expect(scoresIn, 'the input list is left unchanged').toEqual(before);
  });

  it('scales to the maxPriority it is given', () => {
    expect(structuredClone(defaultNormalizeScore(10, false, list([5, 10, 2])))).toEqual(list([5, 10, 2]));
    expect(structuredClone(defaultNormalizeScore(10, false, list([3, 6])))).toEqual(list([5, 10]));
  });
});

describe('sumWeightedScores', () => {
  it('adds each plugin score times its weight, in the order of the node list', () => {
    const [totals, status] = structuredClone(
      sumWeightedScores(['a', 'b'], [
        { plugin: 'NodeResourcesFit', weight: 1, scores: [{ name: 'b', score: 100 }, { name: 'a', score: 50 }] },
        { plugin: 'NodeResourcesBalancedAllocation', weight: 2, scores: [{ name: 'a', score: 100 }, { name: 'b', score: 20 }] },
      ]),
    );
    expect(status.code).toBe('Success');
    expect(totals).toEqual([
      { name: 'a', score: 250 },
      { name: 'b', score: 140 },
    ]);
  });

  it('gives every node 0 when there are no plugins', () => {
    expect(structuredClone(sumWeightedScores(['a', 'b'], []))[0]).toEqual([
      { name: 'a', score: 0 },
      { name: 'b', score: 0 },
    ]);
  });

  it.each([101, -1])('rejects a normalized score of %i as out of range', (bad) => {
    const [, status] = structuredClone(sumWeightedScores(['a'], [{ plugin: 'Broken', weight: 1, scores: [{ name: 'a', score: bad }] }]));
    expect(status).toEqual({
      code: 'Error',
      reasons: [`plugin "Broken" returns an invalid score ${bad}, it should in the range of [0, 100] after normalizing`],
    });
  });
});

describe('selectHost', () => {
  function scripted(answers: number[]) {
    const calls: number[] = [];
    const intn = (n: number) => {
      calls.push(n);
      const a = answers.shift();
      if (a === undefined) throw new Error(`intn(${n}) called more often than expected`);
      return a;
    };
    return { intn, calls };
  }
  const totals = (entries: [string, number][]): NodeScore[] => entries.map(([name, score]) => ({ name, score }));

  it('returns an Error status for an empty list', () => {
    expect(structuredClone(selectHost([], scripted([]).intn))).toEqual(['', { code: 'Error', reasons: ['empty priorityList'] }]);
  });

  it('picks the single highest total without drawing a random number', () => {
    const r = scripted([]);
    expect(structuredClone(selectHost(totals([['a', 10], ['b', 30], ['c', 20]]), r.intn))).toEqual(['b', { code: 'Success', reasons: [] }]);
    expect(r.calls).toEqual([]);
  });

  it.each([
    [[0, 1], 'b'],
    [[1, 0], 'c'],
    [[1, 1], 'a'],
    [[0, 0], 'c'],
  ])('breaks a three-way tie by reservoir sampling (intn answers %j pick %s)', (answers, want) => {
    const r = scripted([...answers]);
    expect(selectHost(totals([['a', 50], ['b', 50], ['c', 50]]), r.intn)[0]).toBe(want);
    expect(r.calls, 'intn(2) for the second tied node, intn(3) for the third').toEqual([2, 3]);
  });

  it('restarts the count of ties when a higher score appears', () => {
    const r = scripted([0, 1]);
    expect(selectHost(totals([['a', 50], ['b', 50], ['c', 60], ['d', 60]]), r.intn)[0]).toBe('c');
    expect(r.calls).toEqual([2, 2]);
  });

  it('spreads ties evenly with a fair random source (seeded)', () => {
    const random = mulberry32(42);
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const [host] = selectHost(totals([['a', 7], ['b', 7], ['low', 1], ['c', 7]]), (n) => Math.floor(random() * n));
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    expect(counts.get('low') ?? 0).toBe(0);
    for (const host of ['a', 'b', 'c']) expect(counts.get(host) ?? 0, `${host} chosen (seed 42)`).toBeGreaterThan(850);
  });
});

// ---------------------------------------------------------------- properties (seeded)

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCase(random: () => number) {
  const int = (max: number) => Math.floor(random() * max);
  const maybe = (max: number) => (random() < 0.2 ? undefined : int(max));
  const containers = Array.from({ length: int(3) }, (_, i) => ({
    name: `c${i}`,
    requests: { ...(maybe(4000) === undefined ? {} : { milliCPU: int(4000) }), ...(random() < 0.2 ? {} : { memory: int(8 * 1024) * MI }) },
  }));
  const existing = Array.from({ length: int(4) }, () => pod(req(int(4), int(4096) * MI)));
  const n = node('n', 1 + int(16), (1 + int(64 * 1024)) * MI, existing);
  return { p: pod(...containers), n };
}

describe('properties', () => {
  const SEEDS = [1, 2, 3, 4, 5];

  it.each(SEEDS)('every score is an integer in [0, 100] (seed %i)', (seed) => {
    const random = mulberry32(seed);
    for (let i = 0; i < 300; i++) {
      const { p, n } = randomCase(random);
      for (const plugin of [newLeastAllocated(), newBalancedAllocation()]) {
        const [value] = score(plugin, p, n);
        expect(Number.isInteger(value) && value >= 0 && value <= 100, `${plugin.name} gave ${value} (seed ${seed}, case ${i})`).toBe(true);
      }
    }
  });

  it.each(SEEDS)('LeastAllocated never drops when the node gets more free capacity (seed %i)', (seed) => {
    const random = mulberry32(seed);
    for (let i = 0; i < 300; i++) {
      const { p, n } = randomCase(random);
      const bigger: NodeInfo = { ...n, allocatable: { milliCPU: n.allocatable.milliCPU + Math.floor(random() * 8000), memory: n.allocatable.memory + Math.floor(random() * 8192) * MI } };
      const fuller: NodeInfo = { ...n, nonZeroRequested: { milliCPU: n.nonZeroRequested.milliCPU + Math.floor(random() * 2000), memory: n.nonZeroRequested.memory + Math.floor(random() * 2048) * MI } };
      const [base] = score(newLeastAllocated(), p, n);
      expect(score(newLeastAllocated(), p, bigger)[0], `more allocatable (seed ${seed}, case ${i})`).toBeGreaterThanOrEqual(base);
      expect(score(newLeastAllocated(), p, fuller)[0], `more requested (seed ${seed}, case ${i})`).toBeLessThanOrEqual(base);
    }
  });

  it.each(SEEDS)('normalized scores stay in [0, maxPriority] and the best node gets maxPriority (seed %i)', (seed) => {
    const random = mulberry32(seed);
    for (let i = 0; i < 200; i++) {
      const raw = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, k) => ({ name: `n${k}`, score: Math.floor(random() * 1000) }));
      const out = structuredClone(defaultNormalizeScore(100, false, raw));
      expect(out.every((s) => s.score >= 0 && s.score <= 100), `seed ${seed}, case ${i}`).toBe(true);
      if (raw.some((s) => s.score > 0)) expect(Math.max(...out.map((s) => s.score))).toBe(100);
    }
  });
});
