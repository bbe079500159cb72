// Visible examples for the scheduler-filters lab: read them, run them, add your own.
// `npm run grade -- scheduler-filters --examples`
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodSpec } from '../../runtime/api/index.ts';
import { Snapshot, newPodInfo, type NodeToStatus, type SchedNodeInfo, type SchedPodInfo, type Status } from '../../runtime/scheduler/index.ts';
import { fitErrorMessage, newNodeAffinity, newNodeResourcesFit, newTaintToleration, preemptionMessage } from '@lab/submission';

function node(name: string, extra: { cpu?: string; labels?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints'] } = {}): Node {
  const allocatable = { cpu: extra.cpu ?? '2', memory: '4Gi', pods: '110' };
  return {
    metadata: { name, labels: extra.labels ?? {} },
    spec: extra.taints ? { taints: extra.taints } : {},
    status: { capacity: allocatable, allocatable },
  };
}

function pod(name: string, spec: Partial<PodSpec> = {}): Pod {
  return { metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } };
}

/** The scheduler's NodeInfo for a node running `running` (their requests are summed for you). */
function infoOf(n: Node, running: Pod[] = []): SchedNodeInfo {
  const name = n.metadata.name!;
  return Snapshot.build([n], running.map((p) => ({ ...p, spec: { ...p.spec, nodeName: name } }))).get(name)!;
}

/** The pod as your filter receives it; as in the hidden suite, its cached `requests` are left out on purpose. */
function podInfo(p: Pod): SchedPodInfo {
  const info = newPodInfo(p);
  for (const key of ['requests', 'nonZeroRequests'] as const) {
    Object.defineProperty(info, key, { get: () => { throw new Error(`compute the request from pod.pod.spec, not pod.${key}`); } });
  }
  return info;
}

const asks = (cpu: string) => [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu, memory: '128Mi' } } }];

describe('examples', () => {
  it('NodeResourcesFit: 1500m asked, 2 CPUs with 1 already requested: Insufficient cpu', () => {
    const info = infoOf(node('worker-1'), [pod('web', { containers: asks('1') })]);
    const status = newNodeResourcesFit().filter(new Map(), podInfo(pod('big', { containers: asks('1500m') })), info);
    expect(status).toEqual({ code: 'Unschedulable', reasons: ['Insufficient cpu'] });
  });

  it('NodeResourcesFit: 1 CPU fits exactly', () => {
    const info = infoOf(node('worker-1'), [pod('web', { containers: asks('1') })]);
    const status = newNodeResourcesFit().filter(new Map(), podInfo(pod('small', { containers: asks('1') })), info);
    expect(status.code).toBe('Success');
  });

  it('TaintToleration names the taint the pod does not tolerate', () => {
    const info = infoOf(node('cp-1', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    expect(newTaintToleration().filter(new Map(), podInfo(pod('web')), info)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
    });
  });

  it('NodeAffinity: a nodeSelector the node does not carry', () => {
    const info = infoOf(node('worker-1', { labels: { disktype: 'hdd' } }));
    const status = newNodeAffinity().filter(new Map(), podInfo(pod('db', { nodeSelector: { disktype: 'ssd' } })), info);
    expect(status).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] });
  });

  it('the message counts each reason and sorts the clauses as text', () => {
    const statuses: NodeToStatus = new Map<string, Status>([
      ['cp-1', { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'] }],
      ['worker-1', { code: 'Unschedulable', reasons: ['Insufficient cpu'] }],
      ['worker-2', { code: 'Unschedulable', reasons: ['Insufficient cpu'] }],
    ]);
    expect(fitErrorMessage(3, statuses, preemptionMessage(3, statuses))).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });
});
