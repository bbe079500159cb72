// Hidden grading suite for the scheduler-scoring lab. Behaviour only: the exact scores upstream
// computes, the normalization, the weighted sum and the host selection, plus properties.
// Tables ported from pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go
// (TestLeastAllocatedScoringStrategy), balanced_allocation_test.go (TestNodeResourcesBalancedAllocation,
// recomputed with the current std-dev formula), helper/normalize_score_test.go
// (TestDefaultNormalizeScore) and schedule_one_test.go (TestSelectHost).
// Upstream capacities like "cpu": "4000" are cores: here 4000 cores = 4_000_000 millicores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Container, Node, Pod, ResourceList } from '../../runtime/api/index.ts';
import type { ContainerRequests, NodeInfo, NodeScore, PodInfo, Profile, ResourceSpec, SchedNodeInfo, ScorePlugin, Status } from '../../runtime/scheduler/index.ts';
import {
  defaultNormalizeScore as schedulerNormalizeScore,
  IN_TREE_REGISTRY,
  newPodInfo,
  scheduleOne,
  selectHost as schedulerSelectHost,
  Snapshot,
} from '../../runtime/scheduler/index.ts';
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

// ---------------------------------------------------------------- differential property tests

// Generated pods and clusters, compared with the simulated kube-scheduler's own code
// (runtime/scheduler): its NodeResourcesFit (LeastAllocated) and NodeResourcesBalancedAllocation
// plugins on NodeInfo built by its scheduler cache from v1 objects (quantities such as "333m",
// "1.5" or "1.5Gi" parsed by the runtime), its helper DefaultNormalizeScore, and its scheduling
// cycle's RunScorePlugins for the weighted sums. Inputs go past the examples: up to 30 nodes and 60
// pods already placed, 1 to 4 containers per pod with each request present, absent or an explicit 0,
// init containers and overhead on the placed pods, values that do not divide evenly, nodes without
// one of the resources, resource lists in either order with weights up to 100.

/** Fails a property with a message in the learner's terms (no stack trace: the counterexample is the story). */
function mismatch(message: string): never {
  const error = new Error(message);
  error.stack = `mismatch: ${message}`;
  throw error;
}

/**
 * Runs a differential property with a fixed seed; on failure, reports the seed, the path to replay
 * it (fc.assert(property, { seed, path })) and the smallest failing input fast-check found, described
 * by `describe`, with what kube-scheduler and the learner said.
 */
