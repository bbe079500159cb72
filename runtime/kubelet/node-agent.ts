// Node registration, the node Lease heartbeat and node status, as a kubelet does them.
// mirrors pkg/kubelet/kubelet_node_status.go (registerWithAPIServer: create the Node, or keep the
// existing one; updateNodeStatus: up to nodeStatusUpdateRetry tries of tryUpdateNodeStatus, the
// first reading the Node from the API server's cache), the Lease heartbeat (node-lease.ts) and the
// status rule since the Lease exists: compute status every nodeStatusUpdateFrequency (10 s) and
// patch it when it changed or every nodeStatusReportFrequency (5 min). From the second failed try
// of either heartbeat on, the kubelet closes all its connections (onRepeatedHeartbeatFailure).
import { rfc3339, type Node } from '../api/index.ts';
import type { RestClient } from '../client/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import { startLeaseRenewal } from './node-lease.ts';
import { FAST_STATUS_UPDATE_MS } from './runtime-state.ts';

/** kubelet.go nodeStatusUpdateRetry: tries of tryUpdateNodeStatus per update. */
export const NODE_STATUS_UPDATE_RETRY = 5;
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
export const NODE_STATUS_REPORT_FREQUENCY_MS = 300_000;

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/**
 * The conditions a healthy kubelet reports (kubelet_node_status.go setters: MemoryPressure,
 * DiskPressure, PIDPressure, then Ready). Our simulated machines never run short, so these are
 * constant; what matters is that the kubelet asserts them itself, so a node the node lifecycle
 * controller marked Unknown turns Ready again as soon as its kubelet is back.
 */
