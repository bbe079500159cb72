// Tables ported from the _test.go files of nodeunschedulable, nodename, nodeports,
// tainttoleration, nodeaffinity and imagelocality (pkg/scheduler/framework/plugins/...).
import { describe, expect, it } from 'vitest';
import type { Pod, Taint, Toleration } from '../../api/index.ts';
import { MAX_NODE_SCORE } from '../framework/interface.ts';
import { newPodInfo } from '../framework/pod-info.ts';
import { Snapshot } from '../framework/snapshot.ts';
import { container, makeNode, makePod, type NodeOptions } from '../testing-builders.ts';
import {
  calculatePriority,
  newImageLocality,
  normalizedImageName,
} from './imagelocality/image-locality.ts';
import { newNodeAffinity } from './nodeaffinity/node-affinity.ts';
import { newNodeName } from './nodename/node-name.ts';
import { fitsPorts, newNodePorts } from './nodeports/node-ports.ts';
import { newNodeUnschedulable } from './nodeunschedulable/node-unschedulable.ts';
import { newTaintToleration } from './tainttoleration/taint-toleration.ts';

const nodeInfo = (o: NodeOptions = {}, name = 'n', pods: Pod[] = []) =>
  Snapshot.build([makeNode(name, o)], pods).get(name)!;

describe('NodeUnschedulable (node_unschedulable_test.go)', () => {
  const cases: [string, boolean, Toleration[], string][] = [
    ['schedulable node', false, [], 'Success'],
    ['cordoned node rejects', true, [], 'UnschedulableAndUnresolvable'],
    [
      'cordoned node admits a pod tolerating the unschedulable taint',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      'Success',
    ],
  ];
  for (const [name, cordoned, tolerations, code] of cases) {
    it(name, () => {
      const s = newNodeUnschedulable().filter(
        new Map(),
        newPodInfo(makePod('p', { tolerations })),
        nodeInfo({ unschedulable: cordoned }),
      );
      expect(s.code).toBe(code);
      if (code !== 'Success') expect(s.reasons).toEqual(['node(s) were unschedulable']);
    });
  }
});

describe('NodeName (node_name_test.go)', () => {
  const cases: [string, string | undefined, string][] = [
    ['no host specified', undefined, 'Success'],
    ['host matches', 'n', 'Success'],
    ['host does not match', 'other', 'UnschedulableAndUnresolvable'],
  ];
  for (const [name, nodeName, code] of cases) {
    it(name, () => {
      const pod = newPodInfo(makePod('p', nodeName ? { nodeName } : {}));
      const s = newNodeName().filter(new Map(), pod, nodeInfo());
      expect(s.code).toBe(code);
      if (code !== 'Success')
        expect(s.reasons).toEqual(["node(s) didn't match the requested node name"]);
    });
  }
});

describe('NodePorts (node_ports_test.go)', () => {
  const port = (hostPort: number, protocol: 'TCP' | 'UDP' = 'TCP', hostIP = '') => ({
    containerPort: hostPort,
    hostPort,
    protocol,
    ...(hostIP ? { hostIP } : {}),
  });
  const withPorts = (name: string, ports: ReturnType<typeof port>[], nodeName?: string) =>
    makePod(name, { containers: [container({ ports })], ...(nodeName ? { nodeName } : {}) });
  const cases: [string, ReturnType<typeof port>[], ReturnType<typeof port>[], boolean][] = [
    ['nothing running', [port(8080)], [], true],
    ['other port', [port(8080)], [port(9090)], true],
    ['same udp port', [port(8080, 'UDP', '127.0.0.1')], [port(8080, 'UDP', '127.0.0.1')], false],
    ['same tcp port', [port(8080, 'TCP', '127.0.0.1')], [port(8080, 'TCP', '127.0.0.1')], false],
    ['different host ip', [port(8080, 'TCP', '127.0.0.1')], [port(8080, 'TCP', '127.0.0.2')], true],
    [
      'different protocol',
      [port(8080, 'UDP', '127.0.0.1')],
      [port(8080, 'TCP', '127.0.0.1')],
      true,
    ],
    [
      'second port conflicts',
      [port(8000, 'TCP', '127.0.0.1'), port(8080, 'UDP', '127.0.0.1')],
      [port(8000, 'TCP', '127.0.0.1'), port(8080, 'UDP', '127.0.0.1')],
      false,
    ],
    [
      '0.0.0.0 conflicts with any ip',
      [port(8001, 'TCP', '0.0.0.0')],
      [port(8001, 'TCP', '127.0.0.1')],
      false,
    ],
    ['any ip conflicts with 0.0.0.0', [port(8001, 'TCP', '127.0.0.1')], [port(8001, 'TCP')], false],
    ['0.0.0.0 but another protocol', [port(8001, 'UDP')], [port(8001, 'TCP', '127.0.0.1')], true],
  ];
  for (const [name, wanted, used, fits] of cases) {
    it(name, () => {
      const info = nodeInfo({}, 'n', [withPorts('e', used, 'n')]);
      const pod = newPodInfo(withPorts('p', wanted));
      expect(fitsPorts(pod.hostPorts, info.usedPorts)).toBe(fits);
      const plugin = newNodePorts();
      const state = new Map();
      plugin.preFilter(state, pod, { allNodes: [info] });
      const s = plugin.filter(state, pod, info);
      expect(s).toEqual(
        fits
          ? { code: 'Success', reasons: [] }
          : {
              code: 'Unschedulable',
              reasons: ["node(s) didn't have free ports for the requested pod ports"],
            },
      );
    });
  }
  it('PreFilter skips a pod without host ports', () => {
    expect(
      newNodePorts().preFilter(new Map(), newPodInfo(makePod('p', { containers: [container()] })), {
        allNodes: [],
      })[1].code,
    ).toBe('Skip');
  });
});

