// DryRunPreemption and GetOffsetAndNumCandidates, adapted from upstream's
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go (TestDryRunPreemption,
// TestGetOffsetAndNumCandidates). Upstream offsets come from rand.NewSource(4) (4, then 1, then 3 for
// five nodes); they are passed directly here. Victims are compared in the order we return them (most
// important first; ties keep the order they were evicted in); upstream sorts them by name first.
import { describe, expect, it } from 'vitest';
import type { Pod, PodDisruptionBudget } from '../../../api/index.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { Snapshot } from '../../framework/snapshot.ts';
import { makeNode, makePDB, makePod } from '../../testing-builders.ts';
import {
  DEFAULT_PREEMPTION_ARGS,
  calculateNumCandidates,
  dryRunPreemption,
  getOffsetAndNumCandidates,
  type DefaultPreemptionArgs,
} from './candidates.ts';
import { HIGH, LARGE, LOW, MEDIUM, MID, SMALL, VERY_HIGH, VERY_LARGE, epoch, pod, profileFilter, snapshotOf } from './preemption.test-helper.ts';

interface Row {
  name: string;
  nodes: string[];
  preemptor: Pod;
  pods: Pod[];
  pdbs?: PodDisruptionBudget[];
  args?: DefaultPreemptionArgs;
  offset?: number;
  /** node -> [victims..., numPDBViolations], in candidate order. */
  want: [string, string[], number][];
  filterCalls: number;
}

const foo = { app: 'foo' };
const fooPDB = (allowed: number, disrupted?: string): PodDisruptionBudget =>
  makePDB('pdb', { matchLabels: foo, disruptionsAllowed: allowed, ...(disrupted ? { disruptedPods: { [disrupted]: epoch(0) } } : {}) });
const five = ['node1', 'node2', 'node3', 'node4', 'node5'];
const fiveMid = five.map((n, i) => pod(`p${i + 1}`, { node: n, priority: MID, res: LARGE }));

const rows: Row[] = [
  {
    name: 'a pod that fits on both nodes when lower priority pods are preempted',
    nodes: ['node1', 'node2'],
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: [pod('p1', { node: 'node1', priority: MID, res: LARGE }), pod('p2', { node: 'node2', priority: MID, res: LARGE })],
    want: [['node1', ['p1'], 0], ['node2', ['p2'], 0]],
    filterCalls: 4,
  },
  {
    name: 'a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen',
    nodes: ['node1', 'node2'],
    preemptor: pod('p', { priority: LOW, res: LARGE }),
    pods: [pod('p1', { node: 'node1', priority: MID, res: LARGE }), pod('p2', { node: 'node2', priority: MID, res: LARGE })],
    want: [],
    filterCalls: 0,
  },
  {
    name: 'medium priority pod is preempted, but lower priority one stays as it is small',
    nodes: ['node1', 'node2'],
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: LOW, res: SMALL }),
      pod('p1.2', { node: 'node1', priority: MID, res: LARGE }),
      pod('p2', { node: 'node2', priority: MID, res: LARGE }),
    ],
    want: [['node1', ['p1.2'], 0], ['node2', ['p2'], 0]],
    filterCalls: 5,
  },
  {
    name: 'mixed priority pods are preempted',
    nodes: ['node1', 'node2'],
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: MID, res: SMALL }),
      pod('p1.2', { node: 'node1', priority: LOW, res: SMALL }),
      pod('p1.3', { node: 'node1', priority: MID, res: MEDIUM }),
      pod('p1.4', { node: 'node1', priority: HIGH, res: SMALL }),
      pod('p2', { node: 'node2', priority: HIGH, res: LARGE }),
    ],
    want: [['node1', ['p1.3', 'p1.2'], 0]],
    filterCalls: 4,
  },
  {
    name: 'mixed priority pods are preempted, pick later StartTime one when priorities are equal',
    nodes: ['node1', 'node2'],
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: LOW, res: SMALL, startTime: epoch(5) }),
      pod('p1.2', { node: 'node1', priority: LOW, res: SMALL, startTime: epoch(4) }),
      pod('p1.3', { node: 'node1', priority: MID, res: MEDIUM, startTime: epoch(3) }),
      pod('p1.4', { node: 'node1', priority: HIGH, res: SMALL, startTime: epoch(2) }),
      pod('p2', { node: 'node2', priority: HIGH, res: LARGE, startTime: epoch(1) }),
    ],
    want: [['node1', ['p1.3', 'p1.1'], 0]],
    filterCalls: 4,
  },
  {
    name: 'preemption with violation of same pdb',
    nodes: ['node1'],
    preemptor: pod('p', { priority: HIGH, res: VERY_LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
      pod('p1.2', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
    ],
    pdbs: [fooPDB(1)],
    // p1.2 drives the budget below zero: tried and evicted first; equal importance keeps that order
    want: [['node1', ['p1.2', 'p1.1'], 1]],
    filterCalls: 3,
  },
  {
    name: "violation of the pdb with pod whose eviction was processed, the victim doesn't belong to DisruptedPods",
    nodes: ['node1'],
    preemptor: pod('p', { priority: HIGH, res: VERY_LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
      pod('p1.2', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
    ],
    pdbs: [fooPDB(1, 'p2')],
    want: [['node1', ['p1.2', 'p1.1'], 1]],
    filterCalls: 3,
  },
  {
    name: 'violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods',
    nodes: ['node1'],
    preemptor: pod('p', { priority: HIGH, res: VERY_LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
      pod('p1.2', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
    ],
    pdbs: [fooPDB(1, 'p1.2')],
    want: [['node1', ['p1.1', 'p1.2'], 0]],
    filterCalls: 3,
  },
  {
    name: "the victim which belongs to DisruptedPods is treated as 'nonViolating'",
    nodes: ['node1'],
    preemptor: pod('p', { priority: HIGH, res: VERY_LARGE }),
    pods: [
      pod('p1.1', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
      pod('p1.2', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
      pod('p1.3', { node: 'node1', priority: MID, res: MEDIUM, labels: foo }),
    ],
    pdbs: [fooPDB(1, 'p1.3')],
    // p1.2 violates, so it is tried (and evicted) first; equal importance keeps that order
    want: [['node1', ['p1.2', 'p1.1', 'p1.3'], 1]],
    filterCalls: 4,
  },
  {
    name: 'all nodes are possible candidates, but DefaultPreemptionArgs limits to 2',
    nodes: five,
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: fiveMid,
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
    offset: 4,
    // offset 4: node5 (yes), node1 (yes)
    want: [['node5', ['p5'], 0], ['node1', ['p1'], 0]],
    filterCalls: 4,
  },
  {
    name: 'some nodes are not possible candidates, DefaultPreemptionArgs limits to 2',
    nodes: five,
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: fiveMid.map((p, i) => (i === 1 || i === 4 ? { ...p, spec: { ...p.spec, priority: VERY_HIGH } } : p)),
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
    offset: 4,
    // node5 (no), node1 (yes), node2 (no), node3 (yes)
    want: [['node1', ['p1'], 0], ['node3', ['p3'], 0]],
    filterCalls: 4,
  },
  {
    name: 'preemption looks past numCandidates until a non-PDB violating node is found',
    nodes: five,
    preemptor: pod('p', { priority: HIGH, res: LARGE }),
    pods: fiveMid.map((p, i) => ([0, 1, 4].includes(i) ? { ...p, metadata: { ...p.metadata, labels: foo } } : p)),
    pdbs: [fooPDB(0)],
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
    offset: 4,
    // node5 (pdb), node1 (pdb), node2 (pdb: the violating list is full), node3 (yes): stop
    want: [['node3', ['p3'], 0], ['node5', ['p5'], 1], ['node1', ['p1'], 1]],
    filterCalls: 8,
  },
];

describe('DryRunPreemption (upstream TestDryRunPreemption)', () => {
  it.each(rows)('$name', (row) => {
    const snap = snapshotOf(row.nodes, row.pods);
    const preemptor = newPodInfo(row.preemptor);
    const { state, filter, calls } = profileFilter(preemptor, snap.nodeInfoList);
    const args = row.args ?? DEFAULT_PREEMPTION_ARGS;
    const run = dryRunPreemption({
      state, pod: preemptor, potentialNodes: snap.nodeInfoList, pdbs: row.pdbs ?? [],
      offset: row.offset ?? 0, numCandidates: calculateNumCandidates(row.nodes.length, args), filter, nowMs: 0,
    });
    const got = run.candidates.map((c) => [c.name, c.victims.pods.map((p) => p.name), c.victims.numPDBViolations]);
    expect(got).toEqual(row.want);
    expect(calls()).toBe(row.filterCalls);
    expect(run.errors).toEqual([]);
  });

  it('preemption to resolve pod topology spread filter failure (PodTopologySpread is told of each victim)', () => {
    // zone1 holds 3 matching pods, zone2 2, so p (maxSkew 1 per zone and per host) fits nowhere
    const zone = (name: string, z: string) => makeNode(name, { cpu: VERY_LARGE.cpu, memory: VERY_LARGE.memory, labels: { zone: z, hostname: name } });
    const nodes = [zone('node-a', 'zone1'), zone('node-b', 'zone1'), zone('node-x', 'zone2')];
    const foo = { foo: '' };
    const existing = [
      pod('pod-a1', { node: 'node-a', priority: MID, labels: foo }), pod('pod-a2', { node: 'node-a', priority: LOW, labels: foo }),
      pod('pod-b1', { node: 'node-b', priority: LOW, labels: foo }),
      pod('pod-x1', { node: 'node-x', priority: HIGH, labels: foo }), pod('pod-x2', { node: 'node-x', priority: HIGH, labels: foo }),
    ];
    const selector = { matchExpressions: [{ key: 'foo', operator: 'Exists' as const }] };
    const preemptor = newPodInfo(makePod('p', {
      uid: 'p', priority: HIGH, labels: foo,
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: selector },
        { maxSkew: 1, topologyKey: 'hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: selector },
      ],
    }));
    const snap = Snapshot.build(nodes, existing);
    const { state, filter, calls } = profileFilter(preemptor, snap.nodeInfoList);
    const run = dryRunPreemption({ state, pod: preemptor, potentialNodes: snap.nodeInfoList, pdbs: [], offset: 0, numCandidates: 3, filter, nowMs: 0 });
    // node-a: without its two lower pods the spread holds; pod-a1 comes back, pod-a2 cannot
    expect(run.candidates.map((c) => [c.name, c.victims.pods.map((p) => p.name)])).toEqual([['node-a', ['pod-a2']], ['node-b', ['pod-b1']]]);
    expect(calls()).toBe(5); // node-a 3, node-b 2, node-x 0 (nothing to preempt there)
    // the cycle's own state is untouched: each node's dry run counted on a copy
    expect(filter(state, preemptor, snap.nodeInfoList[0]!).code).toBe('Unschedulable');
  });

  it('preemption offset across multiple scheduling cycles and wrap around', () => {
    const snap = snapshotOf(five, fiveMid);
    const args = { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 };
    const offsets = [4, 1, 3];
    const got = offsets.map((offset, cycle) => {
      const preemptor = newPodInfo(pod(`tp${cycle + 1}`, { priority: HIGH, res: LARGE }));
      const { state, filter } = profileFilter(preemptor, snap.nodeInfoList);
      const run = dryRunPreemption({ state, pod: preemptor, potentialNodes: snap.nodeInfoList, pdbs: [], offset, numCandidates: calculateNumCandidates(5, args), filter, nowMs: 0 });
      return run.candidates.map((c) => c.name);
    });
    expect(got).toEqual([['node5', 'node1'], ['node2', 'node3'], ['node4', 'node5']]);
  });

  it('the dry run never touches the snapshot', () => {
    const snap = snapshotOf(['node1'], [pod('p1', { node: 'node1', priority: MID, res: LARGE })]);
    const before = JSON.stringify(snap.nodeInfoList.map((n) => [n.pods.map((p) => p.name), n.requested]));
    const preemptor = newPodInfo(pod('p', { priority: HIGH, res: LARGE }));
    const { state, filter } = profileFilter(preemptor, snap.nodeInfoList);
    dryRunPreemption({ state, pod: preemptor, potentialNodes: snap.nodeInfoList, pdbs: [], offset: 0, numCandidates: 1, filter, nowMs: 0 });
    expect(JSON.stringify(snap.nodeInfoList.map((n) => [n.pods.map((p) => p.name), n.requested]))).toBe(before);
  });

  it('a node that cannot fit the pod even when emptied reports the filter reason', () => {
    const snap = snapshotOf(['node1'], [pod('p1', { node: 'node1', priority: MID, res: SMALL })]);
    const preemptor = newPodInfo(pod('p', { priority: HIGH, res: { cpu: '1', memory: '1' } }));
    const { state, filter } = profileFilter(preemptor, snap.nodeInfoList);
    const run = dryRunPreemption({ state, pod: preemptor, potentialNodes: snap.nodeInfoList, pdbs: [], offset: 0, numCandidates: 1, filter, nowMs: 0 });
    expect(run.candidates).toEqual([]);
    expect([...run.nodeStatuses]).toEqual([['node1', { code: 'Unschedulable', reasons: ['Insufficient cpu'] }]]);
  });
});

describe('GetOffsetAndNumCandidates (calculateNumCandidates)', () => {
  it.each([
    // numNodes, percentage, absolute, expected
    [0, 10, 100, 0],
    [10, 10, 100, 10],
    [100, 10, 100, 100],
    [1000, 10, 100, 100],
    [10000, 10, 100, 1000],
    [5, 40, 1, 2],
    [5, 40, 2, 2],
    [3, 0, 2, 2],
    [12, 33, 1, 3],
  ])('%i nodes, %i%%, at least %i: %i candidates', (numNodes, pct, abs, want) => {
    expect(calculateNumCandidates(numNodes, { minCandidateNodesPercentage: pct, minCandidateNodesAbsolute: abs })).toBe(want);
  });

  it('the offset is drawn from the injected rand.Intn over the number of nodes', () => {
    const asked: number[] = [];
    const [offset, num] = getOffsetAndNumCandidates(7, (n) => (asked.push(n), 5));
    expect([offset, num, asked]).toEqual([5, 7, [7]]);
  });
});
