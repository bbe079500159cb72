// Hidden grading suite for the node-lifecycle lab. Behaviour only: one health pass over a node
// (when it becomes Unknown, what is written, what the controller remembers), the taints that follow
// from its conditions, and the deletion the taint eviction controller schedules for a pod; then a
// node that dies in a small simulated world driven by the learner's three functions, and
// differential tests against the simulation's own controllers (runtime/controllers
// tryUpdateNodeHealth, reconcileNodeTaints, processPodOnNode) on generated nodes, leases, timelines,
// tolerations and taints.
// Tables ported from pkg/controller/nodelifecycle/node_lifecycle_controller_test.go
// (TestMonitorNodeHealthUpdateStatus, TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease,
// TestApplyNoExecuteTaints, TestSwapUnreachableNotReadyTaints, TestTaintsNodeByCondition) and
// pkg/controller/tainteviction/taint_eviction_test.go (TestCreatePod, TestUpdateNode,
// TestUpdateNodeWithMultipleTaints, TestGetMinTolerationTime, TestEventualConsistency).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Lease, Node, NodeCondition, Taint, TaintEffect, Toleration } from '../../runtime/api/index.ts';
import {
  processPodOnNode as controllerProcessPodOnNode,
  reconcileNodeTaints as controllerReconcileNodeTaints,
  tryUpdateNodeHealth as controllerTryUpdateNodeHealth,
  type NodeHealth,
  type PendingEviction,
} from '../../runtime/controllers/index.ts';
import { processPodOnNode, reconcileNodeTaints, tryUpdateNodeHealth } from '@lab/submission';

// ---------------------------------------------------------------- clock and builders

const S = 1000;
const T0 = Date.UTC(2026, 2, 14, 10, 0, 0);
const at = (seconds: number) => T0 + seconds * S;
/** metav1.Time: RFC 3339, whole seconds. */
const rfc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** metav1.MicroTime, as a Lease's renewTime. */
const micro = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '000Z');
const CREATED = rfc(at(-3600));
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

type Status = 'True' | 'False' | 'Unknown';

function cond(type: string, status: Status, heartbeatMs: number, transitionMs = at(-3000), reason?: string): NodeCondition {
  return { type, status, lastHeartbeatTime: rfc(heartbeatMs), lastTransitionTime: rfc(transitionMs), ...(reason ? { reason, message: `${reason} message` } : {}) };
}

/** The four conditions a kubelet posts, healthy, heartbeat at heartbeatMs. */
function kubeletConditions(heartbeatMs: number, ready: Status = 'True'): NodeCondition[] {
  return [
    cond('MemoryPressure', 'False', heartbeatMs, at(-3000), 'KubeletHasSufficientMemory'),
    cond('DiskPressure', 'False', heartbeatMs, at(-3000), 'KubeletHasNoDiskPressure'),
    cond('PIDPressure', 'False', heartbeatMs, at(-3000), 'KubeletHasSufficientPID'),
    cond('Ready', ready, heartbeatMs, at(-3000), ready === 'True' ? 'KubeletReady' : 'KubeletNotReady'),
  ];
}

function node(conditions: NodeCondition[] | undefined, taints?: Taint[], unschedulable?: boolean): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1', uid: 'uid-worker-1', creationTimestamp: CREATED },
    spec: { ...(taints ? { taints } : {}), ...(unschedulable ? { unschedulable } : {}) },
    status: conditions ? { conditions } : {},
  };
}

const lease = (renewMs: number): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'worker-1', namespace: 'kube-node-lease' },
  spec: { holderIdentity: 'worker-1', leaseDurationSeconds: 40, renewTime: micro(renewMs) },
});

/** JSON with object keys sorted and undefined fields dropped: equal values compare equal. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
    ) ?? 'undefined'
  );
}

const secs = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? String(ms) : `${(ms - T0) / S}s`);

function describeNode(n: Node): string {
  const conds = (n.status?.conditions ?? []).map((c) => `${c.type}=${c.status} (heartbeat ${c.lastHeartbeatTime}, transition ${c.lastTransitionTime})`);
  const taints = (n.spec?.taints ?? []).map(describeTaint);
  return `node conditions [${conds.join('; ') || 'none'}]${taints.length ? ` taints [${taints.join(', ')}]` : ''}${n.spec?.unschedulable ? ' unschedulable' : ''}`;
}

function describeTaint(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}${t.timeAdded ? ` @${t.timeAdded}` : ''}`;
}

function describeHealth(h: NodeHealth | undefined): string {
  if (!h) return 'nothing saved';
  return `saved probe ${secs(h.probeTimestampMs)}, readyTransition ${secs(h.readyTransitionTimestampMs)}, Ready heartbeat ${h.readyHeartbeat}, Ready transition ${h.readyTransition}, lease renewTime ${h.leaseRenewTime}`;
}

// ---------------------------------------------------------------- tryUpdateNodeHealth

interface HealthPass {
  health: NodeHealth;
  conditions: NodeCondition[] | null;
}

function pass(n: Node, saved: NodeHealth | undefined, l: Lease | undefined, nowMs: number): HealthPass {
  const input = structuredClone({ n, saved, l });
  const out = structuredClone(tryUpdateNodeHealth(input.n, input.saved, input.l, nowMs, rfc(nowMs)));
  expect(input, 'tryUpdateNodeHealth must not modify its arguments').toEqual({ n, saved, l });
  return out;
}

function expectPass(n: Node, saved: NodeHealth | undefined, l: Lease | undefined, nowMs: number, want: Partial<HealthPass>): HealthPass {
  const got = pass(n, saved, l, nowMs);
  const context = `tryUpdateNodeHealth at ${secs(nowMs)} with ${describeNode(n)}, ${describeHealth(saved)}, ${l ? `lease renewTime ${l.spec?.renewTime}` : 'no lease'}`;
  if ('conditions' in want) expect(canonical(got.conditions), `${context}:\nthe conditions written (null: no write)`).toBe(canonical(want.conditions));
  if (want.health) expect(canonical(got.health), `${context}:\nthe health record returned`).toBe(canonical(want.health));
  return got;
}

/** A record as the controller keeps it after seeing `n` and `l` at nowMs with nothing before. */
const seen = (n: Node, l: Lease | undefined, probeMs: number, transitionMs = probeMs): NodeHealth => {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
  return { probeTimestampMs: probeMs, readyTransitionTimestampMs: transitionMs, readyHeartbeat: ready?.lastHeartbeatTime, readyTransition: ready?.lastTransitionTime, leaseRenewTime: l?.spec?.renewTime };
};

