// Table tests for the node lifecycle controller's pure decisions.
import { describe, expect, it } from 'vitest';
import type { Lease, Node, Pod, Taint } from '../../api/index.ts';
import { planEviction, processPodOnNode } from './eviction.ts';
import { NODE_MONITOR_GRACE_PERIOD_MS, tryUpdateNodeHealth } from './health.ts';
import { desiredNoExecuteTaints, desiredNoScheduleTaints, reconcileNodeTaints, reconcileTaints } from './taints.ts';

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
  it('a status post drops the recorded Lease: the next pass counts the same Lease as renewed (upstream quirk)', () => {
    const l = lease('2026-01-01T00:00:01.000000Z');
    const first = tryUpdateNodeHealth(readyNode(), undefined, l, 0, 'T0');
    expect(first.health.leaseRenewTime).toBe('2026-01-01T00:00:01.000000Z');
    const posted = readyNode();
    posted.status!.conditions![1]!.lastHeartbeatTime = 'H2';
    const second = tryUpdateNodeHealth(posted, first.health, l, 5000, 'T5');
    expect(second.health).toMatchObject({ probeTimestampMs: 5000, readyHeartbeat: 'H2', leaseRenewTime: undefined });
    const third = tryUpdateNodeHealth(posted, second.health, l, 10_000, 'T10');
    expect(third.health).toMatchObject({ probeTimestampMs: 10_000, leaseRenewTime: '2026-01-01T00:00:01.000000Z' });
  });
  it('a node without Ready counts from its creationTimestamp, with the startup grace period', () => {
    const node: Node = { metadata: { name: 'n', creationTimestamp: '2026-01-01T00:00:00Z' }, status: {} };
    const early = tryUpdateNodeHealth(node, undefined, undefined, 60_000, 'T60', undefined, Date.parse('2026-01-01T00:00:00Z'));
    expect(early.conditions).toBeNull();
    expect(early.health.probeTimestampMs).toBe(0);
    expect(early.observedReady).toEqual({ type: 'Ready', status: 'Unknown', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' });
    const late = tryUpdateNodeHealth(node, early.health, undefined, 60_001, 'T60.001', undefined, Date.parse('2026-01-01T00:00:00Z'));
    expect(late.currentReady).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', lastHeartbeatTime: '2026-01-01T00:00:00Z' });
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
    const next = reconcileTaints(node, desiredNoScheduleTaints(node, 'NOW'), desiredNoExecuteTaints(node, ready, 'NOW'));
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
    expect(reconcileTaints(node, desiredNoScheduleTaints(node, 'NOW'), desiredNoExecuteTaints(node, ready, 'NOW'))).toBeNull();
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
      'only the first toleration that tolerates a taint counts (GetMatchingTolerations)',
      pod([
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
        { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      ]),
      [unreachable],
      { kind: 'after', delayMs: 300_000 },
    ],
    [
      'the smallest tolerationSeconds over the taints wins',
      pod([
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 60 },
      ]),
      [unreachable, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      { kind: 'after', delayMs: 60_000 },
    ],
    [
      'a tolerationSeconds of 0 or less evicts at once',
      pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: -5 }]),
      [unreachable],
      { kind: 'after', delayMs: 0 },
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

describe('reconcileNodeTaints', () => {
  it('stamps the taints it adds, NoSchedule included, and keeps the ones already there', () => {
    const node = readyNode('False', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: 'EARLIER' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'OLD' }]);
    expect(reconcileNodeTaints(node, 'NOW')).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: 'NOW' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: 'EARLIER' },
    ]);
  });
  it('leaves the NoExecute taints alone while the node has no Ready condition', () => {
    const node: Node = { metadata: { name: 'n' }, spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'OLD' }] }, status: {} };
    expect(reconcileNodeTaints(node, 'NOW')).toEqual([{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'OLD' }]);
  });
});

describe('processPodOnNode', () => {
  const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
  const tolerate = (seconds?: number) => [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' as const, effect: 'NoExecute' as const, ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) }];
  it('schedules from now, keeps a pending deletion, cancels when tolerated forever', () => {
    const first = processPodOnNode(tolerate(300), [unreachable], 1000, null);
    expect(first).toEqual({ createdAtMs: 1000, fireAtMs: 301_000 });
    expect(processPodOnNode(tolerate(30), [unreachable], 5000, first)).toBe(first);
    expect(processPodOnNode(tolerate(), [unreachable], 5000, first)).toBeNull();
    expect(processPodOnNode([], [unreachable], 5000, first)).toEqual({ createdAtMs: 5000, fireAtMs: 5000 });
    expect(processPodOnNode(tolerate(300), [{ key: 'x', effect: 'NoSchedule' }], 5000, first)).toBeNull();
  });
});
