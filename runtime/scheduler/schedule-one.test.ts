// scheduleOne: which node, the exact FitError messages (pkg/scheduler/schedule_one_test.go,
// framework/types_test.go TestFitError_Error), numFeasibleNodesToFind (TestNumFeasibleNodesToFind),
// selectHost, the simulator annotations, and properties over random clusters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../kernel/index.ts';
import type { Node, Pod, Taint } from '../api/index.ts';
import { MAX_NODE_SCORE } from './framework/interface.ts';
import { newPodInfo } from './framework/pod-info.ts';
import { Snapshot } from './framework/snapshot.ts';
import {
  FILTER_RESULT,
  FINAL_SCORE_RESULT,
  SCORE_RESULT,
  SELECTED_NODE,
  goJSON,
} from './annotations.ts';
import { buildSchedulerConfig, defaultProfile } from './profile.ts';
import { scheduleOne, type ScheduleOutcome } from './schedule-one.ts';
import { numFeasibleNodesToFind, selectHost } from './select-host.ts';
import { container, makeNode, makePod } from './testing-builders.ts';

const CONTROL_PLANE: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

function run(
  nodes: Node[],
  pods: Pod[],
  pod: Pod,
  seed = 1,
  nextStartNodeIndex = 0,
): ScheduleOutcome {
  const rng = createRng(seed);
  return scheduleOne({
    profile: defaultProfile(),
    snapshot: Snapshot.build(nodes, pods),
    pod,
    intn: (n) => rng.nextInt(n),
    nextStartNodeIndex,
  });
}

const message = (o: ScheduleOutcome) => (o.kind === 'Unschedulable' ? o.fitError.message : o.kind);