describe('tryUpdateNodeHealth: when the kubelet is heard from', () => {
  it('gives a node seen for the first time a full grace period from now (the controller\'s clock)', () => {
    const n = node(kubeletConditions(at(-7200)));
    expectPass(n, undefined, undefined, at(0), { conditions: null, health: seen(n, undefined, at(0)) });
  });

  it('moves the probe time when the Lease is renewed, not when it is unchanged or older', () => {
    const n = node(kubeletConditions(at(-100)));
    const h0 = seen(n, lease(at(0)), at(0));
    expectPass(n, h0, lease(at(10)), at(12), { conditions: null, health: { ...h0, probeTimestampMs: at(12), leaseRenewTime: micro(at(10)) } });
    expectPass(n, h0, lease(at(0)), at(12), { conditions: null, health: h0 });
    expectPass(n, h0, lease(at(-5)), at(12), { conditions: null, health: h0 });
  });

  it('counts a renewed Lease from its own clock, whatever time the kubelet wrote in it', () => {
    const n = node(kubeletConditions(at(-100)));
    const h0 = seen(n, lease(at(-9000)), at(0));
    // the kubelet's clock is two hours late: renewTime still moved, so the node is alive now
    expectPass(n, h0, lease(at(-8990)), at(40), { conditions: null, health: { ...h0, probeTimestampMs: at(40), leaseRenewTime: micro(at(-8990)) } });
  });

  it('moves the probe time when the kubelet posts status (a new Ready heartbeat), and drops the recorded Lease', () => {
    const before = node(kubeletConditions(at(-100)));
    const h0 = seen(before, lease(at(0)), at(0));
    const after = node(kubeletConditions(at(20)));
    const h1 = expectPass(after, h0, lease(at(0)), at(25), {
      conditions: null,
      health: { probeTimestampMs: at(25), readyTransitionTimestampMs: at(0), readyHeartbeat: rfc(at(20)), readyTransition: rfc(at(-3000)), leaseRenewTime: undefined },
    }).health;
    // the next pass sees the same Lease as a renewal (nothing recorded): probe moves again
    expectPass(after, h1, lease(at(0)), at(30), { conditions: null, health: { ...h1, probeTimestampMs: at(30), leaseRenewTime: micro(at(0)) } });
  });

  it('records a Ready transition when the posted lastTransitionTime changed', () => {
    const before = node(kubeletConditions(at(-100)));
    const h0 = seen(before, undefined, at(0));
    const notReady = node([...kubeletConditions(at(20)).slice(0, 3), cond('Ready', 'False', at(20), at(19), 'KubeletNotReady')]);
    expectPass(notReady, h0, undefined, at(25), {
      conditions: null,
      health: { probeTimestampMs: at(25), readyTransitionTimestampMs: at(25), readyHeartbeat: rfc(at(20)), readyTransition: rfc(at(19)), leaseRenewTime: undefined },
    });
  });

  it('leaves a NotReady node that keeps renewing its Lease alone: Ready=False is the kubelet\'s word, not Unknown', () => {
    const n = node(kubeletConditions(at(0), 'False'));
    let h = seen(n, lease(at(0)), at(0));
    for (let t = 10; t <= 300; t += 10) h = expectPass(n, h, lease(at(t)), at(t + 1), { conditions: null }).health;
  });

  it('keeps a node that renews its Lease but never posted status healthy', () => {
    const n = node(undefined);
    let h: NodeHealth | undefined;
    for (let t = 0; t <= 300; t += 10) h = expectPass(n, h, lease(at(t)), at(t + 2), { conditions: null }).health;
  });
});