function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, seed: number, describeInput: (input: T) => string, compare: (input: T) => string | undefined): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) mismatch(problem);
    }),
    { seed, numRuns },
  );
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    let problem: string;
    try {
      problem = compare(input) ?? String(details.errorInstance);
    } catch (e) {
      problem = `your code threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    expect.fail(
      `${what}: differs from kube-scheduler (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
        `Smallest failing input:\n${describeInput(input)}\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

interface QuantityPools {
  cpu: fc.Arbitrary<string>;
  memory: fc.Arbitrary<string>;
  nodeCpu: fc.Arbitrary<string>;
  nodeMemory: fc.Arbitrary<string>;
}

/** Quantities that rarely divide evenly: odd millicores, fractional cores, raw bytes, decimal and binary suffixes. */
const unevenPools: QuantityPools = {
  cpu: fc.oneof(fc.integer({ min: 1, max: 4000 }).map((n) => `${n}m`), fc.integer({ min: 1, max: 16 }).map(String), fc.constantFrom('0.5', '1.5', '0.25', '0.1', '0.333', '2.75')),
  memory: fc.oneof(
    fc.integer({ min: 1, max: 8192 }).map((n) => `${n}Mi`),
    fc.integer({ min: 1, max: 4_000_000_000 }).map(String),
    fc.integer({ min: 1, max: 3000 }).map((n) => `${n}M`),
    fc.constantFrom('1Gi', '1.5Gi', '0.5Gi', '2G', '100Ki', '129974272'),
  ),
  nodeCpu: fc.oneof(fc.integer({ min: 1, max: 64 }).map(String), fc.integer({ min: 100, max: 16000 }).map((n) => `${n}m`), fc.constantFrom('1.5', '3.5', '0.5')),
  nodeMemory: fc.oneof(fc.integer({ min: 256, max: 262_144 }).map((n) => `${n}Mi`), fc.integer({ min: 1, max: 512 }).map((n) => `${n}Gi`), fc.constantFrom('1.5Gi', '3000M', '7999999999')),
};

/** Round numbers, as people write them: requests in tens of millicores and mebibytes on 1, 2 or 4 core nodes, so fractions land on exact percentages. */
const roundPools: QuantityPools = {
  cpu: fc.integer({ min: 1, max: 40 }).map((n) => `${n * 10}m`),
  memory: fc.integer({ min: 1, max: 40 }).map((n) => `${n * 10}Mi`),
  nodeCpu: fc.constantFrom('1', '2', '4'),
  nodeMemory: fc.constantFrom('1000Mi', '2000Mi', '4000Mi'),
};

/** One container's requests: each of cpu and memory absent, an explicit 0 or a quantity. */
function requestsArb(q: QuantityPools): fc.Arbitrary<ResourceList> {
  return fc
    .record({
      cpu: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('0') }, { weight: 5, arbitrary: q.cpu }),
      memory: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('0') }, { weight: 5, arbitrary: q.memory }),
    })
    .map(({ cpu, memory }) => ({ ...(cpu === undefined ? {} : { cpu }), ...(memory === undefined ? {} : { memory }) }));
}

interface PlacedPodSpec {
  node: number;
  containers: ResourceList[];
  initContainers: ResourceList[] | undefined;
  overhead: ResourceList | undefined;
}

interface ClusterSpec {
  nodes: { cpu: string | undefined; memory: string | undefined; lost: boolean }[];
  placed: PlacedPodSpec[];
  pod: ResourceList[];
  resources: ResourceSpec[] | undefined;
}

function nodeSpecArb(q: QuantityPools) {
  return fc.record({
    cpu: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('0') }, { weight: 8, arbitrary: q.nodeCpu }),
    memory: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('0') }, { weight: 8, arbitrary: q.nodeMemory }),
    lost: fc.constantFrom(false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true),
  });
}

const resourcesArb: fc.Arbitrary<ResourceSpec[] | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), fc.boolean()).map(([c, m, memoryFirst]): ResourceSpec[] => (memoryFirst ? [{ name: 'memory', weight: m }, { name: 'cpu', weight: c }] : [{ name: 'cpu', weight: c }, { name: 'memory', weight: m }])) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom<ResourceSpec['name']>('cpu', 'memory'), fc.integer({ min: 1, max: 100 })).map(([name, weight]): ResourceSpec[] => [{ name, weight }]) },
);

function clusterArbOf(q: QuantityPools): fc.Arbitrary<ClusterSpec> {
  const requests = requestsArb(q);
  const containers = fc.array(requests, { minLength: 1, maxLength: 4 });
  return fc.record({
    nodes: fc.array(nodeSpecArb(q), { minLength: 1, maxLength: 30, size: 'max' }),
    placed: fc.array(
      fc.record({
        node: fc.nat({ max: 29 }),
        containers,
        initContainers: fc.option(fc.array(requests, { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 3 }),
        overhead: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: requests }),
      }),
      { maxLength: 60, size: 'max' },
    ),
    pod: containers,
    resources: resourcesArb,
  });
}

const clusterArb: fc.Arbitrary<ClusterSpec> = fc.oneof({ weight: 2, arbitrary: clusterArbOf(unevenPools) }, { weight: 1, arbitrary: clusterArbOf(roundPools) });

const asContainers = (list: ResourceList[], prefix: string): Container[] => list.map((requests, k) => ({ name: `${prefix}${k}`, image: 'app', ...(Object.keys(requests).length > 0 ? { resources: { requests } } : {}) }));

interface BuiltCluster {
  infos: SchedNodeInfo[];
  lost: Set<string>;
  pod: Pod;
}

function buildCluster(spec: ClusterSpec): BuiltCluster {
  const nodes: Node[] = spec.nodes.map((n, i) => {
    const allocatable: ResourceList = { pods: '110', ...(n.cpu === undefined ? {} : { cpu: n.cpu }), ...(n.memory === undefined ? {} : { memory: n.memory }) };
    return { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${i}` }, spec: {}, status: { capacity: allocatable, allocatable } };
  });
  const placed: Pod[] = spec.placed.map((p, j) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `placed-${j}`, namespace: 'default', uid: `uid-placed-${j}` },
    spec: {
      nodeName: `node-${p.node % nodes.length}`,
      containers: asContainers(p.containers, 'c'),
      ...(p.initContainers ? { initContainers: asContainers(p.initContainers, 'init') } : {}),
      ...(p.overhead ? { overhead: p.overhead } : {}),
    },
  }));
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'incoming', namespace: 'default', uid: 'uid-incoming' }, spec: { containers: asContainers(spec.pod, 'c') } };
  const infos = Snapshot.build(nodes, placed).nodeInfoList;
  return { infos, lost: new Set(spec.nodes.flatMap((n, i) => (n.lost ? [`node-${i}`] : []))), pod };
}