describe('FitError messages', () => {
  it('taints and insufficient cpu, with the preemption verdict per node', () => {
    const nodes = [
      ...['cp-1', 'cp-2', 'cp-3'].map((n) => makeNode(n, { taints: [CONTROL_PLANE] })),
      makeNode('w-1', { cpu: '1' }),
      makeNode('w-2', { cpu: '1' }),
    ];
    const pod = makePod('big', { containers: [container({ cpu: '2' })] });
    expect(message(run(nodes, [], pod))).toBe(
      '0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ' +
        'preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.',
    );
  });

  it('only unresolvable reasons: preemption is not helpful anywhere', () => {
    const nodes = [makeNode('a'), makeNode('b'), makeNode('c')];
    const pod = makePod('p', { nodeSelector: { disk: 'ssd' } });
    expect(message(run(nodes, [], pod))).toBe(
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it('reasons from one node are each counted; counts sort as strings', () => {
    // 10 nodes lack cpu and memory, 2 are cordoned: "10 Insufficient cpu" sorts before "2 node(s)..."
    const nodes = [
      ...Array.from({ length: 10 }, (_, i) => makeNode(`small-${i}`, { cpu: '1', memory: '1Gi' })),
      makeNode('cordoned-1', { unschedulable: true }),
      makeNode('cordoned-2', { unschedulable: true }),
    ];
    const pod = makePod('p', { containers: [container({ cpu: '2', memory: '2Gi' })] });
    expect(message(run(nodes, [], pod))).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 10 Insufficient memory, 2 node(s) were unschedulable. ' +
        'preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('too many pods', () => {
    const nodes = [makeNode('a', { pods: 1 })];
    const out = run(nodes, [makePod('e', { nodeName: 'a' })], makePod('p'));
    expect(message(out)).toBe(
      '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });

  it('preemptionPolicy Never', () => {
    const pod = makePod('p', { preemptionPolicy: 'Never', containers: [container({ cpu: '8' })] });
    expect(message(run([makeNode('a')], [], pod))).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('a higher-priority pod nominates a node where evicting lower-priority pods makes room', () => {
    const victim = makePod('low', {
      nodeName: 'b',
      priority: 0,
      containers: [container({ cpu: '3' })],
    });
    const pod = makePod('high', { priority: 1000, containers: [container({ cpu: '3' })] });
    const out = run([makeNode('a', { taints: [CONTROL_PLANE] }), makeNode('b')], [victim], pod);
    expect(out.kind).toBe('Unschedulable');
    if (out.kind !== 'Unschedulable') return;
    expect(out.nominated).toEqual({
      nominatedNodeName: 'b',
      victims: [{ namespace: 'default', name: 'low' }],
    });
    expect(out.fitError.message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.',
    );
    expect(out.annotations['kube-scheduler-simulator.sigs.k8s.io/postfilter-result']).toBe(
      '{"a":{},"b":{"DefaultPreemption":"preemption victim"}}',
    );
  });
});

// node_affinity.go PreFilter returns the nodes a pod names (a DaemonSet pod's matchFields
// metadata.name); findNodesThatFitPod filters only those, and counts the rest as rejected by it.
describe('a PreFilterResult narrows the nodes (NodeAffinity matchFields metadata.name)', () => {
  const pinnedTo = (...terms: string[][]): Pod['spec']['affinity'] => ({
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: terms.map((names) => ({
          matchFields: names.map((n) => ({ key: 'metadata.name', operator: 'In' as const, values: n.split(',') })),
        })),
      },
    },
  });
  const nodes = ['n0', 'n1', 'n2', 'n3', 'n4'].map((n) => makeNode(n, { pods: 1 }));

  it('filters only the named node and binds there; the start index moves by the nodes filtered', () => {
    const out = run(nodes, [], makePod('ds', { affinity: pinnedTo(['n3']) }), 1, 2);
    expect(out.kind === 'Scheduled' && [out.suggestedHost, out.evaluatedNodes]).toEqual(['n3', 1]);
    expect(out.nextStartNodeIndex).toBe(3); // (2 + 1 processed) % 5 nodes
    expect(Object.keys(JSON.parse(out.annotations[FILTER_RESULT]!))).toEqual(['n3']);
    expect(out.annotations['kube-scheduler-simulator.sigs.k8s.io/prefilter-result']).toBe('{"NodeAffinity":["n3"]}');
  });

  it('when the named node is full, the other nodes "didn\'t satisfy plugin(s) [NodeAffinity]"', () => {
    const out = run(nodes, [makePod('e', { nodeName: 'n3' })], makePod('ds', { affinity: pinnedTo(['n3']) }));
    expect(message(out)).toBe(
      "0/5 nodes are available: 1 Too many pods, 4 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
        'preemption: 0/5 nodes are available: 1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.',
    );
  });

  it('requirements of a term are ANDed, terms ORed; a node that does not exist is ignored', () => {
    const out = run(nodes, [], makePod('p', { affinity: pinnedTo(['n1,n2,n9', 'n2,n4'], ['n0']) }));
    expect(out.kind).toBe('Scheduled');
    expect(out.annotations['kube-scheduler-simulator.sigs.k8s.io/prefilter-result']).toBe('{"NodeAffinity":["n0","n2"]}');
    expect(Object.keys(JSON.parse(out.annotations[FILTER_RESULT]!)).sort()).toEqual(['n0', 'n2']);
  });

  it('a term without a name requirement lets every node through', () => {
    const affinity = pinnedTo(['n1']);
    affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms.push({ matchExpressions: [{ key: 'disk', operator: 'Exists' }] });
    const out = run(nodes, [], makePod('p', { affinity }));
    expect(out.annotations['kube-scheduler-simulator.sigs.k8s.io/prefilter-result']).toBe('{}');
    expect(Object.keys(JSON.parse(out.annotations[FILTER_RESULT]!))).toHaveLength(5);
  });

  it('conflicting name requirements in every term: "pod affinity terms conflict"', () => {
    const conflict = run(nodes, [], makePod('p', {
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [
        { key: 'metadata.name', operator: 'In', values: ['n1'] },
        { key: 'metadata.name', operator: 'In', values: ['n2'] },
      ] }] } } },
    }));
    expect(message(conflict)).toBe(
      '0/5 nodes are available: pod affinity terms conflict. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.',
    );
  });
});

// schedule_one.go findNodesThatFitPod / framework RunFilterPluginsWithNominatedPods, evaluateNominatedNode
describe('pods nominated to a node', () => {
  const nominated = (name: string, priority: number, cpu: string): Pod => ({ ...makePod(name, { priority, containers: [container({ cpu })] }), status: { nominatedNodeName: 'a' } });
  const withNominated = (pod: Pod, others: Pod[]): ScheduleOutcome => {
    const rng = createRng(1);
    return scheduleOne({
      profile: defaultProfile(), snapshot: Snapshot.build([makeNode('a', { cpu: '4' }), makeNode('b', { cpu: '2' })], []), pod,
      intn: (n) => rng.nextInt(n), nextStartNodeIndex: 0,
      nominatedPods: (node) => (node === 'a' ? others.map((o) => newPodInfo(o)) : []),
    });
  };

  it('keep their room from pods of lower priority', () => {
    const pod = makePod('low', { priority: 10, containers: [container({ cpu: '3' })] });
    expect(message(withNominated(pod, []))).toBe('Scheduled');
    expect(message(withNominated(pod, [nominated('high', 100, '3')]))).toBe('0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
  });

  it('of equal priority count too; of lower priority they do not', () => {
    const pod = makePod('mid', { priority: 100, containers: [container({ cpu: '3' })] });
    expect(message(withNominated(pod, [nominated('peer', 100, '3')]))).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\./);
    expect(withNominated(pod, [nominated('lower', 10, '3')])).toMatchObject({ kind: 'Scheduled', suggestedHost: 'a' });
  });

  it('count in PodTopologySpread\'s domains (RunPreFilterExtensionAddPod on a copy of the state)', () => {
    const foo = { foo: '' };
    const spread = [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule' as const, labelSelector: { matchLabels: foo } }];
    const pod = makePod('web-2', { priority: 100, labels: foo, topologySpreadConstraints: spread, containers: [container({ cpu: '100m' })] });
    const peer = { ...makePod('web-1', { priority: 100, labels: foo, containers: [container({ cpu: '100m' })] }), status: { nominatedNodeName: 'a' } };
    const out = withNominated(pod, [peer]);
    // on a, web-1 will run: 1 there + 1 for web-2 - 0 on b = skew 2
    expect(out).toMatchObject({ kind: 'Scheduled', suggestedHost: 'b' });
    expect(JSON.parse(out.annotations['kube-scheduler-simulator.sigs.k8s.io/filter-result']!).a.PodTopologySpread).toBe("node(s) didn't match pod topology spread constraints");
    // a nominated pod that the constraint does not select changes nothing
    const other = { ...makePod('cache', { priority: 100, labels: { app: 'cache' }, containers: [container({ cpu: '100m' })] }), status: { nominatedNodeName: 'a' } };
    expect(JSON.parse(withNominated(pod, [other]).annotations['kube-scheduler-simulator.sigs.k8s.io/filter-result']!).a.PodTopologySpread).toBe('passed');
  });

  it('a pod is not kept out by its own nomination, and tries its nominated node first', () => {
    const self = nominated('self', 100, '1');
    expect(withNominated(self, [self])).toMatchObject({ kind: 'Scheduled', suggestedHost: 'a', evaluatedNodes: 1 });
  });
});

describe('choosing a node', () => {
  it('prefers the least allocated node and records why', () => {
    const nodes = [
      makeNode('busy', { cpu: '4', memory: '8Gi' }),
      makeNode('idle', { cpu: '4', memory: '8Gi' }),
    ];
    const existing = makePod('e', {
      nodeName: 'busy',
      containers: [container({ cpu: '2', memory: '4Gi' })],
    });
    const out = run(
      nodes,
      [existing],
      makePod('p', { containers: [container({ cpu: '1', memory: '1Gi' })] }),
    );
    expect(out.kind === 'Scheduled' && out.suggestedHost).toBe('idle');
    // LeastAllocated: busy cpu (4000-3000)*100/4000 = 25, memory (8-5)/8 = 37 -> 31; idle: 75, 87 -> 81
    // Balanced: busy |0.75 - 0.625|/2 = 0.0625 -> 93; idle |0.25 - 0.125|/2 -> 93
    const score = JSON.parse(out.annotations[SCORE_RESULT]!);
    expect(score.busy.NodeResourcesFit).toBe('31');
    expect(score.idle.NodeResourcesFit).toBe('81');
    expect(score.busy.NodeResourcesBalancedAllocation).toBe('93');
    const final = JSON.parse(out.annotations[FINAL_SCORE_RESULT]!);
    // TaintToleration: raw 0 everywhere -> reversed normalize 100, weight 3 -> 300
    expect(final.idle.TaintToleration).toBe('300');
    expect(out.annotations[SELECTED_NODE]).toBe('idle');
    expect(out.annotations[FILTER_RESULT]).toBe(
      goJSON({
        busy: {
          NodeName: 'passed',
          NodeResourcesFit: 'passed',
          NodeUnschedulable: 'passed',
          TaintToleration: 'passed',
        },
        idle: {
          NodeName: 'passed',
          NodeResourcesFit: 'passed',
          NodeUnschedulable: 'passed',
          TaintToleration: 'passed',
        },
      }),
    );
    expect(
      out.annotations[FILTER_RESULT]!.startsWith('{"busy":{"NodeName":"passed","NodeResourcesFit"'),
    ).toBe(true);
  });

  it('filter-result stops at the first failing plugin of each node', () => {
    const out = run([makeNode('a', { unschedulable: true }), makeNode('b')], [], makePod('p'));
    expect(JSON.parse(out.annotations[FILTER_RESULT]!).a).toEqual({
      NodeUnschedulable: 'node(s) were unschedulable',
    });
  });

  it('a single feasible node is chosen without scoring', () => {
    const out = run([makeNode('a', { taints: [CONTROL_PLANE] }), makeNode('b')], [], makePod('p'));
    expect(
      out.kind === 'Scheduled' && [out.suggestedHost, out.evaluatedNodes, out.feasibleNodes],
    ).toEqual(['b', 2, 1]);
    expect(out.annotations[SCORE_RESULT]).toBe('{}');
  });

  it('prefers the node with the image (ImageLocality)', () => {
    const MB = 1024 * 1024;
    const nodes = [
      makeNode('plain'),
      makeNode('cached', { images: [{ names: ['app:v1'], sizeBytes: 800 * MB }] }),
    ];
    const out = run(nodes, [], makePod('p', { containers: [container({ image: 'app:v1' })] }));
    expect(out.kind === 'Scheduled' && out.suggestedHost).toBe('cached');
  });

  it('moves the start index past the nodes it processed', () => {
    const nodes = Array.from({ length: 5 }, (_, i) => makeNode(`n${i}`));
    const out = run(nodes, [], makePod('p'), 1, 3);
    expect(out.nextStartNodeIndex).toBe(3); // all 5 processed: (3 + 5) % 5
  });

  it('stops filtering once enough nodes are feasible', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => makeNode(`n${String(i).padStart(3, '0')}`));
    const out = run(nodes, [], makePod('p'), 1, 150);
    // 200 nodes: 50 - 200/125 = 49% -> 98, raised to the minimum 100
    expect(out.kind === 'Scheduled' && [out.feasibleNodes, out.nextStartNodeIndex]).toEqual([
      100, 50,
    ]);
  });
});