describe('tryUpdateNodeHealth: when the kubelet falls silent', () => {
  const n = node([...kubeletConditions(at(-30)), cond('NetworkUnavailable', 'False', at(-3000), at(-3000), 'RouteCreated')]);
  const h0 = seen(n, lease(at(0)), at(0));

  it('does nothing at exactly 50 s (the grace period) after the last sign of life', () => {
    expectPass(n, h0, lease(at(0)), at(50), { conditions: null, health: h0 });
  });

  it('one millisecond later: Ready and the pressure conditions become Unknown, NetworkUnavailable is left alone', () => {
    const now = at(50) + 1;
    const unknown = (c: NodeCondition): NodeCondition => ({ ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: rfc(now) });
    const conds = n.status!.conditions!;
    expectPass(n, h0, lease(at(0)), now, {
      conditions: [unknown(conds[0]!), unknown(conds[1]!), unknown(conds[2]!), unknown(conds[3]!), conds[4]!],
      health: { probeTimestampMs: at(0), readyTransitionTimestampMs: now, readyHeartbeat: rfc(at(-30)), readyTransition: rfc(now), leaseRenewTime: micro(at(0)) },
    });
  });

  it('adds the conditions the kubelet never posted as NodeStatusNeverUpdated, heartbeat at the node\'s creation', () => {
    const onlyReady = node([cond('Ready', 'True', at(-30), at(-3000), 'KubeletReady')]);
    const h = seen(onlyReady, undefined, at(0));
    const now = at(60);
    const never = (type: string): NodeCondition => ({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: CREATED, lastTransitionTime: rfc(now) });
    expectPass(onlyReady, h, undefined, now, {
      conditions: [
        { ...onlyReady.status!.conditions![0]!, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: rfc(now) },
        never('MemoryPressure'),
        never('DiskPressure'),
        never('PIDPressure'),
      ],
    });
  });

  it('turns a NotReady node (Ready=False) Unknown too once it is silent', () => {
    const notReady = node(kubeletConditions(at(-30), 'False'));
    const got = pass(notReady, seen(notReady, undefined, at(0)), undefined, at(51));
    expect(got.conditions?.find((c) => c.type === 'Ready'), `Ready after 51 s of silence, ${describeNode(notReady)}`).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
  });

  it('writes nothing when Ready is already Unknown, even if other conditions are not', () => {
    const unknown = node([cond('Ready', 'Unknown', at(-30), at(-10), 'NodeStatusUnknown'), cond('MemoryPressure', 'False', at(-30))]);
    const h = seen(unknown, undefined, at(0));
    expectPass(unknown, h, undefined, at(120), { conditions: null, health: h });
  });

  it('uses the Lease, not the Ready heartbeat: an old heartbeat with a fresh Lease is alive', () => {
    const old = node(kubeletConditions(at(-3000)));
    const h = seen(old, lease(at(100)), at(100));
    expectPass(old, h, lease(at(140)), at(145), { conditions: null });
    expectPass(old, h, lease(at(100)), at(150) + 1, { conditions: [...old.status!.conditions!].map((c) => ({ ...c, status: 'Unknown' as const, reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: rfc(at(150) + 1) })) });
  });

  it('gives a node that never posted status 60 s from its creationTimestamp (the startup grace period)', () => {
    const fresh: Node = { ...node(undefined), metadata: { name: 'worker-1', creationTimestamp: rfc(at(0)) } };
    const first = expectPass(fresh, undefined, undefined, at(60), {
      conditions: null,
      health: { probeTimestampMs: at(0), readyTransitionTimestampMs: at(0), readyHeartbeat: undefined, readyTransition: undefined, leaseRenewTime: undefined },
    });
    const now = at(60) + 1;
    const never = (type: string): NodeCondition => ({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: rfc(at(0)), lastTransitionTime: rfc(now) });
    expectPass(fresh, first.health, undefined, now, {
      conditions: [never('Ready'), never('MemoryPressure'), never('DiskPressure'), never('PIDPressure')],
      health: { probeTimestampMs: at(0), readyTransitionTimestampMs: now, readyHeartbeat: rfc(at(0)), readyTransition: rfc(now), leaseRenewTime: undefined },
    });
  });

  it('marks an old node that never posted status Unknown on the first pass', () => {
    const n2 = node(undefined);
    const got = pass(n2, undefined, undefined, at(0));
    expect(got.conditions?.find((c) => c.type === 'Ready'), `first pass over ${describeNode(n2)} created an hour ago`).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated' });
  });
});

// ---------------------------------------------------------------- reconcileNodeTaints

const sortTaints = (taints: readonly Taint[]) => taints.map((t) => canonical(t)).sort();

function expectTaints(n: Node, now: string, want: Taint[]): void {
  const input = structuredClone(n);
  const got = structuredClone(reconcileNodeTaints(input, now));
  expect(input, 'reconcileNodeTaints must not modify the node').toEqual(n);
  expect(sortTaints(got), `reconcileNodeTaints at ${now} for ${describeNode(n)}:\nreturned [${got.map(describeTaint).join(', ')}]\nexpected [${want.map(describeTaint).join(', ')}] (in any order)`).toEqual(sortTaints(want));
}

describe('reconcileNodeTaints', () => {
  const NOW = rfc(at(60));
  const t = (key: string, effect: TaintEffect, timeAdded?: string, value?: string): Taint => ({ key, effect, ...(value ? { value } : {}), ...(timeAdded ? { timeAdded } : {}) });
  const readyWith = (status: Status, extra: NodeCondition[] = []) => [...kubeletConditions(at(0), status), ...extra];

  it.each<[string, Node, Taint[]]>([
    ['a Ready node has no controller taint', node(readyWith('True')), []],
    ['Ready=False: not-ready, NoSchedule and NoExecute, stamped now', node(readyWith('False')), [t(NOT_READY, 'NoSchedule', NOW), t(NOT_READY, 'NoExecute', NOW)]],
    ['Ready=Unknown: unreachable, NoSchedule and NoExecute', node(readyWith('Unknown')), [t(UNREACHABLE, 'NoSchedule', NOW), t(UNREACHABLE, 'NoExecute', NOW)]],
    [
      'Unknown after NotReady: the two kinds swap',
      node(readyWith('Unknown'), [t(NOT_READY, 'NoSchedule', 'T1'), t(NOT_READY, 'NoExecute', 'T1')]),
      [t(UNREACHABLE, 'NoSchedule', NOW), t(UNREACHABLE, 'NoExecute', NOW)],
    ],
    [
      'Ready again: both NoExecute and NoSchedule controller taints go',
      node(readyWith('True'), [t(UNREACHABLE, 'NoSchedule', 'T1'), t(UNREACHABLE, 'NoExecute', 'T1')]),
      [],
    ],
    [
      'taints already there keep their timeAdded',
      node(readyWith('Unknown'), [t(UNREACHABLE, 'NoExecute', 'T1'), t(UNREACHABLE, 'NoSchedule', 'T2')]),
      [t(UNREACHABLE, 'NoExecute', 'T1'), t(UNREACHABLE, 'NoSchedule', 'T2')],
    ],
    [
      'pressure conditions and NetworkUnavailable taint NoSchedule only',
      node([...readyWith('True'), cond('NetworkUnavailable', 'True', at(0))].map((c) => (c.type === 'MemoryPressure' || c.type === 'PIDPressure' ? { ...c, status: 'True' as const } : c))),
      [t('node.kubernetes.io/memory-pressure', 'NoSchedule', NOW), t('node.kubernetes.io/pid-pressure', 'NoSchedule', NOW), t('node.kubernetes.io/network-unavailable', 'NoSchedule', NOW)],
    ],
    ['a cordoned node gets unschedulable:NoSchedule', node(readyWith('True'), undefined, true), [t('node.kubernetes.io/unschedulable', 'NoSchedule', NOW)]],
    [
      'uncordoned: the unschedulable taint goes, the ones it does not own stay',
      node(readyWith('True'), [
        t('node.kubernetes.io/unschedulable', 'NoSchedule', 'T1'),
        t('node-role.kubernetes.io/control-plane', 'NoSchedule'),
        t('node.kubernetes.io/out-of-service', 'NoExecute', 'T2', 'nodeshutdown'),
        t(NOT_READY, 'PreferNoSchedule'),
        t('dedicated', 'NoExecute', undefined, 'db'),
      ]),
      [t('node-role.kubernetes.io/control-plane', 'NoSchedule'), t('node.kubernetes.io/out-of-service', 'NoExecute', 'T2', 'nodeshutdown'), t(NOT_READY, 'PreferNoSchedule'), t('dedicated', 'NoExecute', undefined, 'db')],
    ],
    [
      'a controller taint someone set with a value is kept as it is (same key and effect)',
      node(readyWith('False'), [t(NOT_READY, 'NoSchedule', undefined, 'manual')]),
      [t(NOT_READY, 'NoSchedule', undefined, 'manual'), t(NOT_READY, 'NoExecute', NOW)],
    ],
    [
      'no Ready condition: the NoExecute taints are left as they are, NoSchedule follows the other conditions',
      node([cond('DiskPressure', 'True', at(0))], [t(UNREACHABLE, 'NoExecute', 'T1'), t(UNREACHABLE, 'NoSchedule', 'T1')]),
      [t(UNREACHABLE, 'NoExecute', 'T1'), t('node.kubernetes.io/disk-pressure', 'NoSchedule', NOW)],
    ],
  ])('%s', (_name, n, want) => expectTaints(n, NOW, want));
});