describe('TaintToleration Filter (taint_toleration_test.go TestTaintTolerationFilter)', () => {
  const cases: [string, Taint[], Toleration[], string | null][] = [
    [
      'a pod with no tolerations cannot be placed on a tainted node',
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      [],
      'node(s) had untolerated taint {dedicated: user1}',
    ],
    [
      'a pod tolerating the taint can be placed',
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      null,
    ],
    [
      'a pod tolerating another value cannot',
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      'node(s) had untolerated taint {dedicated: user1}',
    ],
    [
      'Exists with the key tolerates any value',
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      null,
    ],
    [
      'one of two taints tolerated',
      [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ],
      [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ],
      null,
    ],
    [
      'toleration effect must match',
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
      'node(s) had untolerated taint {foo: bar}',
    ],
    [
      'empty effect tolerates every effect',
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      [{ key: 'foo', operator: 'Equal', value: 'bar' }],
      null,
    ],
    [
      'PreferNoSchedule taints do not block',
      [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }],
      [],
      null,
    ],
    [
      'control-plane taint without value',
      [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      [],
      'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
    ],
    [
      'empty key with Exists tolerates everything',
      [{ key: 'a', value: 'b', effect: 'NoExecute' }],
      [{ operator: 'Exists' }],
      null,
    ],
  ];
  for (const [name, taints, tolerations, reason] of cases) {
    it(name, () => {
      const s = newTaintToleration().filter(
        new Map(),
        newPodInfo(makePod('p', { tolerations })),
        nodeInfo({ taints }),
      );
      expect(s).toEqual(
        reason
          ? { code: 'UnschedulableAndUnresolvable', reasons: [reason] }
          : { code: 'Success', reasons: [] },
      );
    });
  }
});

function scoreAll(
  plugin:
    | ReturnType<typeof newTaintToleration>
    | ReturnType<typeof newNodeAffinity>
    | ReturnType<typeof newImageLocality>,
  pod: Pod,
  snap: Snapshot,
) {
  const state = new Map();
  const p = newPodInfo(pod);
  plugin.preScore(state, p, snap.nodeInfoList, { allNodes: snap.nodeInfoList });
  const raw = snap.nodeInfoList.map((n) => ({
    name: n.node!.name,
    score: plugin.score(state, p, n)[0],
  }));
  const ext = plugin.scoreExtensions();
  return ext ? ext.normalizeScore(state, p, raw)[0].map((s) => s.score) : raw.map((s) => s.score);
}

describe('TaintToleration Score (TestTaintTolerationScore)', () => {
  it('the node with fewer intolerable PreferNoSchedule taints wins', () => {
    // raw counts: nodeA 0, nodeB 1, nodeC 2 -> reversed normalize: 100, 100-50 = 50, 0
    const pns = (k: string): Taint => ({ key: k, value: 'v', effect: 'PreferNoSchedule' });
    const snap = Snapshot.build([
      makeNode('nodeA'),
      makeNode('nodeB', { taints: [pns('a')] }),
      makeNode('nodeC', { taints: [pns('a'), pns('b')] }),
    ]);
    expect(scoreAll(newTaintToleration(), makePod('p'), snap)).toEqual([100, 50, 0]);
  });
  it('tolerated PreferNoSchedule taints do not count; NoSchedule ones are ignored by Score', () => {
    const snap = Snapshot.build([
      makeNode('nodeA', { taints: [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }] }),
      makeNode('nodeB', { taints: [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }] }),
      makeNode('nodeC', { taints: [{ key: 'cpu-type', value: 'x', effect: 'NoSchedule' }] }),
    ]);
    const pod = makePod('p', {
      tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    });
    // raw: 0, 1, 0 -> 100, 0, 100
    expect(scoreAll(newTaintToleration(), pod, snap)).toEqual([100, 0, 100]);
  });
});