describe('recordPerNode: false (the scheduler of a big cluster, which writes no annotations)', () => {
  it('makes the same decisions with the same random draws, without the per-node entries', () => {
    const nodes = Array.from({ length: 12 }, (_, i) => makeNode(`n${i}`, { cpu: String(2 + (i % 4)) }));
    const placed = Array.from({ length: 20 }, (_, i) => makePod(`p${i}`, { nodeName: `n${(i * 7) % 12}`, containers: [container({ cpu: '500m' })] }));
    for (let seed = 1; seed <= 20; seed++) {
      const pod = makePod(`new-${seed}`, { containers: [container({ cpu: `${100 * seed}m` })] });
      const outcome = (recordPerNode: boolean) => {
        const rng = createRng(seed);
        const draws: number[] = [];
        const o = scheduleOne({
          profile: defaultProfile(), snapshot: Snapshot.build(nodes, placed), pod, nextStartNodeIndex: seed % 12, recordPerNode,
          intn: (n) => (draws.push(n), rng.nextInt(n)),
        });
        return { o, draws };
      };
      const full = outcome(true);
      const lean = outcome(false);
      expect(lean.o.kind).toBe(full.o.kind);
      expect(lean.draws).toEqual(full.draws);
      if (full.o.kind === 'Scheduled' && lean.o.kind === 'Scheduled') {
        expect([lean.o.suggestedHost, lean.o.topNodes, lean.o.evaluatedNodes, lean.o.feasibleNodes])
          .toEqual([full.o.suggestedHost, full.o.topNodes, full.o.evaluatedNodes, full.o.feasibleNodes]);
      }
      expect(lean.o.record.filter.size + lean.o.record.score.size + lean.o.record.finalScore.size).toBe(0);
      expect(full.o.record.filter.size).toBeGreaterThan(0);
    }
  });
});

