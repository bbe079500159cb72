// Cases modeled on pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
// (TestSingleConstraint, TestMultipleConstraints, minDomains) and scoring_test.go
// (TestPodTopologySpreadScore), with the skew and score arithmetic in comments.
import { describe, expect, it } from 'vitest';
import type { Pod, TopologySpreadConstraint } from '../../../api/index.ts';
import type { PreFilterExtensions } from '../../framework/cycle.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { Snapshot } from '../../framework/snapshot.ts';
import { makeNode, makePod } from '../../testing-builders.ts';
import { newPodTopologySpread } from './pod-topology-spread.ts';

const foo = { foo: '' };
const spread = (
  maxSkew: number,
  topologyKey: string,
  when: 'DoNotSchedule' | 'ScheduleAnyway',
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable: when,
  labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
  ...extra,
});
const zoned = (name: string, zone: string) => makeNode(name, { labels: { zone, node: name } });
const placed = (name: string, node: string, labels: Record<string, string> = foo) =>
  makePod(name, { nodeName: node, labels });

function filterAll(pod: Pod, snap: Snapshot): Record<string, string> {
  const plugin = newPodTopologySpread();
  const state = new Map();
  const p = newPodInfo(pod);
  plugin.preFilter(state, p, { allNodes: snap.nodeInfoList });
  return Object.fromEntries(
    snap.nodeInfoList.map((n) => {
      const s = plugin.filter(state, p, n);
      return [n.node!.name, s.code === 'Success' ? 'passed' : s.reasons.join(', ')];
    }),
  );
}

const FAIL = "node(s) didn't match pod topology spread constraints";
const MISSING = FAIL + ' (missing required label)';

