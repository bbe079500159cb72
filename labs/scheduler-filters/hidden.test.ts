// Hidden grading suite for the scheduler-filters lab. Behaviour only: each filter's verdict (code and
// reasons) on hand-written nodes and pods, the "0/N nodes are available" message, and a differential
// property test against the simulation's own kube-scheduler (runtime/scheduler) on generated clusters.
// Tables ported from pkg/scheduler/framework/plugins/noderesources/fit_test.go (TestEnoughRequests,
// TestNotEnoughRequests, TestStorageRequests), nodeunschedulable/node_unschedulable_test.go,
// tainttoleration/taint_toleration_test.go (TestTaintTolerationFilter), nodeaffinity/node_affinity_test.go
// (TestNodeAffinity) and framework/types_test.go (TestFitError_Error). Upstream's fit tests count cpu in
// millicores and memory in bytes: "1m" and "1" below.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Affinity, Container, Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, ResourceList, Taint, Toleration } from '../../runtime/api/index.ts';
import {
  IN_TREE_REGISTRY,
  Snapshot,
  buildSchedulerConfig,
  newPodInfo,
  scheduleOne,
  type FilterPlugin,
  type NodeToStatus,
  type PreFilterPlugin,
  type Profile,
  type SchedNodeInfo,
  type SchedPodInfo,
  type Status,
} from '../../runtime/scheduler/index.ts';
import { fitErrorMessage, newNodeAffinity, newNodeResourcesFit, newNodeUnschedulable, newTaintToleration, preemptionMessage } from '@lab/submission';

// ---------------------------------------------------------------- builders

interface NodeSpec {
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeral?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
}

function makeNode(name: string, o: NodeSpec = {}): Node {
  const allocatable: ResourceList = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110' };
  if (o.ephemeral !== undefined) allocatable['ephemeral-storage'] = o.ephemeral;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: o.labels ?? {} },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable !== undefined ? { unschedulable: o.unschedulable } : {}) },
    status: { capacity: allocatable, allocatable },
  };
}

function container(requests?: ResourceList, name = 'app'): Container {
  return { name, image: 'nginx:1.27', ...(requests ? { resources: { requests } } : {}) };
}

interface PodSpecOptions {
  containers?: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  nodeName?: string;
}

function makePod(name: string, o: PodSpecOptions = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      containers: o.containers ?? [container()],
      ...(o.initContainers ? { initContainers: o.initContainers } : {}),
      ...(o.overhead ? { overhead: o.overhead } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
    },
    status: { phase: o.nodeName ? 'Running' : 'Pending' },
  };
}

/** The scheduler's NodeInfo for one node carrying `existing` (their requests summed as the cache does). */
function nodeInfoOf(node: Node, existing: Pod[] = []): SchedNodeInfo {
  const name = node.metadata.name!;
  return Snapshot.build([node], existing.map((p) => ({ ...p, spec: { ...p.spec, nodeName: name } }))).get(name)!;
}

/**
 * The pod as the learner's filter receives it. The runtime caches the pod's request in `requests`
 * and `nonZeroRequests`; this lab grades the learner's own arithmetic, so reading them fails loudly.
 */
function forLearner(pod: Pod): SchedPodInfo {
  const info = newPodInfo(structuredClone(pod));
  for (const key of ['requests', 'nonZeroRequests'] as const) {
    Object.defineProperty(info, key, {
      get() {
        throw new Error(`compute the pod's request from pod.pod.spec (containers, initContainers, overhead): this lab does not fill in pod.${key}`);
      },
    });
  }
  return info;
}

/** A Status as text: "Success" or 'Unschedulable: "Insufficient cpu", "Insufficient memory"'. */
function show(s: Status): string {
  return s.code === 'Success' && s.reasons.length === 0 ? 'Success' : `${s.code}: ${s.reasons.map((r) => JSON.stringify(r)).join(', ')}`;
}

/** Calls a filter the way the framework does (fresh CycleState) and returns a plain copy of its Status. */
function verdict(plugin: FilterPlugin, pod: Pod, info: SchedNodeInfo): Status {
  const raw: unknown = plugin.filter(new Map(), forLearner(pod), structuredClone(info));
  const s = structuredClone(raw) as Status;
  if (typeof s !== 'object' || s === null || typeof s.code !== 'string' || !Array.isArray(s.reasons)) {
    throw new Error(`${plugin.name}.filter must return a Status { code, reasons }, got ${JSON.stringify(raw)}`);
  }
  return { code: s.code, reasons: [...s.reasons] };
}

const success = 'Success';
const unschedulable = (...reasons: string[]) => `Unschedulable: ${reasons.map((r) => JSON.stringify(r)).join(', ')}`;
const unresolvable = (...reasons: string[]) => `UnschedulableAndUnresolvable: ${reasons.map((r) => JSON.stringify(r)).join(', ')}`;

const res = (cpu?: string, memory?: string, ephemeral?: string): ResourceList => ({
  ...(cpu === undefined ? {} : { cpu }),
  ...(memory === undefined ? {} : { memory }),
  ...(ephemeral === undefined ? {} : { 'ephemeral-storage': ephemeral }),
});

// ---------------------------------------------------------------- NodeResourcesFit