describe('NodeAffinity (node_affinity_test.go)', () => {
  const REASON = "node(s) didn't match Pod's node affinity/selector";
  const required = (...terms: object[]) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  });
  const cases: [string, Partial<Pod['spec']>, Record<string, string>, boolean][] = [
    ['no selector fits any node', {}, { foo: 'bar' }, true],
    ['nodeSelector mismatch', { nodeSelector: { foo: 'bar' } }, {}, false],
    ['nodeSelector match', { nodeSelector: { foo: 'bar' } }, { foo: 'bar' }, true],
    [
      'nodeSelector needs every key',
      { nodeSelector: { foo: 'bar', baz: 'blah' } },
      { foo: 'bar' },
      false,
    ],
    [
      'In matches',
      {
        affinity: required({
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1', 'value2'] }],
        }),
      },
      { foo: 'value2' },
      true,
    ],
    [
      'In does not match',
      {
        affinity: required({
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1'] }],
        }),
      },
      { foo: 'value2' },
      false,
    ],
    [
      'Gt matches an integer label',
      {
        affinity: required({
          matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }],
        }),
      },
      { 'kernel-version': '0206' },
      true,
    ],
    [
      'Gt with a non-integer label never matches',
      {
        affinity: required({
          matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['10'] }],
        }),
      },
      { 'kernel-version': '5.x' },
      false,
    ],
    [
      'Lt matches',
      { affinity: required({ matchExpressions: [{ key: 'n', operator: 'Lt', values: ['10'] }] }) },
      { n: '9' },
      true,
    ],
    [
      'NotIn matches when the key is absent',
      {
        affinity: required({
          matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }],
        }),
      },
      {},
      true,
    ],
    [
      'DoesNotExist rejects a present key',
      { affinity: required({ matchExpressions: [{ key: 'GPU', operator: 'DoesNotExist' }] }) },
      { GPU: 'NVIDIA-GRID-K1' },
      false,
    ],
    [
      'Exists matches a present key',
      { affinity: required({ matchExpressions: [{ key: 'GPU', operator: 'Exists' }] }) },
      { GPU: 'x' },
      true,
    ],
    [
      'terms are ORed',
      {
        affinity: required(
          { matchExpressions: [{ key: 'foo', operator: 'In', values: ['x'] }] },
          { matchExpressions: [{ key: 'diffkey', operator: 'In', values: ['wrong', 'value2'] }] },
        ),
      },
      { diffkey: 'value2' },
      true,
    ],
    [
      'requirements in a term are ANDed',
      {
        affinity: required({
          matchExpressions: [
            { key: 'foo', operator: 'Exists' },
            { key: 'bar', operator: 'Exists' },
          ],
        }),
      },
      { foo: '1' },
      false,
    ],
    ['an empty term matches nothing', { affinity: required({}) }, { foo: 'bar' }, false],
    ['no terms match nothing', { affinity: required() }, { foo: 'bar' }, false],
    [
      'nodeSelector and affinity both required',
      {
        nodeSelector: { foo: 'bar' },
        affinity: required({ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }),
      },
      { foo: 'baz' },
      false,
    ],
    [
      'matchFields metadata.name In',
      {
        affinity: required({
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }],
        }),
      },
      {},
      true,
    ],
    [
      'matchFields metadata.name In another node',
      {
        affinity: required({
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['other'] }],
        }),
      },
      {},
      false,
    ],
    [
      'matchFields and matchExpressions are ANDed',
      {
        affinity: required({
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }],
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }],
        }),
      },
      { foo: 'baz' },
      false,
    ],
  ];
  for (const [name, spec, labels, fits] of cases) {
    it(name, () => {
      const plugin = newNodeAffinity();
      const pod = newPodInfo(makePod('p', spec));
      const s = plugin.filter(new Map(), pod, nodeInfo({ labels }));
      expect(s).toEqual(
        fits
          ? { code: 'Success', reasons: [] }
          : { code: 'UnschedulableAndUnresolvable', reasons: [REASON] },
      );
    });
  }
  it('PreFilter skips pods without selector or required affinity', () => {
    expect(
      newNodeAffinity().preFilter(new Map(), newPodInfo(makePod('p')), { allNodes: [] })[1].code,
    ).toBe('Skip');
  });
  it('Score: sum of matching preferred weights, normalized (TestNodeAffinityPriority)', () => {
    // weights: foo=bar 2, key=value 4, az=az1 5. node1 {foo:bar} 2; node2 {foo:bar,key:value} 6;
    // node3 {az:az1,foo:bar,key:value} 11 -> normalized 2*100/11 = 18, 6*100/11 = 54, 100
    const pref = (weight: number, key: string, value: string) => ({
      weight,
      preference: { matchExpressions: [{ key, operator: 'In' as const, values: [value] }] },
    });
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            pref(2, 'foo', 'bar'),
            pref(4, 'key', 'value'),
            pref(5, 'az', 'az1'),
          ],
        },
      },
    });
    const snap = Snapshot.build([
      makeNode('node1', { labels: { foo: 'bar' } }),
      makeNode('node2', { labels: { foo: 'bar', key: 'value' } }),
      makeNode('node3', { labels: { az: 'az1', foo: 'bar', key: 'value' } }),
    ]);
    expect(scoreAll(newNodeAffinity(), pod, snap)).toEqual([18, 54, MAX_NODE_SCORE]);
  });
});