// ---------------------------------------------------------------- processPodOnNode

const tol = (key: string | undefined, seconds?: number, extra: Partial<Toleration> = {}): Toleration => ({
  ...(key === undefined ? {} : { key }),
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
  ...extra,
});
const UNREACHABLE_NE: Taint = { key: UNREACHABLE, effect: 'NoExecute', timeAdded: rfc(at(0)) };
const NOT_READY_NE: Taint = { key: NOT_READY, effect: 'NoExecute', timeAdded: rfc(at(0)) };
const DEFAULT_TOLERATIONS = [tol(NOT_READY, 300), tol(UNREACHABLE, 300)];

function describeTolerations(ts: readonly Toleration[]): string {
  if (ts.length === 0) return 'no tolerations';
  return ts
    .map((t) => `${t.key || '(any key)'} ${t.operator ?? '(no operator)'}${t.value !== undefined ? ` "${t.value}"` : ''} ${t.effect || '(any effect)'}${t.tolerationSeconds !== undefined ? ` for ${t.tolerationSeconds}s` : ''}`)
    .join('; ');
}

function describePending(p: PendingEviction | null): string {
  return p ? `{ created ${secs(p.createdAtMs)}, fires ${secs(p.fireAtMs)} }` : 'null (nothing scheduled)';
}

function evict(tolerations: Toleration[], taints: Taint[], nowMs: number, pending: PendingEviction | null): PendingEviction | null {
  const input = structuredClone({ tolerations, taints, pending });
  const out = processPodOnNode(input.tolerations, input.taints, nowMs, input.pending);
  expect(input, 'processPodOnNode must not modify its arguments').toEqual({ tolerations, taints, pending });
  return out === null ? null : structuredClone(out);
}

function expectEviction(tolerations: Toleration[], taints: Taint[], nowMs: number, pending: PendingEviction | null, want: PendingEviction | null): void {
  const got = evict(tolerations, taints, nowMs, pending);
  expect(
    canonical(got),
    `processPodOnNode at ${secs(nowMs)}, pod tolerations [${describeTolerations(tolerations)}], node taints [${taints.map(describeTaint).join(', ')}], pending ${describePending(pending)}:\n` +
      `returned ${describePending(got)}, expected ${describePending(want)}`,
  ).toBe(canonical(want));
}