describe('NodeResourcesFit', () => {
  it('is named NodeResourcesFit', () => {
    expect(newNodeResourcesFit().name).toBe('NodeResourcesFit');
  });

  // node: 10m cpu, 20 bytes memory, 32 pods, 5 bytes ephemeral-storage; one pod already there using `used`
  const node = makeNode('machine1', { cpu: '10m', memory: '20', pods: '32', ephemeral: '5' });
  type Case = [name: string, pod: PodSpecOptions, used: ResourceList, want: string];
  const table: Case[] = [
    ['no resources requested always fits', {}, res('10m', '20'), success],
    ['too many resources fails', { containers: [container(res('1m', '1'))] }, res('10m', '20'), unschedulable('Insufficient cpu', 'Insufficient memory')],
    ['too many resources fails due to init container cpu', { containers: [container(res('1m', '1'))], initContainers: [container(res('3m', '1'), 'init')] }, res('8m', '19'), unschedulable('Insufficient cpu')],
    [
      'too many resources fails due to highest init container cpu',
      { containers: [container(res('1m', '1'))], initContainers: [container(res('3m', '1'), 'init-1'), container(res('2m', '1'), 'init-2')] },
      res('8m', '19'),
      unschedulable('Insufficient cpu'),
    ],
    ['too many resources fails due to init container memory', { containers: [container(res('1m', '1'))], initContainers: [container(res('1m', '3'), 'init')] }, res('9m', '19'), unschedulable('Insufficient memory')],
    [
      'too many resources fails due to highest init container memory',
      { containers: [container(res('1m', '1'))], initContainers: [container(res('1m', '3'), 'init-1'), container(res('1m', '2'), 'init-2')] },
      res('9m', '19'),
      unschedulable('Insufficient memory'),
    ],
    ["init container fits because it's the max, not sum, of containers and init containers", { containers: [container(res('1m', '1'))], initContainers: [container(res('1m', '1'), 'init')] }, res('9m', '19'), success],
    [
      "multiple init containers fit because it's the max, not sum, of containers and init containers",
      { containers: [container(res('1m', '1'))], initContainers: [container(res('1m', '1'), 'init-1'), container(res('1m', '1'), 'init-2')] },
      res('9m', '19'),
      success,
    ],
    ['both resources fit', { containers: [container(res('1m', '1'))] }, res('5m', '5'), success],
    ['one resource memory fits', { containers: [container(res('2m', '1'))] }, res('9m', '5'), unschedulable('Insufficient cpu')],
    ['one resource cpu fits', { containers: [container(res('1m', '2'))] }, res('5m', '19'), unschedulable('Insufficient memory')],
    ['equal edge case', { containers: [container(res('5m', '1'))] }, res('5m', '19'), success],
    ['equal edge case for init container', { containers: [container(res('4m', '1'))], initContainers: [container(res('5m', '1'), 'init')] }, res('5m', '19'), success],
    ['sums the regular containers', { containers: [container(res('3m', '1'), 'a'), container(res('3m', '1'), 'b')] }, res('5m', '5'), unschedulable('Insufficient cpu')],
    ['resources + pod overhead fits', { containers: [container(res('1m', '1'))], overhead: res('3m', '13') }, res('5m', '5'), success],
    ['requests + overhead does not fit for memory', { containers: [container(res('1m', '1'))], overhead: res('1m', '15') }, res('5m', '5'), unschedulable('Insufficient memory')],
    ['overhead is added after the init container maximum', { containers: [container(res('1m', '1'))], initContainers: [container(res('4m', '1'), 'init')], overhead: res('2m') }, res('5m', '5'), unschedulable('Insufficient cpu')],
    ['a container without requests asks for nothing (no defaults when filtering)', { containers: [container(res('5m')), container(undefined, 'sidecar')] }, res('5m', '20'), success],
  ];

  it.each(table)('%s', (_name, podOptions, used, want) => {
    const pod = makePod('p', podOptions);
    const info = nodeInfoOf(node, [makePod('existing', { containers: [container(used)] })]);
    expect(show(verdict(newNodeResourcesFit(), pod, info)), 'NodeResourcesFit verdict').toBe(want);
  });

  // TestNotEnoughRequests: a node with room for a single pod, which it already runs
  const full = makeNode('machine1', { cpu: '10m', memory: '20', pods: '1' });
  const fullTable: Case[] = [
    ["even without specified resources, predicate fails when there's no space for additional pod", {}, res('10m', '20'), unschedulable('Too many pods')],
    ["even if both resources fit, predicate fails when there's no space for additional pod", { containers: [container(res('1m', '1'))] }, res('5m', '5'), unschedulable('Too many pods')],
    ["even for equal edge case, predicate fails when there's no space for additional pod", { containers: [container(res('5m', '1'))] }, res('5m', '19'), unschedulable('Too many pods')],
    [
      "even for equal edge case, predicate fails with init container when there's no space for additional pod",
      { containers: [container(res('5m', '1'))], initContainers: [container(res('5m', '1'), 'init')] },
      res('5m', '19'),
      unschedulable('Too many pods'),
    ],
    ['reports every reason, the pod count first', { containers: [container(res('6m', '2'))] }, res('5m', '19'), unschedulable('Too many pods', 'Insufficient cpu', 'Insufficient memory')],
  ];

  it.each(fullTable)('%s', (_name, podOptions, used, want) => {
    const info = nodeInfoOf(full, [makePod('existing', { containers: [container(used)] })]);
    expect(show(verdict(newNodeResourcesFit(), makePod('p', podOptions), info)), 'NodeResourcesFit verdict').toBe(want);
  });

  // TestStorageRequests, with a node of 20 bytes of ephemeral storage
  const disk = makeNode('machine1', { cpu: '10m', memory: '20', pods: '32', ephemeral: '20' });
  const storageTable: Case[] = [
    ['empty storage requested, and the cpu does not fit', { containers: [container(res('1m', '1'))] }, res('10m', '10'), unschedulable('Insufficient cpu')],
    ['empty storage requested, and pod fits', { containers: [container(res('1m', '1'))] }, res('2m', '2'), success],
    ['storage ephemeral local storage request exceeds allocatable', { containers: [container(res(undefined, undefined, '25'))] }, res('2m', '2'), unschedulable('Insufficient ephemeral-storage')],
    ['ephemeral local storage is sufficient', { containers: [container(res(undefined, undefined, '10'))] }, res('2m', '2', '10'), success],
    ['ephemeral local storage counts what the node already runs', { containers: [container(res(undefined, undefined, '11'))] }, res('2m', '2', '10'), unschedulable('Insufficient ephemeral-storage')],
    ['init container ephemeral storage is a maximum too', { containers: [container(res(undefined, undefined, '5'))], initContainers: [container(res(undefined, undefined, '15'), 'init')] }, res('2m', '2', '10'), unschedulable('Insufficient ephemeral-storage')],
  ];

  it.each(storageTable)('%s', (_name, podOptions, used, want) => {
    const info = nodeInfoOf(disk, [makePod('existing', { containers: [container(used)] })]);
    expect(show(verdict(newNodeResourcesFit(), makePod('p', podOptions), info)), 'NodeResourcesFit verdict').toBe(want);
  });

  it('checks only the resources the pod asks for on an overcommitted node', () => {
    // the node's pods already request 3 CPUs of 2; a pod asking only for memory still fits
    const info = nodeInfoOf(makeNode('n', { cpu: '2', memory: '4Gi' }), [makePod('greedy', { containers: [container(res('3', '1Gi'))] })]);
    expect(show(verdict(newNodeResourcesFit(), makePod('p', { containers: [container(res(undefined, '1Gi'))] }), info))).toBe(success);
    expect(show(verdict(newNodeResourcesFit(), makePod('q', { containers: [container(res('100m', '1Gi'))] }), info))).toBe(unschedulable('Insufficient cpu'));
  });

  it('reads quantities in every unit the tests use', () => {
    // 1.5 CPUs asked on a node with 2 CPUs and 600m requested: 1500m > 1400m
    const info = nodeInfoOf(makeNode('n', { cpu: '2', memory: '1Gi', ephemeral: '1Gi' }), [makePod('e', { containers: [container(res('600m', '512Mi', '512Mi'))] })]);
    const pod = makePod('p', { containers: [container(res('1.5', '0.5Gi', '536870912'))] });
    expect(show(verdict(newNodeResourcesFit(), pod, info))).toBe(unschedulable('Insufficient cpu'));
    const fits = makePod('q', { containers: [container(res('1400m', '536870912', '0.5Gi'))] });
    expect(show(verdict(newNodeResourcesFit(), fits, info))).toBe(success);
  });
});