describe('ImageLocality (image_locality_test.go)', () => {
  const MB = 1024 * 1024;
  const nodes = () => [
    makeNode('node1', {
      images: [
        { names: ['gcr.io/40:latest', 'gcr.io/40:v1'], sizeBytes: 40 * MB },
        { names: ['gcr.io/250:latest'], sizeBytes: 250 * MB },
      ],
    }),
    makeNode('node2', {
      images: [
        { names: ['gcr.io/300:latest'], sizeBytes: 300 * MB },
        { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * MB },
      ],
    }),
    makeNode('node3', { images: [{ names: ['gcr.io/10:v1'], sizeBytes: 10 * MB }] }),
  ];
  const pod = (...images: string[]) =>
    makePod('p', { containers: images.map((image, i) => container({ image }, `c${i}`)) });

  it('two images spread on two nodes, prefer the larger image one', () => {
    // node1: gcr.io/40 present on 1 of 3 nodes -> 40MB/3 = 13.3MB < 23MB -> 0
    // node2: gcr.io/300 -> 300MB/3 = 100MB; max threshold 2 containers * 1000MB:
    //        100 * (100MB - 23MB) / (2000MB - 23MB) = 3.89 -> 3; node3: nothing -> 0
    expect(
      scoreAll(newImageLocality(), pod('gcr.io/40', 'gcr.io/300'), Snapshot.build(nodes())),
    ).toEqual([0, 3, 0]);
  });
  it('two images on one node, prefer that node', () => {
    // node1: (40MB + 250MB)/3 = 96.67MB -> 100 * (96.67 - 23) / 1977 = 3.72 -> 3
    expect(
      scoreAll(newImageLocality(), pod('gcr.io/40', 'gcr.io/250'), Snapshot.build(nodes())),
    ).toEqual([3, 0, 0]);
  });
  it('image larger than the max threshold is clamped', () => {
    // node2: 2000MB/3 = 666.67MB; 1 container: 100 * (666.67 - 23) / (1000 - 23) = 65.88 -> 65
    expect(scoreAll(newImageLocality(), pod('gcr.io/2000'), Snapshot.build(nodes()))).toEqual([
      0, 65, 0,
    ]);
  });
  it('an image on every node is discounted by its spread', () => {
    const everywhere = ['a', 'b', 'c'].map((n) =>
      makeNode(n, { images: [{ names: ['big:latest'], sizeBytes: 900 * MB }] }),
    );
    // 900MB * 3/3 = 900MB -> 100 * (900 - 23) / 977 = 89.76 -> 89 on every node
    expect(scoreAll(newImageLocality(), pod('big'), Snapshot.build(everywhere))).toEqual([
      89, 89, 89,
    ]);
  });
  it('normalizes names without a tag to :latest', () => {
    expect(normalizedImageName('gcr.io/40')).toBe('gcr.io/40:latest');
    expect(normalizedImageName('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(normalizedImageName('nginx:1.27')).toBe('nginx:1.27');
    expect(calculatePriority(0, 1)).toBe(0);
    expect(calculatePriority(2000 * MB, 1)).toBe(100);
  });
});