describe('numFeasibleNodesToFind (TestNumFeasibleNodesToFind)', () => {
  const cases: [string, number | undefined, number, number][] = [
    ['not set, nodes not more than 50', undefined, 10, 10],
    ['set, nodes not more than 50', 40, 10, 10],
    ['not set, 1000 nodes: 50 - 1000/125 = 42%', undefined, 1000, 420],
    ['set 40, 1000 nodes', 40, 1000, 400],
    ['not set, 6000 nodes: 50 - 48 = 2% -> 5%', undefined, 6000, 300],
    ['set 40, 6000 nodes', 40, 6000, 2400],
    ['set 1, 5000 nodes: 50 raised to 100', 1, 5000, 100],
    ['5000 nodes: 50 - 40 = 10%', undefined, 5000, 500],
  ];
  for (const [name, pct, n, want] of cases)
    it(name, () => expect(numFeasibleNodesToFind(pct, n)).toBe(want));
});

describe('selectHost (TestSelectHost)', () => {
  it('picks the only max and reports the top three', () => {
    const r = selectHost(
      [
        { name: 'a', score: 1 },
        { name: 'b', score: 2 },
        { name: 'c', score: 3 },
        { name: 'd', score: 0 },
      ],
      3,
      () => 0,
    );
    expect(r).toEqual({
      host: 'c',
      top: [
        { name: 'c', score: 3 },
        { name: 'b', score: 2 },
        { name: 'a', score: 1 },
      ],
    });
  });
  it('every tied node can win, and ties are drawn from intn', () => {
    const seen = new Set<string>();
    const rng = createRng(7);
    for (let i = 0; i < 200; i++) {
      seen.add(
        selectHost(
          [
            { name: 'x', score: 5 },
            { name: 'y', score: 5 },
            { name: 'z', score: 5 },
            { name: 'w', score: 1 },
          ],
          3,
          (n) => rng.nextInt(n),
        )!.host,
      );
    }
    expect([...seen].sort()).toEqual(['x', 'y', 'z']);
  });
  it('an empty list selects nothing', () => expect(selectHost([], 3, () => 0)).toBeNull());
});