// ---------------------------------------------------------------- NodeUnschedulable

describe('NodeUnschedulable', () => {
  it('is named NodeUnschedulable', () => {
    expect(newNodeUnschedulable().name).toBe('NodeUnschedulable');
  });

  const cordoned = makeNode('cordoned', { unschedulable: true });
  const table: [string, Node, Toleration[] | undefined, string][] = [
    ['Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)', cordoned, undefined, unresolvable('node(s) were unschedulable')],
    ['Schedule pod to normal node', makeNode('normal', { unschedulable: false }), undefined, success],
    ['Schedule pod to a node without the field', makeNode('plain'), undefined, success],
    ['Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)', cordoned, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }], success],
    ['a toleration with operator Exists and no effect also tolerates it', cordoned, [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }], success],
    ['an empty key with Exists tolerates every taint, this one included', cordoned, [{ operator: 'Exists' }], success],
    ['a NoExecute toleration does not tolerate the NoSchedule unschedulable taint', cordoned, [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }], unresolvable('node(s) were unschedulable')],
    ['Equal compares the value: the unschedulable taint has none', cordoned, [{ key: 'node.kubernetes.io/unschedulable', operator: 'Equal', value: 'true', effect: 'NoSchedule' }], unresolvable('node(s) were unschedulable')],
    ['tolerating some other taint does not help', cordoned, [{ key: 'dedicated', operator: 'Exists' }], unresolvable('node(s) were unschedulable')],
  ];

  it.each(table)('%s', (_name, node, tolerations, want) => {
    const pod = makePod('p', tolerations ? { tolerations } : {});
    expect(show(verdict(newNodeUnschedulable(), pod, nodeInfoOf(node))), 'NodeUnschedulable verdict').toBe(want);
  });
});

// ---------------------------------------------------------------- TaintToleration