/** What the learner's plugin receives: the lab's NodeInfo (a copy; node null when the snapshot lost it). */
function learnerNodeInfo(info: SchedNodeInfo, lost: boolean): NodeInfo {
  const copyPod = (p: PodInfo): PodInfo => ({ name: p.name, namespace: p.namespace, containers: p.containers.map((c) => ({ name: c.name, requests: { ...c.requests } })) });
  return {
    node: lost ? null : { name: info.node!.name },
    allocatable: { milliCPU: info.allocatable.milliCPU, memory: info.allocatable.memory },
    requested: { milliCPU: info.requested.milliCPU, memory: info.requested.memory },
    nonZeroRequested: { milliCPU: info.nonZeroRequested.milliCPU, memory: info.nonZeroRequested.memory },
    pods: info.pods.map(copyPod),
  };
}

function learnerPodInfo(pod: Pod): PodInfo {
  const info = newPodInfo(pod);
  return { name: info.name, namespace: info.namespace, containers: info.containers.map((c) => ({ name: c.name, requests: { ...c.requests } })) };
}

const showRequests = (r: Partial<{ milliCPU: number; memory: number }>) =>
  `{ ${r.milliCPU === undefined ? 'milliCPU absent' : `milliCPU ${r.milliCPU}`}, ${r.memory === undefined ? 'memory absent' : `memory ${r.memory}`} }`;
const showResources = (resources: ResourceSpec[] | undefined) =>
  resources === undefined ? '(default: cpu 1, memory 1)' : `[${resources.map((r) => `${r.name} ${r.weight}`).join(', ')}]`;

function describeScoreCase(spec: ClusterSpec): string {
  const b = buildCluster(spec);
  return [
    `resources ${showResources(spec.resources)}`,
    `pod: containers [${learnerPodInfo(b.pod).containers.map((c) => showRequests(c.requests)).join(', ')}]`,
    ...b.infos.map((info) => {
      const n = learnerNodeInfo(info, b.lost.has(info.node!.name));
      return `${info.node!.name}${n.node ? '' : ' (node: null, lost from the snapshot)'}: allocatable ${showRequests(n.allocatable)}, requested ${showRequests(n.requested)}, nonZeroRequested ${showRequests(n.nonZeroRequested)}, ${n.pods.length} pods`;
    }),
  ].join('\n');
}

/**
 * kube-scheduler's plugin as the framework runs it: PreScore first (a Skip means no score: 0 here,
 * as the lab asks), except on a node the snapshot lost, where the plugin's own score says "node not found".
 */
