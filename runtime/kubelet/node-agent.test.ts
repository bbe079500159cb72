import { describe, expect, it } from 'vitest';
import { kubeletConditions } from './node-agent.ts';

const T0 = '2026-01-01T00:00:00Z';
const NOW = '2026-01-01T00:10:00Z';
type Condition = Parameters<typeof kubeletConditions>[0][number];
const ready = (status: string, reason: string, message: string) =>
  ({
    type: 'Ready',
    status,
    reason,
    message,
    lastHeartbeatTime: T0,
    lastTransitionTime: T0,
  }) as Condition;

describe('the conditions a kubelet posts (kubelet_node_status.go setters)', () => {
  it('turns a node the node controller marked Unknown back to Ready, with a new transition time', () => {
    const { conditions, changed } = kubeletConditions(
      [ready('Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.')],
      NOW,
    );
    expect(changed).toBe(true);
    expect(conditions.find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastHeartbeatTime: NOW,
      lastTransitionTime: NOW,
    });
    expect(conditions.map((c) => c.type)).toEqual([
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
      'Ready',
    ]);
  });

  it('only refreshes the heartbeat of an unchanged healthy status, keeping the transition time', () => {
    const first = kubeletConditions([], T0).conditions;
    const { conditions, changed } = kubeletConditions(first, NOW);
    expect(changed).toBe(false);
    expect(
      conditions.every((c) => c.lastHeartbeatTime === NOW && c.lastTransitionTime === T0),
    ).toBe(true);
  });

  it('keeps conditions it does not own', () => {
    const other = {
      type: 'NetworkUnavailable',
      status: 'False',
      reason: 'RouteCreated',
      message: 'ok',
      lastHeartbeatTime: T0,
      lastTransitionTime: T0,
    } as Condition;
    expect(kubeletConditions([other], NOW).conditions).toContainEqual(other);
  });
});

describe('the node status events the setters record (nodestatus/setters.go, recordNodeStatusEvent)', () => {
  const cond = (type: string, status: string) => ({ type, status, lastHeartbeatTime: T0, lastTransitionTime: T0 }) as Condition;
  const all = (status: string, readyStatus: string) =>
    [cond('MemoryPressure', status), cond('DiskPressure', status), cond('PIDPressure', status), cond('Ready', readyStatus)];
  it.each<[string, Condition[], string | undefined, string[]]>([
    // a fresh Node: the pressure conditions are new (events); a new Ready records nothing
    ['registration', [], undefined, ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']],
    ['registration while the network is not ready', [], 'container runtime network not ready', ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']],
    ['the network comes up', all('False', 'False'), undefined, ['NodeReady']],
    ['a healthy node, 10 s later', all('False', 'True'), undefined, []],
    ['the runtime network fails', all('False', 'True'), 'container runtime network not ready', ['NodeNotReady']],
    // the node controller marked everything Unknown; the kubelet is back
    ['back after Unknown', all('Unknown', 'Unknown'), undefined, ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']],
  ])('%s', (_name, current, notReady, events) => {
    expect(kubeletConditions(current, NOW, notReady).events).toEqual(events);
  });
});