describe('processPodOnNode', () => {
  const now = at(30);
  it.each<[string, Toleration[], Taint[], PendingEviction | null]>([
    ['no taint at all: nothing to do', DEFAULT_TOLERATIONS, [], null],
    ['only NoSchedule taints: nothing to do', [], [{ key: UNREACHABLE, effect: 'NoSchedule' }, { key: 'gpu', effect: 'NoSchedule' }], null],
    ['untolerated NoExecute taint: deleted at once', [], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now }],
    ['the default 300 s tolerations: deleted 300 s after now', DEFAULT_TOLERATIONS, [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now + 300 * S }],
    ['tolerated forever (no tolerationSeconds): never', [tol(UNREACHABLE)], [UNREACHABLE_NE], null],
    ['an empty key with Exists tolerates every taint', [tol(undefined, 60)], [UNREACHABLE_NE, { key: 'dedicated', value: 'db', effect: 'NoExecute' }], { createdAtMs: now, fireAtMs: now + 60 * S }],
    ['an empty effect tolerates every effect', [tol(UNREACHABLE, 45, { effect: '' })], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now + 45 * S }],
    ['tolerationSeconds 0: deleted at once', [tol(UNREACHABLE, 0)], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now }],
    ['a negative tolerationSeconds: deleted at once', [tol(UNREACHABLE, -30)], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now }],
    ['0 wins over a forever toleration of another taint', [tol(UNREACHABLE), tol(NOT_READY, 0)], [UNREACHABLE_NE, NOT_READY_NE], { createdAtMs: now, fireAtMs: now }],
    ['the smallest tolerationSeconds over the taints', [tol(UNREACHABLE, 600), tol('dedicated', 120)], [UNREACHABLE_NE, { key: 'dedicated', effect: 'NoExecute' }], { createdAtMs: now, fireAtMs: now + 120 * S }],
    ['a forever toleration for one taint, 90 s for the other: 90 s', [tol(UNREACHABLE), tol('dedicated', 90)], [UNREACHABLE_NE, { key: 'dedicated', effect: 'NoExecute' }], { createdAtMs: now, fireAtMs: now + 90 * S }],
    ['only the first toleration that tolerates a taint counts', [tol(UNREACHABLE, 600), tol(undefined, 10)], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now + 600 * S }],
    ['a forever toleration listed first wins over a later timed one', [tol(UNREACHABLE), tol(UNREACHABLE, 10)], [UNREACHABLE_NE], null],
    ['one taint of two untolerated: deleted at once', [tol(UNREACHABLE, 300)], [UNREACHABLE_NE, NOT_READY_NE], { createdAtMs: now, fireAtMs: now }],
    ['Equal needs the same value', [tol('dedicated', 60, { operator: 'Equal', value: 'web' })], [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }], { createdAtMs: now, fireAtMs: now }],
    ['Equal with the same value', [tol('dedicated', 60, { operator: 'Equal', value: 'db' })], [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }], { createdAtMs: now, fireAtMs: now + 60 * S }],
    ['no operator means Equal, and a missing value equals an empty one', [{ key: UNREACHABLE, effect: 'NoExecute', tolerationSeconds: 20 }], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now + 20 * S }],
    ['a NoSchedule toleration does not tolerate NoExecute', [tol(UNREACHABLE, 20, { effect: 'NoSchedule' })], [UNREACHABLE_NE], { createdAtMs: now, fireAtMs: now }],
  ])('%s', (_name, tolerations, taints, want) => expectEviction(tolerations, taints, now, null, want));

  it('counts from when the controller processes the taint, not from the taint\'s timeAdded', () => {
    // the unreachable taint was added at 0 s; the controller (or the pod) is processed at 30 s
    expectEviction(DEFAULT_TOLERATIONS, [UNREACHABLE_NE], at(30), null, { createdAtMs: at(30), fireAtMs: at(330) });
  });

  it('keeps a deletion already scheduled: a later update does not restart the timer', () => {
    const pending = { createdAtMs: at(0), fireAtMs: at(300) };
    expectEviction(DEFAULT_TOLERATIONS, [UNREACHABLE_NE], at(45), pending, pending);
  });

  it('keeps it even when the new minimum is shorter (the earlier start stands, with its own time)', () => {
    const pending = { createdAtMs: at(0), fireAtMs: at(300) };
    expectEviction([tol(UNREACHABLE, 300), tol('dedicated', 30)], [UNREACHABLE_NE, { key: 'dedicated', effect: 'NoExecute' }], at(45), pending, pending);
  });

  it('reschedules a deletion created at this very moment, keeping its creation time', () => {
    expectEviction([tol(UNREACHABLE, 30)], [UNREACHABLE_NE], at(45), { createdAtMs: at(45), fireAtMs: at(345) }, { createdAtMs: at(45), fireAtMs: at(75) });
  });

  it('cancels a pending deletion when the taints go or are tolerated forever', () => {
    const pending = { createdAtMs: at(0), fireAtMs: at(300) };
    expectEviction(DEFAULT_TOLERATIONS, [], at(45), pending, null);
    expectEviction([tol(undefined)], [UNREACHABLE_NE], at(45), pending, null);
  });

  it('replaces a pending deletion with an immediate one when a taint is not tolerated', () => {
    expectEviction(DEFAULT_TOLERATIONS, [UNREACHABLE_NE, { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }], at(45), { createdAtMs: at(0), fireAtMs: at(300) }, {
      createdAtMs: at(45),
      fireAtMs: at(45),
    });
  });
});

// ---------------------------------------------------------------- a node dies: the three together

interface World {
  /** Per pod: when it was deleted (seconds after T0), or null if it survived. */
  deletedAt: Record<string, number | null>;
  /** Seconds after T0 at which the Ready condition became Unknown, and the taints changed. */
  unknownAt: number | null;
  taintLog: string[];
}

interface Decisions {
  tryUpdateNodeHealth: typeof tryUpdateNodeHealth;
  reconcileNodeTaints: typeof reconcileNodeTaints;
  processPodOnNode: typeof processPodOnNode;
}

const PODS: Record<string, Toleration[]> = {
  'web (default 300 s)': DEFAULT_TOLERATIONS,
  'api (30 s)': [tol(NOT_READY, 30), tol(UNREACHABLE, 30)],
  'kube-proxy (forever)': [tol(undefined)],
  'batch (no tolerations)': [],
  'cache (0 s)': [tol(UNREACHABLE, 0), tol(NOT_READY, 300)],
};

/**
 * worker-1's kubelet renews its Lease every 10 s and posts status every 60 s until `stopAt` (or
 * posts NotReady from `notReadyAt`); the node lifecycle controller passes every 5 s; the taint
 * eviction controller processes the node's pods whenever its taints change, and deletes them when
 * their deletion fires. Returns what happened over `untilS` seconds.
 */