function schedulerScore(name: 'NodeResourcesFit' | 'NodeResourcesBalancedAllocation', resources: ResourceSpec[] | undefined, pod: Pod, info: SchedNodeInfo, lost: boolean): [number, Status] {
  const args = name === 'NodeResourcesFit' ? (resources ? { scoringStrategy: { type: 'LeastAllocated', resources } } : undefined) : resources ? { resources } : undefined;
  const plugin = IN_TREE_REGISTRY[name]!(args) as unknown as { preScore: (s: Map<string, unknown>, p: unknown, n: unknown) => Status; score: ScorePlugin['score'] };
  const state = new Map<string, unknown>();
  const podInfo = newPodInfo(pod);
  if (!lost && plugin.preScore(state, podInfo, [info]).code === 'Skip') return [0, { code: 'Success', reasons: [] }];
  const [value, status] = plugin.score(state, podInfo, lost ? { ...info, node: null } : info);
  return [value, { code: status.code, reasons: [...status.reasons] }];
}

function compareScores(name: 'NodeResourcesFit' | 'NodeResourcesBalancedAllocation', make: (resources?: ResourceSpec[]) => ScorePlugin, spec: ClusterSpec): string | undefined {
  const b = buildCluster(spec);
  const plugin = spec.resources === undefined ? make() : make(spec.resources.map((r) => ({ ...r })));
  for (const info of b.infos) {
    const lost = b.lost.has(info.node!.name);
    const [want, wantStatus] = schedulerScore(name, spec.resources, b.pod, info, lost);
    const [got, gotStatus] = structuredClone(plugin.score(new Map(), learnerPodInfo(b.pod), learnerNodeInfo(info, lost)));
    const show = (v: number, st: Status) => `${v} with ${st.code}${st.reasons.length > 0 ? ` (${st.reasons.join('; ')})` : ''}`;
    if (got !== want || gotStatus.code !== wantStatus.code || JSON.stringify(gotStatus.reasons) !== JSON.stringify(wantStatus.reasons)) {
      return `on ${info.node!.name}: kube-scheduler's ${name} scores ${show(want, wantStatus)}, you returned ${show(got, gotStatus)}`;
    }
  }
  return undefined;
}

const scoreListArb = fc.array(
  fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 100 }) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 7 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) }),
  { minLength: 0, maxLength: 30, size: 'max' },
);
/** Half the lists hold a 100 (a plugin's own maximum): then 29, 57 and 58 are where floating point slips. */
const normalizeCaseArb = fc.record({
  maxPriority: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 })),
  reverse: fc.boolean(),
  scores: fc.tuple(scoreListArb, fc.boolean(), fc.nat()).map(([list, withTop, at]) => (withTop ? [...list.slice(0, at % (list.length + 1)), 100, ...list.slice(at % (list.length + 1))] : list)),
});

interface SumCase {
  nodeCount: number;
  plugins: { weight: number; scores: number[]; order: number[] }[];
}

/** 2 to 30 nodes, 1 to 4 plugins with weights up to 100; each plugin's list in its own order; rarely one score out of range. */
const sumCaseArb: fc.Arbitrary<SumCase> = fc.integer({ min: 2, max: 30 }).chain((nodeCount) =>
  fc.record({
    nodeCount: fc.constant(nodeCount),
    plugins: fc.array(
      fc.record({
        weight: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 100 })),
        scores: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: nodeCount, maxLength: nodeCount }),
        order: fc.shuffledSubarray([...Array(nodeCount).keys()], { minLength: nodeCount, maxLength: nodeCount }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    bad: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ plugin: fc.nat(), node: fc.nat(), score: fc.constantFrom(-1, 101, -50, 150, 1000) }) }),
  }).map(({ plugins, bad }) => {
    const copy = plugins.map((p) => ({ ...p, scores: [...p.scores] }));
    if (bad) copy[bad.plugin % copy.length]!.scores[bad.node % nodeCount] = bad.score;
    return { nodeCount, plugins: copy };
  }),
);

const PLUGIN_NAMES = ['NodeResourcesFit', 'NodeResourcesBalancedAllocation', 'TaintToleration', 'ImageLocality'];