describe('configuration', () => {
  it('a learner can swap weights and disable plugins', () => {
    const r = buildSchedulerConfig({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [
        {
          plugins: {
            multiPoint: { enabled: [{ name: 'ImageLocality', weight: 5 }] },
            score: { disabled: [{ name: 'NodeResourcesBalancedAllocation' }] },
          },
        },
      ],
    });
    expect(r.ok && r.config.profiles[0]!.score.map((s) => `${s.plugin.name}:${s.weight}`)).toEqual([
      'TaintToleration:3',
      'NodeAffinity:2',
      'NodeResourcesFit:1',
      'PodTopologySpread:2',
      'ImageLocality:5',
    ]);
  });
  it('default profile plugins per extension point', () => {
    const p = defaultProfile();
    expect(p.filter.map((x) => x.name)).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'PodTopologySpread',
    ]);
    expect(p.preFilter.map((x) => x.name)).toEqual([
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'PodTopologySpread',
    ]);
    expect(p.postFilter.map((x) => x.name)).toEqual(['DefaultPreemption']);
    expect(p.bind.map((x) => x.name)).toEqual(['DefaultBinder']);
  });
  it('MostAllocated through pluginConfig packs pods', () => {
    const r = buildSchedulerConfig({
      profiles: [
        {
          pluginConfig: [
            { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } },
          ],
          plugins: { score: { disabled: [{ name: 'NodeResourcesBalancedAllocation' }] } },
        },
      ],
    });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const nodes = [makeNode('empty'), makeNode('used')];
    const snap = Snapshot.build(nodes, [
      makePod('e', { nodeName: 'used', containers: [container({ cpu: '2', memory: '1Gi' })] }),
    ]);
    const out = scheduleOne({
      profile: r.config.profiles[0]!,
      snapshot: snap,
      pod: makePod('p', { containers: [container({ cpu: '1', memory: '1Gi' })] }),
      intn: () => 0,
      nextStartNodeIndex: 0,
    });
    expect(out.kind === 'Scheduled' && out.suggestedHost).toBe('used');
  });
  it('reports clear errors', () => {
    const r = buildSchedulerConfig({
      apiVersion: 'kubescheduler.config.k8s.io/v1beta2',
      percentageOfNodesToScore: 101,
      profiles: [
        {
          plugins: { score: { enabled: [{ name: 'NoSuchPlugin' }] } },
          pluginConfig: [
            {
              name: 'NodeResourcesFit',
              args: {
                scoringStrategy: { type: 'Random', resources: [{ name: 'cpu', weight: 0 }] },
              },
            },
          ],
        },
        { plugins: { multiPoint: { enabled: [{ name: 'InterPodAffinity' }] } } },
      ],
    });
    expect(r.ok ? [] : r.errors).toEqual([
      'apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v1beta2": supported values: "kubescheduler.config.k8s.io/v1"',
      'percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]',
      'profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Random": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
      'profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range [1, 100]',
      'profiles[0].plugins.score.enabled[0]: Invalid value: "NoSuchPlugin": plugin "NoSuchPlugin" does not exist',
      'profiles[1].schedulerName: Duplicate value: "default-scheduler"',
      'profiles[1].plugins.multiPoint.enabled[13]: Unsupported value: "InterPodAffinity": not modeled by this simulation',
    ]);
  });
  it("a learner's ScorePlugin plugs in through the out-of-tree registry", () => {
    const r = buildSchedulerConfig(
      { profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'PreferB', weight: 50 }] } } }] },
      {
        registry: {
          PreferB: () => ({
            name: 'PreferB',
            score: (_s, _p, n) => [
              n.node?.name === 'b' ? 100 : 0,
              { code: 'Success', reasons: [] },
            ],
            scoreExtensions: () => null,
          }),
        },
      },
    );
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const out = scheduleOne({
      profile: r.config.profiles[0]!,
      snapshot: Snapshot.build([makeNode('a'), makeNode('b')]),
      pod: makePod('p'),
      intn: () => 0,
      nextStartNodeIndex: 0,
    });
    expect(out.kind === 'Scheduled' && out.suggestedHost).toBe('b');
  });
});

