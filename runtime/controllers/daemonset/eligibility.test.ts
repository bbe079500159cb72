// Cases after pkg/controller/daemon/daemon_controller_test.go (TestNodeShouldRunDaemonPod,
// TestTaintedNode*, TestNodeAffinity*, TestUnschedulableNode*, TestNetworkUnavailableNode*).
import { describe, expect, it } from 'vitest';
import type { PodSpec, Taint } from '../../api/index.ts';
import { daemonPodTolerations, nodeShouldRunDaemonPod, withDaemonTolerations } from './eligibility.ts';
import { daemonSet, node } from './testdata.ts';

const taint = (key: string, effect: Taint['effect'], value?: string): Taint => ({ key, effect, ...(value ? { value } : {}) });
const affinityIn = (key: string, values: string[]): Partial<PodSpec> => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }] } } },
});

const cases: { name: string; spec?: Partial<PodSpec>; node: ReturnType<typeof node>; run: boolean; keep: boolean }[] = [
  { name: 'simple DaemonSet', node: node('n1'), run: true, keep: true },
  { name: 'template nodeName matches', spec: { nodeName: 'n1' }, node: node('n1'), run: true, keep: true },
  { name: 'template nodeName does not match', spec: { nodeName: 'other' }, node: node('n1'), run: false, keep: false },
  { name: 'nodeSelector matches', spec: { nodeSelector: { disk: 'ssd' } }, node: node('n1', { labels: { disk: 'ssd' } }), run: true, keep: true },
  { name: 'nodeSelector does not match', spec: { nodeSelector: { disk: 'ssd' } }, node: node('n1', { labels: { disk: 'hdd' } }), run: false, keep: false },
  { name: 'required node affinity matches', spec: affinityIn('zone', ['a', 'b']), node: node('n1', { labels: { zone: 'b' } }), run: true, keep: true },
  { name: 'required node affinity does not match', spec: affinityIn('zone', ['a']), node: node('n1', { labels: { zone: 'c' } }), run: false, keep: false },
  { name: 'untolerated NoSchedule taint: no new pod, the old one stays', node: node('n1', { taints: [taint('dedicated', 'NoSchedule', 'db')] }), run: false, keep: true },
  { name: 'untolerated NoExecute taint: no pod at all', node: node('n1', { taints: [taint('dedicated', 'NoExecute', 'db')] }), run: false, keep: false },
  { name: 'PreferNoSchedule is ignored', node: node('n1', { taints: [taint('dedicated', 'PreferNoSchedule')] }), run: true, keep: true },
  { name: 'tolerated NoExecute taint', spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoExecute' }] }, node: node('n1', { taints: [taint('dedicated', 'NoExecute', 'db')] }), run: true, keep: true },
  { name: 'control-plane taint with operator Exists', spec: { tolerations: [{ operator: 'Exists' }] }, node: node('cp', { taints: [taint('node-role.kubernetes.io/control-plane', 'NoSchedule')] }), run: true, keep: true },
  { name: 'control-plane taint without toleration', node: node('cp', { taints: [taint('node-role.kubernetes.io/control-plane', 'NoSchedule')] }), run: false, keep: true },
  { name: 'not-ready NoExecute is tolerated automatically', node: node('n1', { taints: [taint('node.kubernetes.io/not-ready', 'NoExecute')] }), run: true, keep: true },
  { name: 'unreachable NoExecute is tolerated automatically', node: node('n1', { taints: [taint('node.kubernetes.io/unreachable', 'NoExecute')] }), run: true, keep: true },
  { name: 'unreachable NoSchedule is not', node: node('n1', { taints: [taint('node.kubernetes.io/unreachable', 'NoSchedule'), taint('node.kubernetes.io/unreachable', 'NoExecute')] }), run: false, keep: true },
  { name: 'memory, disk and pid pressure are tolerated', node: node('n1', { taints: ['memory', 'disk', 'pid'].map((p) => taint(`node.kubernetes.io/${p}-pressure`, 'NoSchedule')) }), run: true, keep: true },
  { name: 'a cordoned node still runs daemons', node: node('n1', { unschedulable: true, taints: [taint('node.kubernetes.io/unschedulable', 'NoSchedule')] }), run: true, keep: true },
  { name: 'network-unavailable blocks a pod-network daemon', node: node('n1', { taints: [taint('node.kubernetes.io/network-unavailable', 'NoSchedule')] }), run: false, keep: true },
  { name: 'network-unavailable is tolerated with hostNetwork', spec: { hostNetwork: true }, node: node('n1', { taints: [taint('node.kubernetes.io/network-unavailable', 'NoSchedule')] }), run: true, keep: true },
];

describe('nodeShouldRunDaemonPod', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(nodeShouldRunDaemonPod(c.node, daemonSet(c.spec))).toEqual({ shouldRun: c.run, shouldContinueRunning: c.keep });
    });
  }
});

describe('daemon tolerations', () => {
  it('adds the six upstream tolerations, plus network-unavailable for hostNetwork', () => {
    expect(daemonPodTolerations({}).map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(daemonPodTolerations({ hostNetwork: true })).toHaveLength(7);
  });

  it('never duplicates a toleration the template already has', () => {
    const spec = { containers: [], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' as const, effect: 'NoExecute' as const }, { operator: 'Exists' as const }] };
    const out = withDaemonTolerations(spec);
    expect(out.filter((t) => t.key === 'node.kubernetes.io/not-ready')).toHaveLength(1);
    expect(out).toHaveLength(7);
  });
});