function simulate(d: Decisions, o: { stopAt: number; notReadyAt?: number; untilS: number; passOffsetMs: number }): World {
  let n = node(kubeletConditions(at(-60)));
  let l = lease(at(-5));
  let health: NodeHealth | undefined;
  const pending: Record<string, PendingEviction | null> = Object.fromEntries(Object.keys(PODS).map((p) => [p, null]));
  const world: World = { deletedAt: Object.fromEntries(Object.keys(PODS).map((p) => [p, null])), unknownAt: null, taintLog: [] };
  for (let ms = 0; ms <= o.untilS * S; ms += 500) {
    const now = at(0) + ms;
    if (ms < o.stopAt * S && ms % (10 * S) === 0) l = lease(now);
    if (ms < o.stopAt * S && ms % (60 * S) === 0) {
      const status: Status = o.notReadyAt !== undefined && ms >= o.notReadyAt * S ? 'False' : 'True';
      const prev = n.status!.conditions!.find((c) => c.type === 'Ready')!;
      const conds = kubeletConditions(now, status).map((c) => (c.type === 'Ready' && c.status === prev.status ? { ...c, lastTransitionTime: prev.lastTransitionTime } : c.type === 'Ready' ? { ...c, lastTransitionTime: rfc(now) } : c));
      n = { ...n, status: { conditions: conds } };
    }
    if ((ms - o.passOffsetMs) % (5 * S) === 0 && ms >= o.passOffsetMs) {
      const r = d.tryUpdateNodeHealth(structuredClone(n), health && structuredClone(health), structuredClone(l), now, rfc(now));
      health = structuredClone(r.health);
      if (r.conditions) {
        n = { ...n, status: { conditions: structuredClone(r.conditions) } };
        if (world.unknownAt === null && r.conditions.find((c) => c.type === 'Ready')?.status === 'Unknown') world.unknownAt = ms / S;
      }
      const taints = structuredClone(d.reconcileNodeTaints(structuredClone(n), rfc(now)));
      if (canonical(sortTaints(taints)) !== canonical(sortTaints(n.spec?.taints ?? []))) {
        n = { ...n, spec: { ...n.spec, taints } };
        world.taintLog.push(`${ms / S}s: [${sortTaints(taints).map((t) => describeTaint(JSON.parse(t) as Taint)).join(', ')}]`);
        for (const [pod, tolerations] of Object.entries(PODS)) {
          if (world.deletedAt[pod] !== null) continue;
          const next = d.processPodOnNode(structuredClone(tolerations), structuredClone(taints), now, pending[pod] ? { ...pending[pod] } : null);
          pending[pod] = next ? { createdAtMs: next.createdAtMs, fireAtMs: next.fireAtMs } : null;
        }
      }
    }
    for (const pod of Object.keys(PODS)) {
      const p = pending[pod];
      if (p && world.deletedAt[pod] === null && p.fireAtMs <= now) {
        world.deletedAt[pod] = (now - T0) / S;
        pending[pod] = null;
      }
    }
  }
  return world;
}

const controllers: Decisions = {
  tryUpdateNodeHealth: (n, s, l, nowMs, now) => controllerTryUpdateNodeHealth(n, s, l, nowMs, now, undefined, 0),
  reconcileNodeTaints: controllerReconcileNodeTaints,
  processPodOnNode: controllerProcessPodOnNode,
};
const learner: Decisions = { tryUpdateNodeHealth, reconcileNodeTaints, processPodOnNode };

describe('a node dies: the three decisions together', () => {
  it.each([
    ['the machine stops at 95 s', { stopAt: 95, untilS: 600, passOffsetMs: 2500 }],
    ['the machine stops at 12 s, the controller passes on whole seconds', { stopAt: 12, untilS: 500, passOffsetMs: 0 }],
    ['the kubelet reports NotReady from 60 s, then stops at 200 s', { stopAt: 200, notReadyAt: 60, untilS: 700, passOffsetMs: 1500 }],
  ])('%s: Unknown, tainted and evicted at the same moments as the controllers', (_name, o) => {
    const want = simulate(controllers, o);
    const got = simulate(learner, o);
    expect(got.unknownAt, 'when Ready became Unknown (seconds)').toBe(want.unknownAt);
    expect(got.taintLog, 'the node\'s taints after each change').toEqual(want.taintLog);
    expect(got.deletedAt, 'when each pod was deleted (seconds after the start; null: never)').toEqual(want.deletedAt);
  });

  it('the machine stopping at 95 s: Unknown after 50 s of silence, pods gone 0, 30 and 300 s later', () => {
    const got = simulate(learner, { stopAt: 95, untilS: 600, passOffsetMs: 2500 });
    // last renewal at 90 s, seen at the 92.5 s pass; Unknown at the first pass after 142.5 s
    expect(got.unknownAt, 'when Ready became Unknown').toBe(147.5);
    expect(got.deletedAt).toEqual({ 'web (default 300 s)': 447.5, 'api (30 s)': 177.5, 'kube-proxy (forever)': null, 'batch (no tolerations)': 147.5, 'cache (0 s)': 147.5 });
  });
});

// ---------------------------------------------------------------- differential tests

const SEED = 20_260_314;

/**
 * Runs a differential property with a fixed seed; on failure, reports the seed, the path to replay
 * it and the smallest failing input fast-check found, with what the controller and the learner said.
 */
function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, compare: (input: T) => string | undefined): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed: SEED, numRuns },
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
      `${what}: differs from the controller (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
        `Smallest failing input:\n${JSON.stringify(input)}\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

const statusArb = fc.constantFrom<Status>('True', 'False', 'Unknown');
/** A few instants around T0, so that generated times collide, precede and follow each other. */
const instantArb = fc.oneof(fc.constantFrom(-3600, -120, -60, -50, -10, 0, 5, 10, 30, 50, 60, 90), fc.integer({ min: -4000, max: 400 })).map(at);