// ---------------------------------------------------------------- properties

const arbNode = fc.record({
  cpu: fc.integer({ min: 1, max: 8 }),
  memGi: fc.integer({ min: 1, max: 16 }),
  pods: fc.integer({ min: 1, max: 6 }),
  zone: fc.constantFrom('z1', 'z2', 'z3'),
  tainted: fc.boolean(),
  prefer: fc.boolean(),
  cordoned: fc.boolean(),
});
const arbPod = fc.record({
  cpuM: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
  memMi: fc.option(fc.integer({ min: 0, max: 8192 }), { nil: undefined }),
  zone: fc.option(fc.constantFrom('z1', 'z2'), { nil: undefined }),
  tolerate: fc.boolean(),
  spread: fc.constantFrom('none', 'DoNotSchedule', 'ScheduleAnyway'),
  app: fc.constantFrom('a', 'b'),
  where: fc.nat(),
});

/** The type of the values an arbitrary generates. */
type ArbValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

function buildCluster(ns: ArbValue<typeof arbNode>[], ps: ArbValue<typeof arbPod>[]) {
  const nodes = ns.map((n, i) =>
    makeNode(`node-${i}`, {
      cpu: String(n.cpu),
      memory: `${n.memGi}Gi`,
      pods: n.pods,
      labels: { zone: n.zone },
      unschedulable: n.cordoned,
      taints: [
        ...(n.tainted ? [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' as const }] : []),
        ...(n.prefer ? [{ key: 'soft', effect: 'PreferNoSchedule' as const }] : []),
      ],
    }),
  );
  const toPod = (p: ArbValue<typeof arbPod>, name: string, nodeName?: string): Pod =>
    makePod(name, {
      labels: { app: p.app },
      containers: [
        container({
          ...(p.cpuM === undefined ? {} : { cpu: `${p.cpuM}m` }),
          ...(p.memMi === undefined ? {} : { memory: `${p.memMi}Mi` }),
        }),
      ],
      ...(nodeName ? { nodeName } : {}),
      ...(p.zone ? { nodeSelector: { zone: p.zone } } : {}),
      ...(p.tolerate ? { tolerations: [{ key: 'dedicated', operator: 'Exists' as const }] } : {}),
      ...(p.spread === 'none'
        ? {}
        : {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'zone',
                whenUnsatisfiable: p.spread,
                labelSelector: { matchLabels: { app: p.app } },
              },
            ],
          }),
    });
  const existing = ps.slice(1).map((p, i) => toPod(p, `e${i}`, `node-${p.where % ns.length}`));
  return { nodes, existing, pod: toPod(ps[0]!, 'incoming') };
}