/** RunScorePlugins as the simulated scheduler's cycle runs it, with stand-in plugins returning the generated scores. */
function schedulerTotals(c: SumCase): [NodeScore[], Status] {
  const names = Array.from({ length: c.nodeCount }, (_, i) => `node-${i}`);
  const nodes: Node[] = names.map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {}, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } }));
  const score = c.plugins.map((p, k) => ({
    weight: p.weight,
    plugin: {
      name: PLUGIN_NAMES[k]!,
      score: (_s: unknown, _p: unknown, info: NodeInfo): [number, Status] => [p.scores[names.indexOf(info.node!.name)]!, { code: 'Success', reasons: [] }],
      scoreExtensions: () => null,
    } as ScorePlugin,
  }));
  const profile: Profile = { schedulerName: 'default-scheduler', queueSort: 'PrioritySort', preFilter: [], filter: [], postFilter: [], preScore: [], score, reserve: [], permit: [], bind: [] };
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'incoming', namespace: 'default', uid: 'uid-incoming' }, spec: { containers: [{ name: 'c', image: 'app' }] } };
  const outcome = scheduleOne({ profile, snapshot: Snapshot.build(nodes, []), pod, intn: () => 0, nextStartNodeIndex: 0 });
  if (outcome.kind === 'Error') return [[], { code: 'Error', reasons: [outcome.message] }];
  const totals = names.map((name) => ({ name, score: [...(outcome.record.finalScore.get(name)?.values() ?? [])].reduce((sum, v) => sum + Number(v), 0) }));
  return [totals, { code: 'Success', reasons: [] }];
}

function describeSumCase(c: SumCase): string {
  return [
    `nodeNames [${Array.from({ length: c.nodeCount }, (_, i) => `node-${i}`).join(', ')}]`,
    ...c.plugins.map((p, k) => `plugin ${PLUGIN_NAMES[k]} weight ${p.weight}: scores [${p.order.map((i) => `node-${i} ${p.scores[i]}`).join(', ')}]`),
  ].join('\n');
}

interface SelectCase {
  scores: number[];
  /** Fractions in [0, 1): the k-th call intn(n) answers floor(fraction * n). */
  draws: number[];
}

const selectCaseArb: fc.Arbitrary<SelectCase> = fc.record({
  scores: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 100, 200, 250, 300) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 700 }) }), { minLength: 1, maxLength: 30 }),
  draws: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 30, maxLength: 30 }),
});

/** A source of intn answers from the case's draws, recording each call. */
function scriptedIntn(draws: number[]): { intn: (n: number) => number; calls: string[] } {
  const calls: string[] = [];
  let k = 0;
  return {
    calls,
    intn: (n: number) => {
      const answer = Math.floor(draws[k++ % draws.length]! * n);
      calls.push(`intn(${n}) = ${answer}`);
      return answer;
    },
  };
}

/** The single pass the lab specifies (upstream's classic selectHost): reservoir sampling over the ties. */
function singlePassSelect(totals: NodeScore[], intn: (n: number) => number): string {
  let selected = totals[0]!.name;
  let max = totals[0]!.score;
  let ties = 1;
  for (const { name, score } of totals.slice(1)) {
    if (score > max) [selected, max, ties] = [name, score, 1];
    else if (score === max && intn(++ties) === 0) selected = name;
  }
  return selected;
}