const conditionsArb: fc.Arbitrary<NodeCondition[] | undefined> = fc.option(
  fc
    .record({
      ready: fc.option(fc.record({ status: statusArb, hb: instantArb, tr: instantArb }), { nil: undefined, freq: 6 }),
      others: fc.subarray(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']),
      otherStatus: fc.array(statusArb, { minLength: 4, maxLength: 4 }),
      hb: instantArb,
      readyFirst: fc.boolean(),
    })
    .map(({ ready, others, otherStatus, hb, readyFirst }) => {
      const rest = others.map((type, i) => cond(type, otherStatus[i]!, hb));
      if (!ready) return rest;
      const r = cond('Ready', ready.status, ready.hb, ready.tr, ready.status === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletReady');
      return readyFirst ? [r, ...rest] : [...rest, r];
    }),
  { nil: undefined, freq: 8 },
);

interface HealthCase {
  node: Node;
  saved: NodeHealth | undefined;
  lease: Lease | undefined;
  nowMs: number;
}

const healthCaseArb: fc.Arbitrary<HealthCase> = fc
  .record({
    conditions: conditionsArb,
    createdS: fc.constantFrom(-7200, -61, -60, -59, 0, 10),
    saved: fc.option(
      fc.record({
        probe: instantArb,
        transition: instantArb,
        heartbeat: fc.oneof(fc.constant('same' as const), fc.constant(undefined), instantArb.map(rfc)),
        readyTransition: fc.oneof(fc.constant('same' as const), instantArb.map(rfc)),
        lease: fc.option(instantArb.map(micro), { nil: undefined }),
      }),
      { nil: undefined, freq: 4 },
    ),
    lease: fc.option(instantArb.map(lease), { nil: undefined, freq: 4 }),
    nowOffset: fc.oneof(fc.constantFrom(0, 1, 49_999, 50_000, 50_001, 59_999, 60_000, 60_001), fc.integer({ min: 0, max: 400_000 })),
    nowBase: fc.constantFrom('probe', 'free'),
    nowFree: instantArb,
  })
  .map(({ conditions, createdS, saved, lease: l, nowOffset, nowBase, nowFree }) => {
    const n: Node = { ...node(conditions), metadata: { name: 'worker-1', creationTimestamp: rfc(at(createdS)) } };
    const ready = conditions?.find((c) => c.type === 'Ready');
    const s: NodeHealth | undefined = saved && {
      probeTimestampMs: saved.probe,
      readyTransitionTimestampMs: saved.transition,
      readyHeartbeat: saved.heartbeat === 'same' ? ready?.lastHeartbeatTime ?? rfc(saved.probe) : saved.heartbeat,
      readyTransition: saved.heartbeat === undefined ? undefined : saved.readyTransition === 'same' ? ready?.lastTransitionTime ?? rfc(saved.transition) : saved.readyTransition,
      leaseRenewTime: saved.lease,
    };
    const base = nowBase === 'probe' && s ? s.probeTimestampMs : nowFree;
    return { node: n, saved: s, lease: l, nowMs: base + nowOffset };
  });

/** A timeline step: time passes, the kubelet renews or posts, or the controller passes. */
type Step = { wait: number } | { renew: true } | { post: Status; newTransition: boolean } | { pass: true } | { dropLease: true };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom(5_000, 10_000, 40_000, 50_000, 60_000, 120_000)).map((w): Step => ({ wait: w })) },
  { weight: 3, arbitrary: fc.constant<Step>({ renew: true }) },
  { weight: 2, arbitrary: fc.record({ post: statusArb, newTransition: fc.boolean() }).map((p): Step => p) },
  { weight: 5, arbitrary: fc.constant<Step>({ pass: true }) },
  { weight: 1, arbitrary: fc.constant<Step>({ dropLease: true }) },
);

interface Timeline {
  startWithReady: boolean;
  createdS: number;
  steps: Step[];
}

const timelineArb: fc.Arbitrary<Timeline> = fc.record({
  startWithReady: fc.boolean(),
  createdS: fc.constantFrom(-3600, -30, 0),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 80 }),
});

/** Plays a timeline; returns a problem description at the first pass where the two disagree. */
function playTimeline(t: Timeline): string | undefined {
  let nowMs = at(0);
  let n: Node = { ...node(t.startWithReady ? kubeletConditions(at(-20)) : undefined), metadata: { name: 'worker-1', creationTimestamp: rfc(at(t.createdS)) } };
  let l: Lease | undefined = lease(at(-15));
  let mine: NodeHealth | undefined;
  let theirs: NodeHealth | undefined;
  const log: string[] = [];
  for (const step of t.steps) {
    if ('wait' in step) nowMs += step.wait;
    else if ('renew' in step) l = lease(nowMs);
    else if ('dropLease' in step) l = undefined;
    else if ('post' in step) {
      const prev = n.status?.conditions?.find((c) => c.type === 'Ready');
      const tr = step.newTransition || !prev ? rfc(nowMs) : prev.lastTransitionTime!;
      n = { ...n, status: { conditions: kubeletConditions(nowMs, step.post).map((c) => (c.type === 'Ready' ? { ...c, lastTransitionTime: tr } : c)) } };
    } else {
      const want = controllerTryUpdateNodeHealth(structuredClone(n), theirs && structuredClone(theirs), l && structuredClone(l), nowMs, rfc(nowMs), undefined, 0);
      const got = structuredClone(tryUpdateNodeHealth(structuredClone(n), mine && structuredClone(mine), l && structuredClone(l), nowMs, rfc(nowMs)));
      const wantOut = canonical({ health: want.health, conditions: want.conditions });
      const gotOut = canonical({ health: got.health, conditions: got.conditions });
      log.push(`pass at ${secs(nowMs)}`);
      if (wantOut !== gotOut) {
        return `after [${log.join(', ')}] with ${describeNode(n)}, ${l ? `lease renewTime ${l.spec?.renewTime}` : 'no lease'}:\nthe controller returned ${wantOut}\nyou returned ${gotOut}`;
      }
      mine = got.health;
      theirs = want.health;
      if (want.conditions) n = { ...n, status: { conditions: structuredClone(want.conditions) } };
      continue;
    }
    log.push('wait' in step ? `+${step.wait}ms` : Object.keys(step)[0]!);
  }
  return undefined;
}