describe('TaintToleration', () => {
  it('is named TaintToleration', () => {
    expect(newTaintToleration().name).toBe('TaintToleration');
  });

  const table: [string, Toleration[], Taint[], string][] = [
    ["A pod having no tolerations can't be scheduled onto a node with nonempty taints", [], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], unresolvable('node(s) had untolerated taint {dedicated: user1}')],
    ['A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], success],
    [
      "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      unresolvable('node(s) had untolerated taint {dedicated: user1}'),
    ],
    ['A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node', [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }], [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], success],
    [
      'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
      [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ],
      [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ],
      success,
    ],
    [
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      unresolvable('node(s) had untolerated taint {foo: bar}'),
    ],
    [
      'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      [{ key: 'foo', operator: 'Equal', value: 'bar' }],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      success,
    ],
    [
      "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      success,
    ],
    ['The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', [], [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], success],
    ['a NoExecute taint filters like NoSchedule', [], [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }], unresolvable('node(s) had untolerated taint {node.kubernetes.io/unreachable: }')],
    [
      'a NoExecute toleration with tolerationSeconds still lets the pod be scheduled',
      [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
      success,
    ],
    ['a taint without a value prints an empty value', [], [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], unresolvable('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
    ['an empty key with operator Exists tolerates every taint', [{ operator: 'Exists' }], [{ key: 'a', value: 'x', effect: 'NoSchedule' }, { key: 'b', effect: 'NoExecute' }], success],
    ['an empty key with Exists and an effect tolerates only that effect', [{ operator: 'Exists', effect: 'NoSchedule' }], [{ key: 'a', value: 'x', effect: 'NoSchedule' }, { key: 'b', effect: 'NoExecute' }], unresolvable('node(s) had untolerated taint {b: }')],
    ['Equal with an empty value matches only a taint without value', [{ key: 'gpu', operator: 'Equal', value: '' }], [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], unresolvable('node(s) had untolerated taint {gpu: true}')],
    ['an omitted operator means Equal', [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], success],
    [
      'names the first untolerated taint in the node order',
      [{ key: 'a', operator: 'Exists' }],
      [
        { key: 'a', value: '1', effect: 'NoSchedule' },
        { key: 'soft', value: '1', effect: 'PreferNoSchedule' },
        { key: 'c', value: '3', effect: 'NoExecute' },
        { key: 'b', value: '2', effect: 'NoSchedule' },
      ],
      unresolvable('node(s) had untolerated taint {c: 3}'),
    ],
  ];

  it.each(table)('%s', (_name, tolerations, taints, want) => {
    const pod = makePod('p', { tolerations });
    expect(show(verdict(newTaintToleration(), pod, nodeInfoOf(makeNode('nodeA', { taints })))), 'TaintToleration verdict').toBe(want);
  });

  it('lets any pod onto a node without taints', () => {
    expect(show(verdict(newTaintToleration(), makePod('p'), nodeInfoOf(makeNode('clean'))))).toBe(success);
  });
});

// ---------------------------------------------------------------- NodeAffinity

describe('NodeAffinity', () => {
  it('is named NodeAffinity', () => {
    expect(newNodeAffinity().name).toBe('NodeAffinity');
  });

  const required = (...nodeSelectorTerms: NodeSelectorTerm[]): Affinity => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } });
  const expr = (key: string, operator: NodeSelectorRequirement['operator'], values?: string[]): NodeSelectorRequirement => ({ key, operator, ...(values ? { values } : {}) });
  const reject = unresolvable("node(s) didn't match Pod's node affinity/selector");

  const table: [string, PodSpecOptions, Record<string, string>, string][] = [
    ['no selector', {}, { foo: 'bar' }, success],
    ['missing labels', { nodeSelector: { foo: 'bar' } }, {}, reject],
    ['same labels', { nodeSelector: { foo: 'bar' } }, { foo: 'bar' }, success],
    ['node labels are superset', { nodeSelector: { foo: 'bar' } }, { foo: 'bar', baz: 'blah' }, success],
    ['node labels are subset', { nodeSelector: { foo: 'bar', baz: 'blah' } }, { foo: 'bar' }, reject],
    ['a selector value must match exactly, an empty value included', { nodeSelector: { foo: '' } }, { foo: 'bar' }, reject],
    ['Pod with matchExpressions using In operator that matches the existing node', { affinity: required({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }) }, { foo: 'bar' }, success],
    ['Pod with matchExpressions using Gt operator that matches the existing node', { affinity: required({ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }) }, { 'kernel-version': '0206' }, success],
    ['Pod with matchExpressions using NotIn operator that matches the existing node', { affinity: required({ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }) }, { 'mem-type': 'DDR3' }, success],
    ['Pod with matchExpressions using Exists operator that matches the existing node', { affinity: required({ matchExpressions: [expr('GPU', 'Exists')] }) }, { GPU: 'NVIDIA-GRID-K1' }, success],
    ["Pod with affinity that don't match node's labels won't schedule onto the node", { affinity: required({ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }) }, { foo: 'bar' }, reject],
    ["Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node", { affinity: required() }, { foo: 'bar' }, reject],
    ['Pod with empty MatchExpressions is not a valid value will match no objects and won\'t schedule onto the node', { affinity: required({ matchExpressions: [] }) }, { foo: 'bar' }, reject],
    ['Pod with no Affinity will schedule onto a node', {}, { foo: 'bar' }, success],
    ['Pod with Affinity but nil NodeSelector will schedule onto a node', { affinity: { nodeAffinity: {} } }, { foo: 'bar' }, success],
    ['Pod with multiple matchExpressions ANDed that matches the existing node', { affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }) }, { GPU: 'NVIDIA-GRID-K1' }, success],
    ["Pod with multiple matchExpressions ANDed that doesn't match the existing node", { affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }) }, { GPU: 'NVIDIA-GRID-K1' }, reject],
    [
      "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      { affinity: required({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }, { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] }) },
      { foo: 'bar' },
      success,
    ],
    ['an empty term does not match, but another term can', { affinity: required({}, { matchExpressions: [expr('foo', 'Exists')] }) }, { foo: 'bar' }, success],
    [
      'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node',
      { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [expr('foo', 'Exists')] }) },
      { foo: 'bar' },
      success,
    ],
    [
      "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [expr('foo', 'Exists')] }) },
      { foo: 'barrrrrr' },
      reject,
    ],
    ['NotIn matches a node without the label', { affinity: required({ matchExpressions: [expr('zone', 'NotIn', ['a'])] }) }, {}, success],
    ['DoesNotExist matches only a node without the label', { affinity: required({ matchExpressions: [expr('gpu', 'DoesNotExist')] }) }, { gpu: '' }, reject],
    ['Lt compares integers, not text', { affinity: required({ matchExpressions: [expr('cores', 'Lt', ['10'])] }) }, { cores: '9' }, success],
    ['Gt compares integers, not text (10 > 9)', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['9'])] }) }, { cores: '10' }, success],
    ['Gt is strict', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['8'])] }) }, { cores: '8' }, reject],
    ['Gt does not match a label that is not an integer', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['1'])] }) }, { cores: 'many' }, reject],
    ['Gt does not match a node without the label', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['1'])] }) }, {}, reject],
    ['Gt with two values is invalid and matches nothing', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['1', '2'])] }) }, { cores: '5' }, reject],
    ['Gt with a value that is not an integer is invalid and matches nothing', { affinity: required({ matchExpressions: [expr('cores', 'Gt', ['one'])] }) }, { cores: '5' }, reject],
    ['In without values is invalid and matches nothing', { affinity: required({ matchExpressions: [expr('zone', 'In', [])] }) }, { zone: 'a' }, reject],
    ['NotIn without values is invalid, even for a node without the label', { affinity: required({ matchExpressions: [expr('zone', 'NotIn', [])] }) }, {}, reject],
    ['Exists with values is invalid and matches nothing', { affinity: required({ matchExpressions: [expr('zone', 'Exists', ['a'])] }) }, { zone: 'a' }, reject],
    [
      'an invalid requirement spoils only its own term',
      { affinity: required({ matchExpressions: [expr('zone', 'In', [])] }, { matchExpressions: [expr('zone', 'In', ['a'])] }) },
      { zone: 'a' },
      success,
    ],
  ];

  it.each(table)('%s', (_name, podOptions, labels, want) => {
    const pod = makePod('p', podOptions);
    expect(show(verdict(newNodeAffinity(), pod, nodeInfoOf(makeNode('machine1', { labels })))), 'NodeAffinity verdict').toBe(want);
  });
});