describe('differential tests against kube-scheduler (runtime/scheduler)', () => {
  it('newLeastAllocated scores like NodeResourcesFit on 100 generated pods and clusters of up to 30 nodes and 60 placed pods (seed 20260501)', () => {
    differential('newLeastAllocated', clusterArb, 100, 20_260_501, describeScoreCase, (spec) => compareScores('NodeResourcesFit', newLeastAllocated, spec));
  });

  it('newBalancedAllocation scores like NodeResourcesBalancedAllocation on 100 generated pods and clusters of up to 30 nodes and 60 placed pods (seed 20260502)', () => {
    differential('newBalancedAllocation', clusterArb, 100, 20_260_502, describeScoreCase, (spec) => compareScores('NodeResourcesBalancedAllocation', newBalancedAllocation, spec));
  });

  it('defaultNormalizeScore agrees with the scheduler helper on 500 generated score lists (seed 20260503)', () => {
    differential(
      'defaultNormalizeScore',
      normalizeCaseArb,
      500,
      20_260_503,
      (c) => `defaultNormalizeScore(${c.maxPriority}, ${c.reverse}, [${c.scores.join(', ')}])`,
      ({ maxPriority, reverse, scores }) => {
        const list = scores.map((score, i) => ({ name: `node-${i}`, score }));
        const want = schedulerNormalizeScore(maxPriority, reverse, list).map((s) => s.score);
        const got = (structuredClone(defaultNormalizeScore(maxPriority, reverse, list.map((s) => ({ ...s })))) as NodeScore[]).map((s) => s.score);
        return JSON.stringify(got) === JSON.stringify(want) ? undefined : `kube-scheduler returns [${want.join(', ')}], you returned [${got.join(', ')}]`;
      },
    );
  });

  it('sumWeightedScores adds up like the scheduling cycle on 300 generated plugin score lists (seed 20260504)', () => {
    differential('sumWeightedScores', sumCaseArb, 300, 20_260_504, describeSumCase, (c) => {
      const [wantTotals, wantStatus] = schedulerTotals(c);
      const nodeNames = Array.from({ length: c.nodeCount }, (_, i) => `node-${i}`);
      const plugins = c.plugins.map((p, k) => ({ plugin: PLUGIN_NAMES[k]!, weight: p.weight, scores: p.order.map((i) => ({ name: `node-${i}`, score: p.scores[i]! })) }));
      const [gotTotals, gotStatus] = structuredClone(sumWeightedScores(nodeNames, plugins));
      if (gotStatus.code !== wantStatus.code || JSON.stringify(gotStatus.reasons) !== JSON.stringify(wantStatus.reasons)) {
        return `kube-scheduler's status is ${JSON.stringify(wantStatus)}, yours ${JSON.stringify(gotStatus)}`;
      }
      if (wantStatus.code !== 'Success') return undefined;
      const show = (t: NodeScore[]) => `[${t.map((s) => `${s.name} ${s.score}`).join(', ')}]`;
      return JSON.stringify(gotTotals) === JSON.stringify(wantTotals) ? undefined : `kube-scheduler's totals are ${show(wantTotals)}, yours ${show(gotTotals)}`;
    });
  });

  it('selectHost picks among the best nodes exactly as the single pass on 500 generated totals lists with ties (seed 20260505)', () => {
    differential(
      'selectHost',
      selectCaseArb,
      500,
      20_260_505,
      (c) => `totals [${c.scores.map((s, i) => `node-${i} ${s}`).join(', ')}], intn answering floor(x * n) for x in [${c.draws.slice(0, 8).map((d) => d.toFixed(3)).join(', ')}, ...]`,
      ({ scores, draws }) => {
        const totals = scores.map((score, i) => ({ name: `node-${i}`, score }));
        const best = schedulerSelectHost(totals, 3, () => 0)!.top[0]!.score;
        const oracle = scriptedIntn(draws);
        const want = singlePassSelect(totals, oracle.intn);
        const mine = scriptedIntn(draws);
        const [got, status] = structuredClone(selectHost(totals.map((t) => ({ ...t })), mine.intn));
        if (status.code !== 'Success') return `you returned the status ${JSON.stringify(status)} for a non-empty list`;
        const gotScore = totals.find((t) => t.name === got)?.score;
        if (gotScore !== best) return `kube-scheduler picks a node scoring ${best}, you picked ${JSON.stringify(got)}${gotScore === undefined ? '' : ` (score ${gotScore})`}`;
        if (got !== want || mine.calls.join() !== oracle.calls.join()) {
          return `with these answers the single pass draws [${oracle.calls.join(', ')}] and picks ${want}; you drew [${mine.calls.join(', ')}] and picked ${got}`;
        }
        return undefined;
      },
    );
  });
});