const TAINT_POOL: Taint[] = [
  { key: NOT_READY, effect: 'NoSchedule' },
  { key: NOT_READY, effect: 'NoExecute' },
  { key: UNREACHABLE, effect: 'NoSchedule' },
  { key: UNREACHABLE, effect: 'NoExecute' },
  { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
  { key: NOT_READY, effect: 'PreferNoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' },
  { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
  { key: 'dedicated', value: 'db', effect: 'NoExecute' },
  { key: 'gpu', value: 'true', effect: 'NoSchedule' },
];

/** Up to eight distinct taints of the pool, in any order, some with a value or a timeAdded. */
const existingTaintsArb: fc.Arbitrary<Taint[]> = fc
  .uniqueArray(
    fc.record({
      i: fc.nat({ max: TAINT_POOL.length - 1 }),
      value: fc.option(fc.constantFrom('x', 'manual'), { nil: undefined, freq: 3 }),
      time: fc.option(instantArb.map(rfc), { nil: undefined, freq: 2 }),
    }),
    { selector: (r) => r.i, maxLength: 8 },
  )
  .map((picks) => picks.map(({ i, value, time }) => ({ ...TAINT_POOL[i]!, ...(value && !TAINT_POOL[i]!.value ? { value } : {}), ...(time ? { timeAdded: time } : {}) })));

const taintCaseArb = fc.record({ conditions: conditionsArb, taints: existingTaintsArb, unschedulable: fc.boolean(), now: instantArb.map(rfc) });

const TOLERATION_KEYS = [NOT_READY, UNREACHABLE, 'dedicated', 'node.kubernetes.io/out-of-service', 'node.kubernetes.io/memory-pressure', 'gpu'];
const tolerationArb: fc.Arbitrary<Toleration> = fc
  .record({
    key: fc.constantFrom('', ...TOLERATION_KEYS),
    operator: fc.constantFrom<Toleration['operator']>('Exists', 'Equal', undefined),
    value: fc.constantFrom(undefined, '', 'db', 'nodeshutdown', 'x'),
    effect: fc.constantFrom<Toleration['effect']>(undefined, '', 'NoExecute', 'NoExecute', 'NoSchedule', 'PreferNoSchedule'),
    seconds: fc.oneof(fc.constant(undefined), fc.constantFrom(-3600, -1, 0, 1, 30, 60, 300, 301, 86_400), fc.integer({ min: -100, max: 100_000 })),
  })
  .map(({ key, operator, value, effect, seconds }) => {
    // validation: an empty key needs Exists, and Exists takes no value
    const op = key === '' ? 'Exists' : operator;
    return {
      ...(key ? { key } : {}),
      ...(op ? { operator: op } : {}),
      ...(op !== 'Exists' && value !== undefined ? { value } : {}),
      ...(effect !== undefined ? { effect } : {}),
      ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
    };
  });

const evictionCaseArb = fc.record({
  tolerations: fc.array(tolerationArb, { maxLength: 6 }),
  taints: fc.subarray(TAINT_POOL.map((t, i) => (i % 3 === 0 ? { ...t, timeAdded: rfc(at(-i)) } : t))).chain((ts) => fc.shuffledSubarray(ts, { minLength: ts.length, maxLength: ts.length })),
  nowMs: instantArb,
  pending: fc.option(fc.record({ ageMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 900_000 })), leftMs: fc.integer({ min: -10_000, max: 900_000 }) }), { nil: undefined, freq: 2 }),
});

describe('differential tests against the controllers (runtime/controllers)', () => {
  it('tryUpdateNodeHealth agrees on 1500 generated nodes, saved records and leases', () => {
    differential('tryUpdateNodeHealth', healthCaseArb, 1500, ({ node: n, saved, lease: l, nowMs }) => {
      const want = controllerTryUpdateNodeHealth(structuredClone(n), saved && structuredClone(saved), l && structuredClone(l), nowMs, rfc(nowMs), undefined, 0);
      const got = structuredClone(tryUpdateNodeHealth(structuredClone(n), saved && structuredClone(saved), l && structuredClone(l), nowMs, rfc(nowMs)));
      const wantOut = canonical({ health: want.health, conditions: want.conditions });
      const gotOut = canonical({ health: got.health, conditions: got.conditions });
      return wantOut === gotOut ? undefined : `at ${secs(nowMs)} with ${describeNode(n)}, ${describeHealth(saved)}, ${l ? `lease renewTime ${l.spec?.renewTime}` : 'no lease'}:\nthe controller returned ${wantOut}\nyou returned ${gotOut}`;
    });
  });

  it('tryUpdateNodeHealth agrees pass after pass on 400 generated timelines (renewals, status posts, silences), threading its own records', () => {
    differential('tryUpdateNodeHealth over a timeline', timelineArb, 400, playTimeline);
  });

  it('reconcileNodeTaints agrees on 1500 generated nodes (conditions, cordoning, taints of all kinds)', () => {
    differential('reconcileNodeTaints', taintCaseArb, 1500, ({ conditions, taints, unschedulable, now }) => {
      const n = node(conditions, taints, unschedulable);
      const want = sortTaints(controllerReconcileNodeTaints(structuredClone(n), now));
      const got = sortTaints(structuredClone(reconcileNodeTaints(structuredClone(n), now)));
      return canonical(got) === canonical(want) ? undefined : `at ${now} for ${describeNode(n)}:\nthe controller leaves [${want.join(', ')}]\nyou returned [${got.join(', ')}]`;
    });
  });

  it('processPodOnNode agrees on 2000 generated tolerations, taints and pending deletions', () => {
    differential('processPodOnNode', evictionCaseArb, 2000, ({ tolerations, taints, nowMs, pending: p }) => {
      const pending = p ? { createdAtMs: nowMs - p.ageMs, fireAtMs: nowMs + p.leftMs } : null;
      const want = controllerProcessPodOnNode(structuredClone(tolerations), structuredClone(taints), nowMs, pending && { ...pending });
      const got = processPodOnNode(structuredClone(tolerations), structuredClone(taints), nowMs, pending && { ...pending });
      return canonical(got) === canonical(want)
        ? undefined
        : `at ${secs(nowMs)}, tolerations [${describeTolerations(tolerations)}], taints [${taints.map(describeTaint).join(', ')}], pending ${describePending(pending)}:\nthe controller schedules ${describePending(want)}, you returned ${describePending(got ?? null)}`;
    });
  });
});
