// Visible examples for the node-lifecycle lab: read them, run them, add your own.
// `npm run grade -- node-lifecycle --examples`
import { describe, expect, it } from 'vitest';
import type { Lease, Node, Toleration } from '../../runtime/api/index.ts';
import type { NodeHealth } from '../../runtime/controllers/index.ts';
import { processPodOnNode, reconcileNodeTaints, tryUpdateNodeHealth } from '@lab/submission';

// Times: milliseconds since the Unix epoch. T0 is 2026-03-14T10:00:00Z; at(s) is s seconds later.
const T0 = Date.UTC(2026, 2, 14, 10, 0, 0);
const at = (s: number) => T0 + s * 1000;
const rfc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const worker: Node = {
  metadata: { name: 'worker-1', creationTimestamp: '2026-03-14T09:00:00Z' },
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: rfc(at(-30)), lastTransitionTime: '2026-03-14T09:00:10Z' }],
  },
};
const lease = (renewMs: number): Lease => ({ metadata: { name: 'worker-1', namespace: 'kube-node-lease' }, spec: { renewTime: new Date(renewMs).toISOString().replace('Z', '000Z') } });

describe('tryUpdateNodeHealth examples', () => {
  // the controller last saw worker-1's Lease renewed at 0 s
  const saved: NodeHealth = {
    probeTimestampMs: at(0),
    readyTransitionTimestampMs: at(0),
    readyHeartbeat: rfc(at(-30)),
    readyTransition: '2026-03-14T09:00:10Z',
    leaseRenewTime: lease(at(0)).spec!.renewTime,
  };

  it('a renewed Lease keeps the node alive: the probe time moves to now', () => {
    const r = tryUpdateNodeHealth(worker, saved, lease(at(10)), at(12), rfc(at(12)));
    expect(r.conditions).toBeNull();
    expect(r.health.probeTimestampMs).toBe(at(12));
  });

  it('50 s of silence is still fine; one millisecond more and Ready becomes Unknown', () => {
    expect(tryUpdateNodeHealth(worker, saved, lease(at(0)), at(50), rfc(at(50))).conditions).toBeNull();
    const r = tryUpdateNodeHealth(worker, saved, lease(at(0)), at(50) + 1, rfc(at(50) + 1));
    expect(r.conditions?.find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: rfc(at(-30)),
      lastTransitionTime: rfc(at(50)),
    });
  });
});

describe('reconcileNodeTaints examples', () => {
  it('an Unknown node gets both unreachable taints, stamped now', () => {
    const unknown: Node = { ...worker, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } };
    const taints = reconcileNodeTaints(unknown, '2026-03-14T10:01:00Z');
    expect(taints).toHaveLength(2);
    expect(taints).toEqual(
      expect.arrayContaining([
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-03-14T10:01:00Z' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-03-14T10:01:00Z' },
      ]),
    );
  });
});

describe('processPodOnNode examples', () => {
  const unreachable = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' as const, timeAdded: rfc(at(60)) }];
  const defaults: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ];

  it('the default tolerations: deleted 300 s after the controller sees the taint', () => {
    expect(processPodOnNode(defaults, unreachable, at(61), null)).toEqual({ createdAtMs: at(61), fireAtMs: at(361) });
  });

  it('no matching toleration: deleted at once', () => {
    expect(processPodOnNode([], unreachable, at(61), null)).toEqual({ createdAtMs: at(61), fireAtMs: at(61) });
  });

  it('tolerated forever: never', () => {
    expect(processPodOnNode([{ operator: 'Exists' }], unreachable, at(61), null)).toBeNull();
  });
});