describe('PodTopologySpread Filter', () => {
  const nodes = () => [
    zoned('node-a', 'zone1'),
    zoned('node-b', 'zone1'),
    zoned('node-x', 'zone2'),
    zoned('node-y', 'zone2'),
  ];

  it('no existing pods: every node passes', () => {
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    expect(Object.values(filterAll(pod, Snapshot.build(nodes())))).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
    ]);
  });

  it('pods spread 3/1 across zones: only zone2 keeps skew <= 1', () => {
    // zone1 has 3 matching pods, zone2 has 1; min = 1.
    // zone1: 3 + 1 - 1 = 3 > 1 fails; zone2: 1 + 1 - 1 = 1 passes
    const snap = Snapshot.build(nodes(), [
      placed('p-a1', 'node-a'),
      placed('p-a2', 'node-a'),
      placed('p-b1', 'node-b'),
      placed('p-y1', 'node-y'),
    ]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    expect(filterAll(pod, snap)).toEqual({
      'node-a': FAIL,
      'node-b': FAIL,
      'node-x': 'passed',
      'node-y': 'passed',
    });
  });

  it('hostname constraint: the emptiest nodes only', () => {
    // counts a 2, b 1, x 0, y 1; min 0 -> a: 2+1-0 = 3 > 1, b: 2 > 1, x: 1 ok, y: 2 > 1
    const snap = Snapshot.build(nodes(), [
      placed('p-a1', 'node-a'),
      placed('p-a2', 'node-a'),
      placed('p-b1', 'node-b'),
      placed('p-y1', 'node-y'),
    ]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'node', 'DoNotSchedule')],
    });
    expect(filterAll(pod, snap)).toEqual({
      'node-a': FAIL,
      'node-b': FAIL,
      'node-x': 'passed',
      'node-y': FAIL,
    });
  });

  it('an incoming pod that does not match its own selector adds no self-match', () => {
    // zone1 2, zone2 1, min 1: zone1 2 + 0 - 1 = 1 passes
    const snap = Snapshot.build(nodes(), [
      placed('p-a1', 'node-a'),
      placed('p-b1', 'node-b'),
      placed('p-y1', 'node-y'),
    ]);
    const pod = makePod('p', {
      labels: { bar: '' },
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    expect(Object.values(filterAll(pod, snap))).toEqual(['passed', 'passed', 'passed', 'passed']);
  });

  it('a node without the topology label is unresolvable', () => {
    const snap = Snapshot.build([zoned('node-a', 'zone1'), makeNode('node-z')]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    expect(filterAll(pod, snap)).toEqual({ 'node-a': 'passed', 'node-z': MISSING });
  });

  it('minDomains above the number of domains makes the global minimum 0', () => {
    // zone1 1, zone2 1 (2 domains < minDomains 3) -> min 0: 1 + 1 - 0 = 2 > 1 everywhere
    const snap = Snapshot.build(nodes(), [placed('p-a1', 'node-a'), placed('p-y1', 'node-y')]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule', { minDomains: 3 })],
    });
    expect(Object.values(filterAll(pod, snap))).toEqual([FAIL, FAIL, FAIL, FAIL]);
  });

  it('pods in other namespaces do not count', () => {
    const other = makePod('o', { nodeName: 'node-a', labels: foo, namespace: 'other' });
    const snap = Snapshot.build(nodes(), [other, placed('p-a2', 'node-a')]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    // zone1 1, zone2 0 -> zone1: 1 + 1 - 0 = 2 fails
    expect(filterAll(pod, snap)['node-a']).toBe(FAIL);
  });

  it('nodes excluded by nodeSelector do not form domains (nodeAffinityPolicy Honor)', () => {
    // only zone1 nodes are eligible, so zone2 is not a domain and min = count(zone1) = 2
    const snap = Snapshot.build(
      [
        makeNode('node-a', { labels: { zone: 'zone1', pool: 'a' } }),
        makeNode('node-x', { labels: { zone: 'zone2' } }),
      ],
      [placed('p-a1', 'node-a'), placed('p-a2', 'node-a')],
    );
    const pod = makePod('p', {
      labels: foo,
      nodeSelector: { pool: 'a' },
      topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')],
    });
    expect(filterAll(pod, snap)['node-a']).toBe('passed');
  });
});

function scoreAll(pod: Pod, snap: Snapshot, feasible = snap.nodeInfoList) {
  const plugin = newPodTopologySpread();
  const state = new Map();
  const p = newPodInfo(pod);
  expect(plugin.preScore(state, p, feasible, { allNodes: snap.nodeInfoList }).code).toBe('Success');
  const raw = feasible.map((n) => ({ name: n.node!.name, score: plugin.score(state, p, n)[0] }));
  return {
    raw: raw.map((r) => r.score),
    normalized: plugin
      .scoreExtensions()!
      .normalizeScore(state, p, raw)[0]
      .map((r) => r.score),
  };
}

describe('PodTopologySpread Score', () => {
  it('one hostname constraint, pods on one node', () => {
    // 2 candidate nodes: weight log(2 + 2) = 1.386; node-a has 1 matching pod:
    // raw a = round(1 * 1.386 + (1 - 1)) = 1, b = 0; normalized 100 * (1 + 0 - s) / 1 -> 0, 100
    const snap = Snapshot.build([makeNode('node-a'), makeNode('node-b')], [placed('p1', 'node-a')]);
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'kubernetes.io/hostname', 'ScheduleAnyway')],
    });
    expect(scoreAll(pod, snap)).toEqual({ raw: [1, 0], normalized: [0, 100] });
  });

  it('zone constraint counts pods of the whole zone, maxSkew adds maxSkew - 1', () => {
    // zones: zone1 {a, b} with 3 pods, zone2 {x} with 1 pod. 2 domains: weight log(4) = 1.386
    // raw: a, b = round(3 * 1.386 + 1) = round(5.16) = 5; x = round(1.386 + 1) = 2
    // normalized (max 5, min 2): a, b = 100 * (5 + 2 - 5) / 5 = 40; x = 100 * (7 - 2) / 5 = 100
    const snap = Snapshot.build(
      [zoned('node-a', 'zone1'), zoned('node-b', 'zone1'), zoned('node-x', 'zone2')],
      [
        placed('p1', 'node-a'),
        placed('p2', 'node-a'),
        placed('p3', 'node-b'),
        placed('p4', 'node-x'),
      ],
    );
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(2, 'zone', 'ScheduleAnyway')],
    });
    expect(scoreAll(pod, snap)).toEqual({ raw: [5, 5, 2], normalized: [40, 40, 100] });
  });

  it('nodes missing the topology key are ignored and score 0', () => {
    const snap = Snapshot.build(
      [zoned('node-a', 'zone1'), makeNode('node-z')],
      [placed('p1', 'node-a')],
    );
    const pod = makePod('p', {
      labels: foo,
      topologySpreadConstraints: [spread(1, 'zone', 'ScheduleAnyway')],
    });
    // one domain: weight log(3) = 1.0986; a = round(1.0986) = 1; z ignored
    // normalized: a is both max and min: 100 * (1 + 1 - 1) / 1 = 100; z 0
    expect(scoreAll(pod, snap)).toEqual({ raw: [1, 0], normalized: [100, 0] });
  });

  it('PreScore skips pods without ScheduleAnyway constraints', () => {
    const plugin = newPodTopologySpread();
    expect(plugin.preScore(new Map(), newPodInfo(makePod('p')), [], { allNodes: [] }).code).toBe(
      'Skip',
    );
  });
});