// ---------------------------------------------------------------- the message

const statuses = (entries: [string, Status][]): NodeToStatus => new Map(entries);
const rejected = (code: Status['code'], ...reasons: string[]): Status => ({ code, reasons });

describe('fitErrorMessage', () => {
  const f1 = 'Node(s) failed Filter plugin FalseFilter-1';
  const f2 = 'Node(s) failed Filter plugin FalseFilter-2';
  const table: [string, number, [string, Status][], string, string][] = [
    [
      'nodes failed one Filter plugin with an empty PostFilterMsg',
      3,
      [['node1', rejected('Unschedulable', f1)], ['node2', rejected('Unschedulable', f1)], ['node3', rejected('Unschedulable', f1)]],
      '',
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.',
    ],
    [
      'nodes failed one Filter plugin with a non-empty PostFilterMsg',
      3,
      [['node1', rejected('Unschedulable', f1)], ['node2', rejected('Unschedulable', f1)], ['node3', rejected('Unschedulable', f1)]],
      'Error running PostFilter plugin FailedPostFilter',
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    ],
    [
      'nodes failed two Filter plugins with an empty PostFilterMsg',
      3,
      [['node1', rejected('Unschedulable', f1)], ['node2', rejected('Unschedulable', f1)], ['node3', rejected('Unschedulable', f2)]],
      '',
      '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.',
    ],
    [
      'nodes failed two Filter plugins with a non-empty PostFilterMsg',
      3,
      [['node1', rejected('Unschedulable', f1)], ['node2', rejected('Unschedulable', f1)], ['node3', rejected('Unschedulable', f2)]],
      'Error running PostFilter plugin FailedPostFilter',
      '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    ],
    ['failed to Permit on node', 1, [['node1', rejected('Unschedulable', 'Node failed Permit plugin Permit-1')]], '', '0/1 nodes are available: 1 Node failed Permit plugin Permit-1.'],
    ['failed to Reserve on node', 1, [['node1', rejected('Unschedulable', 'Node failed Reserve plugin Reserve-1')]], '', '0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.'],
    [
      'counts every reason of a node, not the node once',
      2,
      [['a', rejected('Unschedulable', 'Insufficient cpu', 'Insufficient memory')], ['b', rejected('Unschedulable', 'Insufficient cpu')]],
      '',
      '0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.',
    ],
    [
      'sorts the clauses as text, so 10 comes before 2',
      12,
      [
        ...Array.from({ length: 10 }, (_, i): [string, Status] => [`big-${i}`, rejected('Unschedulable', 'Insufficient cpu')]),
        ['cp-1', rejected('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {a: }')],
        ['cp-2', rejected('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {a: }')],
      ],
      '',
      '0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint {a: }.',
    ],
    ['sorts capitals before lower case, as Go does', 2, [['a', rejected('Unschedulable', 'node x')], ['b', rejected('Unschedulable', 'Node y')]], '', '0/2 nodes are available: 1 Node y, 1 node x.'],
    ['leaves out the clause list when there are no reasons', 0, [], '', '0/0 nodes are available:'],
    ['still appends the PostFilter message without reasons', 2, [], 'preemption: not eligible due to preemptionPolicy=Never.', '0/2 nodes are available: preemption: not eligible due to preemptionPolicy=Never.'],
  ];

  it.each(table)('%s', (_name, numAllNodes, entries, postFilterMsg, want) => {
    const map = statuses(entries);
    const before = structuredClone(map);
    expect(fitErrorMessage(numAllNodes, map, postFilterMsg)).toBe(want);
    expect(map, 'the statuses are left unchanged').toEqual(before);
  });
});

describe('preemptionMessage', () => {
  const table: [string, number, [string, Status][], string][] = [
    [
      'taints and insufficient cpu: no victims on the Unschedulable nodes, not helpful on the others',
      5,
      [
        ['cp-1', rejected('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
        ['cp-2', rejected('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
        ['cp-3', rejected('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
        ['w-1', rejected('Unschedulable', 'Insufficient cpu')],
        ['w-2', rejected('Unschedulable', 'Insufficient cpu')],
      ],
      'preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.',
    ],
    ['only unresolvable reasons: preemption is not helpful anywhere', 3, [['a', rejected('UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector")], ['b', rejected('UnschedulableAndUnresolvable', 'x')], ['c', rejected('UnschedulableAndUnresolvable', 'y')]], 'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'],
    ['only resources: no victims anywhere', 1, [['a', rejected('Unschedulable', 'Too many pods')]], 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'],
    [
      'sorts its clauses like the filter clauses (12 nodes)',
      12,
      [
        ...Array.from({ length: 10 }, (_, i): [string, Status] => [`w-${i}`, rejected('Unschedulable', 'Insufficient memory')]),
        ['cp-1', rejected('UnschedulableAndUnresolvable', 'node(s) were unschedulable')],
        ['cp-2', rejected('UnschedulableAndUnresolvable', 'node(s) were unschedulable')],
      ],
      'preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    ],
  ];

  it.each(table)('%s', (_name, numAllNodes, entries, want) => {
    expect(preemptionMessage(numAllNodes, statuses(entries))).toBe(want);
  });
});

// ---------------------------------------------------------------- the filters together, against kube-scheduler

/** The default profile's filter order for these four plugins (pkg/scheduler/apis/config/v1/default_plugins.go). */
const learnerFilters = (): FilterPlugin[] => [newNodeUnschedulable(), newTaintToleration(), newNodeAffinity(), newNodeResourcesFit()];

/** A profile with only these filters, preemption and binding: what the simulated kube-scheduler runs. */
function referenceProfile(): Profile {
  const names = ['PrioritySort', 'NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'DefaultPreemption', 'DefaultBinder'];
  const built = buildSchedulerConfig({ profiles: [{ plugins: { multiPoint: { enabled: names.map((name) => ({ name })), disabled: [{ name: '*' }] } } }] });
  if (!built.ok) throw new Error(`reference profile: ${built.errors.join('; ')}`);
  return built.config.profiles[0]!;
}

/** RunFilterPlugins with the learner's plugins: each node is rejected by the first filter that fails. */
function learnerStatuses(snapshot: Snapshot, pod: Pod): Map<string, Status> {
  const out = new Map<string, Status>();
  for (const info of snapshot.nodeInfoList) {
    for (const plugin of learnerFilters()) {
      const s = verdict(plugin, pod, info);
      if (s.code !== 'Success') {
        out.set(info.node!.name, s);
        break;
      }
    }
  }
  return out;
}

interface Outcome {
  feasible: string[];
  message: string;
}

function learnerOutcome(snapshot: Snapshot, pod: Pod): Outcome {
  const byNode = learnerStatuses(snapshot, pod);
  const feasible = snapshot.nodeInfoList.map((i) => i.node!.name).filter((n) => !byNode.has(n));
  if (feasible.length > 0) return { feasible, message: '' };
  const n = snapshot.numNodes;
  return { feasible, message: fitErrorMessage(n, byNode, preemptionMessage(n, byNode)) };
}

function schedulerOutcome(profile: Profile, nodes: Node[], existing: Pod[], pod: Pod): Outcome {
  const snapshot = Snapshot.build(nodes, existing);
  const feasible = snapshot.nodeInfoList
    .filter((info) => REFERENCE_ORDER.every((name) => referenceVerdict(name, pod, snapshot, info).code === 'Success'))
    .map((info) => info.node!.name);
  const out = scheduleOne({ profile, snapshot, pod, intn: () => 0, nextStartNodeIndex: 0, recordPerNode: false });
  if (out.kind === 'Error') throw new Error(`the reference scheduler failed: ${out.message}`);
  if ((out.kind === 'Scheduled') !== feasible.length > 0) throw new Error('the reference scheduler disagrees with its own filters');
  return { feasible, message: out.kind === 'Unschedulable' ? out.fitError.message : '' };
}

type RefFilter = FilterPlugin & Partial<PreFilterPlugin>;
const REFERENCE_ORDER = ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit'];

describe('the filters together', () => {
  it('explains the Pending Pod of chapter 7: cordoned, too small, tainted', () => {
    const cp: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
    const nodes = [
      makeNode('cp-1', { taints: [cp] }),
      makeNode('cp-2', { taints: [cp] }),
      makeNode('cp-3', { taints: [cp] }),
      makeNode('worker-1', { cpu: '2', memory: '4Gi' }),
      makeNode('worker-2', { cpu: '8', memory: '16Gi', unschedulable: true, labels: { disktype: 'ssd' } }),
      makeNode('worker-3', { cpu: '4', memory: '8Gi' }),
    ];
    const pod = makePod('big', { containers: [container(res('6', '1Gi'))] });
    expect(learnerOutcome(Snapshot.build(nodes), pod).message).toBe(
      '0/6 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ' +
        'preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.',
    );
  });

  it('counts a node once, under the first filter that rejects it', () => {
    // worker-2 is cordoned and too small: NodeUnschedulable runs first and names it
    const nodes = [makeNode('worker-1', { cpu: '1' }), makeNode('worker-2', { cpu: '1', unschedulable: true })];
    const pod = makePod('p', { containers: [container(res('2'))] });
    expect(learnerOutcome(Snapshot.build(nodes), pod).message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  it('does not modify the pod or the node it filters', () => {
    const node = makeNode('n', { cpu: '1', taints: [{ key: 'a', effect: 'NoSchedule' }], labels: { zone: 'a' } });
    const info = nodeInfoOf(node, [makePod('e', { containers: [container(res('500m', '1Gi'))] })]);
    const pod = makePod('p', { containers: [container(res('2', '1Gi'))], tolerations: [{ key: 'a', operator: 'Exists' }], nodeSelector: { zone: 'b' } });
    for (const plugin of learnerFilters()) {
      const podInfo = forLearner(pod);
      const nodeInfo = structuredClone(info);
      const before = structuredClone({ spec: podInfo.pod.spec, nodeInfo });
      plugin.filter(new Map(), podInfo, nodeInfo);
      expect({ spec: podInfo.pod.spec, nodeInfo }, `${plugin.name} changed its arguments`).toEqual(before);
    }
  });
});

// ---------------------------------------------------------------- differential property test

/** Fails a property with a message in the learner's terms (no stack trace: the counterexample is the story). */
function mismatch(message: string): never {
  const error = new Error(message);
  error.stack = `mismatch: ${message}`;
  throw error;
}

// Compact descriptions of a cluster, so a failing case prints small. Label keys and values, taint
// keys and quantities come from small pools so that selectors, tolerations and limits collide often.
const LABEL_KEYS = ['zone', 'disk', 'gpu', 'cores', 'team'];
const LABEL_VALUES = ['a', 'b', 'ssd', '1', '8', '10', '42', '007'];
const TAINT_KEYS = ['dedicated', 'gpu', 'node-role.kubernetes.io/control-plane', 'node.kubernetes.io/unreachable'];
const TAINT_VALUES = ['', 'batch', 'a'];
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

const cpuQ = fc.oneof(
  fc.integer({ min: 0, max: 3000 }).map((n) => `${n}m`),
  fc.integer({ min: 0, max: 3 }).map(String),
  fc.constantFrom('0.5', '1.5', '0.25'),
);
const memoryQ = fc.oneof(
  fc.integer({ min: 0, max: 6144 }).map((n) => `${n}Mi`),
  fc.integer({ min: 0, max: 6 }).map((n) => `${n}Gi`),
  fc.integer({ min: 0, max: 4_000_000_000 }).map(String),
  fc.integer({ min: 0, max: 3000 }).map((n) => `${n}M`),
  fc.constantFrom('0.5Gi', '1.5Gi'),
);
const ephemeralQ = fc.oneof(fc.integer({ min: 0, max: 12 }).map((n) => `${n}Gi`), fc.integer({ min: 0, max: 4096 }).map((n) => `${n}Mi`));
const requestsArb = fc.record({ cpu: cpuQ, memory: memoryQ, 'ephemeral-storage': ephemeralQ }, { requiredKeys: [] });
const containerArb = fc.option(requestsArb, { nil: undefined, freq: 4 });

const labelsArb = fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 4 });
const taintArb = fc.record({ key: fc.constantFrom(...TAINT_KEYS), value: fc.constantFrom(...TAINT_VALUES), effect: fc.constantFrom(...EFFECTS) }).map(
  ({ key, value, effect }): Taint => ({ key, ...(value === '' ? {} : { value }), effect }),
);

const nodeArb = fc.record({
  cpu: fc.constantFrom('500m', '1', '2', '3500m', '4', '8'),
  memory: fc.constantFrom('1Gi', '3000Mi', '4Gi', '8Gi', '16Gi'),
  pods: fc.integer({ min: 0, max: 6 }).map(String),
  ephemeral: fc.option(fc.constantFrom('1Gi', '10Gi', '20Gi'), { nil: undefined }),
  labels: labelsArb,
  taints: fc.array(taintArb, { maxLength: 3 }),
  unschedulable: fc.option(fc.boolean(), { nil: undefined }),
  existing: fc.array(fc.array(requestsArb, { minLength: 1, maxLength: 2 }), { maxLength: 4 }),
});

const tolerationArb: fc.Arbitrary<Toleration> = fc.oneof(
  // Exists: with a key (or none, tolerating everything), any effect
  fc.record({ key: fc.constantFrom('', ...TAINT_KEYS, 'node.kubernetes.io/unschedulable'), effect: fc.constantFrom(undefined, '', ...EFFECTS) }).map(
    ({ key, effect }): Toleration => ({ ...(key === '' ? {} : { key }), operator: 'Exists', ...(effect === undefined ? {} : { effect }) }),
  ),
  // Equal (written or omitted): key and value
  fc
    .record({ key: fc.constantFrom(...TAINT_KEYS, 'node.kubernetes.io/unschedulable'), operator: fc.constantFrom(undefined, 'Equal' as const), value: fc.constantFrom(undefined, ...TAINT_VALUES), effect: fc.constantFrom(undefined, ...EFFECTS) })
    .map(({ key, operator, value, effect }): Toleration => ({ key, ...(operator ? { operator } : {}), ...(value === undefined ? {} : { value }), ...(effect ? { effect } : {}) })),
  // NoExecute with tolerationSeconds
  fc.record({ key: fc.constantFrom(...TAINT_KEYS), seconds: fc.integer({ min: 0, max: 600 }) }).map(({ key, seconds }): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds })),
);

const requirementArb: fc.Arbitrary<NodeSelectorRequirement> = fc.oneof(
  { arbitrary: fc.record({ key: fc.constantFrom(...LABEL_KEYS), operator: fc.constantFrom('In' as const, 'NotIn' as const), values: fc.uniqueArray(fc.constantFrom(...LABEL_VALUES), { maxLength: 3 }) }), weight: 4 },
  { arbitrary: fc.record({ key: fc.constantFrom(...LABEL_KEYS), operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const) }), weight: 3 },
  { arbitrary: fc.record({ key: fc.constantFrom(...LABEL_KEYS), operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const), values: fc.constant<string[]>(['a']) }), weight: 1 },
  { arbitrary: fc.record({ key: fc.constantFrom(...LABEL_KEYS), operator: fc.constantFrom('Gt' as const, 'Lt' as const), values: fc.constantFrom<string[][]>(['0'], ['1'], ['8'], ['9'], ['10'], ['41'], ['100']) }), weight: 4 },
  { arbitrary: fc.record({ key: fc.constantFrom(...LABEL_KEYS), operator: fc.constantFrom('Gt' as const, 'Lt' as const), values: fc.constantFrom<string[][]>([], ['1', '2'], ['x']) }), weight: 1 },
);
const termArb: fc.Arbitrary<NodeSelectorTerm> = fc.oneof(
  { arbitrary: fc.array(requirementArb, { minLength: 1, maxLength: 3 }).map((matchExpressions) => ({ matchExpressions })), weight: 9 },
  { arbitrary: fc.constant({}), weight: 1 },
);

const podArb = fc.record({
  containers: fc.array(containerArb, { minLength: 1, maxLength: 3 }),
  initContainers: fc.option(fc.array(containerArb, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  overhead: fc.option(requestsArb, { nil: undefined }),
  tolerations: fc.option(fc.array(tolerationArb, { maxLength: 3 }), { nil: undefined }),
  nodeSelector: fc.option(fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { minKeys: 1, maxKeys: 2 }), { nil: undefined }),
  terms: fc.option(fc.array(termArb, { minLength: 1, maxLength: 3 }), { nil: undefined }),
});

const clusterArb = fc.record({ nodes: fc.array(nodeArb, { minLength: 1, maxLength: 6 }), pod: podArb });
type ClusterSpec = typeof clusterArb extends fc.Arbitrary<infer T> ? T : never;

function buildCluster(spec: ClusterSpec): { nodes: Node[]; existing: Pod[]; pod: Pod } {
  const nodes: Node[] = [];
  const existing: Pod[] = [];
  spec.nodes.forEach((n, i) => {
    const name = `node-${i}`;
    nodes.push(makeNode(name, { cpu: n.cpu, memory: n.memory, pods: n.pods, ...(n.ephemeral ? { ephemeral: n.ephemeral } : {}), labels: n.labels, taints: n.taints, ...(n.unschedulable === undefined ? {} : { unschedulable: n.unschedulable }) }));
    n.existing.forEach((containers, j) => existing.push(makePod(`${name}-pod-${j}`, { nodeName: name, containers: containers.map((r, k) => container(r, `c${k}`)) })));
  });
  const p = spec.pod;
  const pod = makePod('incoming', {
    containers: p.containers.map((r, k) => container(r, `c${k}`)),
    ...(p.initContainers ? { initContainers: p.initContainers.map((r, k) => container(r, `init${k}`)) } : {}),
    ...(p.overhead ? { overhead: p.overhead } : {}),
    ...(p.tolerations ? { tolerations: p.tolerations } : {}),
    ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
    ...(p.terms ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: p.terms } } } } : {}),
  });
  return { nodes, existing, pod };
}

/** The reference verdict: the simulated kube-scheduler's own plugin (PreFilter first, as the framework runs it). */
function referenceVerdict(name: string, pod: Pod, snapshot: Snapshot, info: SchedNodeInfo): Status {
  const plugin = IN_TREE_REGISTRY[name]!(undefined) as RefFilter;
  const state = new Map();
  const podInfo = newPodInfo(pod);
  const pre = plugin.preFilter?.(state, podInfo, { allNodes: snapshot.nodeInfoList });
  if (pre && pre[1].code === 'Skip') return { code: 'Success', reasons: [] };
  const s = plugin.filter(state, podInfo, info);
  return { code: s.code, reasons: [...s.reasons] };
}

const PLUGINS: [string, () => FilterPlugin][] = [
  ['NodeResourcesFit', newNodeResourcesFit],
  ['NodeUnschedulable', newNodeUnschedulable],
  ['TaintToleration', newTaintToleration],
  ['NodeAffinity', newNodeAffinity],
];
const SEEDS = [20250401, 7, 1234];

describe('matches the simulated kube-scheduler on generated clusters', () => {
  const cases: [string, number, () => FilterPlugin][] = PLUGINS.flatMap(([name, make]) => SEEDS.map((seed): [string, number, () => FilterPlugin] => [name, seed, make]));

  it.each(cases)('%s gives the same verdict on every node (seed %i)', (name, seed, make) => {
    fc.assert(
      fc.property(clusterArb, (spec) => {
        const { nodes, existing, pod } = buildCluster(spec);
        const snapshot = Snapshot.build(nodes, existing);
        for (const info of snapshot.nodeInfoList) {
          const want = show(referenceVerdict(name, pod, snapshot, info));
          const got = show(verdict(make(), pod, info));
          if (got !== want) mismatch(`${name} on ${info.node!.name}: expected ${want}, got ${got}`);
        }
      }),
      { seed, numRuns: 150, includeErrorInReport: true },
    );
  });

  it.each(SEEDS)('the four filters and the message agree with kube-scheduler (seed %i)', (seed) => {
    const profile = referenceProfile();
    fc.assert(
      fc.property(clusterArb, (spec) => {
        const { nodes, existing, pod } = buildCluster(spec);
        const want = schedulerOutcome(profile, nodes, existing, pod);
        const got = learnerOutcome(Snapshot.build(nodes, existing), pod);
        if (got.feasible.join(',') !== want.feasible.join(',')) {
          mismatch(`nodes that pass every filter: expected [${want.feasible.join(', ')}], got [${got.feasible.join(', ')}]`);
        }
        if (got.message !== want.message) mismatch(`message: expected "${want.message}", got "${got.message}"`);
      }),
      { seed, numRuns: 150, includeErrorInReport: true },
    );
  });
});