export const HEALTHY_NODE_CONDITIONS: readonly (readonly [string, string, string, string])[] = [
  [
    'MemoryPressure',
    'False',
    'KubeletHasSufficientMemory',
    'kubelet has sufficient memory available',
  ],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

/**
 * The events the condition setters record when a condition's status changes (nodestatus/setters.go
 * MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition: also when the condition is
 * new; ReadyCondition: only when an existing Ready condition changes).
 */
const STATUS_EVENTS: Readonly<Record<string, { True: string; False: string; onNew: boolean }>> = {
  MemoryPressure: { True: 'NodeHasInsufficientMemory', False: 'NodeHasSufficientMemory', onNew: true },
  DiskPressure: { True: 'NodeHasDiskPressure', False: 'NodeHasNoDiskPressure', onNew: true },
  PIDPressure: { True: 'NodeHasInsufficientPID', False: 'NodeHasSufficientPID', onNew: true },
  Ready: { True: 'NodeReady', False: 'NodeNotReady', onNew: false },
};

/**
 * The kubelet's conditions merged onto what the server has: the heartbeat is now; the transition
 * time is kept while the status stays the same (setNodeReadyCondition and friends). `events` are
 * the node status events the setters record for this change, in setter order.
 */
export function kubeletConditions(
  current: readonly NodeCondition[],
  now: string,
  /** The runtime's error (runtime-state.ts): Ready is False with it as the message (setNodeReadyCondition). */
  notReady?: string,
): { conditions: NodeCondition[]; changed: boolean; events: string[] } {
  let changed = false;
  const events: string[] = [];
  const wanted = HEALTHY_NODE_CONDITIONS.map((c) => (notReady !== undefined && c[0] === 'Ready' ? ['Ready', 'False', 'KubeletNotReady', notReady] as const : c));
  const conditions = wanted.map(([type, status, reason, message]) => {
    const old = current.find((c) => c.type === type);
    const same = old?.status === status && old.reason === reason && old.message === message;
    if (!same) changed = true;
    const ev = STATUS_EVENTS[type];
    if (ev && old?.status !== status && (old !== undefined || ev.onNew)) events.push(status === 'True' ? ev.True : ev.False);
    return {
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime:
        old?.status === status && old.lastTransitionTime ? old.lastTransitionTime : now,
    } as NodeCondition;
  });
  const others = current.filter((c) => !HEALTHY_NODE_CONDITIONS.some(([type]) => type === c.type));
  return { conditions: [...conditions, ...others], changed, events };
}

export interface NodeAgentOptions {
  nodeName: string;
  client: RestClient;
  /** The Node to create when none exists (capacity, addresses, nodeInfo...). */
  initialNode?: Node;
  /** node.status.images right now: the same list object while it is unchanged. */
  images(): readonly { readonly names: readonly string[]; readonly sizeBytes: number }[];
  /** The container runtime's network error right now (runtime-state.ts), undefined when its network is ready. */
  networkError?: () => string | undefined;
  /** Records an event about this node (the kubelet's recorder with its nodeRef). */
  recordNodeEvent?: (reason: string, message: string) => void;
}

export function startNodeAgent(ctx: ProcessContext, o: NodeAgentOptions): void {
  let lastReportedMs = -Infinity;
  let lastReported = '';
  let lastImages: ReturnType<NodeAgentOptions['images']> | undefined;
  let lastFingerprint = '';
  // recordNodeStatusEvent: "Node <name> status is now: <event>"
  const statusEvents = (events: readonly string[]): void => {
    for (const e of events) o.recordNodeEvent?.(e, `Node ${o.nodeName} status is now: ${e}`);
  };
  // kubelet.go birthCry, then the container manager's node allocatable enforcement at start-up
  o.recordNodeEvent?.('Starting', 'Starting kubelet.');
  const register = (): void => {
    o.client.request({ verb: 'get', group: '', resource: 'nodes', name: o.nodeName }, (res) => {
      if (!ctx.isLive()) return;
      if (res.code === 200) return updateStatus(true);
      if (res.code !== 404 || !o.initialNode) return void ctx.setTimer(7000, register);
      // initialNode: a fresh Node has no kubelet conditions yet, so the setters see each one as new
      const fresh = (o.initialNode.status?.conditions ?? []).filter((c) => !(c.type in STATUS_EVENTS));
      const initial = kubeletConditions(fresh, rfc3339(ctx.now()), o.networkError?.());
      statusEvents(initial.events);
      const conditions = initial.conditions;
      o.client.request(
        { verb: 'create', group: '', resource: 'nodes', body: { ...o.initialNode, status: { ...o.initialNode.status, conditions } } },
        (created) => {
          if (!ctx.isLive()) return;
          if (created.code !== 201 && created.code !== 409)
            return void ctx.setTimer(7000, register);
          ctx.trace('kubelet.registered', o.nodeName);
          updateStatus(true);
        },
      );
    });
  };
  // closeAllConns (kubelet.go): a connection stuck on a replica that cannot write is dialled anew
  const onRepeatedHeartbeatFailure = (what: string): void => {
    ctx.trace('kubelet.heartbeat-failure', `${o.nodeName}: ${what}, closing all connections`);
    o.client.closeAllConnections();
  };
  // updateNodeStatus: up to nodeStatusUpdateRetry tries, one after the other
  const updateStatus = (force: boolean, conditionsOnly = false, tryNumber = 0): void => {
    if (tryNumber >= NODE_STATUS_UPDATE_RETRY) return;
    tryUpdateNodeStatus(force, conditionsOnly, tryNumber, () => {
      if (!ctx.isLive()) return;
      if (tryNumber > 0) onRepeatedHeartbeatFailure('failed to update node status');
      updateStatus(force, conditionsOnly, tryNumber + 1);
    });
  };
  // tryUpdateNodeStatus: read the Node (the first try from the API server's cache), compute the
  // status, and patch only when it changed or the 5-minute report is due.
  const tryUpdateNodeStatus = (force: boolean, conditionsOnly: boolean, tryNumber: number, failed: () => void): void => {
    const nowMs = ctx.now();
    const images = o.images();
    // the runtime hands over the same list while no image came or went: compare it as text only when it changed
    const fingerprint = images === lastImages ? lastFingerprint : JSON.stringify(images);
    lastImages = images;
    lastFingerprint = fingerprint;
    o.client.request(
      {
        verb: 'get',
        group: '',
        resource: 'nodes',
        name: o.nodeName,
        ...(tryNumber === 0 ? { query: { resourceVersion: '0' } } : {}),
      },
      (res) => {
        if (!ctx.isLive()) return;
        if (res.code !== 200) return failed();
        const node = res.body as Node;
        const now = rfc3339(nowMs);
        const { conditions, changed, events } = kubeletConditions(node.status?.conditions ?? [], now, o.networkError?.());
        statusEvents(events);
        const due = nowMs - lastReportedMs >= NODE_STATUS_REPORT_FREQUENCY_MS;
        if (!force && !changed && fingerprint === lastReported && !due) return;
        const patch = { status: conditionsOnly ? { conditions } : { conditions, images } };
        o.client.request(
          {
            verb: 'patch',
            group: '',
            resource: 'nodes',
            subresource: 'status',
            name: o.nodeName,
            body: patch,
            patchType: 'application/merge-patch+json',
          },
          (p) => {
            if (!ctx.isLive()) return;
            if (p.code !== 200) return failed();
            if (conditionsOnly) return;
            lastReported = fingerprint;
            lastReportedMs = nowMs;
          },
        );
      },
      // the Node is only read (its conditions carried over into the patch): the cache's shared copy will do
      { readOnly: true },
    );
  };
  o.recordNodeEvent?.('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
  register();
  ctx.every(NODE_STATUS_UPDATE_FREQUENCY_MS, () => updateStatus(false));
  // fastStatusUpdateOnce: a node whose runtime network is not ready reports Ready as soon as it is
  // (only the conditions: the images follow on the regular update, as they did before)
  if (o.networkError?.() !== undefined) {
    const fast = ctx.every(FAST_STATUS_UPDATE_MS, () => {
      if (o.networkError?.() !== undefined) return;
      fast.cancel();
      updateStatus(true, true);
    });
  }
  startLeaseRenewal(ctx, { nodeName: o.nodeName, client: o.client, onRepeatedHeartbeatFailure: () => onRepeatedHeartbeatFailure('failed to update lease') });
}