describe('PreFilterExtensions (filtering.go AddPod / RemovePod -> updateWithPod)', () => {
  const nodes = [zoned('node-a', 'zone1'), zoned('node-b', 'zone2'), makeNode('no-zone', { labels: { node: 'no-zone' } })];
  const preemptor = makePod('p', { labels: foo, topologySpreadConstraints: [spread(1, 'zone', 'DoNotSchedule')] });

  function counts(change: (ext: PreFilterExtensions, state: Map<string, unknown>, snap: Snapshot) => void) {
    const snap = Snapshot.build(nodes, [placed('a1', 'node-a'), placed('b1', 'node-b')]);
    const plugin = newPodTopologySpread();
    const state = new Map<string, unknown>();
    const p = newPodInfo(preemptor);
    plugin.preFilter(state, p, { allNodes: snap.nodeInfoList });
    change(plugin.preFilterExtensions!()!, state, snap);
    return Object.fromEntries(snap.nodeInfoList.slice(0, 2).map((n) => {
      const s = plugin.filter(state, p, n);
      return [n.node!.name, s.code === 'Success' ? 'passed' : s.reasons.join(', ')];
    }));
  }

  it.each([
    ['a matching pod added to zone1 tips the skew there', placed('a2', 'node-a'), 0, 1, { 'node-a': "node(s) didn't match pod topology spread constraints", 'node-b': 'passed' }],
    ['a pod of another namespace does not count', makePod('a2', { nodeName: 'node-a', labels: foo, namespace: 'other' }), 0, 1, { 'node-a': 'passed', 'node-b': 'passed' }],
    ['a pod the selector does not match does not count', placed('a2', 'node-a', { app: 'x' }), 0, 1, { 'node-a': 'passed', 'node-b': 'passed' }],
    ['a node without the topology label counts nowhere', placed('n1', 'no-zone'), 2, 1, { 'node-a': 'passed', 'node-b': 'passed' }],
    ['removing zone2\'s pod makes zone1 the fuller one', placed('b1', 'node-b'), 1, -1, { 'node-a': "node(s) didn't match pod topology spread constraints", 'node-b': 'passed' }],
  ] as const)('%s', (_, pod, nodeIndex, delta, want) => {
    expect(counts((ext, state, snap) => {
      const info = snap.nodeInfoList[nodeIndex]!;
      const pi = newPodInfo(pod);
      const s = delta === 1 ? ext.addPod(state, newPodInfo(preemptor), pi, info) : ext.removePod(state, newPodInfo(preemptor), pi, info);
      expect(s.code).toBe('Success');
    })).toEqual(want);
  });

  it('without its PreFilter state it is an error', () => {
    const ext = newPodTopologySpread().preFilterExtensions!()!;
    const snap = Snapshot.build(nodes, []);
    expect(ext.addPod(new Map(), newPodInfo(preemptor), newPodInfo(placed('x', 'node-a')), snap.nodeInfoList[0]!)).toEqual({ code: 'Error', reasons: ['reading "PreFilterPodTopologySpread" from cycleState: not found'] });
  });
});