describe('properties', () => {
  const arbCluster = fc.tuple(
    fc.array(arbNode, { minLength: 1, maxLength: 8 }),
    fc.array(arbPod, { minLength: 1, maxLength: 12 }),
    fc.integer(),
  );

  it('the chosen node passes every filter; an unschedulable pod has a reason for every node', () => {
    fc.assert(
      fc.property(arbCluster, ([ns, ps, seed]) => {
        const { nodes, existing, pod } = buildCluster(ns, ps);
        const snap = Snapshot.build(nodes, existing);
        const rng = createRng(seed);
        const profile = defaultProfile();
        const out = scheduleOne({
          profile,
          snapshot: snap,
          pod,
          intn: (n) => rng.nextInt(n),
          nextStartNodeIndex: 0,
        });
        if (out.kind === 'Error') throw new Error(out.message);
        if (out.kind === 'Unschedulable') {
          expect(out.fitError.nodeToStatus.size).toBe(nodes.length);
          return;
        }
        const state = new Map();
        const info = newPodInfo(pod);
        for (const pl of profile.preFilter)
          pl.preFilter(state, info, { allNodes: snap.nodeInfoList });
        const chosen = snap.get(out.suggestedHost)!;
        const filters = JSON.parse(out.annotations[FILTER_RESULT]!)[out.suggestedHost];
        for (const v of Object.values(filters)) expect(v).toBe('passed');
        // re-check the resource fit directly, independent of the recorded annotations
        expect(chosen.requested.milliCPU + info.requests.milliCPU).toBeLessThanOrEqual(
          chosen.allocatable.milliCPU,
        );
        expect(chosen.pods.length + 1).toBeLessThanOrEqual(chosen.allocatable.allowedPodNumber);
      }),
      { seed: 20260101, numRuns: 150, verbose: true },
    );
  });

  it('final scores stay within 0..100 x weight and sum to the winning total', () => {
    fc.assert(
      fc.property(arbCluster, ([ns, ps, seed]) => {
        const { nodes, existing, pod } = buildCluster(ns, ps);
        const out = run(nodes, existing, pod, seed);
        if (out.kind !== 'Scheduled' || out.topNodes.length === 0) return;
        const weights = new Map(defaultProfile().score.map((s) => [s.plugin.name, s.weight]));
        const final: Record<string, Record<string, string>> = JSON.parse(
          out.annotations[FINAL_SCORE_RESULT]!,
        );
        for (const perPlugin of Object.values(final)) {
          for (const [plugin, v] of Object.entries(perPlugin)) {
            expect(Number(v)).toBeGreaterThanOrEqual(0);
            expect(Number(v)).toBeLessThanOrEqual(MAX_NODE_SCORE * weights.get(plugin)!);
          }
        }
        const total = Object.values(final[out.suggestedHost]!).reduce((a, v) => a + Number(v), 0);
        expect(total).toBe(out.topNodes[0]!.score);
        expect(out.topNodes.every((t) => t.score <= total)).toBe(true);
      }),
      { seed: 20260102, numRuns: 150, verbose: true },
    );
  });

  it('the same seed gives the same decision and annotations', () => {
    fc.assert(
      fc.property(arbCluster, ([ns, ps, seed]) => {
        const { nodes, existing, pod } = buildCluster(ns, ps);
        const a = run(nodes, existing, pod, seed);
        const b = run(nodes, existing, pod, seed);
        expect(b).toEqual(a);
      }),
      { seed: 20260103, numRuns: 100, verbose: true },
    );
  });
});
