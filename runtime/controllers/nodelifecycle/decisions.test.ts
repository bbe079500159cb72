// Table tests for the node lifecycle controller's pure decisions.
import { describe, expect, it } from 'vitest';
import type { Lease, Node, Pod, Taint } from '../../api/index.ts';
import { planEviction } from './eviction.ts';
import { NODE_MONITOR_GRACE_PERIOD_MS, tryUpdateNodeHealth } from './health.ts';
import { desiredNoExecuteTaints, desiredNoScheduleTaints, reconcileTaints } from './taints.ts';

const readyNode = (status: 'True' | 'False' | 'Unknown' = 'True', taints?: Taint[]): Node => ({
  metadata: { name: 'n', creationTimestamp: 'T0' },
  spec: taints ? { taints } : {},
  status: {
    conditions: [
      { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: 'H1', lastTransitionTime: 'T0' },
      { type: 'Ready', status, lastHeartbeatTime: 'H1', lastTransitionTime: 'T0', reason: 'KubeletReady' },
    ],
  },
});
const lease = (renewTime: string): Lease => ({ metadata: { name: 'n' }, spec: { renewTime } });

describe('tryUpdateNodeHealth', () => {
  it('a node seen for the first time gets a full grace period from now', () => {
    const r = tryUpdateNodeHealth(readyNode(), undefined, undefined, 1000, 'NOW');
    expect(r.conditions).toBeNull();
    expect(r.health.probeTimestampMs).toBe(1000);
  });
  it('a renewed lease moves the probe time; a stale one does not', () => {
    const first = tryUpdateNodeHealth(readyNode(), undefined, lease('2026-01-01T00:00:01.000000Z'), 0, 'NOW');
    const renewed = tryUpdateNodeHealth(readyNode(), first.health, lease('2026-01-01T00:00:11.000000Z'), 10_000, 'NOW');
    expect(renewed.health.probeTimestampMs).toBe(10_000);
    const same = tryUpdateNodeHealth(readyNode(), renewed.health, lease('2026-01-01T00:00:11.000000Z'), 20_000, 'NOW');
    expect(same.health.probeTimestampMs).toBe(10_000);
  });
  it('exactly at the grace period nothing happens; just after, the conditions become Unknown', () => {
    const first = tryUpdateNodeHealth(readyNode(), undefined, undefined, 0, 'T0');
    expect(tryUpdateNodeHealth(readyNode(), first.health, undefined, NODE_MONITOR_GRACE_PERIOD_MS, 'T').conditions).toBeNull();
    const r = tryUpdateNodeHealth(readyNode(), first.health, undefined, NODE_MONITOR_GRACE_PERIOD_MS + 1, 'LATE');
    expect(r.observedReady?.status).toBe('True');
    expect(r.currentReady).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: 'H1', // the last time we heard from the kubelet, kept
      lastTransitionTime: 'LATE',
    });
    // missing pressure conditions are added as never updated
    expect(r.conditions?.find((c) => c.type === 'DiskPressure')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
      lastHeartbeatTime: 'T0',
    });
  });
  it('an already Unknown node is not written again', () => {
    const first = tryUpdateNodeHealth(readyNode('Unknown'), undefined, undefined, 0, 'T0');
    const node = readyNode('Unknown');
    node.status!.conditions = [
      'Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure',
    ].map((type) => ({ type, status: 'Unknown' as const, lastHeartbeatTime: 'H1' }));
    expect(tryUpdateNodeHealth(node, first.health, undefined, 120_000, 'LATE').conditions).toBeNull();
  });
});

describe('taints', () => {
  const cases: [string, Node, string[]][] = [
    ['ready', readyNode('True'), []],
    ['not ready', readyNode('False'), ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule']],
    ['unknown', readyNode('Unknown'), ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']],
    [
      'unknown and cordoned, with a user taint kept',
      { ...readyNode('Unknown', [{ key: 'gpu', effect: 'NoSchedule' }]), spec: { unschedulable: true, taints: [{ key: 'gpu', effect: 'NoSchedule' }] } },
      ['gpu:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule'],
    ],
  ];
  it.each(cases)('%s', (_name, node, expected) => {
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    const next = reconcileTaints(node, desiredNoScheduleTaints(node), desiredNoExecuteTaints(node, ready, 'NOW'));
    expect((next ?? node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort()).toEqual(expected);
  });
  it('a NoExecute taint already there keeps its timeAdded, and nothing changes', () => {
    const taints: Taint[] = [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'EARLIER' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
    ];
    const node = readyNode('Unknown', taints);
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    expect(desiredNoExecuteTaints(node, ready, 'NOW')[0]?.timeAdded).toBe('EARLIER');
    expect(reconcileTaints(node, desiredNoScheduleTaints(node), desiredNoExecuteTaints(node, ready, 'NOW'))).toBeNull();
  });
});

describe('planEviction (processPodOnNode)', () => {
  const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
  const pod = (tolerations: NonNullable<Pod['spec']['tolerations']>): Pod => ({ metadata: { name: 'p' }, spec: { containers: [], tolerations } });
  const cases: [string, Pod, Taint[], ReturnType<typeof planEviction>][] = [
    ['no NoExecute taint', pod([]), [{ key: 'x', effect: 'NoSchedule' }], { kind: 'none' }],
    ['untolerated: at once', pod([]), [unreachable], { kind: 'now' }],
    [
      'DefaultTolerationSeconds: 300 s',
      pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]),
      [unreachable],
      { kind: 'after', delayMs: 300_000 },
    ],
    ['tolerated forever', pod([{ operator: 'Exists' }]), [unreachable], { kind: 'none' }],
    [
      'the smallest tolerationSeconds wins',
      pod([
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
        { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      ]),
      [unreachable],
      { kind: 'after', delayMs: 60_000 },
    ],
    [
      'Equal needs the value',
      pod([{ key: 'k', operator: 'Equal', value: 'a', effect: 'NoExecute' }]),
      [{ key: 'k', value: 'b', effect: 'NoExecute' }],
      { kind: 'now' },
    ],
  ];
  it.each(cases)('%s', (_name, p, taints, expected) => {
    expect(planEviction(p, taints)).toEqual(expected);
  });
});
